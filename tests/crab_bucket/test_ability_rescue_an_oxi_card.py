"""The mission ability "Rescue an Oxi! card" (docs/rules/crab_bucket.md, "Mission Abilities"):
an Oxi! already played is played again at once, on top of the turn's main action: in Quick mode
the uppermost Oxi! of a pile onto any pile, told as a rescue and not as a card played from the
hand; in Wild Crab mode one of the discarded Oxi! cards, which cuts a pile and is discarded
again. With no Oxi! played, the ability is not offered."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME
from crabgames.games.crab_bucket.data import OXI
from crabgames.games.crab_bucket.events import (
    OxiRescued,
)
from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    WILD_CRAB,
    card,
    cards,
    kinds,
    mission_index,
    only,
    position,
    ready,
    text,
    use,
    use_mission,
    uses,
)


def test_rescue_an_oxi_in_quick_mode_takes_it_from_a_pile_and_plays_it_at_once():
    piles = [list(p) for p in PILES]
    piles[1] = ["oxi", "red 7"]
    state = position(piles, {0: HAND}, current="Mission 1-D", completed=("Mission 1-C",))
    m = mission_index("Mission 1-C")
    assert {u.source for u in uses(state)} == {1}
    use(state, UseAbility(m, (5,), source=1))
    assert state.piles[1] == cards("red 7")
    assert state.piles[5] == (card("red 5"), OXI)
    assert state.played == 0  # in addition to the main action (B6)


def test_rescue_an_oxi_takes_the_uppermost_oxi_of_a_pile_holding_two():
    # Quick mode, rules notes: "the uppermost Oxi! of the chosen pile". Pile 1 holds both Oxi!
    # cards of a 2-player game, one at the bottom and one above red 7: the upper one goes.
    piles = [list(p) for p in PILES]
    piles[1] = ["oxi", "red 7", "oxi", "yellow 7"]
    state = position(piles, {0: HAND}, current="Mission 1-D", completed=("Mission 1-C",))
    rescue = UseAbility(mission_index("Mission 1-C"), (5,), source=1)
    assert GAME.is_legal(state, rescue)
    events = GAME.apply_move(state, rescue)
    assert state.piles[1] == cards("oxi", "red 7", "yellow 7")
    assert state.piles[5] == (card("red 5"), OXI)
    # Told as taken from pile 1 at place 2 (bottom first), onto pile 5.
    assert [e for e in events if e.kind == "oxi_rescued"] == [OxiRescued(0, 5, 1, 2)]


def test_rescue_an_oxi_in_quick_mode_is_its_own_event_not_a_card_played_from_the_hand():
    piles = [["blue 1", "oxi", "red 8"], *PILES[1:]]
    state = ready("Mission 1-C", piles=piles)
    hand = state.hands[0]
    events = use_mission(state, "Mission 1-C", (5,), -1, 0)
    assert "card_played" not in kinds(events)
    rescued = only(events, "oxi_rescued")
    # The Oxi! was the second card of pile 0 (from the bottom), played onto pile 5.
    assert rescued == OxiRescued(0, 5, from_pile=0, from_index=1)
    assert text(rescued) == "player 0 rescues the Oxi! from pile 0 and plays it on pile 5"
    assert state.piles[0] == cards("blue 1", "red 8") and state.piles[5] == cards("red 5", "oxi")
    assert state.hands[0] == hand and state.played == 0  # the main action is still to come


def test_rescue_an_oxi_in_wild_crab_mode_takes_it_from_the_discard_and_cuts_a_pile():
    state = ready("Mission 1-C", mode=WILD_CRAB, draw_pile=["yellow 1"])
    assert state.oxi_discarded == 2
    use(state, UseAbility(mission_index("Mission 1-C"), (4,)))
    assert state.piles[4] == cards("yellow 8")
    assert state.draw_pile[card("blue 2")] == 1
    assert state.oxi_discarded == 2  # discarded again once used


def test_rescue_an_oxi_in_wild_crab_cuts_a_pile_with_a_rescued_cut_not_a_play():
    state = ready("Mission 1-C", mode=WILD_CRAB)
    state.draw_pile[OXI] -= 1
    state.oxi_discarded = 1
    hand = state.hands[0]
    events = use_mission(state, "Mission 1-C", (0,))
    assert kinds(events)[:3] == ["ability_used", "oxi_rescued", "pile_cut"]
    assert only(events, "oxi_rescued").from_pile is None
    cut = only(events, "pile_cut")
    assert cut.rescued and cut.returned_cards == cards("blue 1")
    assert text(cut).startswith("the rescued Oxi! is discarded again and cuts pile 0")
    assert state.hands[0] == hand and state.oxi_discarded == 1 and state.played == 0


def test_rescue_an_oxi_needs_a_played_oxi():
    assert uses(ready("Mission 1-C")) == []
    assert uses(ready("Mission 1-C", mode=WILD_CRAB)) == []
