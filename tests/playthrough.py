"""Helpers that play games through the Engine's protobuf API, for every game alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from crabgames.core.engine import Engine
from crabgames.v1 import game_pb2

GAME_OVER = game_pb2.DECIDER_KIND_NONE


def encode(message) -> bytes:
    return message.SerializeToString(deterministic=True)


@dataclass
class Record:
    """A played game: the request to start it, every move, and every state along the way."""

    game_id: str
    num_players: int
    options: object
    seed: int
    chance_mode: int
    moves: list[game_pb2.Move] = field(default_factory=list)
    states: list[game_pb2.GameState] = field(default_factory=list)
    outcome: game_pb2.Outcome | None = None


def play_random(
    engine: Engine,
    game_id: str,
    num_players: int,
    options,
    seed: int,
    chance_mode: int = game_pb2.CHANCE_MODE_AUTO,
    after_move: Callable[[game_pb2.GameState], None] | None = None,
    max_moves: int = 20_000,
) -> Record:
    rng = random.Random(seed)
    record = Record(game_id, num_players, options, seed, chance_mode)
    state, _ = engine.new_game(game_id, options, num_players, seed, chance_mode)
    record.states.append(state)
    outcome = engine.outcome(state)
    while state.next.kind != GAME_OVER:
        assert len(record.moves) < max_moves, "the game does not end"
        moves, _ = engine.legal_moves(state)
        assert moves, f"nobody can move but the game is not over: {state.next}"
        move = pick(rng, moves)
        state, _, outcome = engine.apply_move(state, move)
        record.moves.append(move)
        record.states.append(state)
        if after_move:
            after_move(state)
    record.outcome = outcome
    return record


def pick(rng: random.Random, moves: list[game_pb2.Move]) -> game_pb2.Move:
    if moves[0].WhichOneof("move") == "chance":
        weights = [m.chance.probability for m in moves]
        return rng.choices(moves, weights)[0]
    return rng.choice(moves)
