"""The rulebook's "Crab Move" (docs/rules/kraby.md, "Crab Move"), after the slide itself (K3,
test_k3_sliding_a_tile_in.py): the fisher draws from the bag until they hold six tiles again,
each tile drawn a chance event over the tiles left in the bag (G2)."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import (
    BLUE,
    COLORS,
    GREEN,
    ORANGE,
    WEST,
)
from crabgames.games.kraby.events import (
    TileDrawn,
)
from crabgames.games.kraby.moves import PlaceTile
from crabgames.games.kraby.state import counted
from tests.kraby.helpers import position


def test_after_placing_a_tile_the_fisher_draws_back_to_six():
    state = position()
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    assert sum(state.hands[0]) == 5
    assert GAME.next_decision(state).name == "draw_tile"
    outcomes = dict(GAME.chance_outcomes(state))
    assert outcomes == {c: state.bag[c - 1] for c in COLORS if state.bag[c - 1]}
    GAME.apply_chance(state, BLUE)
    assert sum(state.hands[0]) == 6


def test_a_drawn_tile_leaves_the_bag_and_joins_the_hand_of_the_fisher_who_played():
    state = position()
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    bag, hand = state.bag, state.hands[0]
    events = GAME.apply_chance(state, GREEN)
    assert events[0] == TileDrawn(0, GREEN, 6, sum(bag) - 1)
    assert state.bag == counted(bag, GREEN, -1)
    assert state.hands[0] == counted(hand, GREEN, 1)
    assert GAME.invariant_violations(state) == []
