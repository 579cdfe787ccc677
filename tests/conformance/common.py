"""Random games for the contract tests: every game, every conformance case, a few seeds, with
each seat's and the spectator's events and views along the way."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from dataclasses import dataclass

from crabgames.core.engine import Engine, Happened
from crabgames.games import all_games
from crabgames.v1 import game_pb2
from tests.playthrough import GAME_OVER, pick

ENGINE = Engine(all_games())
GAMES = ["kraby", "crab_bucket", "crab_rage"]
SEEDS = range(1, 4)


def cases(game_id: str) -> list:
    return importlib.import_module(f"tests.cases.{game_id}").CASES


@dataclass
class Step:
    before: game_pb2.GameState
    move: game_pb2.Move | None  # None: the set-up (NewGame)
    after: game_pb2.GameState
    happened: Happened

    def events_seen_by(self, viewer: int | None) -> list[game_pb2.Event]:
        if viewer is None:
            return self.happened.public_events
        return self.happened.seat_events[viewer]


def games(game_id: str) -> Iterator[tuple[int, object, int]]:
    for num_players, options in cases(game_id):
        for seed in SEEDS:
            yield num_players, options, seed


def steps(game_id: str, num_players: int, options, seed: int) -> Iterator[Step]:
    """Every call of one random game, from NewGame to the end."""
    rng = random.Random(seed)
    state, happened = ENGINE.new_game(game_id, options, num_players, seed)
    yield Step(game_pb2.GameState(), None, state, happened)
    while state.next.kind != GAME_OVER:
        moves, _ = ENGINE.legal_moves(state)
        move = pick(rng, moves)
        after, happened, _ = ENGINE.apply_move(state, move)
        yield Step(state, move, after, happened)
        state = after


def viewers(num_players: int) -> list[int | None]:
    return [None, *range(num_players)]
