"""Bots that play through the service. A bot decides from its player's view only (GetView for
its seat); when it needs a full state to search from, it asks the engine for one consistent with
that view (SampleState), so it never sees the real secrets.

    bots = [LookaheadBot(seed=1), RandomBot(seed=2)]
    record = play_game(client, "kraby", bots, seed=7)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import grpc

from crabclients.client import (
    GAME_OVER,
    PLAYER,
    RulesClient,
    RulesServiceError,
    new_game_request,
)
from crabclients.heuristics import EVALUATORS, outcome_value
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api


class Bot(Protocol):
    name: str

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        """One of `view.legal_moves` (the view is for the seat that must decide now)."""
        ...


class RandomBot:
    """Picks a legal move uniformly at random."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        return self.rng.choice(list(view.legal_moves))


class LookaheadBot:
    """Determinized one-ply search through the service.

    For each of `samples` full states drawn consistent with its view (SampleState), it applies
    every candidate legal move (ApplyMove) and values the result: the outcome if the game ended,
    else the game's heuristic evaluation (crabclients.heuristics) if it has one, else the mean of
    `playouts` random games played to the end (the Playouts RPC, or LegalMoves/ApplyMove loops
    on a server without it). It plays the move with the best mean value. When the server
    refuses the search (a game that cannot sample states yet), it plays a random move and counts
    it in `fallbacks`. Sampled states carry no real secret, so a sealing server takes them
    unsealed and without tokens."""

    name = "lookahead"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 2,
        playouts: int = 4,
        max_candidates: int = 16,
        max_playout_moves: int = 2000,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.playouts = playouts
        self.max_candidates = max_candidates
        self.max_playout_moves = max_playout_moves
        self.fallbacks = 0
        self.last_refusal: RulesServiceError | None = None
        self.server_playouts = True  # until the server says it has no Playouts RPC

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        candidates = self.rng.sample(moves, min(len(moves), self.max_candidates))
        try:
            totals = self.search(client, view, candidates)
        except RulesServiceError as error:
            # The engine cannot sample this game's states (or refused the search): play at
            # random instead.
            self.fallbacks, self.last_refusal = self.fallbacks + 1, error
            return self.rng.choice(moves)
        best = max(totals)
        return self.rng.choice([m for m, t in zip(candidates, totals, strict=True) if t == best])

    def search(
        self, client: RulesClient, view: game_pb2.View, candidates: list[game_pb2.Move]
    ) -> list[float]:
        """Each candidate's total value over `samples` states consistent with the view."""
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            state = client.sample_state(view, seed=self.rng.getrandbits(62) + 1)
            for index, move in enumerate(candidates):
                totals[index] += self.value_after(client, state, move, view.player)
        return totals

    def value_after(
        self, client: RulesClient, state: game_pb2.GameState, move: game_pb2.Move, player: int
    ) -> float:
        response = client.apply_move(state, move)
        if response.state.next.kind == GAME_OVER:
            return outcome_value(response.outcome, player)
        evaluate = EVALUATORS.get(response.state.WhichOneof("game") or "")
        if evaluate is not None:
            return evaluate(response.state, player)
        return self.playouts_value(client, response.state, player)

    def playouts_value(self, client: RulesClient, state: game_pb2.GameState, player: int) -> float:
        """The mean value of `playouts` random games from `state`: played inside the server by
        the Playouts RPC when it has one, else by LegalMoves/ApplyMove loops."""
        if self.server_playouts:
            try:
                stats = client.playouts(state, self.playouts, seed=self.rng.getrandbits(62) + 1)
                return playout_stats_value(stats, player)
            except RulesServiceError as error:
                if error.code != grpc.StatusCode.UNIMPLEMENTED:
                    raise
                self.server_playouts = False
        runs = [self.playout(client, state, player) for _ in range(self.playouts)]
        return sum(runs) / len(runs)

    def playout(self, client: RulesClient, state: game_pb2.GameState, player: int) -> float:
        """Random moves to the end of the game; the finished game's value for `player`."""
        for _ in range(self.max_playout_moves):
            moves = client.legal_moves(state)
            response = client.apply_move(state, self.rng.choice(moves))
            state = response.state
            if state.next.kind == GAME_OVER:
                return outcome_value(response.outcome, player)
        return 0.0


class SearchBot:
    """The server's search bot (SuggestMove): information-set Monte Carlo tree search over
    states drawn consistently with this seat's view, inside the server. It sends only its
    view, so it works on a sealing server too; `simulations` and `milliseconds` are its budget
    per move (0: the server's default)."""

    name = "search"

    def __init__(self, seed: int = 0, simulations: int = 0, milliseconds: int = 1000) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.last: api.SuggestMoveResponse | None = None

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        self.last = client.suggest_move(
            view, self.simulations, self.milliseconds, seed=self.rng.getrandbits(62) + 1
        )
        return self.last.move


def playout_stats_value(stats: api.PlayoutsResponse, player: int) -> float:
    """outcome_value's measure, averaged over the server's playouts."""
    means = {p.player: p.mean_score for p in stats.players}
    rates = {p.player: p.win_rate for p in stats.players}
    mine = means.get(player, 0.0)
    rivals = [m for seat, m in means.items() if seat != player]
    margin = mine - max(rivals) if rivals and len(set(means.values())) > 1 else mine
    return 1000.0 * rates.get(player, 0.0) + margin


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "lookahead": LookaheadBot,
    "search": SearchBot,
}


@dataclass
class GameRecord:
    """A game played through the service."""

    game: str
    request: api.NewGameRequest
    state: game_pb2.GameState
    outcome: game_pb2.Outcome = field(default_factory=game_pb2.Outcome)
    moves: list[game_pb2.Move] = field(default_factory=list)
    events: list[game_pb2.Event] = field(default_factory=list)
    # With a sealing server: each seat's player token (what its views and moves need).
    tokens: list[str] = field(default_factory=list)


# Called after every move: (the seat that moved, the move, the service's response).
StepCallback = Callable[[int, game_pb2.Move, api.ApplyMoveResponse], None]


def play_game(
    client: RulesClient,
    game: str,
    bots: Sequence[Bot],
    seed: int = 0,
    options=None,
    on_step: StepCallback | None = None,
    on_start: Callable[[api.NewGameResponse], None] | None = None,
    max_moves: int = 20_000,
) -> GameRecord:
    """Play one game with `bots[seat]` deciding for each seat, each from its own view. With a
    sealing server, each seat's calls carry that seat's player token."""
    request = new_game_request(game, len(bots), seed, options)
    started = client.new_game(game, len(bots), seed, options)
    record = GameRecord(game, request, started.state, started.outcome, events=list(started.events))
    tokens = list(started.player_tokens) or [""] * len(bots)
    record.tokens = tokens
    if on_start is not None:
        on_start(started)
    state = started.state
    while state.next.kind != GAME_OVER:
        if len(record.moves) >= max_moves:
            raise RuntimeError(f"{game} did not end within {max_moves} moves")
        if state.next.kind != PLAYER:
            raise RuntimeError(f"unexpected decision {state.next} in an AUTO-chance game")
        seat = state.next.player
        move = bots[seat].choose(client, client.view(state, seat, tokens[seat]))
        response = client.apply_move(
            state, move, expected_version=state.version, player_token=tokens[seat]
        )
        state = response.state
        record.moves.append(move)
        record.events.extend(response.events)
        record.outcome = response.outcome
        if on_step is not None:
            on_step(seat, move, response)
    record.state = state
    return record
