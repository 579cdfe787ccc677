"""The mission ability "Discard 1 crab pile" (docs/rules/crab_bucket.md, "Mission Abilities"): a
whole pile leaves the game, its place empty and taking any card; the event names every card
removed."""

from __future__ import annotations

from crabgames.games.crab_bucket import turn
from crabgames.games.crab_bucket.moves import (
    PlayCard,
    UseAbility,
)
from tests.crab_bucket.helpers import (
    cards,
    mission_index,
    only,
    ready,
    text,
    use,
    use_mission,
)


def test_discard_1_crab_pile_removes_it_from_the_game_and_frees_the_space():
    state = ready("Mission 3-A")
    use(state, UseAbility(mission_index("Mission 3-A"), (0,)))
    assert state.piles[0] == ()
    assert set(cards("blue 1", "red 8")) <= set(state.removed)
    assert all(PlayCard(c, 0) in turn.legal_moves(state) for c in state.hands[0])


def test_discard_a_pile_names_every_card_removed_from_the_game():
    discarded = only(use_mission(ready("Mission 3-A"), "Mission 3-A", (4,)), "pile_discarded")
    assert discarded.pile == 4 and discarded.cards == cards("blue 2", "yellow 8")
    assert text(discarded) == "player 0 removes pile 4 from the game: blue 2, yellow 8"
