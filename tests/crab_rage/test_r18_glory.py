"""R18: glory (docs/rules/crab_rage.md, "### R18: glory" and the rulebook's "### Scoring"): per
arena, a dense ranking by fans, N glory for the most fans (N players), N - 1 for the next
distinct count and so on, none without fans there (the rulebook's 4-player example); the
outcome records each arena's fans and glory in alphabetical billboard order."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.endgame import ArenaGlory, arena_glory
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.games.crab_rage.words import text
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
    after_round_4,
    event_fields,
    give,
    run,
    set_fans,
)


def test_glory_is_dense_ranked_purple_4_black_and_green_3_blue_2():
    # seats: Blue, Green, Black, Purple in a 4-player game
    assert arena_glory([4, 6, 6, 8]) == [2, 3, 3, 4]


def test_a_player_without_fans_in_an_arena_gains_no_glory_there():
    assert arena_glory([0, 2, 2, 1]) == [0, 4, 4, 3]


def test_the_scoring_step_gives_purple_4_black_and_green_3_and_blue_2_in_the_first_arena():
    # The rulebook's 4-player example: Purple 8 fans, Black and Green 6 each, Blue fewer.
    state = action_phase(4, (AOTF, PC, BB), teams=(1, 5, 3, 4))  # Blue, Purple, Green, Black
    blue, purple, green, black = range(4)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {purple: 8, black: 6, green: 6, blue: 4})
    events = run(state, Task(Step.SCORING))
    assert state.arenas[0].glory == [2, 4, 3, 3]
    first = [text(e) for e in events if event_fields(e).get("arena") == 0]
    assert first == [
        "Blue gains 2 glory in arena A (Attack of the Fans)",
        "Purple gains 4 glory in arena A (Attack of the Fans)",
        "Green gains 3 glory in arena A (Attack of the Fans)",
        "Black gains 3 glory in arena A (Attack of the Fans)",
    ]


def test_the_outcome_lists_each_arena_by_index_in_alphabetical_billboard_order():
    state = action_phase(4, (PC, AOTF, BB))
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, GREEN: 1})
    run(state, Task(Step.SCORING))
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(GAME.outcome(state), outcome)
    arenas = [(a.arena, a.billboard) for a in outcome.crab_rage.arenas]
    assert arenas == [(1, AOTF), (2, BB), (0, PC)]
    assert list(outcome.crab_rage.arenas[2].glory) == [4, 0, 3, 0]


def test_the_outcome_records_each_arenas_fans_and_glory_in_alphabetical_billboard_order():
    # A Mega Muscle, B Attack of the Fans, C Pressure Cooker: scored B, A, C (R5).
    state = after_round_4(microphone=BLUE)
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
