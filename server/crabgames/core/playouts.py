"""Server-side playouts: many games played to the end from one state, inside the server.

A bot that wants Monte Carlo estimates sends one state and gets back each seat's mean score and
win rate, instead of driving every playout move by move over gRPC. Written once for every game on
the native hooks (`next_decision`, `legal_moves`, `apply_move`, `chance_outcomes`,
`apply_chance`, `outcome`), so every served game gets it.

Reproducible: playout `i` draws its moves and its chance events from its own portable PRNG seeded
from (seed, i), never from the state's PRNG (whose future draws a player must not learn). So the
first `n` playouts of a call are the same whatever `count` was, and a truncated call equals the
call asking for `games` playouts.

Bounded (docs/performance.md, docs/security.md): `count` is 1..MAX_PLAYOUTS, and a call stops
at MAX_DECISIONS decisions in all, a deterministic work bound of at most about a second on one
core (measured by `make bench`), and whenever `time_up` says so (the service: the caller's
deadline, the caller gone, or its time budget), checked every CHECK_EVERY decisions. Only games
played to the end are counted, and the response says it was truncated.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from crabgames.core.engine import Engine, Match
from crabgames.core.errors import bad_request
from crabgames.core.game import CHANCE, NOBODY, Game
from crabgames.core.prng import GAMMA, MASK64, Prng, mix
from crabgames.v1 import game_pb2

MAX_PLAYOUTS = 10_000
# Decisions (player moves and chance events) per call, across all its playouts.
MAX_DECISIONS = 10_000
# How often a playout asks whether its time is up: rarely enough to cost nothing, often enough
# that even a slow game (many legal moves per decision) stops within milliseconds.
CHECK_EVERY = 32

S = TypeVar("S")  # the game's native state, move, event and outcome
M = TypeVar("M")
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741


def never() -> bool:
    return False


@dataclass
class PlayoutStats:
    """What the playouts of one call found, by seat."""

    seed: int
    num_players: int
    games: int = 0
    decisions: int = 0
    truncated: bool = False
    score_sums: list[float] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)

    def mean_scores(self) -> list[float]:
        return [s / self.games if self.games else 0.0 for s in self.score_sums]

    def win_rates(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]


def playouts(
    engine: Engine,
    state: game_pb2.GameState,
    count: int,
    seed: int = 0,
    max_decisions: int = MAX_DECISIONS,
    time_up: Callable[[], bool] = never,
) -> PlayoutStats:
    """Decode and validate the state, then play `count` random games from it."""
    if not 1 <= count <= MAX_PLAYOUTS:
        raise bad_request("count", f"must be from 1 to {MAX_PLAYOUTS}, not {count}")
    match = engine.decode(state, read_only=True)  # each playout plays on its own clone
    return run_playouts(match, count, seed or secrets.randbits(63) or 1, max_decisions, time_up)


def run_playouts(
    match: Match,
    count: int,
    seed: int,
    max_decisions: int,
    time_up: Callable[[], bool] = never,
) -> PlayoutStats:
    n = match.num_players
    stats = PlayoutStats(seed & MASK64, n, score_sums=[0.0] * n, wins=[0] * n)
    for index in range(count):
        prng = Prng(mix(stats.seed + (index + 1) * GAMMA))
        outcome, decisions = play_out(
            match.game,
            match.game.clone(match.state),
            prng,
            max_decisions - stats.decisions,
            time_up,
            match.ask_forced,
        )
        stats.decisions += decisions
        if outcome is None:
            stats.truncated = True
            break
        stats.games += 1
        for result in outcome.players:
            stats.score_sums[result.player] += result.score
        for winner in outcome.winners:
            stats.wins[winner] += 1
    return stats


def play_out(
    game: Game[S, M, E, O],
    state: S,
    prng: Prng,
    budget: int,
    time_up: Callable[[], bool] = never,
    ask_forced: bool = False,
) -> tuple[game_pb2.Outcome | None, int]:
    """Play one game to the end in place with uniformly random legal moves and chance drawn with
    its weights (G2), as a client would through the service: a decision with one legal move
    is played without drawing, as the engine plays it (unless the game asks for such decisions).
    Returns (outcome, decisions), or (None, decisions) at the work bound or once the time is
    up."""
    decisions = 0
    while True:
        kind = game.next_decision(state).kind
        if kind == NOBODY:
            break
        if decisions >= budget or (decisions % CHECK_EVERY == 0 and time_up()):
            return None, decisions
        decisions += 1
        if kind == CHANCE:
            game.apply_chance(state, prng.pick_outcome(game.chance_outcomes(state)))
            continue
        moves = game.legal_moves(state)
        if len(moves) == 1 and not ask_forced:
            game.apply_move(state, moves[0])
        else:
            game.apply_move(state, moves[prng.below(len(moves))])  # G6: never empty
    ended = game.outcome(state)
    assert ended is not None  # nobody decides: the game is over
    outcome = game_pb2.Outcome()
    game.codec.encode_outcome(ended, outcome)
    return outcome, decisions
