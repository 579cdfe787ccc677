"""The Fan Phase (R14, rules note 8): a manager's rage rewards form one build event, and a
manager whose rewards hold no rage builds none: no rage told and no mutation, even above 6 rage
(R4: mutation follows a build). Issue 14."""

from __future__ import annotations

from crabgames.games.crab_rage.messages import event_fields
from crabgames.games.crab_rage.state import Phase, Step, Task
from tests.crab_rage.helpers import AOTF, BB, BLUE, MM, PC, YELLOW, action_phase, decision, put, run


def test_a_manager_whose_fan_phase_rewards_hold_no_rage_builds_none_and_does_not_mutate():
    """Yellow's fanbase card gives 1 fan at Mega Muscle and at Pressure Cooker (R14): with 7
    rage already, Yellow gains 2 hardcore fans and builds nothing; Blue's 2 rage at Mega Muscle
    mutates Blue."""
    state = action_phase(4, (MM, PC, BB), microphone=YELLOW)
    put(state, YELLOW, 0, 0)
    put(state, YELLOW, 1, 1)
    put(state, BLUE, 0, 0)
    state.players[YELLOW].rage = 7
    state.players[BLUE].rage = 5
    state.phase = Phase.RUMBLE
    events = run(state, Task(Step.FAN_PHASE))
    built = [event_fields(e)["player"] for e in events if e.kind == "rage"]
    assert built == [BLUE]
    assert state.players[YELLOW].rage == 7 and state.players[YELLOW].hardcore == 2
    assert decision(state) == (BLUE, "choose_mutation_crab")  # Blue built 2: 7 rage


def test_a_manager_with_no_crab_in_any_arena_gets_nothing_in_the_fan_phase():
    state = action_phase(4, (MM, AOTF, BB), microphone=BLUE)
    state.players[BLUE].rage = 9
    state.phase = Phase.RUMBLE
    events = run(state, Task(Step.FAN_PHASE))
    assert [e.kind for e in events] == ["phase_started"]
    assert state.players[BLUE].rage == 9 and state.players[BLUE].hardcore == 0
    assert state.pending == []  # nobody mutates
