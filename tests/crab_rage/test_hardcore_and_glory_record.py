"""End of Game (R17, R18): every player with at least 1 fan in the arena shouts out hardcore
fans, the manager at seat 0 as much as any other; and Scoring's record: "Count the number of
fans each player has in that arena" and "Record the glory gained ... in the scored arena", arena
by arena in alphabetical billboard order, both in the outcome. Issue 14."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.endgame import ArenaGlory
from crabgames.games.crab_rage.moves import HardcoreFans
from crabgames.games.crab_rage.state import Phase, State, Step, Task
from crabgames.v1 import game_pb2
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
    decision,
    play,
    run,
)


def end_of_game(microphone: int, billboards=(MM, AOTF, PC)) -> State:
    """After round 4 with 4 managers: every action card revealed, every player passed."""
    state = action_phase(4, billboards, microphone=microphone)
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.action_cards = [5, 6, 7, 8]
    for player in state.players:
        player.passed = True
    return state


def give(state: State, arena: int, seat: int, fans: int, hardcore: int = 0) -> None:
    state.arenas[arena].fans[seat] = fans
    state.players[seat].hardcore = hardcore
    state.players[seat].supply -= fans + hardcore


def commit(state: State, amount: int) -> None:
    play(state, HardcoreFans(amount=amount))


def test_blue_at_seat_0_with_fans_in_the_arena_shouts_out_hardcore_fans_first_in_turn_order():
    state = end_of_game(microphone=BLUE)
    give(state, 0, BLUE, 4, hardcore=2)
    give(state, 0, GREEN, 3, hardcore=1)
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    assert decision(state) == (BLUE, "commit_hardcore_fans")
    assert [m.amount for m in GAME.legal_moves(state)] == [0, 1, 2]
    commit(state, 2)
    assert decision(state) == (GREEN, "commit_hardcore_fans")
    commit(state, 1)
    assert state.arenas[0].fans[BLUE] == 6 and state.players[BLUE].hardcore == 0
    assert state.arenas[0].fans[GREEN] == 4 and state.players[GREEN].hardcore == 0
    assert GAME.invariant_violations(state) == []


def test_blue_at_seat_0_shouts_out_last_when_the_microphone_is_elsewhere():
    state = end_of_game(microphone=YELLOW)
    give(state, 1, BLACK, 2, hardcore=3)
    give(state, 1, BLUE, 5, hardcore=1)
    run(state, Task(Step.HARDCORE, arena=1), Task(Step.SCORING))
    assert decision(state) == (BLACK, "commit_hardcore_fans")
    commit(state, 0)
    assert decision(state) == (BLUE, "commit_hardcore_fans")  # after Black, clockwise
    commit(state, 1)
    assert state.arenas[1].fans[BLUE] == 6 and state.arenas[1].fans[BLACK] == 2


def test_the_outcome_records_each_arenas_fans_and_glory_in_alphabetical_billboard_order():
    # A Mega Muscle, B Attack of the Fans, C Pressure Cooker: scored B, A, C (R5).
    state = end_of_game(microphone=BLUE)
    give(state, 0, BLUE, 3)
    give(state, 0, YELLOW, 5)
    give(state, 1, GREEN, 2)
    give(state, 2, BLACK, 1)
    state.arenas[2].fans[BLUE] = 1
    state.players[BLUE].supply -= 1
    run(state, Task(Step.SCORING))
    result = GAME.outcome(state)
    assert result.arenas == [
        ArenaGlory(1, AOTF, [0, 0, 2, 0], [0, 0, 4, 0]),
        ArenaGlory(0, MM, [3, 5, 0, 0], [3, 4, 0, 0]),
        ArenaGlory(2, PC, [1, 0, 0, 1], [4, 0, 0, 4]),
    ]
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    told = [(a.arena, list(a.fans), list(a.glory)) for a in outcome.crab_rage.arenas]
    assert told == [
        (1, [0, 0, 2, 0], [0, 0, 4, 0]),
        (0, [3, 5, 0, 0], [3, 4, 0, 0]),
        (2, [1, 0, 0, 1], [4, 0, 0, 4]),
    ]
    assert BB not in [a.billboard for a in result.arenas]  # 3 arenas, 3 billboards
