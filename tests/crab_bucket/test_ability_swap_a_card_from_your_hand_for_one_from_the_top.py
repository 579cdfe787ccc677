"""The mission ability "Swap a card from your hand for one from the top"
(docs/rules/crab_bucket.md, "Mission Abilities"): a pile's top card goes into the hand and a
card of the hand onto that pile (an Oxi! in Quick mode only: in Wild Crab mode none lies on a
pile); not the main action, which follows. The event names the card given and the card taken."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules
from crabgames.games.crab_bucket.data import OXI
from crabgames.games.crab_bucket.events import (
    HandTopSwapped,
)
from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    WILD_CRAB,
    card,
    cards,
    mission_index,
    only,
    ready,
    text,
    use,
    use_mission,
    uses,
)


def test_swap_a_card_from_your_hand_for_one_from_the_top():
    state = ready("Mission 2-B")
    use(state, UseAbility(mission_index("Mission 2-B"), (0,), card("blue 3")))
    assert state.piles[0] == cards("blue 1", "blue 3")
    assert state.hands[0] == tuple(sorted(cards("red 1", "yellow 3", "red 8")))
    assert rules.decision_name(state) == "play"  # the main action follows


def test_swap_a_hand_card_for_a_top_names_the_card_given_and_the_card_taken():
    state = ready("Mission 2-B")
    swapped = only(use_mission(state, "Mission 2-B", (3,), card("blue 3")), "hand_top_swapped")
    assert swapped == HandTopSwapped(0, 3, given=card("blue 3"), taken=card("red 6"))
    assert text(swapped) == (
        "player 0 puts blue 3 from the hand on pile 3 and takes red 6 into the hand"
    )


def test_wild_crab_swap_from_hand_cannot_put_an_oxi_on_a_pile():
    # "Wild Crab Mode: the Oxi! card is discarded": an Oxi! never lies on a pile there, so
    # "Swap a card from your hand for one from the top" offers only the crab cards in hand.
    state = ready("Mission 2-B", mode=WILD_CRAB, hand=["oxi", "red 1", "blue 3"])
    m = mission_index("Mission 2-B")
    offered = uses(state)
    assert {u.card for u in offered} == set(cards("red 1", "blue 3"))
    assert len(offered) == 2 * 8  # each crab card in hand with each of the 8 piles' tops
    assert not GAME.is_legal(state, UseAbility(m, (0,), OXI))
    assert GAME.explain_illegal(state, UseAbility(m, (0,), OXI)).rule == "Mission Abilities"


def test_quick_swap_from_hand_may_put_an_oxi_on_a_pile():
    # Quick mode: "the Oxi! card may be played onto any crab pile", so it may be swapped on.
    state = ready("Mission 2-B", hand=["oxi", "red 1", "blue 3"])
    m = mission_index("Mission 2-B")
    assert {u.card for u in uses(state)} == {OXI, *cards("red 1", "blue 3")}
    use(state, UseAbility(m, (1,), OXI))
    assert state.piles[1] == (OXI,)
    assert state.hands[0] == tuple(sorted(cards("red 1", "blue 3", "red 7")))
