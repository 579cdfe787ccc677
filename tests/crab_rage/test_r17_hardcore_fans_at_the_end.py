"""R17: hardcore fans at the end (docs/rules/crab_rage.md, "### R17: hardcore fans at the end" and
the rulebook's "### Hardcore Fans"): in an arena every manager with at least 1 fan there, the one
at seat 0 as much as any other, commits in turn order from the microphone holder 0 up to the
hardcore fans they still hold, once; then all are added to the arena (the rulebook's Mega Muscle
example). The arenas' order: test_r5_arenas_and_billboards.py; the commitments' secrecy:
test_g4_secret_simultaneous_choices.py."""

from __future__ import annotations

from crabgames.core.errors import IllegalMove
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import HardcoreFans
from crabgames.games.crab_rage.state import Step, Task
from crabgames.v1 import crab_rage_pb2, game_pb2
from tests.crab_rage.helpers import (
    BLACK,
    BLUE,
    ENGINE,
    GREEN,
    PURPLE,
    YELLOW,
    after_round_4,
    commit,
    decision,
    game_state,
    give,
    mega_muscle_shout_out,
    run,
)


def test_mega_muscle_shout_out_green_black_purple_reveal_1_4_2_and_end_with_6_8_7():
    state = mega_muscle_shout_out()
    assert decision(state) == (GREEN, "commit_hardcore_fans")  # Blue takes no part
    commit(state, 1)
    assert decision(state) == (BLACK, "commit_hardcore_fans")
    commit(state, 4)
    commit(state, 2)
    fans = state.arenas[0].fans
    assert (fans[GREEN], fans[BLACK], fans[PURPLE], fans[BLUE]) == (6, 8, 7, 0)
    hardcore = [state.players[p].hardcore for p in (GREEN, BLACK, PURPLE, BLUE)]
    assert hardcore == [2, 0, 3, 2]
    assert GAME.invariant_violations(state) == []


def test_a_player_cannot_commit_twice_or_more_than_they_hold():
    state = mega_muscle_shout_out()
    too_many = HardcoreFans(amount=4)
    assert not GAME.is_legal(state, too_many)
    assert GAME.explain_illegal(state, too_many).rule == "R17"
    msg = game_state(state)
    move = game_pb2.Move(player=GREEN)
    move.crab_rage.kind = crab_rage_pb2.CRAB_RAGE_MOVE_KIND_HARDCORE_FANS
    move.crab_rage.amount = 1
    msg, _, _ = ENGINE.apply_move(msg, move)
    try:
        ENGINE.apply_move(msg, move)
        raise AssertionError("a second commitment was accepted")
    except IllegalMove as error:
        assert error.rule == "G3"


def test_blue_at_seat_0_with_fans_in_the_arena_shouts_out_hardcore_fans_first_in_turn_order():
    state = after_round_4(microphone=BLUE)
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
    state = after_round_4(microphone=YELLOW)
    give(state, 1, BLACK, 2, hardcore=3)
    give(state, 1, BLUE, 5, hardcore=1)
    run(state, Task(Step.HARDCORE, arena=1), Task(Step.SCORING))
    assert decision(state) == (BLACK, "commit_hardcore_fans")
    commit(state, 0)
    assert decision(state) == (BLUE, "commit_hardcore_fans")  # after Black, clockwise
    commit(state, 1)
    assert state.arenas[1].fans[BLUE] == 6 and state.arenas[1].fans[BLACK] == 2
