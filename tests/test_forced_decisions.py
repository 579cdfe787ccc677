"""A player decision with exactly one legal move is played by the engine (issue 16), with a
ForcedMove event only the host and the deciding seat see; `ask_forced_decisions` keeps asking.
Both ways play the same game."""

from __future__ import annotations

import importlib
import random

import pytest

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.v1 import game_pb2
from tests.playthrough import GAME_OVER, encode, pick

ENGINE = Engine(all_games())
GAMES = ["kraby", "crab_bucket", "crab_rage"]
PLAYER = game_pb2.DECIDER_KIND_PLAYER


def cases(game_id: str):
    return importlib.import_module(f"tests.cases.{game_id}").CASES


def play_both_ways(game_id: str, num_players: int, options, seed: int):
    """One game played twice with the same choices: asking every decision (the single moves
    played by hand, drawing no random number) and letting the engine play the forced ones.
    Yields (asked state, forced-game state, events of the move that led there) whenever both
    games wait for the same choice."""
    rng = random.Random(seed)
    asked, _ = ENGINE.new_game(game_id, options, num_players, seed, ask_forced=True)
    forced, happened = ENGINE.new_game(game_id, options, num_players, seed)
    events = happened.events
    forced_moves: list[game_pb2.Move] = []
    while True:
        while asked.next.kind == PLAYER:  # the asking game catches up by hand
            moves, _ = ENGINE.legal_moves(asked)
            if len(moves) != 1:
                break
            forced_moves.append(moves[0])
            asked = ENGINE.apply_move(asked, moves[0])[0]
        yield asked, forced, events, forced_moves
        if asked.next.kind == GAME_OVER:
            return
        forced_moves = []
        moves, _ = ENGINE.legal_moves(asked)
        move = pick(rng, moves)
        asked = ENGINE.apply_move(asked, move)[0]
        forced, happened, _ = ENGINE.apply_move(forced, move)
        events = happened.events


def without_ask(state: game_pb2.GameState) -> bytes:
    copy = game_pb2.GameState()
    copy.CopyFrom(state)
    copy.ask_forced_decisions = False
    return encode(copy)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_decision_with_one_legal_move_is_played_by_the_engine_with_a_forced_move_event(
    game_id,
):
    seen_forced = 0
    for num_players, options in cases(game_id):
        for seed in range(1, 4):
            for asked, forced, events, forced_moves in play_both_ways(
                game_id, num_players, options, seed
            ):
                # the same game, whoever played the single moves
                assert without_ask(asked) == encode(forced)
                assert forced.ask_forced_decisions is False
                if forced.next.kind == PLAYER:
                    assert len(ENGINE.legal_moves(forced)[0]) > 1, "a forced decision waits"
                reported = [e.forced_move.move for e in events if e.HasField("forced_move")]
                assert reported == forced_moves  # each as LegalMoves listed it, in order
                seen_forced += len(reported)
    assert seen_forced > 0, "no game met a forced decision: the test checks nothing"


@pytest.mark.parametrize("game_id", GAMES)
def test_only_the_host_and_the_deciding_seat_see_a_forced_move(game_id):
    checked = 0
    for num_players, options in cases(game_id):
        for seed in range(1, 4):
            rng = random.Random(seed)
            state, _ = ENGINE.new_game(game_id, options, num_players, seed)
            while state.next.kind != GAME_OVER:
                moves, _ = ENGINE.legal_moves(state)
                move = pick(rng, moves)
                after, happened, _ = ENGINE.apply_move(state, move)
                host = [e for e in happened.events if e.HasField("forced_move")]
                for event in host:
                    seat = event.forced_move.move.player
                    assert event in happened.seat_events[seat]
                    others = [happened.public_events] + [
                        happened.seat_events[s] for s in range(num_players) if s != seat
                    ]
                    assert all(event not in seen for seen in others)
                    game = ENGINE.games[game_id]
                    name = game.codec.player_name(ENGINE.decode(state).state, seat)
                    label = event.forced_move.move.label
                    assert event.text == f"{name} has only one possible move: {label}."
                    checked += 1
                assert not any(e.HasField("forced_move") for e in happened.public_events)
                state = after
    assert checked > 0


def test_a_state_keeps_asking_for_forced_decisions_and_its_bytes_are_protobufs():
    for game_id in GAMES:
        num_players, options = cases(game_id)[0]
        state, _ = ENGINE.new_game(game_id, options, num_players, 5, ask_forced=True)
        assert state.ask_forced_decisions
        moves, _ = ENGINE.legal_moves(state)
        after, _, _ = ENGINE.apply_move(state, moves[0])
        assert after.ask_forced_decisions
        assert ENGINE.encode_serialized(ENGINE.decode(after)) == encode(after)


def test_replay_of_a_record_with_its_forced_moves_needs_ask_forced_decisions():
    """A record made while every decision was asked holds the single moves too: replayed with
    `ask_forced_decisions` it is legal to the end; without, the engine has played them itself."""
    for game_id in GAMES:
        for num_players, options in cases(game_id):
            rng = random.Random(7)
            state, _ = ENGINE.new_game(game_id, options, num_players, 7, ask_forced=True)
            moves, singles = [], 0
            while state.next.kind != GAME_OVER:
                legal, _ = ENGINE.legal_moves(state)
                singles += len(legal) == 1 and legal[0].HasField("player")
                moves.append(pick(rng, legal))
                state = ENGINE.apply_move(state, moves[-1])[0]
            replayed = ENGINE.replay(game_id, options, num_players, 7, 0, moves, ask_forced=True)
            assert replayed.ok and encode(replayed.state) == encode(state)
            if singles:
                assert not ENGINE.replay(game_id, options, num_players, 7, 0, moves).ok
                return
    pytest.fail("no record held a forced decision")
