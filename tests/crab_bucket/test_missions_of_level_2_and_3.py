"""Missions of Level 2 and 3 (docs/rules/crab_bucket.md, "Missions of Level 2 and 3"): besides
their four gaps these missions carry an X (no top of the one colour next to one of the other)
or a Chain (some top of the one colour next to one of the other), and a mission is completed
only when its icons hold together with its gaps. How B3 reads each icon on its own is in
test_b3_reading_a_mission.py."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, Gap
from tests.crab_bucket.helpers import colors_of, mission_index

# Mission 2-A: red 5, green 5, blue 4, yellow 0 between, and X yellow/red.
MISSION_2_A = DEFAULT_MISSIONS[mission_index("Mission 2-A")]
# Its four gaps, with no yellow top beside a red one: R G R G B Y Y B.
GAPS_AND_X = ["red 1", "green 1", "red 2", "green 2", "blue 1", "yellow 1", "yellow 2", "blue 2"]
# The same four gaps, with yellow (pile 7) beside red (pile 0): R B R G B G Y Y.
GAPS_ONLY = ["red 1", "blue 1", "red 2", "green 1", "blue 2", "green 2", "yellow 1", "yellow 2"]

# Mission 2-C: red 2, green 4, blue 0, yellow 0 between, and Chain yellow/red.
MISSION_2_C = DEFAULT_MISSIONS[mission_index("Mission 2-C")]
# Its four gaps, with yellow (pile 1) beside red (pile 0): R Y Y R G B B G.
GAPS_AND_CHAIN = ["red 1", "yellow 1", "yellow 2", "red 2", "green 1", "blue 1", "blue 2"]
GAPS_AND_CHAIN += ["green 2"]
# The same four gaps, with no yellow top beside a red one: R B B R G Y Y G.
GAPS_NO_CHAIN = ["red 1", "blue 1", "blue 2", "red 2", "green 1", "yellow 1", "yellow 2"]
GAPS_NO_CHAIN += ["green 2"]


def gaps_met(mission, colors: int) -> bool:
    return all(rules.requirement_met(r, colors) for r in mission.requirements if type(r) is Gap)


def test_a_mission_with_an_x_is_not_completed_by_its_gaps_while_the_x_is_broken():
    assert gaps_met(MISSION_2_A, colors_of(GAPS_ONLY))
    assert not rules.mission_met(MISSION_2_A, colors_of(GAPS_ONLY))
    assert rules.mission_met(MISSION_2_A, colors_of(GAPS_AND_X))


def test_a_mission_with_a_chain_is_not_completed_by_its_gaps_until_the_chain_is_there():
    assert gaps_met(MISSION_2_C, colors_of(GAPS_NO_CHAIN))
    assert not rules.mission_met(MISSION_2_C, colors_of(GAPS_NO_CHAIN))
    assert rules.mission_met(MISSION_2_C, colors_of(GAPS_AND_CHAIN))
