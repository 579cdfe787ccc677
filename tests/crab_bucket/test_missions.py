"""Missions (B3, B4): Gap, X (not adjacent) and Chain (adjacent) requirements on the 8 tops."""

from __future__ import annotations

from itertools import permutations

import pytest

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import (
    ABILITY_LEVEL,
    BLUE,
    CIRCLE,
    COLORS,
    DEFAULT_MISSIONS,
    GREEN,
    LEVELS,
    RED,
    YELLOW,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
)
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import NO_MISSION
from tests.crab_bucket.helpers import mission_index, position

EXAMPLE = DEFAULT_MISSIONS[mission_index("Mission 1-A")]

# A circle meeting the rulebook's example: red at 0 and 4 (3 between), green at 1 and 6
# (2 between, counting clockwise from 6), blue at 2 and 3 (0 between), yellow at 5 and 7 (1).
MEETS_EXAMPLE = [
    "red 1",
    "green 1",
    "blue 1",
    "blue 2",
    "red 2",
    "yellow 1",
    "green 2",
    "yellow 2",
]


def colors_of(tops: list[str]) -> int:
    return rules.top_colors(position(tops, current=None))


def circle_colors(colors: tuple[int, ...]) -> int:
    """`rules.top_colors` of a circle whose tops have these colours (pile by pile)."""
    return sum(1 << (CIRCLE * color + pile) for pile, color in enumerate(colors))


def test_the_rulebook_example_mission_is_green_2_red_3_blue_0_yellow_1():
    assert set(EXAMPLE.requirements) == {
        Gap(GREEN, 2),
        Gap(RED, 3),
        Gap(BLUE, 0),
        Gap(YELLOW, 1),
    }


def test_a_circle_meeting_every_requirement_completes_the_example_mission():
    assert rules.mission_met(EXAMPLE, colors_of(MEETS_EXAMPLE))


@pytest.mark.parametrize(
    ("position_replaced", "requirement"),
    [(0, Gap(RED, 3)), (1, Gap(GREEN, 2)), (2, Gap(BLUE, 0)), (5, Gap(YELLOW, 1))],
)
def test_a_circle_missing_one_requirement_does_not_complete_the_mission(
    position_replaced, requirement
):
    tops = list(MEETS_EXAMPLE)
    tops[position_replaced] = "oxi"  # an Oxi! top has no colour (B3)
    colors = colors_of(tops)
    assert not rules.requirement_met(requirement, colors)
    others = [r for r in EXAMPLE.requirements if r != requirement]
    assert all(rules.requirement_met(r, colors) for r in others)
    assert not rules.mission_met(EXAMPLE, colors)


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


# ----- the default deck (B4) -----


def arrangements() -> set[tuple[int, ...]]:
    """Every circle of tops with two cards of each colour (what four Gaps need)."""
    return set(permutations([c for c in COLORS for _ in range(2)]))


ALL_CIRCLES = sorted(arrangements())


@pytest.mark.parametrize("mission", DEFAULT_MISSIONS, ids=lambda m: m.name)
def test_every_default_mission_is_satisfiable(mission: Mission):
    witness = next((c for c in ALL_CIRCLES if rules.mission_met(mission, circle_colors(c))), None)
    assert witness is not None, f"no circle meets {mission.name}"
    # Two cards of each colour exist many times over among 32 cards: the witness is a real
    # circle; and it is not met by every circle (the mission means something).
    assert not all(rules.mission_met(mission, circle_colors(c)) for c in ALL_CIRCLES)


def test_the_default_deck_has_six_missions_per_level_and_each_ability_twice():
    for level in LEVELS:
        deck = [m for m in DEFAULT_MISSIONS if m.level == level]
        assert len(deck) == 6
        abilities = [m.ability for m in deck]
        assert all(abilities.count(a) == 2 for a in abilities)
        assert all(ABILITY_LEVEL[a] == level for a in abilities)


@pytest.mark.parametrize("mission", DEFAULT_MISSIONS, ids=lambda m: m.name)
def test_default_missions_have_the_shape_of_their_level(mission: Mission):
    gaps = [r for r in mission.requirements if isinstance(r, Gap)]
    xs = [r for r in mission.requirements if isinstance(r, NotAdjacent)]
    chains = [r for r in mission.requirements if isinstance(r, Adjacent)]
    assert sorted(g.color for g in gaps) == list(COLORS)
    if mission.level == 1:
        assert all(g.between <= 3 for g in gaps) and not xs and not chains
    if mission.level == 2:
        assert any(g.between > 3 for g in gaps) and len(xs) + len(chains) == 1
    if mission.level == 3:
        assert len(xs) == 1 and len(chains) == 1


def test_the_rulebook_example_mission_is_completed_by_the_card_that_meets_it_in_play():
    # The example to its end: the circle lacks only its second yellow (pile 7 shows red 8);
    # yellow 2 on red 8 (lower, another colour) puts 1 card between the yellows (piles 5 and
    # 7), every requirement is met at once, and in Quick mode the level 2 mission comes next.

    from tests.crab_bucket.helpers import card

    piles = [[name] for name in MEETS_EXAMPLE[:7]] + [["red 8"]]
    state = position(piles, {0: ["yellow 2", "blue 8", "green 8"]}, current="Mission 1-A")
    assert not rules.mission_met(EXAMPLE, rules.top_colors(state))
    events = turn.apply_move(state, PlayCard(card("yellow 2"), 7))
    assert [e.kind for e in events] == ["card_played", "mission_completed"]
    assert state.completed == [mission_index("Mission 1-A")] and state.current == NO_MISSION
    assert rules.decision_name(state) == "draw_mission"
    assert {m for m, _ in rules.chance_outcomes(state)} == set(range(6, 12))  # level 2
    assert rules.points(state) == 1


def test_a_card_that_breaks_a_met_requirement_leaves_the_example_mission_open():
    # The same circle with yellow 2 played on the blue 2 of pile 3 instead: yellows at 3 and 5
    # have 1 card between them, but the blues no longer touch (0 between), so nothing happens.

    from tests.crab_bucket.helpers import card

    piles = [[name] for name in MEETS_EXAMPLE[:7]] + [["red 8"]]
    state = position(piles, {0: ["yellow 2", "blue 8", "green 8"]}, current="Mission 1-A")
    turn.apply_move(state, PlayCard(card("yellow 2"), 3))
    assert state.completed == [] and state.current == mission_index("Mission 1-A")
