"""The mission ability "Rescue up to 3 cards from the top" (docs/rules/crab_bucket.md, "Mission
Abilities"): 1 to 3 piles (the engine's reading, same file), whose top cards go back into the
draw pile, an Oxi! top beside the Oxi! cards still there; the event names each pile and its
card."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import (
    OXI,
)
from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    APART_MISSIONS,
    APART_PILES,
    as_json,
    at,
    card,
    cards,
    kinds,
    mission_index,
    only,
    ready,
    text,
    use,
    use_mission,
    uses,
)


def test_rescue_up_to_3_tops_sends_them_back_into_the_draw_pile():
    state = ready("Mission 1-A")
    m = mission_index("Mission 1-A")
    assert {len(u.piles) for u in uses(state)} == {1, 2, 3}
    before = rules.draw_total(state)
    use(state, UseAbility(m, (0, 2, 4)))
    assert [state.piles[p] for p in (0, 2, 4)] == [
        cards("blue 1"),
        cards("green 1"),
        cards("blue 2"),
    ]
    assert rules.draw_total(state) == before + 3
    assert all(state.draw_pile[c] == 1 for c in cards("red 8", "green 8", "yellow 8"))
    assert not GAME.is_legal(ready("Mission 1-A"), UseAbility(m, (0, 1, 2, 3)))


def test_rescue_up_to_3_tops_names_each_pile_and_the_card_it_sends_back():
    events = use_mission(ready("Mission 1-A"), "Mission 1-A", (0, 2, 4))
    assert kinds(events)[:2] == ["ability_used", "tops_rescued"]
    rescued = only(events, "tops_rescued")
    assert rescued.tops == ((0, card("red 8")), (2, card("green 8")), (4, card("yellow 8")))
    assert text(rescued) == (
        "player 0 rescues red 8 from pile 0, green 8 from pile 2, yellow 8 from pile 4"
        " into the draw pile"
    )
    assert as_json(rescued)["crab_bucket"]["tops_rescued"]["tops"][0] == {
        "pile": 0,
        "card": {"color": "CRAB_BUCKET_COLOR_RED", "number": 8},
    }


def test_rescuing_an_oxi_top_returns_it_beside_the_oxi_cards_still_in_the_draw_pile():
    piles = [["red 1"], ["blue 3", "blue 4", "oxi"], *APART_PILES[2:]]
    piles[5] = ["green 3"]
    state = at("Next", piles=piles)  # "Next": Rescue up to 3 tops
    assert state.draw_pile[OXI] == 1  # the other player's Oxi! card, not drawn yet
    turn.apply_move(state, UseAbility(mission_index("Next", APART_MISSIONS), (1,)))
    assert state.draw_pile[OXI] == 2
    assert state.piles[1] == cards("blue 3", "blue 4")  # only the top card goes
