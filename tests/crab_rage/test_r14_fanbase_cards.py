"""R14: fanbase cards (docs/rules/crab_rage.md, "### R14: fanbase cards", the rulebook's "### Fan
Phase" and rules note 8): each manager with a crab in an arena gets their fanbase card's reward
for that arena's billboard, once per arena however many of their crabs are there (the
rulebook's Blue: 4 rage and 1 hardcore fan); fan rewards become hardcore fans; a manager's rage
rewards are one build event, and rewards holding no rage build none (so no mutation, R4); a
manager with no crab in any arena gets nothing."""

from __future__ import annotations

from pathlib import Path

from crabgames.games.crab_rage.data import BILLBOARD_NAMES, DEFAULT_FANBASE, TEAM_NAMES, Reward
from crabgames.games.crab_rage.state import Phase, Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    MM,
    PC,
    YELLOW,
    action_phase,
    decision,
    event_fields,
    put,
    run,
)


def test_blue_fan_phase_gains_4_rage_and_1_hardcore_fan_without_attack_of_the_fans():
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 2)
    put(state, BLUE, 2, 3)
    state.players[BLUE].rage = 0
    run(state, Task(Step.FAN_PHASE))
    assert state.players[BLUE].rage == 4
    assert state.players[BLUE].hardcore == 1
    assert state.players[BLUE].supply == 31


def test_the_fan_phase_rewards_each_arena_a_manager_is_present_in_not_each_crab():
    # The rulebook's Blue, present in Mega Muscle (here with two crabs: 3 players have 4),
    # Pressure Cooker and Barnacle Brawl: 4 rage and 1 hardcore fan.
    state = action_phase(3, (MM, PC, BB), microphone=BLUE, rage=0)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 0)
    put(state, BLUE, 2, 1)
    put(state, BLUE, 3, 2)
    run(state, Task(Step.FAN_PHASE))
    assert state.players[BLUE].rage == 4
    assert state.players[BLUE].hardcore == 1
    assert state.players[BLUE].supply == 31


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


def r14_table() -> dict[str, list[str]]:
    """The default fanbase cards as docs/rules/crab_rage.md's R14 table prints them: each team's
    rewards by billboard, in the table's column order."""
    text = (Path(__file__).parents[2] / "docs/rules/crab_rage.md").read_text()
    section = text.split("### R14: fanbase cards")[1].split("###")[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0]]
    assert header[1:] == [BILLBOARD_NAMES[b] for b in sorted(BILLBOARD_NAMES)]
    return {row[0].strip(): [cell.strip() for cell in row[1:]] for row in rows[2:]}


def test_the_default_fanbase_cards_are_r14s_table():
    printed = {"2 rage": Reward(2, 0), "1 fan": Reward(0, 1)}
    table = r14_table()
    assert set(table) == {TEAM_NAMES[t].lower() for t in DEFAULT_FANBASE}
    for team, card in DEFAULT_FANBASE.items():
        assert list(card) == [printed[cell] for cell in table[TEAM_NAMES[team].lower()]]
