"""The search bot's estimate of a Crab Bucket position (core/search.py): strategy, not rules.

Random play almost never completes a mission (under 2 games in 100 reach a single point), so
random playouts to the end tell the search nothing. It values a position instead by the team's
points (B8) plus the current mission's level in proportion to how many of its requirements the
tops meet now (B3), over the most points the default deck holds.
"""

from __future__ import annotations

from typing import Final

from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS
from crabgames.games.crab_bucket.rules import points, requirement_met, top_colors
from crabgames.games.crab_bucket.state import NO_MISSION, CrabBucketState


def estimated_points(state: CrabBucketState) -> float:
    """The points reached, and the share of the current mission already in place."""
    reached = float(points(state))
    if state.current == NO_MISSION:
        return reached
    mission = state.options.missions[state.current]
    colors = top_colors(state)
    met = sum(requirement_met(req, colors) for req in mission.requirements)
    return reached + mission.level * met / len(mission.requirements)


# The points of every mission of the default deck (B8): the most a team can reach.
MAX_TEAM_POINTS: Final = sum(mission.level for mission in DEFAULT_MISSIONS)


def estimate(state: CrabBucketState) -> list[float]:
    """Every seat's expected return: the team's estimated points over the most there are."""
    share = min(1.0, estimated_points(state) / MAX_TEAM_POINTS)
    return [share] * state.num_players
