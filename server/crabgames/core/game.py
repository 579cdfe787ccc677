"""The shape every game plugs into (OpenSpiel-style): facts declared once, then small hooks.

A game works on its own native state (plain Python objects) and translates to and from its
protobuf messages in its codec hooks. The generic machinery (who decides next, chance nodes and
the PRNG, views, errors, replay) lives in `engine.py` and is written once for all games.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from crabgames.v1 import game_pb2

S = TypeVar("S")  # the game's native state
M = TypeVar("M")  # the game's native move (hashable, comparable)

PLAYER = game_pb2.DECIDER_KIND_PLAYER
CHANCE = game_pb2.DECIDER_KIND_CHANCE
NOBODY = game_pb2.DECIDER_KIND_NONE


class Decision(NamedTuple):
    """Who must decide next and what kind of decision it is (G3)."""

    kind: int  # PLAYER, CHANCE or NOBODY
    player: int
    name: str

    @staticmethod
    def player_decides(player: int, name: str) -> Decision:
        return Decision(PLAYER, player, name)

    @staticmethod
    def chance(name: str) -> Decision:
        return Decision(CHANCE, -1, name)

    @staticmethod
    def game_over() -> Decision:
        return Decision(NOBODY, -1, "game_over")


@dataclass(frozen=True)
class OptionInfo:
    """One field of the game's options message, for ListGames. Its type, its enum's values and
    whether it may be left unset are read from the message's descriptor (the service does that);
    the game states what the descriptor cannot say."""

    name: str
    description: str
    default: str
    minimum: int | None = None  # an int: the smallest allowed value
    maximum: int | None = None  # an int: the largest (a seat: the largest seat of any game)
    per_seat: bool = False  # a list: empty, or exactly one entry per seat
    min_items: int | None = None  # a list not per seat: its length when not empty
    max_items: int | None = None
    allowed_values: tuple[str, ...] = ()  # an enum: when only these of its values are allowed
    seat: bool = False  # an int naming a seat: 0 to num_players - 1 (the range is derived)
    min_players: int | None = None  # the option may be set only with this many players or more
    max_players: int | None = None  # ... or fewer


@dataclass(frozen=True)
class GameFacts:
    id: str  # also the name of the oneof fields that select the game
    title: str
    min_players: int
    max_players: int
    rules_version: str
    has_chance: bool
    has_hidden_information: bool
    has_simultaneous_choices: bool
    modes: tuple[str, ...] = ()
    options: tuple[OptionInfo, ...] = field(default_factory=tuple)
    # The same rules under an earlier spelling of the version ("kraby-1" before every game used
    # "<id>/<n>"): states and views carrying it are still read; new ones carry `rules_version`.
    former_rules_versions: tuple[str, ...] = ()

    @property
    def accepted_rules_versions(self) -> tuple[str, ...]:
        return (self.rules_version, *self.former_rules_versions)


@dataclass(frozen=True)
class Violation:
    """Why a move is illegal: the rule (section or ruling id) and a sentence for a player."""

    rule: str
    reason: str


class Game(ABC, Generic[S, M]):
    facts: GameFacts

    # ----- rules, on the native state -----

    @abstractmethod
    def decode_options(self, options: Any, num_players: int, path: str) -> Any:
        """Validate the game's options message (may be an empty message) into native options."""

    @abstractmethod
    def initial_state(self, num_players: int, options: Any) -> S:
        """The state before any chance event of the set-up is resolved."""

    @abstractmethod
    def next_decision(self, state: S) -> Decision: ...

    @abstractmethod
    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move of the player who must decide now."""

    def is_legal(self, state: S, move: M) -> bool:
        # One source of truth: a move is legal exactly when the generator lists it.
        return move in self.legal_moves(state)

    @abstractmethod
    def explain_illegal(self, state: S, move: M) -> Violation:
        """Which rule an illegal move breaks. Only called once `is_legal` said no."""

    @abstractmethod
    def apply_move(self, state: S, move: M) -> list[Any]:
        """Apply a legal move in place; return the native events, in order."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[int, int]]:
        """At a chance node: (value, weight) pairs in the game's documented order (G2)."""

    @abstractmethod
    def apply_chance(self, state: S, value: int) -> list[Any]: ...

    @abstractmethod
    def outcome(self, state: S) -> Any | None:
        """The native outcome once the game is over, else None."""

    @abstractmethod
    def clone(self, state: S) -> S: ...

    @abstractmethod
    def resample_hidden(self, state: S, player: int | None, rng: random.Random) -> S:
        """A copy of the state with everything hidden from `player` (everything hidden from
        everyone when None) redrawn at random, consistent with what that player sees. Used to
        prove views leak nothing and by bots that need a full state (determinization)."""

    # ----- for learning agents and bots -----

    @abstractmethod
    def move_id_count(self, num_players: int) -> int:
        """The size of the move-id space: every move a player could ever make maps to one id."""

    @abstractmethod
    def move_id(self, state: S, move: M) -> int:
        """The stable integer id of a move (0 <= id < move_id_count)."""

    @abstractmethod
    def state_from_view(self, view: Any, player: int, num_players: int, rng: random.Random) -> S:
        """A full native state consistent with `player`'s view message, hidden information drawn
        at random. Raise InvalidArgument (paths under `view.<game>`) for a view that cannot be."""

    def invariant_violations(self, state: S) -> list[str]:
        """Conservation laws that must hold after every move (tested by the conformance suite)."""
        return []

    # ----- codec: protobuf <-> native -----

    @abstractmethod
    def decode_state(self, msg: Any, num_players: int, path: str) -> S:
        """Validate the game's state message and build the native state; raise InvalidArgument
        naming the field path of the first problem."""

    @abstractmethod
    def encode_state_bytes(self, state: S) -> bytes:
        """The game's state message serialized, its fields in field-number order (as protobuf's
        deterministic serialization writes them). The service answers ApplyMove with these
        bytes framed in a GameState, and remembers the state by them: a state sent back must
        match them byte for byte to be found."""

    @abstractmethod
    def decode_move(self, msg: Any, path: str) -> M: ...

    @abstractmethod
    def encode_move(self, move: M, msg: Any) -> None: ...

    @abstractmethod
    def move_label(self, state: S, move: M) -> str: ...

    def move_cache_key(self, state: S, move: M) -> Hashable:
        """Everything a move's encoding depends on (the move, its label and its id), so it is
        built once; a game whose labels cost more can give something cheaper that still
        determines them."""
        return move, self.move_label(state, move), self.move_id(state, move)

    def move_cache_keys(self, state: S, moves: Sequence[M]) -> list[Hashable]:
        """`move_cache_key` of each move, in order (one call per LegalMoves: a game can build
        them all at once, cheaper than a method call per move)."""
        key = self.move_cache_key
        return [key(state, move) for move in moves]

    @abstractmethod
    def chance_label(self, state: S, value: int) -> str: ...

    def player_name(self, state: S, seat: int) -> str:
        """The seat as the game's sentences name it (a team's colour, say)."""
        return f"player {seat}"

    @abstractmethod
    def encode_event(self, event: Any, msg: game_pb2.Event) -> None:
        """Fill the game's event field and the one-line `text`."""

    def encode_event_bytes(self, event: Any) -> bytes:
        """The event as a serialized `Event` (the bytes `encode_event`'s message serializes to);
        the engine frames responses from these bytes. A game may write them directly when that
        is cheaper than building the message."""
        msg = game_pb2.Event()
        self.encode_event(event, msg)
        return msg.SerializeToString()

    def chance_hidden_from(self, state: S) -> Collection[int]:
        """At a chance node: the seats that must not see its outcome (for a draw into a hand,
        everyone but the drawer; spectators never see such an outcome). Empty when the outcome
        is public (a die roll, a card turned face up)."""
        return ()

    def decision_hidden_from(self, state: S) -> Collection[int]:
        """For a player's decision: the seats that must not see which choice was made (a secret
        commitment, G4). Empty for an open decision."""
        return ()

    def redact_event(self, event: Any, viewer: int | None) -> Any | None:
        """The event as `viewer` (None: a spectator) may see it (G5): the same event when it is
        public, a copy without the secret part (another player's draw), or None to hide it. A
        seat knows at least what a spectator knows: an event a spectator gets whole (the same
        object) every seat gets whole, so the engine asks seat by seat only about the others."""
        return event

    @abstractmethod
    def encode_view(self, state: S, player: int | None, msg: Any) -> None:
        """Fill the game's view message for `player` (None for a spectator)."""

    @abstractmethod
    def encode_outcome(self, outcome: Any, msg: game_pb2.Outcome) -> None: ...
