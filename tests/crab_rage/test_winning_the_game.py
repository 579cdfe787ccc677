"""Winning the Game (docs/rules/crab_rage.md, "### Winning the Game", with rules note 13): "After
the final arena has been scored, the player who has gained the most glory across all arenas wins
the game and takes the Golden Claw!", the others ranked by their glory. Then the game is over:
nobody decides, no chance event is pending, no move is listed and none is legal (the plug-in's
is_legal agrees with its empty list of moves, as at every decision: a move is legal exactly when
the generator lists it), and the outcome is known. A tie for the most glory:
test_r19_spotlight_duel.py."""

from __future__ import annotations

from crabgames.core.game import NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import (
    Act,
    Destination,
    DuelKeep,
    DuelReroll,
    HardcoreFans,
    Move,
    Pass,
    Signature,
)
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
    PURPLE,
    YELLOW,
    action_phase,
    random_game,
    run,
    set_fans,
)

# A move of each kind a player makes in a game (the last ones are the End of Game's).
ONE_OF_EACH_KIND = [
    Pass(),
    Act(Action.MOVE, 0, arena=1),
    Act(Action.RAGE, 0, amount=1),
    Signature(arena=0),
    Destination(arena=1),
    HardcoreFans(amount=0),
    DuelReroll(),
    DuelKeep(),
]


def assert_over(state: State, moves: list[Move]) -> None:
    assert state.phase == Phase.GAME_OVER and not state.pending
    assert GAME.next_decision(state).kind == NOBODY
    assert list(GAME.legal_moves(state)) == []
    assert list(GAME.chance_outcomes(state)) == []  # no die is rolled, no card turned
    assert GAME.decision_hidden_from(state) == []
    assert [m for m in moves if GAME.is_legal(state, m)] == []
    assert GAME.outcome(state) is not None


def test_after_the_final_arena_has_been_scored_the_game_is_over_and_no_move_is_legal():
    state = action_phase(4, (MM, PC, BB))
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.players[BLUE].supply, state.arenas[0].fans[BLUE] = 29, 3
    state.players[GREEN].supply, state.arenas[0].fans[GREEN] = 31, 1
    run(state, Task(Step.SCORING))  # the most glory wins, no duel: the last step
    assert_over(state, ONE_OF_EACH_KIND)
    assert GAME.outcome(state).winners == [BLUE]


def test_once_the_golden_claw_is_taken_no_move_listed_during_the_game_is_legal():
    listed: set[Move] = set()
    state = random_game(3, 1, check=lambda s: listed.update(GAME.legal_moves(s)))
    assert len(listed) > len(ONE_OF_EACH_KIND)
    assert_over(state, sorted(listed, key=lambda m: (m.kind, m)) + ONE_OF_EACH_KIND)


def test_the_most_glory_wins_without_a_duel():
    state = action_phase(4, (MM, PC, BB))
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, GREEN: 1})
    run(state, Task(Step.SCORING))
    result = GAME.outcome(state)
    assert result.winners == [BLUE] and result.glory == [4, 0, 3, 0]
    assert result.ranks == [1, 3, 2, 3]


def test_purple_wins_with_13_glory():
    # 5 players, 4 arenas: Purple first in one arena (5) and second in two (4 + 4).
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {GREEN: 9, PURPLE: 8, BLACK: 1})
    set_fans(state, 3, {BLUE: 2, YELLOW: 1})
    run(state, Task(Step.SCORING))
    result = GAME.outcome(state)
    assert result.glory == [5, 4, 5, 12, 13]
    assert result.winners == [PURPLE] and result.duel is None
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert outcome.summary == "Purple win(s) with 13 glory"
