"""Where a PettingZoo environment's game runs (pettingzoo_env.py): `InProcess` on the engine
(crabgames.core.agents.Table), or `OverGrpc` on a rules server. Both speak move ids and give
the same numbers for the same seed and moves: observations from the seat's view, the legal
mask of the deciding seat, the returns at the end (0 to 1, Game.returns).

Like the service, both resolve chance from the game's own PRNG (AUTO) and play a decision
with a single legal move for its player, so a backend only ever stops at a player's choice.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt
from google.protobuf.message import Message

from crabclients.client import PLAYER, RulesClient
from crabgames.core.game import AnyGame
from crabgames.games import all_games
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

if TYPE_CHECKING:
    from crabgames.core.agents import Table
    from crabgames.core.engine import Engine

Mask = npt.NDArray[np.int8]


class IllegalActionError(ValueError):
    """An action that is not a legal move id for the deciding seat now (its mask is 0)."""


class Backend(Protocol):
    """A game of one id and player count at a time, spoken to in move ids."""

    def spaces(self, game: str, num_players: int) -> tuple[int, tuple[int, ...]]:
        """The size of the move-id space and the shape of an observation."""
        ...

    def start(self, game: str, num_players: int, seed: int, options: Message | None) -> None:
        """A new game from this seed (nonzero), with the game's options message (None: default)."""
        ...

    def decider(self) -> int | None:
        """The seat that must decide now; None once the game is over."""
        ...

    def legal_mask(self) -> Mask:
        """1 for every legal move id of the deciding seat (all 0 once the game is over)."""
        ...

    def play(self, move_id: int) -> None:
        """The deciding seat plays the move with this id (IllegalActionError if none is legal)."""
        ...

    def observation(self, seat: int) -> list[float]:
        """`seat`'s observation tensor, flat, computed from its own view."""
        ...

    def view(self, seat: int) -> game_pb2.View: ...

    def returns(self) -> list[float]:
        """Each seat's return (0 to 1) once the game is over; zeros before."""
        ...

    def close(self) -> None: ...


def mask_of(ids: list[int], count: int) -> Mask:
    mask = np.zeros(count, dtype=np.int8)
    mask[ids] = 1
    return mask


_ENGINE: list[Engine] = []


def shared_engine() -> Engine:
    """One engine per process for every in-process environment (its decoded-state cache)."""
    if not _ENGINE:
        from crabgames.core.engine import Engine
        from crabgames.games import all_games

        _ENGINE.append(Engine(all_games()))
    return _ENGINE[0]


class InProcess:
    """The game on the engine in this process (needs the server package, crabgames.core)."""

    def __init__(self, engine: Engine | None = None) -> None:
        from crabgames.core.game import PLAYER as player_kind

        self.engine = engine or shared_engine()
        self.player_kind = player_kind  # the engine's own decision kind, not the contract's
        self.table: Table | None = None

    def spaces(self, game: str, num_players: int) -> tuple[int, tuple[int, ...]]:
        rules = self.engine.games[game]
        return rules.move_id_count(num_players), tuple(rules.observation_layout.shape)

    def start(self, game: str, num_players: int, seed: int, options: Message | None) -> None:
        from crabgames.core.agents import Table

        self.table = Table.new(self.engine, game, num_players, seed, options)

    @property
    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("no game yet: call start (the environment's reset) first")
        return self.table

    def decider(self) -> int | None:
        decision = self._table.decision()
        return decision.player if decision.kind == self.player_kind else None

    def legal_mask(self) -> Mask:
        table = self._table
        return mask_of(table.legal_move_ids(), table.game.move_id_count(table.num_players))

    def play(self, move_id: int) -> None:
        from crabgames.core.errors import IllegalMove

        try:
            self._table.play(move_id)
        except IllegalMove as error:
            raise IllegalActionError(str(error)) from None

    def observation(self, seat: int) -> list[float]:
        return self._table.observation(seat)

    def view(self, seat: int) -> game_pb2.View:
        return self._table.view(seat)

    def returns(self) -> list[float]:
        return self._table.returns()

    def close(self) -> None:
        self.table = None


# An empty selection: ApplyMove returns no events (the environment does not read them).
NO_EVENTS = api.EventSelection()


class OverGrpc:
    """The game on a rules server: the state travels with every call, the observation comes
    from GetView (with_observation), the mask from LegalMoves (with_mask). On a sealing server
    every call carries the acting seat's token from NewGame (this backend plays every seat)."""

    def __init__(self, client: RulesClient | str | None = None, timeout: float = 10.0) -> None:
        """`client`: a connected RulesClient, or an address to connect to (None:
        CRABGAMES_ADDRESS, or 127.0.0.1:50051)."""
        self.owns_client = not isinstance(client, RulesClient)
        self.client = (
            client if isinstance(client, RulesClient) else RulesClient.connect(client, timeout)
        )
        self.game = ""
        self.state = game_pb2.GameState()
        self.tokens: list[str] = []
        self.moves: dict[int, game_pb2.Move] = {}
        self.mask: Mask = np.zeros(0, dtype=np.int8)
        self.outcome: game_pb2.Outcome | None = None

    def spaces(self, game: str, num_players: int) -> tuple[int, tuple[int, ...]]:
        """The shape from ListGames; the id-space size for this player count from LegalMoves
        on a game started for the purpose (GameInfo gives it for the largest table)."""
        info = {info.id: info for info in self.client.list_games()}[game]
        started = self.client.new_game(game, num_players, seed=1)
        response = self.client.legal_moves_response(started.state, deciding_token(started))
        return response.move_id_count, tuple(info.observation_shape)

    def start(self, game: str, num_players: int, seed: int, options: Message | None) -> None:
        response = self.client.new_game(game, num_players, seed, options)
        self.game, self.tokens = game, list(response.player_tokens)
        self._arrive(response.state, response.outcome if response.HasField("outcome") else None)

    def _seat_token(self, seat: int) -> str:
        return self.tokens[seat] if self.tokens else ""

    def _arrive(self, state: game_pb2.GameState, outcome: game_pb2.Outcome | None) -> None:
        """A new state: remember it and the deciding seat's legal moves by id, and its mask."""
        self.state, self.outcome = state, outcome
        seat = self.decider()
        token = self._seat_token(seat) if seat is not None else ""
        response = self.client.legal_moves_response(state, token, with_mask=True)
        self.moves = {move.move_id: move for move in response.moves}
        self.mask = np.zeros(response.move_id_count, dtype=np.int8)
        if response.legal_mask:
            self.mask[:] = response.legal_mask

    def decider(self) -> int | None:
        nxt = self.state.next
        return nxt.player if nxt.kind == PLAYER and self.outcome is None else None

    def legal_mask(self) -> Mask:
        return self.mask.copy()

    def play(self, move_id: int) -> None:
        seat = self.decider()
        move = self.moves.get(move_id)
        if seat is None or move is None:
            raise IllegalActionError(f"no legal move has the id {move_id} now")
        response = self.client.apply_move(
            self.state, move, player_token=self._seat_token(seat), events=NO_EVENTS
        )
        self._arrive(response.state, response.outcome if response.HasField("outcome") else None)

    def observation(self, seat: int) -> list[float]:
        return list(self.client.observation(self.state, seat, self._seat_token(seat)).observation)

    def view(self, seat: int) -> game_pb2.View:
        return self.client.view(self.state, seat, self._seat_token(seat))

    def returns(self) -> list[float]:
        if self.outcome is None:
            return [0.0] * self.state.num_players
        return returns_of(self.game, self.outcome)

    def close(self) -> None:
        if self.owns_client:
            self.client.close()


def deciding_token(started: api.NewGameResponse) -> str:
    """The deciding seat's token in a fresh game (empty on a server that does not seal)."""
    tokens, nxt = started.player_tokens, started.state.next
    return tokens[nxt.player] if tokens and nxt.kind == PLAYER else ""


def returns_of(game: str, outcome: game_pb2.Outcome) -> list[float]:
    """The returns of a finished game, from its outcome: the game's own `Game.returns`, so a
    client over gRPC gets exactly what the engine in process gives (docs/agents.md)."""
    return games_by_id()[game].returns(outcome)


@functools.cache
def games_by_id() -> dict[str, AnyGame]:
    return {game.facts.id: game for game in all_games()}
