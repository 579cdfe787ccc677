"""The rulebook's "Mission Cards and How to Complete Them" (docs/rules/crab_bucket.md): every
requirement of a mission must hold on the circle's tops at the same moment. The rulebook's example
(two green tops with 2 piles between, red 3, blue 0, yellow 1) checked to its end: completed by
the card that meets it in play, and left open by one that breaks a requirement met."""

from __future__ import annotations

import pytest

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Gap,
)
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import NO_MISSION
from tests.crab_bucket.helpers import (
    EXAMPLE,
    MEETS_EXAMPLE,
    colors_of,
    mission_index,
    position,
)


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
