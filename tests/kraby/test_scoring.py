"""Scoring: species groups (-1/0/1/3/5), fishers' multipliers and the tie-break (K9)."""

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
from tests.kraby.helpers import cell

# Figure 6's orange groups, counted from top-left to bottom-right: 1, 1, 4, 6, 2, 1, 1, 4, 3, 1.
ORANGE_GROUPS = [
    [(0, 0)],
    [(0, 2)],
    [(0, 4), (0, 5), (0, 6), (1, 6)],
    [(2, c) for c in range(6)],
    [(3, 6), (3, 7)],  # touches the group of six only at a corner: a separate group
    [(4, 0)],
    [(4, 2)],
    [(6, 0), (6, 1), (7, 0), (7, 1)],
    [(9, 0), (9, 1), (9, 2)],
    [(10, 10)],
]


def board_with(groups, color) -> bytearray:
    cells = bytearray([EMPTY] * CELLS)
    for group in groups:
        for row, col in group:
            cells[cell(row, col)] = color + TILE_OFFSET
    return cells


def test_orange_groups_of_figure_six_score_seven():
    species = rules.score_species(board_with(ORANGE_GROUPS, ORANGE))
    orange = species[0]
    assert orange.group_sizes == (1, 1, 4, 6, 2, 1, 1, 4, 3, 1)
    assert orange.points == 7


def test_group_points_follow_the_help_chart():
    for size, points in [(1, -1), (2, 0), (3, 1), (4, 3), (5, 5), (9, 5)]:
        cells = board_with([[(0, c) for c in range(size)]], GREEN)
        assert rules.score_species(cells)[1].points == points


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


def test_a_tie_goes_to_the_fisher_with_the_best_single_species():
    species = tuple(
        rules.SpeciesScore(c, (), p)
        for c, p in [(ORANGE, 6), (GREEN, 10), (BLUE, 4), (YELLOW, 0), (PINK, 0)]
    )
    # 2x orange + 3x green = 12 + 30 = 42 against 1x blue + 2x green + 3x orange = 4 + 20 + 18.
    fishers = rules.score_fishers([[0, ORANGE, GREEN], [BLUE, GREEN, ORANGE]], species)
    assert fishers[0].total == fishers[1].total == 42
    assert (fishers[0].best_contribution, fishers[1].best_contribution) == (30, 20)
    assert rules.rank(fishers) == ((1, 2), (0,))


def test_a_tie_on_total_and_best_species_shares_the_victory():
    flat = tuple(
        rules.SpeciesScore(c, (), p)
        for c, p in [(ORANGE, 5), (GREEN, 5), (BLUE, 0), (YELLOW, 0), (PINK, 0)]
    )
    fishers = rules.score_fishers([(0, 0, ORANGE), (0, 0, GREEN), (0, 0, 0)], flat)
    assert rules.rank(fishers) == ((1, 1, 3), (0, 1))


def test_the_outcome_reports_every_species_and_fisher():
    # Only Figure 6's orange groups are on this board: orange 7, every other species 0.
    state = rules.set_up(4, PINK, 0)
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


def groups_by_flood_fill(cells: list[int], value: int) -> list[int]:
    """Group sizes the plain way, cell by cell from each group's first cell in reading order."""
    seen, sizes = set(), []
    for start in range(CELLS):
        if cells[start] != value or start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            row, col = divmod(stack.pop(), 11)
            size += 1
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                n = r * 11 + c
                if 0 <= r < 11 and 0 <= c < 11 and cells[n] == value and n not in seen:
                    seen.add(n)
                    stack.append(n)
        sizes.append(size)
    return sizes


def test_groups_never_join_across_a_row_end_and_match_a_flood_fill():
    import random

    rng = random.Random(9)
    for _ in range(300):
        colors = [ORANGE, GREEN, BLUE, YELLOW, PINK]
        cells = [rng.choice([EMPTY, *(c + TILE_OFFSET for c in colors)]) for _ in range(CELLS)]
        for color in colors:
            expected = groups_by_flood_fill(cells, color + TILE_OFFSET)
            assert rules.group_sizes(cells, color) == expected
    # A tile at a row's end and one at the next row's start do not touch.
    cells = board_with([[(0, 10)], [(1, 0)]], BLUE)
    assert rules.group_sizes(cells, BLUE) == [1, 1]


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
    state = rules.set_up(4, PINK, 0)
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


def test_a_fisher_with_no_figure_scores_0_and_counts_0_as_best_species_in_a_tie():
    # K9: with no figure at all the best single contribution is 0: against a fisher whose
    # only figure scores 0 the tie on total and on best species shares the victory.
    species = tuple(rules.SpeciesScore(c, (), 0) for c in (ORANGE, GREEN, BLUE, YELLOW, PINK))
    fishers = rules.score_fishers([(0, 0, 0), (PINK, 0, 0)], species)
    assert [(f.player, f.total, f.best_contribution) for f in fishers] == [(0, 0, 0), (1, 0, 0)]
    assert rules.rank(fishers) == ((1, 1), (0, 1))


def test_a_tie_on_negative_totals_goes_to_the_best_single_contribution_below_zero():
    # K9 compares the highest single contribution as it is, negative included: pink, orange
    # and green are single crabs (-1 each). Fisher 0's pink at x3 makes -3; fisher 1's orange
    # at x1 and green at x2 make -1 and -2, also -3. Fisher 1's best, -1, beats -3: no tie.
    cells = board_with([[(0, 0)]], PINK)
    cells[cell(0, 2)] = ORANGE + TILE_OFFSET
    cells[cell(0, 4)] = GREEN + TILE_OFFSET
    species = rules.score_species(cells)
    assert [s.points for s in species] == [-1, -1, 0, 0, -1]  # orange, green, blue, yellow, pink
    fishers = rules.score_fishers([(0, 0, PINK), (ORANGE, GREEN, 0)], species)
    assert rules.rank(fishers) == ((2, 1), (1,))  # fisher 1 wins alone
    assert [(f.total, f.best_contribution) for f in fishers] == [(-3, -3), (-3, -1)]
