"""The mission ability "Discard the top card of all piles" (docs/rules/crab_bucket.md, "Mission
Abilities"): every pile's top card leaves the game (not offered when every pile is empty); the
event names each pile and its top."""

from __future__ import annotations

from crabgames.games.crab_bucket import abilities
from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    at,
    card,
    cards,
    mission_index,
    only,
    ready,
    use,
    use_mission,
)


def test_discard_the_top_card_of_all_piles():
    state = ready("Mission 3-B")
    use(state, UseAbility(mission_index("Mission 3-B"), ()))
    assert state.piles == [
        cards("blue 1"),
        (),
        cards("green 1"),
        (),
        cards("blue 2"),
        (),
        (),
        (),
    ]
    assert set(cards("red 8", "red 7", "green 8", "yellow 8", "blue 8")) <= set(state.removed)


def test_discard_every_top_names_each_pile_and_its_top():
    discarded = only(use_mission(ready("Mission 3-B"), "Mission 3-B"), "tops_discarded")
    assert [pile for pile, _ in discarded.tops] == list(range(8))
    assert discarded.tops[0] == (0, card("red 8"))


def test_discard_the_top_of_all_piles_is_not_offered_when_every_pile_is_empty():
    state = at("Discard all", current="Red pair", piles=[""] * 8)
    assert abilities.ability_moves(state) == []
