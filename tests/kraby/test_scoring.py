"""The rulebook's "Scoring" (docs/rules/kraby.md, "Scoring"): each species scores the points of its
groups, in the order orange, green, blue, yellow, pink; each fisher scores, for each figure on
their ship, its species' points times the hold; the highest total wins. The rulebook's example is
checked to its end (species 7, 9, 10, 16, -3; fishers 41, 48, 42, 53: the fourth wins). Ties are
K9's (test_k9_ties.py)."""

from __future__ import annotations

from crabgames.core.engine import Engine, Match
from crabgames.core.prng import Prng
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    CELLS,
    EMPTY,
    GREEN,
    ISLAND,
    ISLAND_CELL,
    ORANGE,
    PINK,
    TILE_OFFSET,
    YELLOW,
)
from crabgames.games.kraby.state import GAME_OVER
from crabgames.v1.game_pb2 import CHANCE_MODE_AUTO
from tests.kraby.helpers import ORANGE_GROUPS, board_with, cell

# The rulebook's species totals: orange 7, green 9, blue 10, yellow 16, pink -3.
SPECIES = tuple(
    rules.SpeciesScore(color, (), points)
    for color, points in [(ORANGE, 7), (GREEN, 9), (BLUE, 10), (YELLOW, 16), (PINK, -3)]
)


# Holds x1, x2, x3 of the four ships in the example.
SHIPS = [(0, ORANGE, GREEN), (0, GREEN, BLUE), (0, PINK, YELLOW), (0, YELLOW, ORANGE)]


def test_the_four_fishers_score_41_48_42_and_53_and_the_fourth_wins():
    fishers = rules.score_fishers(SHIPS, SPECIES)
    assert [f.total for f in fishers] == [41, 48, 42, 53]
    assert fishers[2].contributions == ((PINK, 2, -3), (YELLOW, 3, 16))
    ranks, winners = rules.rank(fishers)
    assert winners == (3,)
    assert ranks == (4, 2, 3, 1)


def test_the_outcome_reports_every_species_and_fisher():
    # Only Figure 6's orange groups are on this board: orange 7, every other species 0.
    state = rules.initial_state(4, (PINK, 0))
    state.cells = board_with(ORANGE_GROUPS, ORANGE)
    state.ships = SHIPS
    state.step = GAME_OVER
    match = Match(GAME, 4, 1, Prng(1), CHANCE_MODE_AUTO, 0, state)
    outcome = Engine([GAME]).encode_outcome(match)
    assert [s.points for s in outcome.kraby.species] == [7, 0, 0, 0, 0]
    assert list(outcome.kraby.species[0].group_sizes) == [1, 1, 4, 6, 2, 1, 1, 4, 3, 1]
    assert [f.total for f in outcome.kraby.fishers] == [14, 0, 0, 21]
    assert outcome.kraby.fishers[3].contributions[1].points == 3 * 7
    assert [p.rank for p in outcome.players] == [2, 3, 3, 1]
    assert list(outcome.winners) == [3]


# A board scoring the rulebook's species totals: Figure 6's orange groups, and groups of the
# other species making green 9 (5 + 3 + 1), blue 10 (5 + 5), yellow 16 (5 + 5 + 5 + 1) and
# pink -3 (three single crabs). Only the orange groups are printed; the others are ours.
EXAMPLE_GROUPS = {
    ORANGE: ORANGE_GROUPS,
    GREEN: [
        [(5, c) for c in range(6, 11)],
        [(8, c) for c in range(3, 7)],
        [(10, 0), (10, 1), (10, 2)],
    ],
    BLUE: [[(7, c) for c in range(3, 8)], [(0, 7), (0, 8), (0, 9), (0, 10), (1, 10)]],
    YELLOW: [
        [(6, c) for c in range(3, 10)],
        [(9, c) for c in range(4, 9)],
        [(2, 8), (2, 9), (2, 10), (3, 9), (3, 10)],
        [(1, 0), (1, 1), (1, 2)],
    ],
    PINK: [[(4, 4)], [(8, 9)], [(10, 8)]],
}


def test_the_rulebook_scoring_example_to_its_end_the_fourth_fisher_wins_with_53():
    # "Scoring": species orange 7, green 9, blue 10, yellow 16, pink -3, counted in that order;
    # fishers 2x + 3x of their two species: 41, 48, 42, 53; "the fourth fisher" wins.
    cells = bytearray([EMPTY] * CELLS)
    for color, groups in EXAMPLE_GROUPS.items():
        for group in groups:
            for row, col in group:
                assert cells[cell(row, col)] == EMPTY
                cells[cell(row, col)] = color + TILE_OFFSET
    cells[ISLAND] = ISLAND_CELL
    state = rules.initial_state(4, (PINK, 0))
    state.cells = cells
    state.ships = SHIPS  # with four fishers, two figures a ship
    state.step = GAME_OVER
    outcome = GAME.outcome(state)
    assert [s.color for s in outcome.species] == [ORANGE, GREEN, BLUE, YELLOW, PINK]
    assert [s.points for s in outcome.species] == [7, 9, 10, 16, -3]
    assert outcome.species[0].group_sizes == (1, 1, 4, 6, 2, 1, 1, 4, 3, 1)
    assert [f.total for f in outcome.fishers] == [41, 48, 42, 53]
    assert outcome.fishers[0].contributions == ((ORANGE, 2, 7), (GREEN, 3, 9))
    assert outcome.fishers[3].contributions == ((YELLOW, 2, 16), (ORANGE, 3, 7))
    assert outcome.winners == (3,) and outcome.ranks == (4, 2, 3, 1)
    # And as the service reports it.
    match = Match(GAME, 4, 1, Prng(1), CHANCE_MODE_AUTO, 0, state)
    encoded = Engine([GAME]).encode_outcome(match)
    assert [s.points for s in encoded.kraby.species] == [7, 9, 10, 16, -3]
    assert [f.total for f in encoded.kraby.fishers] == [41, 48, 42, 53]
    assert [p.score for p in encoded.players] == [41, 48, 42, 53]
    assert [p.rank for p in encoded.players] == [4, 2, 3, 1]
    assert list(encoded.winners) == [3]
