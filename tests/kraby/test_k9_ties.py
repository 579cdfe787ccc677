"""K9: ties (docs/rules/kraby.md, "K9: ties", and the rulebook's "Scoring"): on equal totals the
tied fisher with the highest single contribution (one hold's multiplier times its species'
points, negative ones compared as they are) wins; a fisher with no figure counts 0 (the engine's
reading, same file); equal again, they share the victory and the rank."""

from __future__ import annotations

from crabgames.games.kraby import rules
from crabgames.games.kraby.data import (
    BLUE,
    GREEN,
    ORANGE,
    PINK,
    TILE_OFFSET,
    YELLOW,
)
from tests.kraby.helpers import board_with, cell


def test_a_tie_goes_to_the_fisher_with_the_best_single_species():
    species = tuple(
        rules.SpeciesScore(c, (), p)
        for c, p in [(ORANGE, 6), (GREEN, 10), (BLUE, 4), (YELLOW, 0), (PINK, 0)]
    )
    # 2x orange + 3x green = 12 + 30 = 42 against 1x blue + 2x green + 3x orange = 4 + 20 + 18.
    fishers = rules.score_fishers([(0, ORANGE, GREEN), (BLUE, GREEN, ORANGE)], species)
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
