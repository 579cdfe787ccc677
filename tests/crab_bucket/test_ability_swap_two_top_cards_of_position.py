"""The mission ability "Swap two top cards of position" (docs/rules/crab_bucket.md, "Mission
Abilities"): two piles exchange their top cards, nothing under them; the event names both cards
and where each goes."""

from __future__ import annotations

from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    card,
    cards,
    mission_index,
    only,
    ready,
    text,
    use,
    use_mission,
)


def test_swap_two_top_cards_of_position():
    state = ready("Mission 1-B")
    use(state, UseAbility(mission_index("Mission 1-B"), (0, 2)))
    assert state.piles[0] == cards("blue 1", "green 8")
    assert state.piles[2] == cards("green 1", "red 8")


def test_swap_two_tops_names_both_cards_and_where_each_goes():
    state = ready("Mission 1-B")
    swapped = only(use_mission(state, "Mission 1-B", (1, 6)), "tops_swapped")
    assert swapped.first == (1, card("red 7"))
    assert swapped.second == (6, card("blue 8"))
    assert state.piles[1] == cards("blue 8") and state.piles[6] == cards("red 7")
    assert text(swapped) == "player 0 swaps red 7 on pile 1 with blue 8 on pile 6"
