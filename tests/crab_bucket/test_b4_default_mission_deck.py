"""B4: the default mission deck (docs/rules/crab_bucket.md, "B4: the default mission deck"): 18
missions, 6 a level, each level's three abilities on two cards each, each mission with four Gaps
(one a colour; above 3 somewhere from level 2) plus an X or a Chain at level 2 and both at level
3; every one can be met by some circle of the 32 crab cards, and not by every circle."""

from __future__ import annotations

from itertools import permutations

import pytest

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import (
    ABILITY_LEVEL,
    CIRCLE,
    COLORS,
    DEFAULT_MISSIONS,
    LEVELS,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
)


def circle_colors(colors: tuple[int, ...]) -> int:
    """`rules.top_colors` of a circle whose tops have these colours (pile by pile)."""
    return sum(1 << (CIRCLE * color + pile) for pile, color in enumerate(colors))


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
