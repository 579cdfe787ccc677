"""One game in process for an agent loop (docs/agents.md): moves in as move ids, observations
and returns out. The PettingZoo environments and the OpenSpiel games drive the engine through
it, and so does anything else that wants the engine without the service.

Like the service, a table resolves chance from its own PRNG (AUTO) and plays a decision with a
single legal move for its player (a `ForcedMove`), unless it was made with explicit chance (an
OpenSpiel game's chance nodes) or `ask_forced`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crabgames.core.engine import AUTO, EXPLICIT, Engine, Match
from crabgames.core.errors import IllegalMove
from crabgames.core.game import CHANCE, NOBODY, PLAYER, AnyGame, Decision, MoveIds, Observes
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api


class Table:
    """A match and the engine that serves it, spoken to in move ids."""

    __slots__ = ("engine", "match", "listed")

    def __init__(self, engine: Engine, match: Match) -> None:
        if not isinstance(match.game, MoveIds) or not isinstance(match.game, Observes):
            title = match.game.facts.title
            raise ValueError(f"{title} has no move ids or observations (MoveIds, Observes)")
        self.engine = engine
        self.match = match
        # The legal moves by id at one version of the match: an agent asks for its mask, then
        # plays one of them, and every id is worked out once.
        self.listed: tuple[int, dict[int, Any]] = (-1, {})

    @classmethod
    def new(
        cls,
        engine: Engine,
        game_id: str,
        num_players: int,
        seed: int = 0,
        options: Any = None,
        explicit_chance: bool = False,
        ask_forced: bool = False,
    ) -> Table:
        """A new game, as NewGame sets it up (`options`: the game's options message)."""
        if options is None:
            options = getattr(api.NewGameRequest(), game_id)
        match, _ = engine.new_match(
            game_id,
            options,
            num_players,
            seed,
            EXPLICIT if explicit_chance else AUTO,
            ask_forced,
        )
        return cls(engine, match)

    @classmethod
    def from_state(cls, engine: Engine, state: game_pb2.GameState | bytes) -> Table:
        return cls(engine, engine.decode(state, read_only=True).copy())

    @property
    def game(self) -> AnyGame:
        return self.match.game

    @property
    def num_players(self) -> int:
        return self.match.num_players

    def decision(self) -> Decision:
        return self.match.decision()

    def is_over(self) -> bool:
        return self.decision().kind == NOBODY

    def legal_moves_by_id(self) -> dict[int, Any]:
        """The deciding player's legal moves by move id (empty unless a player decides): one
        dict until the match moves on, read and not changed."""
        version, moves = self.listed
        if version != self.match.version:
            moves = {}
            if self.decision().kind == PLAYER:
                game, state = self.game, self.match.state
                moves = {game.move_id(state, move): move for move in game.legal_moves(state)}
            self.listed = (self.match.version, moves)
        return moves

    def legal_move_ids(self) -> list[int]:
        return sorted(self.legal_moves_by_id())

    def play(self, move_id: int) -> list[Any]:
        """The deciding player's move with this id, then whatever follows without a choice;
        the native events. IllegalMove (G3) when no legal move has that id."""
        move = self.legal_moves_by_id().get(move_id)
        if move is None:
            raise IllegalMove("G3", f"no legal move has the id {move_id} now")
        return self.match.apply(False, move)

    def chance_outcomes(self) -> Sequence[tuple[int, int]]:
        """At a chance node (explicit chance only): (value, weight) pairs (G2)."""
        assert self.decision().kind == CHANCE
        return self.game.chance_outcomes(self.match.state)

    def resolve_chance(self, value: int) -> list[Any]:
        if value not in {v for v, _ in self.chance_outcomes()}:
            raise IllegalMove("G2", f"{value} is not a possible outcome now")
        return self.match.apply(True, value)

    def view(self, seat: int | None) -> game_pb2.View:
        return self.engine.view_of(self.match, seat)

    def observation(self, seat: int) -> list[float]:
        return self.engine.observation(self.engine.view_of(self.match, seat, legal_moves=False))

    def outcome(self) -> game_pb2.Outcome | None:
        return self.engine.encode_outcome(self.match)

    def returns(self) -> list[float]:
        """Each seat's return (0 to 1) once the game is over; zeros before."""
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.num_players
        return self.game.returns(outcome)

    def state(self) -> game_pb2.GameState:
        return self.engine.encode(self.match)

    def clone(self) -> Table:
        return Table(self.engine, self.match.copy())
