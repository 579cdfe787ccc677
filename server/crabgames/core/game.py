"""The shape every game plugs into (docs/architecture.md).

A game is a `Game`: twelve required hooks in OpenSpiel's shape, and nothing else required.

- `facts`: what ListGames says of it (players, options, rules version);
- `codec`: its messages, a `Codec` built from four declarations: the messages' writers
  (`Messages`, by their shapes in core/wire.py) and the three decoders that validate what a
  caller sends (options, a state, a move);
- seven rules hooks on the game's native state: `initial_state`, `next_decision`,
  `legal_moves`, `apply_move`, `chance_outcomes`, `apply_chance`, `outcome`.

A state is copied by Python's copy protocol (its class's `__copy__`), so cloning is no hook.
What only some games have is an optional capability, a small class of its own that a game lists
among its bases (before `Game`) and must then implement in full:

- `Explains`: which rule an illegal move breaks (without it: G3, not a legal move now);
- `HiddenInformation`: who may see what (G4, G5), and states drawn from what a seat sees
  (without it: everything is public);
- `MoveIds`, `Observes`: stable move ids and observation tensors for learning agents;
- `Strategy`: what the search bot may know beyond the rules (an estimate, a model of a seat);
- `Words` (given to the codec): labels and names in the game's words (without it: the move
  message in protobuf's text format).

Each hook is written once in the game's own modules and named here, not forwarded: a game's
game.py is a declaration (`legal_moves = staticmethod(rules.legal_moves)`). The generic
machinery (who decides next, chance nodes and the PRNG, views, errors, replay) lives in
`engine.py` and is written once for all games.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, NamedTuple, TypeVar, cast

from google.protobuf import text_format
from google.protobuf.message import Message
from mypy_extensions import mypyc_attr, trait

from crabgames.core.errors import bad_request
from crabgames.core.observation import Layout, Writer
from crabgames.core.prng import Prng
from crabgames.core.wire import Encoder, Remembered, Shapes
from crabgames.v1 import game_pb2

T = TypeVar("T")  # a value built once (built_once)
S = TypeVar("S")  # the game's native state
M = TypeVar("M")  # the game's native move (hashable, comparable)
E = TypeVar("E")  # the game's native event
O = TypeVar("O")  # noqa: E741 (the game's native outcome)

PLAYER: Final = game_pb2.DECIDER_KIND_PLAYER
CHANCE: Final = game_pb2.DECIDER_KIND_CHANCE
NOBODY: Final = game_pb2.DECIDER_KIND_NONE


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


class Seat(NamedTuple):
    """A state as one seat sees it (player None: a spectator), which a game's view is written
    from (Messages.view)."""

    state: Any
    player: int | None


Sentence = tuple[str, dict[str, str]]  # an event's template and what its placeholders read


def event_encoder(game_id: str, sentence: Callable[[Any], Sentence], shapes: Shapes) -> Encoder:
    """The writer of a game's events as `Event` messages: the game's field of the oneof (the
    event itself, by its message's shape), its sentence's template and args, and the text they
    make. Events are immutable values, so each distinct one is written once."""

    def text(event: Any) -> str:
        template, args = sentence(event)
        return template.format_map(args)

    read = {
        "text": text,
        "template": lambda event: sentence(event)[0],
        "args": lambda event: sentence(event)[1],
        "event": lambda event: (game_id, event),
    }
    return Encoder(game_pb2.Event, read, shapes)


# ----- the codec: the game's messages, declared -----


@mypyc_attr(native_class=False)  # mypyc makes no generic dataclass native (mypyc/mypyc#827)
@dataclass(frozen=True)
class Messages(Generic[O]):
    """A game's messages as its messages.py declares them: each written from native values by
    its shape (core/wire.py Encoder), the outcome by a function (it is written once a game)."""

    state_message: type[Message]  # the game's state message (KrabyState, ...)
    state: Encoder  # of a native state
    event: Encoder  # of a native event, as an `Event`
    view: Encoder  # of a Seat: the state as one seat sees it
    move: Encoder  # of a native move: the game's move message
    outcome: Callable[[O, game_pb2.Outcome], None]


def player_n(state: Any, seat: int) -> str:
    return f"player {seat}"


@mypyc_attr(native_class=False)  # mypyc makes no generic dataclass native (mypyc/mypyc#827)
@dataclass(frozen=True)
class Words(Generic[S, M]):
    """Optional: the game's words for its moves, chance outcomes and seats (a label for every
    legal move and outcome, a seat's name in sentences)."""

    move_label: Callable[[S, M], str]
    chance_label: Callable[[S, int], str]
    player_name: Callable[[S, int], str] = player_n


@mypyc_attr(native_class=False)  # mypyc makes no generic dataclass native (mypyc/mypyc#827)
@dataclass(frozen=True)
class Codec(Generic[S, M, E, O]):
    """The translation between a game's native values and its protobuf messages: the declared
    writers, and decoders that validate, raising InvalidArgument with the field path of the
    first problem."""

    messages: Messages[O]
    # The game's options message (may be empty) as native options, for a number of players.
    decode_options: Callable[[Any, int, str], Any]
    decode_state: Callable[[Any, int, str], S]  # (message, number of players, field path)
    decode_move: Callable[[Any, str], M]
    words: Words[S, M] | None = None

    def state_bytes(self, state: S) -> bytes:
        """The state message serialized deterministically: the bytes the engine sends a state
        as and remembers it by (a state sent back must match them to be found)."""
        return self.messages.state(state)

    def event_bytes(self, event: E) -> bytes:
        """The event as a serialized `Event` (its args map sorted by key)."""
        return self.messages.event(event)

    def encode_state(self, state: S, msg: Any) -> None:
        """Fill the game's (empty) state message."""
        msg.MergeFromString(self.messages.state(state))

    def encode_move(self, move: M, msg: Any) -> None:
        """Fill the game's move message."""
        msg.MergeFromString(self.messages.move(move))

    def encode_event(self, event: E, msg: game_pb2.Event) -> None:
        """Fill the game's event field, the template, its args and the one-line `text`."""
        msg.MergeFromString(self.messages.event(event))

    def encode_view(self, state: S, player: int | None, msg: Any) -> None:
        """Fill the game's view message for `player` (None for a spectator)."""
        msg.MergeFromString(self.messages.view(Seat(state, player)))

    def encode_outcome(self, outcome: O, msg: game_pb2.Outcome) -> None:
        self.messages.outcome(outcome, msg)

    def move_label(self, state: S, move: M) -> str:
        if self.words is None:
            message = self.messages.move.message.FromString(self.messages.move(move))
            return text_format.MessageToString(message, as_one_line=True)
        return self.words.move_label(state, move)

    def chance_label(self, state: S, value: int) -> str:
        return str(value) if self.words is None else self.words.chance_label(state, value)

    def player_name(self, state: S, seat: int) -> str:
        """The seat as the game's sentences name it (a team's colour, say)."""
        return player_n(state, seat) if self.words is None else self.words.player_name(state, seat)


# ----- optional capabilities: a game lists those it has among its bases, before Game -----
# Compiled (mypyc), each is a trait, as a class may have several native bases only so, and a
# game's class may be interpreted (a test's stub game), so each allows interpreted subclasses.


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Explains(ABC, Generic[S, M]):
    """Which rule an illegal move breaks, for a player (docs/rules)."""

    @abstractmethod
    def explain_illegal(self, state: S, move: M) -> Violation:
        """Only called once `is_legal` said no."""


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class HiddenInformation(ABC, Generic[S, E]):
    """Who may see what (G4, G5): a game with secrets says which seats a chance outcome or a
    decision is hidden from and how an event reads to each viewer (`Game`'s
    chance_hidden_from, decision_hidden_from and redact_event, public by default), and draws
    full states consistent with what one seat sees."""

    @abstractmethod
    def resample_hidden(self, state: S, player: int | None, rng: random.Random) -> S:
        """A copy of the state with everything hidden from `player` (everything hidden from
        everyone when None) redrawn at random, consistent with what that player sees. Used to
        prove views leak nothing and by bots that need a full state (determinization)."""

    @abstractmethod
    def state_from_view(self, view: Any, player: int, num_players: int, rng: random.Random) -> S:
        """A full native state consistent with `player`'s view message, hidden information drawn
        at random. Raise InvalidArgument (paths under `view.<game>`) for a view that cannot be."""


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class MoveIds(ABC, Generic[S, M]):
    """Stable integer ids for learning agents: every move a player could ever make has one."""

    @abstractmethod
    def move_id_count(self, num_players: int) -> int:
        """The size of the move-id space."""

    @abstractmethod
    def move_id(self, state: S, move: M) -> int:
        """The stable integer id of a move (0 <= id < move_id_count)."""


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Observes(ABC):
    """A seat's observation tensor, for learning agents (core/observation.py)."""

    # The features of a seat's observation tensor, in order.
    observation_layout: ClassVar[Layout]

    @abstractmethod
    def observe(self, view: game_pb2.View, writer: Writer) -> None:
        """Fill a seat's observation tensor from its view message alone (the header and the
        game's part), so that it shows exactly what the view shows (docs/agents.md)."""


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Strategy(ABC, Generic[S, M]):
    """What the search bot (core/search.py) may know beyond the rules (strategy, not rules)."""

    def estimate(self, state: S) -> list[float] | None:
        """Each seat's expected return (0 to 1) from a game that goes on, when the game has an
        estimate better than random play to the end; None to play to the end."""
        return None

    def seat_model(self) -> Callable[[S, Sequence[M], Prng], M] | None:
        """How a seat is expected to play, when the game has a model of it: given the position,
        the legal moves of the seat to play and a PRNG for ties, the move it would make. The
        search then plays the other seats by it instead of searching their moves, and values a
        move of its own once they have replied. None: the search searches every decision."""
        return None


# ----- the game -----


@mypyc_attr(allow_interpreted_subclasses=True)  # a game's class may be interpreted
class Game(ABC, Generic[S, M, E, O]):
    """The rules hooks. A game works on its own native state (plain Python objects)."""

    facts: ClassVar[GameFacts]
    codec: ClassVar[Codec[Any, Any, Any, Any]]
    # A legal move as `legal_moves` lists it carries everything its encoding reads (its label
    # and id depend on the move alone): the engine keeps its encoding by the move itself.
    moves_encode_alone: ClassVar[bool] = False

    @abstractmethod
    def initial_state(self, num_players: int, options: Any) -> S:
        """The state before any chance event of the set-up is resolved."""

    @abstractmethod
    def next_decision(self, state: S) -> Decision: ...

    @abstractmethod
    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move of the player who must decide now."""

    @abstractmethod
    def apply_move(self, state: S, move: M) -> list[E]:
        """Apply a legal move in place; return the native events, in order."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[int, int]]:
        """At a chance node: (value, weight) pairs in the game's documented order (G2)."""

    @abstractmethod
    def apply_chance(self, state: S, value: int) -> list[E]: ...

    @abstractmethod
    def outcome(self, state: S) -> O | None:
        """The native outcome once the game is over, else None."""

    # ----- written once for every game; a game may say it better -----

    def clone(self, state: S) -> S:
        """A copy to change apart from the original: the state class's `__copy__`, called
        as copy.copy would call it, without copy.copy's dispatch in Python."""
        copied: S = cast(Any, state).__copy__()
        return copied

    def is_legal(self, state: S, move: M) -> bool:
        """One source of truth: a move is legal exactly when the generator lists it (a game
        may answer faster, and its tests check the answer against the list)."""
        return move in self.legal_moves(state)

    def move_cache_keys(self, state: S, moves: Sequence[M]) -> list[Hashable]:
        """Everything each listed move's encoding reads (its label and id), so that the engine
        encodes each distinct move once: the moves themselves when they carry it
        (`moves_encode_alone`), else each with its label and id. A game may say it cheaper,
        beside its labels."""
        if self.moves_encode_alone:
            return list(moves)
        label, move_id = self.codec.move_label, self.move_id
        return [(move, label(state, move), move_id(state, move)) for move in moves]

    def invariant_violations(self, state: S) -> list[str]:
        """Conservation laws that must hold after every move (tested by the conformance suite)."""
        return []

    def returns(self, outcome: game_pb2.Outcome) -> list[float]:
        """Each seat's return at the end of the game, from 0 to 1 (docs/agents.md): the
        winners share 1 (a sole winner gets 1, two who share the victory 1/2 each), everyone
        else gets 0. A cooperative game says otherwise."""
        values = [0.0] * len(outcome.players)
        for winner in outcome.winners:
            values[winner] = 1.0 / len(outcome.winners)
        return values

    # ----- what is public unless a game says otherwise (HiddenInformation), and what a game
    # without an optional capability gets -----

    def chance_hidden_from(self, state: S) -> Collection[int]:
        """At a chance node: the seats that must not see its outcome (for a draw into a hand,
        everyone but the drawer; spectators never see such an outcome). Empty when the outcome
        is public (a die roll, a card turned face up)."""
        return ()

    def decision_hidden_from(self, state: S) -> Collection[int]:
        """For a player's decision: the seats that must not see which choice was made (a secret
        commitment, G4). Empty for an open decision."""
        return ()

    def redact_event(self, event: E, viewer: int | None) -> E | None:
        """The event as `viewer` (None: a spectator) may see it: the same event when it is
        public, a copy without the secret part (another player's draw), or None to hide it. A
        seat knows at least what a spectator knows: an event a spectator gets whole (the same
        object) every seat gets whole, so the engine asks seat by seat only about the others.
        The answer depends on the event's value and the viewer alone: the engine remembers it
        by them (engine.Sightings)."""
        return event

    observation_layout: ClassVar[Layout] = Layout(())

    def explain_illegal(self, state: S, move: M) -> Violation:
        """Which rule an illegal move breaks: without `Explains`, G3's "not a legal move now"."""
        return Violation("G3", "that move does not answer the decision asked now")

    def resample_hidden(self, state: S, player: int | None, rng: random.Random) -> S:
        return self.clone(state)  # nothing hidden: nothing to redraw

    def state_from_view(self, view: Any, player: int, num_players: int, rng: random.Random) -> S:
        raise bad_request("view", f"{self.facts.title} hides nothing: send the state itself")

    def move_id_count(self, num_players: int) -> int:
        return 0  # no MoveIds: no id space

    def move_id(self, state: S, move: M) -> int:
        return 0

    def observe(self, view: game_pb2.View, writer: Writer) -> None:
        raise bad_request("view", f"{self.facts.title} has no observation tensor")


# Any game, as the engine holds them (each with its own native types).
AnyGame = Game[Any, Any, Any, Any]


# How many values of one kind `built_once` keeps: a game meets a few hundred, and the server's
# memory goal is close (docs/security.md).
BUILT_ONCE: Final = 256


def built_once(make: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
    """`make` (an event's class) building each value once per value met and sharing it: a
    NamedTuple built runs its `__new__` interpreted, even in the compiled build, where a built
    one is a lookup. At most BUILT_ONCE values are kept."""
    return functools.lru_cache(maxsize=BUILT_ONCE)(make)


class Paths(Generic[S, M, E]):
    """The conversions on every call's path, as the engine and the search call them (resolved
    once per game: the encoders' own writers, one call shorter than the codec's methods)."""

    def __init__(self, game: Game[S, M, E, Any]) -> None:
        messages = game.codec.messages
        self.state_bytes: Callable[[S], bytes] = messages.state.write
        self.event_bytes: Callable[[E], bytes] = messages.event.write
        # The view message's bytes for a Seat: what `Codec.encode_view` fills a message from.
        self.view_bytes: Callable[[Seat], bytes] = messages.view.write
        self.move_cache_keys: Callable[[S, Sequence[M]], list[Hashable]] = game.move_cache_keys
        # Each Move message's seat and native move, by the message's bytes (Match.check_move):
        # a move decodes from its message alone, and a client sends back the moves LegalMoves
        # listed, so each distinct one is decoded once. An entry is weighed as its bytes plus
        # DECODED_MOVE_BYTES for the native move, DECODED_MOVES_BYTES in all: a few hundred of
        # a game's moves, what its tables of listed moves hold too.
        self.decoded_moves: Remembered[bytes, tuple[int, M]] = Remembered(
            lambda data: decoded_move(game, game_pb2.Move.FromString(data), "move"),
            lambda _: DECODED_MOVE_BYTES,
            DECODED_MOVES_BYTES,
        )


# What a native move holds (a few small fields), as `Paths.decoded_moves` weighs it, and the
# bytes a game's table of decoded moves holds at most (the server's memory goal is close).
DECODED_MOVE_BYTES: Final = 256
DECODED_MOVES_BYTES: Final = 256 * 1024


def decoded_move(game: Game[Any, M, Any, Any], move: game_pb2.Move, path: str) -> tuple[int, M]:
    """A game's Move message as its seat and native move (`path` names the message in an
    error)."""
    which = game.facts.id
    native: M = game.codec.decode_move(getattr(move, which), f"{path}.{which}")
    return move.player, native


_resolved: dict[Game[Any, Any, Any, Any], Paths[Any, Any, Any]] = {}


def paths(game: Game[S, M, E, O]) -> Paths[S, M, E]:
    """The game's paths (resolved once per game)."""
    found = _resolved.get(game)
    if found is None:
        found = _resolved[game] = Paths(game)
    return found
