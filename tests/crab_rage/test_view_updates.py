"""Events say everything a player at the table sees change (issue 16): for each seat and a
spectator, the previous view with that viewer's events applied by the reference reducer
(tests/conformance/view_updates/crab_rage.py) is the next view, at every player count, with
Frenzy and the other signature moves, in both chance modes."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.games.crab_rage.state import Step, Task
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2
from tests.conformance.view_updates import crab_rage as reducer
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
    end_of_game,
    game_state,
    run,
    set_fans,
)
from tests.playthrough import GAME_OVER, pick

ENGINE = Engine(all_games())
SIGNATURES = [
    pb.CRAB_RAGE_SIGNATURE_MOVE_FRENZY,
    pb.CRAB_RAGE_SIGNATURE_MOVE_CLAW_SNAP,
    pb.CRAB_RAGE_SIGNATURE_MOVE_SHELL_UP,
    pb.CRAB_RAGE_SIGNATURE_MOVE_RIPTIDE,
    pb.CRAB_RAGE_SIGNATURE_MOVE_HYPE_UP,
]


def table(view: pb.CrabRageView) -> pb.CrabRageView:
    copy = pb.CrabRageView()
    copy.CopyFrom(view)
    for name in reducer.DERIVED_FIELDS:
        copy.ClearField(name)
    return copy


def check_game(num_players: int, seed: int, options: pb.CrabRageOptions, mode: int) -> int:
    state, _ = ENGINE.new_game("crab_rage", options, num_players, seed, mode)
    return check_from(state, seed)


def check_from(state: game_pb2.GameState, seed: int) -> int:
    """Play on from `state` at random, checking every viewer's rebuilt view after each move."""
    rng = random.Random(seed)
    num_players = state.num_players
    viewers = [None, *range(num_players)]
    views = {v: ENGINE.view(state, v).crab_rage for v in viewers}
    checked = 0
    while state.next.kind != GAME_OVER:
        moves, _ = ENGINE.legal_moves(state)
        move = pick(rng, moves)
        state, happened, _ = ENGINE.apply_move(state, move)
        for viewer in viewers:
            rebuilt = table(views[viewer])
            seen = happened.public_events if viewer is None else happened.seat_events[viewer]
            for event in seen:
                reducer.apply_event(rebuilt, event, viewer)
            views[viewer] = ENGINE.view(state, viewer).crab_rage
            want = table(views[viewer])
            assert rebuilt == want, (
                f"{num_players}p seed {seed}, viewer {viewer}, after {move.label!r}: "
                f"{json_format.MessageToDict(rebuilt)} != {json_format.MessageToDict(want)}"
            )
            checked += 1
    return checked


@pytest.mark.parametrize("num_players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(1, 7))
def test_each_viewers_events_turn_the_previous_view_into_the_next(num_players, seed):
    signatures = [SIGNATURES[(seed + seat) % 5] for seat in range(num_players)]
    options = pb.CrabRageOptions(signature_moves=signatures)
    mode = game_pb2.CHANCE_MODE_EXPLICIT if seed % 2 else game_pb2.CHANCE_MODE_AUTO
    assert check_game(num_players, seed, options, mode) > 100


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_spotlight_duels_events_rebuild_its_view(seed):
    """Duels are rare in random games: Purple and Black tie with 12 glory once Green, the one
    manager with hardcore fans, has committed (R17, R19); each has rage to re-roll with."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLACK)
    end_of_game(state)  # round 4 over: every action card revealed, everyone passed
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})  # Purple 5 glory, Black 4
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})  # Black 5, Purple 4
    set_fans(state, 2, {BLUE: 9, YELLOW: 8, PURPLE: 5, BLACK: 5})  # Purple and Black 3 each
    state.players[BLACK].rage, state.players[PURPLE].rage = 3, 2
    set_fans(state, 3, {GREEN: 1})  # Green 5
    state.players[GREEN].hardcore = 2
    state.players[GREEN].supply -= 2
    run(state, Task(Step.HARDCORE, arena=3), Task(Step.SCORING))
    msg = game_state(state)
    mode = game_pb2.CHANCE_MODE_EXPLICIT if seed % 2 else game_pb2.CHANCE_MODE_AUTO
    msg.chance_mode = mode
    assert check_from(msg, seed) > 10
