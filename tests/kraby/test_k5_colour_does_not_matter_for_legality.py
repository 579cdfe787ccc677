"""K5: colour does not matter for legality (docs/rules/kraby.md, "K5: colour does not matter for
legality"): where a tile may enter never depends on its colour, and a tile move is an entry
edge, a lane and a colour from the fisher's hand (the rulebook's "Crab Move": "a colour they
hold"): each colour held is offered at each open entry, and no other."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import (
    BLUE,
    GREEN,
    ORANGE,
    PINK,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.moves import PlaceTile
from tests.kraby.helpers import assert_checked_alone_as_listed, position


def test_legality_does_not_depend_on_the_colour():
    # K5: one entry, every colour in hand.
    state = position(hand=[BLUE, BLUE, YELLOW, PINK, PINK, PINK])
    moves = [m for m in GAME.legal_moves(state) if (m.edge, m.lane) == (WEST, 5)]
    assert sorted(m.color for m in moves) == [BLUE, YELLOW, PINK]


def test_only_the_colours_in_hand_are_offered():
    # K5: one move per entry and colour held; no yellow or pink in this hand.
    state = position(hand=[ORANGE, ORANGE, GREEN, BLUE, BLUE, BLUE])
    assert {m.color for m in GAME.legal_moves(state)} == {ORANGE, GREEN, BLUE}
    state = position(hand=[YELLOW, PINK, PINK, PINK, PINK, PINK])
    assert {m.color for m in GAME.legal_moves(state)} == {YELLOW, PINK}


def test_a_tile_checked_alone_is_legal_exactly_when_it_is_listed():
    # One of each colour but orange (none) and pink (two): a tile of a colour not in hand is
    # never legal (K5: the colour comes from the hand), wherever it could enter.
    state = position(hand=[GREEN, BLUE, YELLOW, PINK, PINK, GREEN])
    assert_checked_alone_as_listed(state)
    assert not GAME.is_legal(state, PlaceTile(WEST, 5, ORANGE))
    assert GAME.is_legal(state, PlaceTile(WEST, 5, YELLOW))  # exactly one yellow in hand
    tiles = {(m.edge, m.lane, m.color) for m in GAME.legal_moves(state)}
    assert (WEST, 5, ORANGE) not in tiles and (WEST, 5, GREEN) in tiles
