"""The invariant checker (`rules.invariants`, the plug-in's invariant_violations), which a fuzzer
and the state decoder use to say which rule a position breaks: a position of legal play breaks
none, and each problem names the team or the crab by its team's colour, not its seat. Each
invariant is broken on purpose in its rule's file: R3 (test_r3_muscle_and_rage_limits.py), R9
(test_r9_rush_scatter_and_swap.py), R10 (test_r10_units_and_alliances.py), R12
(test_r12_style_bonus.py), R21 (test_r21_fans_are_conserved.py)."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Team
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    action_phase,
    ally,
    four_managers,
    problems,
    put,
)


def test_a_position_of_legal_play_breaks_no_invariant():
    state = four_managers()
    assert problems(state) == []
    # Green's three crabs all in arena B, allied with Yellow's one there; Black with hardcore
    # fans, fans in an arena and a style bonus fan riding on a backstage crab.
    for crab in range(3):
        put(state, GREEN, crab, 1)
    put(state, YELLOW, 0, 1, muscle=6)
    ally(state, 1, YELLOW, GREEN)
    black = state.players[BLACK]
    black.supply, black.hardcore = 26, 3
    state.arenas[2].fans[BLACK] = 2
    black.crabs[1].riding_fans = 1
    black.rage = 0
    state.players[BLUE].crabs[2].muscle = 1
    assert problems(state) == []


def test_the_problems_name_teams_and_crabs_by_colour_not_by_seat_in_order():
    # Five managers in other colours (4 arenas): seat 0 Purple, 1 Black, 2 Green, 3 Yellow,
    # 4 Blue.
    teams = (Team.PURPLE, Team.BLACK, Team.GREEN, Team.YELLOW, Team.BLUE)
    state = action_phase(5, (MM, AOTF, PC, BB), teams=teams)
    assert len(state.arenas) == 4 and problems(state) == []
    state.players[0].supply = 30
    put(state, 1, 2, 4)  # one past the fourth arena
    state.players[2].rage = -2
    state.players[3].supply = 31
    state.players[3].crabs[1].riding_fans = 1
    put(state, 3, 1, 3)
    state.players[4].crabs[0].muscle = 7
    ally(state, 3, 0, 3)  # Purple has no crab in arena 3
    assert problems(state) == [
        "Purple: fans add up to 30, not 32 (R21)",
        "Black crab 2: not in exactly one place",
        "Green: negative rage",
        "Yellow crab 1: a riding fan in an arena",
        "Blue crab 0: muscle 7 (R3)",
        "arena 3: Purple is allied without crabs",
    ]
