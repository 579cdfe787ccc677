"""B3: reading a mission (docs/rules/crab_bucket.md, "B3: reading a mission", and the rulebook's
"Missions of Level 2 and 3"): a Gap counts the piles between two tops of its colour, clockwise
either way (so n and 6 - n agree), empty piles and Oxi! tops counting as piles between; X means
the two colours are never neighbours, Chain that they are somewhere; the circle wraps from pile 7
to pile 0."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Adjacent,
    Gap,
    NotAdjacent,
)
from tests.crab_bucket.helpers import (
    MEETS_EXAMPLE,
    colors_of,
)


def test_a_gap_one_pile_too_wide_misses():
    # Red at 0 and 5: 4 between one way, 2 the other, never 3.
    tops = list(MEETS_EXAMPLE)
    tops[4], tops[5] = "yellow 1", "red 2"
    assert not rules.requirement_met(Gap(RED, 3), colors_of(tops))


def test_a_gap_counts_clockwise_either_way_so_n_and_6_minus_n_agree():
    colors = colors_of(MEETS_EXAMPLE)
    # Green at 1 and 6: 4 piles between clockwise from 1, 2 piles clockwise from 6 (B3).
    assert rules.requirement_met(Gap(GREEN, 4), colors)
    assert rules.requirement_met(Gap(GREEN, 2), colors)
    assert not rules.requirement_met(Gap(GREEN, 3), colors)


def test_empty_piles_and_oxi_tops_count_as_piles_between():
    tops = ["red 1", "", "oxi", "red 2", "blue 1", "blue 2", "green 1", "green 2"]
    assert rules.requirement_met(Gap(RED, 2), colors_of(tops))


def test_x_means_the_linked_colours_are_never_neighbours():
    colors = colors_of(MEETS_EXAMPLE)  # R G B B R Y G Y
    assert rules.requirement_met(NotAdjacent(BLUE, YELLOW), colors)
    assert rules.requirement_met(NotAdjacent(RED, RED), colors)
    assert not rules.requirement_met(NotAdjacent(GREEN, BLUE), colors)  # piles 1 and 2
    # Red 0 and yellow 7 are neighbours across the wrap (and red 4, yellow 5).
    assert not rules.requirement_met(NotAdjacent(YELLOW, RED), colors)


def test_chain_means_at_least_one_link_between_the_colours():
    colors = colors_of(MEETS_EXAMPLE)
    assert rules.requirement_met(Adjacent(GREEN, BLUE), colors)
    assert rules.requirement_met(Adjacent(BLUE, BLUE), colors)
    assert not rules.requirement_met(Adjacent(GREEN, GREEN), colors)


def test_the_circle_wraps_around_from_pile_7_to_pile_0():
    tops = ["red 1", "blue 1", "blue 2", "green 1", "green 2", "yellow 1", "yellow 2", "red 2"]
    colors = colors_of(tops)
    assert rules.requirement_met(Gap(RED, 0), colors)
    assert rules.requirement_met(Adjacent(RED, RED), colors)


def test_neighbours_are_read_both_ways_round_the_circle():
    # R G B B R Y G Y: green (pile 1) comes before blue (pile 2) clockwise; the icons do not care
    # which colour comes first.
    colors = colors_of(MEETS_EXAMPLE)
    assert rules.requirement_met(Adjacent(BLUE, GREEN), colors)
    assert rules.requirement_met(Adjacent(GREEN, BLUE), colors)
    assert not rules.requirement_met(NotAdjacent(BLUE, GREEN), colors)
    assert not rules.requirement_met(NotAdjacent(GREEN, BLUE), colors)
