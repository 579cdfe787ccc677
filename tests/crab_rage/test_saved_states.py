"""Rules note 16: a decoded state must be one a game can reach, so every state a game reaches
must be accepted back: encoded and decoded at any point of a game (mid-action, mid-rumble, in a
roll-off for the microphone, in the duel), it gives the same bytes, the same decision and the
same moves, and breaks no invariant. Issue 14: a rule that leaves a state no game could be
saved in (a step without its arena, an active player of -2) fails here."""

from __future__ import annotations

import random

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import SignatureMove
from crabgames.games.crab_rage.moves import Signature
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.v1.crab_rage_pb2 import CrabRageState
from tests.crab_rage.helpers import (
    AOTF,
    BLUE,
    MM,
    PC,
    YELLOW,
    action_phase,
    chance,
    decision,
    play,
    put,
    run,
)


def restored(state):
    data = GAME.codec.state_bytes(state)
    return GAME.codec.decode_state(CrabRageState.FromString(data), state.num_players, "state"), data


def test_every_state_of_random_games_is_saved_and_restored_unchanged():
    seen_kinds = set()
    for seed, players in enumerate((3, 4, 5, 4)):
        rng = random.Random(seed)
        state = initial_state(players, default_options(players))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            copy, data = restored(state)
            assert GAME.codec.state_bytes(copy) == data
            assert GAME.next_decision(copy) == decision
            assert GAME.invariant_violations(state) == []
            seen_kinds.add(state.pending[-1].kind if state.pending else None)
            if decision.kind == CHANCE:
                outcomes = GAME.chance_outcomes(state)
                assert list(GAME.chance_outcomes(copy)) == list(outcomes)
                GAME.apply_chance(state, rng.choice([v for v, _ in outcomes]))
            else:
                moves = list(GAME.legal_moves(state))
                assert list(GAME.legal_moves(copy)) == moves
                GAME.apply_move(state, rng.choice(moves))
        assert GAME.outcome(state) is not None
    assert len(seen_kinds) > 10  # the games went through many kinds of steps


def test_a_state_in_a_roll_off_for_the_microphone_is_saved_and_restored():
    """R16: Blue and Yellow tie on 5 rage after the Rage Phase and roll off for the
    microphone; the roll-off's step names no arena."""
    state = action_phase(4, (MM, AOTF, PC))
    for seat, p in enumerate(state.players):
        p.rage, p.passed = (2 if seat in (BLUE, YELLOW) else 0), True
    state.phase = Phase.FAN
    run(state, Task(Step.RAGE_PHASE), Task(Step.ROUND_END))
    assert decision(state) == (-1, "microphone_die")
    for value in (3, 3, 5):  # a tie again, then Blue rolls 5
        copy, data = restored(state)
        assert GAME.codec.state_bytes(copy) == data
        assert GAME.next_decision(copy) == GAME.next_decision(state)
        chance(state, value)
    copy, data = restored(state)
    assert GAME.codec.state_bytes(copy) == data


def test_a_state_whose_frenzy_has_no_hit_left_is_refused():
    """Rules note 16: Frenzy hits once per own crab in the arena (at least one, R13), and its
    step is kept only while hits are left: a Frenzy step with none left is no reachable state."""
    state = action_phase(4, (MM, AOTF, PC))
    state.players[BLUE].signature = SignatureMove.FRENZY
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 5)
    play(state, Signature(arena=0))
    assert decision(state) == (BLUE, "choose_frenzy_target")
    msg = CrabRageState.FromString(GAME.codec.state_bytes(state))
    GAME.codec.decode_state(msg, 4, "state")  # one hit left: fine
    msg.pending[-1].values[:] = [0]
    with pytest.raises(InvalidArgument):
        GAME.codec.decode_state(msg, 4, "state")
