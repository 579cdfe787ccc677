"""R5: arenas and billboards (docs/rules/crab_rage.md, "### R5: arenas and billboards"): at setup
each arena is dealt a billboard by chance, three of the four with three arenas; rumbles begin at
the arena showing the alphabetically first billboard and go on clockwise; Hardcore Fans take the
arenas in alphabetical billboard order. The billboards' rotation from round 2:
test_referee_phase.py."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import ACTION_CARDS, Billboard
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Step, Task, rumble_order
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    action_phase,
    chance,
    commit,
    decision,
    event_fields,
    put,
    run,
    set_fans,
    set_hardcore,
)


def test_billboards_are_dealt_by_chance_and_three_of_four_are_used_with_three_arenas():
    state = initial_state(4, default_options(4))
    assert [v for v, _ in GAME.chance_outcomes(state)] == [1, 2, 3, 4]
    chance(state, Billboard.PRESSURE_COOKER, Billboard.MEGA_MUSCLE, Billboard.BARNACLE_BRAWL)
    assert [a.billboard for a in state.arenas] == [PC, MM, BB]
    assert decision(state) == (-1, "microphone")  # R6 default: chance
    assert [v for v, _ in GAME.chance_outcomes(state)] == [0, 1, 2, 3]
    chance(state, YELLOW)
    assert decision(state) == (-1, "flip_action_card")
    assert [v for v, _ in GAME.chance_outcomes(state)] == sorted(ACTION_CARDS)


def test_rumble_checks_arenas_from_the_first_billboard_alphabetically_then_clockwise():
    state = action_phase(4, (PC, BB, MM))
    assert rumble_order(state) == [1, 2, 0]  # Barnacle Brawl, then clockwise


def test_rumble_order_starts_at_the_first_billboard_alphabetically_then_goes_clockwise():
    # A Attack of the Fans, B Pressure Cooker, C Barnacle Brawl: clockwise A, B, C, while plain
    # alphabetical order would be A, C, B (R5).
    state = action_phase(4, (AOTF, PC, BB), rage=0)
    for arena in range(3):
        put(state, BLUE, arena, arena, 1)
    events = run(state, Task(Step.RUMBLE_PHASE))
    won = [event_fields(e)["arena"] for e in events if e.kind == "rumble_won"]
    assert won == [0, 1, 2]
    state = action_phase(4, (PC, AOTF, BB))
    assert rumble_order(state) == [1, 2, 0]  # from Attack of the Fans, clockwise


def test_hardcore_fans_go_arena_by_arena_in_alphabetical_billboard_order():
    # A Attack of the Fans, B Pressure Cooker, C Barnacle Brawl: A, then C, then B (R5, R17).
    state = action_phase(4, (AOTF, PC, BB), microphone=BLUE)
    state.round = 4
    state.action_cards = [5, 6, 7, 8]
    for arena in range(3):
        set_fans(state, arena, {GREEN: 1})
    set_hardcore(state, {GREEN: 3})
    run(state, Task(Step.ROUND_END))
    order = []
    while decision(state) == (GREEN, "commit_hardcore_fans"):
        order.append(state.pending[-1].arena)
        commit(state, 1)
    assert order == [0, 2, 1]
