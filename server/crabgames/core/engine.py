"""The generic engine: decode -> rules -> encode, written once for every game.

It speaks protobuf messages at its edge (no gRPC here) and drives a game's native hooks: who
decides next (G3), chance nodes resolved from the state's PRNG or supplied by the caller (G2),
views (G5), legality, replay. The service layer only translates requests to these calls.
"""

from __future__ import annotations

import functools
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from crabgames.core import wire
from crabgames.core.errors import (
    GameOver,
    IllegalMove,
    InvalidArgument,
    RulesError,
    StaleState,
    TooManyMoves,
    bad_move,
    bad_request,
    bad_state,
    shown,
)
from crabgames.core.game import (
    CHANCE,
    NOBODY,
    PLAYER,
    AnyGame,
    Decision,
    GameFacts,
    built_once,
    decoded_move,
    paths,
)
from crabgames.core.prng import MASK64, Prng
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

AUTO: Final = game_pb2.CHANCE_MODE_AUTO
EXPLICIT: Final = game_pb2.CHANCE_MODE_EXPLICIT
_CHANCE_MODES: Final = (game_pb2.CHANCE_MODE_UNSPECIFIED, AUTO, EXPLICIT)
# The decoded-state cache's bound, and the largest state it keeps (docs/security.md).
MAX_CACHE_BYTES = 32 * 1024 * 1024
MAX_KEPT_STATE_BYTES = 64 * 1024
# The largest Move message whose decoding is remembered (Paths.decoded_moves): a listed move,
# its label included, takes under 200 bytes; a padded one is decoded every time.
MAX_REMEMBERED_MOVE_BYTES: Final = 1024
# A state's version counts its decisions (player moves and chance events): no game has more than
# a few thousand, so a larger version is not a game's (and stays far from the 64-bit wrap).
MAX_VERSION: Final = 1_000_000
# The most legal moves one answer lists (LegalMoves, a player's GetView): about 1 MiB of encoded
# moves and a fraction of a second to encode the first time. Only a CRAB RAGE! Smash at a rage
# no real game reaches (R3 sets no limit) offers more.
MAX_LISTED_MOVES: Final = 16_384
# No game seats more players than this: an event selection naming more seats is refused.
MAX_SELECTED_SEATS: Final = 8
# How a check names its error: bad_request, bad_state or bad_move (a field path and why).
MakeError = Callable[[str, str], InvalidArgument]


class Match:
    """One game in progress: the generic header plus the game's native state."""

    __slots__ = (
        "game",
        "num_players",
        "seed",
        "prng",
        "chance_mode",
        "version",
        "state",
        "sampled",
        "ask_forced",
    )

    def __init__(
        self,
        game: AnyGame,
        num_players: int,
        seed: int,
        prng: Prng,
        chance_mode: int,
        version: int,
        state: Any,
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self.prng = prng
        self.chance_mode = chance_mode
        self.version = version
        self.state = state
        self.sampled = False  # drawn by SampleState: its hidden information is invented
        # Started with ask_forced_decisions: a decision with one legal move waits like any other.
        self.ask_forced = False

    def decision(self) -> Decision:
        return self.game.next_decision(self.state)

    def copy(self) -> Match:
        copy = Match(
            self.game,
            self.num_players,
            self.seed,
            self.prng.copy(),
            self.chance_mode,
            self.version,
            self.game.clone(self.state),
        )
        copy.sampled = self.sampled
        copy.ask_forced = self.ask_forced
        return copy

    def check_move(self, move: game_pb2.Move, path: str = "move") -> tuple[bool, Any]:
        """Decode and check a move against the rules. Returns (is_chance, native move or value);
        raises GameOver, InvalidArgument or IllegalMove."""
        game, decision = self.game, self.decision()
        if decision.kind == NOBODY:
            raise GameOver("the game is over: no more moves can be made")
        which = move.WhichOneof("move")
        if which is None:
            raise bad_move(f"{path}.move", "no move given: set the game's move or a chance outcome")
        if decision.kind == CHANCE:
            if which != "chance":
                raise IllegalMove("G2", f"a chance event ({decision.name}) must be resolved now")
            value = move.chance.value
            if value not in {v for v, _ in game.chance_outcomes(self.state)}:
                raise IllegalMove("G2", f"{value} is not a possible outcome of {decision.name}")
            return True, value
        if which == "chance":
            raise IllegalMove(
                "G3", f"player {decision.player} must decide ({decision.name}), not chance"
            )
        if which != game.facts.id:
            raise bad_move(f"{path}.{which}", f"this is a {game.facts.id} game, not {which}")
        decoded = paths(game).decoded_moves
        data = move.SerializeToString()
        known = decoded.get(data)
        if known is None:
            known = decoded_move(game, move, path)
            if len(data) <= MAX_REMEMBERED_MOVE_BYTES:
                decoded.remember(data, known)
        player, native = known
        if player != decision.player:
            raise IllegalMove(
                "G3",
                f"it is player {decision.player}'s decision ({decision.name}),"
                f" not player {player}'s",
            )
        if not game.is_legal(self.state, native):
            violation = game.explain_illegal(self.state, native)
            raise IllegalMove(violation.rule, violation.reason)
        return False, native

    def play(self, move: game_pb2.Move, path: str = "move") -> list[Any]:
        """Check and apply one move, then resolve chance if the mode is AUTO."""
        return self.apply(*self.check_move(move, path))

    def apply(self, is_chance: bool, native: Any) -> list[Any]:
        """Apply a checked move (a chance outcome's value when `is_chance`), then everything
        that follows without a choice (`advance`); the native events."""
        if is_chance:
            events = self.game.apply_chance(self.state, native)
        else:
            events = self.game.apply_move(self.state, native)
        self.version += 1
        events.extend(self.advance())
        return events

    def advance(self) -> list[Any]:
        """Everything that follows without anybody choosing: chance in AUTO mode (G2) and,
        unless the game asks for them, player decisions with a single legal move."""
        events = self.resolve_chance()
        if self.ask_forced:
            return events
        game, state = self.game, self.state
        while (decision := game.next_decision(state)).kind == PLAYER:
            moves = game.legal_moves(state)
            if len(moves) != 1:
                break
            move = moves[0]
            name = game.codec.player_name(state, decision.player)
            events.append(
                forced_move_event(decision.player, name, self.forced_move_bytes(decision, move))
            )
            events.extend(game.apply_move(state, move))
            self.version += 1
            events.extend(self.resolve_chance())
        return events

    def forced_move_bytes(self, decision: Decision, move: Any) -> bytes:
        """The forced move as LegalMoves would have listed it: the same encoding, kept."""
        game, state = self.game, self.state
        keys = paths(game).move_cache_keys(state, [move])
        return wire.unsized(_encoded_moves(game, decision.player).add(keys, state, [move])[0])

    def resolve_chance(self) -> list[Any]:
        """In AUTO mode, resolve every pending chance event from the PRNG (G2)."""
        events: list[Any] = []
        if self.chance_mode == EXPLICIT:
            return events
        game, state = self.game, self.state
        while game.next_decision(state).kind == CHANCE:
            value = self.prng.pick_outcome(game.chance_outcomes(state))
            events.extend(game.apply_chance(state, value))
            self.version += 1
        return events


@dataclass(init=False)
class Happened:
    """What a call did: every event (secrets included, for the host), and the same events as a
    spectator and as each seat may see them (G5). Each event is kept serialized with its length
    in front, ready to frame in a response (`wire.repeated_field`); lists share their items,
    and when nothing was secret every list is the same list. Its __init__ is written out, as
    mypyc compiles it (a dataclass's generated one runs interpreted, on every call)."""

    sized_events: list[bytes]
    sized_public: list[bytes]
    sized_seats: list[list[bytes]]

    def __init__(
        self, sized_events: list[bytes], sized_public: list[bytes], sized_seats: list[list[bytes]]
    ) -> None:
        self.sized_events = sized_events
        self.sized_public = sized_public
        self.sized_seats = sized_seats

    @property
    def events(self) -> list[game_pb2.Event]:
        return event_msgs(self.sized_events)

    @property
    def public_events(self) -> list[game_pb2.Event]:
        return event_msgs(self.sized_public)

    @property
    def seat_events(self) -> list[list[game_pb2.Event]]:
        return [event_msgs(seen) for seen in self.sized_seats]


class ForcedMoveEvent(NamedTuple):
    """The engine played a decision that had one legal move (`Match.advance`). Only the host and
    the deciding seat see it: having no other choice can follow from what only that seat knows."""

    player: int
    name: str  # the seat as the game's sentences name it
    move: bytes  # the Move, serialized

    def seen_by(self, viewer: int | None) -> ForcedMoveEvent | None:
        return self if viewer == self.player else None

    def encoded(self) -> bytes:
        label = game_pb2.Move.FromString(self.move).label
        args = {"player": self.name, "move": label}
        msg = game_pb2.Event(
            text=FORCED_MOVE_TEMPLATE.format_map(args), template=FORCED_MOVE_TEMPLATE, args=args
        )
        msg.forced_move.move.MergeFromString(self.move)
        return msg.SerializeToString(deterministic=True)

    def sized(self) -> bytes:
        """`encoded`, its length in front (Happened), remembered by value as a game's events
        are (sized_events): building the Event message costs as much as a rule's move."""
        return _SIZED_FORCED_MOVES[self]


# Each forced move met, built once and shared, as the games' events are.
forced_move_event: Final = built_once(ForcedMoveEvent)
FORCED_MOVE_TEMPLATE = "{player} has only one possible move: {move}."
_SIZED_FORCED_MOVES: Final[wire.Remembered[ForcedMoveEvent, bytes]] = wire.Remembered(
    lambda event: wire.sized(event.encoded())
)


def redact(game: AnyGame, event: Any, viewer: int | None) -> Any | None:
    """The event as `viewer` (None: a spectator) may see it: the engine's own, or the game's."""
    if type(event) is ForcedMoveEvent:
        return event.seen_by(viewer)
    return game.redact_event(event, viewer)


class SizedEvents(NamedTuple):
    """How a game's events (never the engine's own) are serialized with their length in front,
    as Happened keeps them; `by_value`: the bytes are remembered by the event's value."""

    write: Callable[[Any], bytes]
    by_value: bool


def sized_events(game: AnyGame) -> SizedEvents:
    """The game's SizedEvents: when its events are written by a remembering Encoder (immutable
    values), a table of their bytes with the length in front, so that an event is one lookup
    (not a lookup and a framing) and a redacted copy is known by its value."""
    found = _SIZED_EVENTS.get(game)
    if found is None:
        encoder = game.codec.messages.event
        if encoder.remember:
            build = encoder.build
            table: wire.Remembered[Any, bytes] = wire.Remembered(lambda e: wire.sized(build(e)))
            found = SizedEvents(table.__getitem__, True)
        else:
            encode = paths(game).event_bytes
            found = SizedEvents(lambda event: wire.sized(encode(event)), False)
        _SIZED_EVENTS[game] = found
    return found


_SIZED_EVENTS: Final[dict[AnyGame, SizedEvents]] = {}


class Sightings(NamedTuple):
    """One event as each viewer may see it (G5), serialized with its length in front as
    Happened keeps it: whole for the host, then as a spectator and as each seat sees it (None:
    hidden from them); `secret` when somebody sees less than the host."""

    host: bytes
    spectator: bytes | None
    seats: tuple[bytes | None, ...]
    secret: bool

    def weight(self) -> int:
        """The bytes it holds (a Remembered table's measure), counted as if none were shared."""
        return len(self.host) + sum(len(data or b"") for data in (self.spectator, *self.seats))


def sightings(
    game: AnyGame, event: Any, num_players: int, write: Callable[[Any], bytes]
) -> Sightings:
    """How each viewer sees `event`, its copies written by `write`. An event a spectator sees
    whole, every seat sees whole (Game.redact_event): only the others are redacted seat by
    seat."""
    host = event.sized() if type(event) is ForcedMoveEvent else write(event)
    public = redact(game, event, None)
    if public is event:
        return Sightings(host, host, (host,) * num_players, False)

    def seen(copy: Any) -> bytes | None:
        return None if copy is None else host if copy is event else write(copy)

    seats = tuple([seen(redact(game, event, seat)) for seat in range(num_players)])
    return Sightings(host, seen(public), seats, True)


def shared(seen: list[bytes | None], lists: dict[tuple[bytes, ...], list[bytes]]) -> list[bytes]:
    """The events a viewer sees (None: hidden from them), as the list `lists` already holds
    for a viewer who sees the same."""
    shown = [data for data in seen if data is not None]
    return lists.setdefault(tuple(shown), shown)


# Each game's Sightings by event, at each table size (Engine.sightings_of).
_SIGHTINGS: Final[dict[tuple[AnyGame, int], wire.Remembered[Any, Sightings]]] = {}


class Selection(NamedTuple):
    """Which event lists an answer carries (EventSelection); `seats` None: every seat."""

    host: bool = True
    spectator: bool = True
    seats: frozenset[int] | None = None

    def wants_seat(self, seat: int) -> bool:
        return self.seats is None or seat in self.seats

    @staticmethod
    def of(msg: api.EventSelection | None) -> Selection:
        """The selection a request asks for (None: it asks for nothing in particular, so it
        gets everything). Seats are checked against the game by `check`."""
        if msg is None:
            return EVERYTHING
        listed = msg.seats
        if len(listed) > MAX_SELECTED_SEATS:  # bounded before anything is built from it
            raise bad_request("events.seats", f"names more than {MAX_SELECTED_SEATS} seats")
        seats = frozenset(listed)
        if len(seats) < len(listed):
            index = next(i for i, seat in enumerate(listed) if seat in listed[:i])
            raise bad_request(f"events.seats[{index}]", f"seat {listed[index]} is asked for twice")
        return Selection(msg.host, msg.spectator, seats)

    def check(self, num_players: int) -> None:
        for seat in self.seats or ():
            if not 0 <= seat < num_players:
                raise bad_request(
                    "events.seats", f"seat {seat} is not a seat of this {num_players}-player game"
                )


EVERYTHING: Final = Selection()


def event_msgs(sized: list[bytes]) -> list[game_pb2.Event]:
    holder = api.ApplyMoveResponse.FromString(wire.repeated_field(RESPONSE_EVENTS, sized))
    return list(holder.events)


@dataclass
class ReplayResult:
    ok: bool
    state: game_pb2.GameState
    outcome: game_pb2.Outcome | None
    moves_applied: int
    failed_move_index: int | None = None
    failed_rule: str = ""
    failed_reason: str = ""


class DecodedStates:
    """The states this process decoded or produced lately, by their exact bytes: a client sends
    back the state the server just returned, so decoding and checking it again is wasted work.
    Only performance depends on it (any server copy can take any call; a miss decodes and checks
    in full), and only an exact byte-for-byte match hits, so an altered state is always checked.
    Entries are pristine copies: every `decode` hands out its own clone.

    Bounded in bytes, not entries: each entry is weighed as its key plus an estimate of its
    decoded form (`weight`), the total stays under `max_bytes`, and a state larger than
    MAX_KEPT_STATE_BYTES is never kept (no game's state comes near it; a padded one would)."""

    def __init__(self, max_bytes: int = MAX_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.entries: OrderedDict[bytes, Match] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def weight(key: bytes) -> int:
        # Measured (tracemalloc): a decoded match takes under 3 times its wire size plus about
        # a kilobyte; the key is held too.
        return 4 * len(key) + 1024

    def get(self, key: bytes, read_only: bool = False) -> Match | None:
        """The match remembered by `key`: a copy of the caller's own, or the entry itself for a
        caller that only reads it (`read_only`)."""
        with self.lock:
            match = self.entries.get(key)
            if match is not None:
                self.entries.move_to_end(key)
        return match if match is None or read_only else match.copy()

    def put(self, key: bytes, match: Match, owned: bool = False) -> None:
        """Remember `match`: a copy of it, or the match itself when the caller hands it over
        (`owned`) and will only read it from now on."""
        if len(key) > MAX_KEPT_STATE_BYTES:
            return
        copy = match if owned else match.copy()
        with self.lock:
            if key in self.entries:
                self.bytes -= self.weight(key)
            self.entries[key] = copy
            self.entries.move_to_end(key)
            self.bytes += self.weight(key)
            while self.bytes > self.max_bytes:
                old, _ = self.entries.popitem(last=False)
                self.bytes -= self.weight(old)


class Engine:
    def __init__(self, games: Iterable[AnyGame], cache_bytes: int = MAX_CACHE_BYTES) -> None:
        self.games: dict[str, AnyGame] = {g.facts.id: g for g in games}
        self.decoded = DecodedStates(cache_bytes)

    def game(self, game_id: str | None, missing: str, prefix: str, error: MakeError) -> AnyGame:
        """The game a oneof selects; `error` (bad_state or bad_request) names the field."""
        if game_id is None:
            raise error(missing, "no game chosen: set one of kraby, crab_bucket, crab_rage")
        game = self.games.get(game_id)
        if game is None:
            raise error(f"{prefix}.{game_id}", f"this server does not serve {game_id}")
        return game

    # ----- decode / encode -----

    def decode(
        self, msg: game_pb2.GameState | bytes, path: str = "state", read_only: bool = False
    ) -> Match:
        """The state as a Match of the caller's own, after every check (G-level header and the
        game's `decode_state`); a state seen lately is taken from `decoded`. A `read_only`
        caller (legal moves, views, outcomes, playouts, which clone before they play) gets the
        remembered match itself, uncopied, and must not change it. The state may come as its
        serialized bytes, as received: a state seen lately is then never parsed at all."""
        # No GameState holds a map, so plain serialization is already deterministic (and skips
        # parsing a keyword argument).
        key = msg if isinstance(msg, bytes) else msg.SerializeToString()
        match = self.decoded.get(key, read_only)
        if match is None:
            parsed = parse_state(msg, path) if isinstance(msg, bytes) else msg
            match = self.decode_checked(parsed, path)
            self.decoded.put(key, match, owned=read_only)
        return match

    def encode_and_remember(self, match: Match) -> game_pb2.GameState:
        """`encode`, remembering the state: the client will most likely send it back. The match
        is handed over: the caller may read it but no longer change it."""
        return game_pb2.GameState.FromString(self.remember(match))

    def remember(self, match: Match) -> bytes:
        """Remember the match (handed over) by its state's bytes, and return them."""
        data = self.encode_serialized(match)
        self.decoded.put(data, match, owned=True)
        return data

    def encode_serialized(self, match: Match) -> bytes:
        """The state serialized deterministically (the bytes it is remembered by and sent as),
        framed from the game's own bytes."""
        part = paths(match.game).state_bytes(match.state)
        # The game's field (10 to 12) comes after every header field (1 to 9); one join copies
        # each piece once.
        fields = state_header_fields(match)
        fields += (STATE_GAME_TAGS[match.game.facts.id], wire.varint(len(part)), part)
        fields.append(ASK_FORCED_FIELD[match.ask_forced])
        return b"".join(fields)

    def decode_checked(self, msg: game_pb2.GameState, path: str = "state") -> Match:
        if msg.sealed:  # a sealing server opens its states before the engine sees them
            raise bad_state(
                f"{path}.sealed",
                "a sampled state, or any state on a server that does not seal, is never sealed",
            )
        which = msg.WhichOneof("game")
        game = self.game(which, f"{path}.game", path, bad_state)
        facts = game.facts
        if msg.rules_version not in facts.accepted_rules_versions:
            raise bad_state(
                f"{path}.rules_version",
                f"is {shown(msg.rules_version)}; this server plays {facts.rules_version!r}",
            )
        check_player_count(facts, msg.num_players, f"{path}.num_players", bad_state)
        if msg.chance_mode not in _CHANCE_MODES:
            raise bad_state(f"{path}.chance_mode", f"unknown chance mode {msg.chance_mode}")
        if msg.prng.seed != msg.seed:
            raise bad_state(f"{path}.prng.seed", "does not match the game's seed")
        check_version(msg.version, f"{path}.version", bad_state)
        without_unknown_fields(msg, path)
        part, where = getattr(msg, game.facts.id), f"{path}.{game.facts.id}"
        state = game.codec.decode_state(part, msg.num_players, where)
        match = Match(
            game,
            msg.num_players,
            msg.seed,
            Prng(msg.prng.seed, msg.prng.counter),
            msg.chance_mode or AUTO,
            msg.version,
            state,
        )
        match.sampled = msg.sampled
        match.ask_forced = msg.ask_forced_decisions
        decision = match.decision()
        if msg.next.SerializeToString() != next_decision_bytes(decision):
            raise bad_state(
                f"{path}.next",
                f"does not match the rest of the state, which waits for {describe(decision)}",
            )
        return match

    def encode(self, match: Match) -> game_pb2.GameState:
        return game_pb2.GameState.FromString(self.encode_serialized(match))

    def happened(self, match: Match, events: list[Any], wanted: Selection = EVERYTHING) -> Happened:
        """The events as the host, a spectator and each seat may see them; a list not `wanted`
        is left empty (and not built)."""
        seats = range(match.num_players)
        sights = list(map(self.sightings_of(match.game, len(seats)), events))
        host = [sight.host for sight in sights]
        if not any(sight.secret for sight in sights):  # the common case: everyone sees the same
            return Happened(
                host if wanted.host else [],
                host if wanted.spectator else [],
                [host] * len(seats)
                if wanted.seats is None  # every seat (the default)
                else [host if wanted.wants_seat(seat) else [] for seat in seats],
            )
        # Viewers who see the same share a list, a viewer who sees every event the host's.
        lists: dict[tuple[bytes, ...], list[bytes]] = {tuple(host): host}
        every_seat = wanted.seats is None  # the default: asked once, not seat by seat
        return Happened(
            host if wanted.host else [],
            shared([sight.spectator for sight in sights], lists) if wanted.spectator else [],
            [
                shared([sight.seats[seat] for sight in sights], lists)
                if every_seat or wanted.wants_seat(seat)
                else []
                for seat in seats
            ],
        )

    def sightings_of(self, game: AnyGame, num_players: int) -> Callable[[Any], Sightings]:
        """How each viewer sees an event of `game` at a table of `num_players`: remembered by
        the event's value when the game's events are (`sized_events`: the redacted copies of
        a value are always the same), else worked out for this call alone."""
        sized = sized_events(game)
        if not sized.by_value:
            encode = self.sized_event_of(game, sized)
            return lambda event: sightings(game, event, num_players, encode)
        table = _SIGHTINGS.get((game, num_players))
        if table is None:
            write = sized.write
            table = wire.Remembered(
                lambda event: sightings(game, event, num_players, write), Sightings.weight
            )
            _SIGHTINGS[(game, num_players)] = table
        return table.__getitem__

    @staticmethod
    def sized_event_of(game: AnyGame, sized: SizedEvents) -> Callable[[Any], bytes]:
        """An encoder for one call's events and redacted copies, for a game whose events are
        not remembered by value (`sized` encodes one): each distinct copy is encoded once, as a
        copy is often the same for every viewer it hides something from. Copies are known by
        value here (their encoding depends on nothing else), an unhashable one by identity,
        kept alive meanwhile so that a freed copy's id() cannot be reused for another viewer's
        copy."""
        write = sized.write
        encoded: dict[Any, bytes] = {}
        alive: list[Any] = []

        def encode(event: Any) -> bytes:
            kind = type(event)
            key: tuple[type[Any], Any] = (kind, event)
            try:
                data = encoded.get(key)
            except TypeError:  # unhashable (or a hashable kind holding an unhashable value)
                key = (kind, id(event))  # known by identity
                data = encoded.get(key)
                alive.append(event)
            if data is None:
                data = encoded[key] = write(event)
            return data

        return encode

    def encode_outcome(self, match: Match) -> game_pb2.Outcome | None:
        outcome = match.game.outcome(match.state)
        if outcome is None:
            return None
        msg = game_pb2.Outcome()
        match.game.codec.encode_outcome(outcome, msg)
        return msg

    # ----- the API -----

    def new_match(
        self,
        game_id: str | None,
        options: Any,
        num_players: int,
        seed: int = 0,
        chance_mode: int = AUTO,
        ask_forced: bool = False,
    ) -> tuple[Match, list[Any]]:
        game = self.game(game_id, "options", "options", bad_request)
        check_player_count(game.facts, num_players, "num_players", bad_request)
        if chance_mode not in _CHANCE_MODES:
            raise bad_request("chance_mode", f"unknown chance mode {chance_mode}")
        native_options = game.codec.decode_options(options, num_players, f"options.{game_id}")
        seed = (seed or secrets.randbits(63) or 1) & MASK64
        match = Match(
            game,
            num_players,
            seed,
            Prng(seed),
            chance_mode or AUTO,
            0,
            game.initial_state(num_players, native_options),
        )
        match.ask_forced = ask_forced
        return match, match.advance()

    def new_game(
        self,
        game_id: str | None,
        options: Any,
        num_players: int,
        seed: int = 0,
        chance_mode: int = AUTO,
        ask_forced: bool = False,
        wanted: Selection = EVERYTHING,
    ) -> tuple[game_pb2.GameState, Happened]:
        """A new game: its first state, and the set-up's events as the host, a spectator and each
        seat may see them (the ones `wanted`)."""
        match, events = self.new_match(game_id, options, num_players, seed, chance_mode, ask_forced)
        wanted.check(num_players)
        return self.encode(match), self.happened(match, events, wanted)

    def outcome(self, msg: game_pb2.GameState) -> game_pb2.Outcome | None:
        """The outcome of a state, once its game is over (a game may even end during set-up)."""
        return self.encode_outcome(self.decode(msg, read_only=True))

    def legal_moves(
        self, msg: game_pb2.GameState
    ) -> tuple[list[game_pb2.Move], game_pb2.NextDecision]:
        match = self.decode(msg, read_only=True)
        decision = match.decision()
        return legal_move_msgs(match, decision), next_decision_msg(decision)

    def legal_moves_response_bytes(
        self, msg: game_pb2.GameState | bytes, with_mask: bool = False
    ) -> bytes:
        """Every legal move of whoever decides now, the decision, the move-id space size and,
        when asked for, the legal-move mask (for learning agents): the LegalMoves RPC's answer,
        serialized, framed from the moves' kept encodings."""
        match = self.decode(msg, read_only=True)
        decision = match.decision()
        moves = encoded_legal_moves(match, decision)
        id_count = match.game.move_id_count(match.num_players)
        parts = [
            wire.repeated_field(RESPONSE_MOVES, moves.bodies),
            wire.message_field(RESPONSE_NEXT, next_decision_bytes(decision)),
            wire.varint_field(RESPONSE_MOVE_ID_COUNT, id_count),
        ]
        if with_mask:
            mask = bytearray(id_count)  # packed bools: one byte, 0 or 1, per move id
            if decision.kind == PLAYER:
                for move_id in moves.move_ids():
                    mask[move_id] = 1
            parts.append(wire.message_field(RESPONSE_LEGAL_MASK, bytes(mask)))
        return b"".join(parts)

    def sample_state(self, view: game_pb2.View, seed: int = 0) -> game_pb2.GameState:
        """A full state consistent with a player's view: hidden information drawn at random,
        and a fresh PRNG so the real one stays secret."""
        return self.encode(self.sampled_match(view, seed))

    def sampled_match(self, view: game_pb2.View, seed: int = 0) -> Match:
        """SampleState's match, before it is encoded (the search bot starts from one)."""
        which = view.WhichOneof("game")
        game = self.game(which, "view.game", "view", bad_request)
        facts = game.facts
        if view.rules_version not in facts.accepted_rules_versions:
            raise bad_request("view.rules_version", f"this server plays {facts.rules_version!r}")
        check_player_count(facts, view.num_players, "view.num_players", bad_request)
        check_version(view.version, "view.version", bad_request)
        if view.spectator or not 0 <= view.player < view.num_players:
            raise bad_request("view.player", "must be a player's view, not a spectator's")
        seed = (seed or secrets.randbits(63) or 1) & MASK64
        rng = random.Random(seed)
        part = getattr(view, game.facts.id)
        state = game.state_from_view(part, view.player, view.num_players, rng)
        match = Match(game, view.num_players, seed, Prng(seed), AUTO, view.version, state)
        match.sampled = True
        if next_decision_msg(match.decision()) != view.next:
            raise bad_request("view.next", "does not match the rest of the view")
        return match

    def apply_move(
        self,
        msg: game_pb2.GameState,
        move: game_pb2.Move,
        validate_only: bool = False,
        expected_version: int | None = None,
        wanted: Selection = EVERYTHING,
    ) -> tuple[game_pb2.GameState, Happened, game_pb2.Outcome | None]:
        """A move checked and played (or only checked): the state after it, the events as the
        host, a spectator and each seat may see them, and the outcome once the game is over."""
        match, happened, outcome = self.played(msg, move, validate_only, expected_version, wanted)
        return (msg if match is None else self.encode_and_remember(match)), happened, outcome

    def apply_move_serialized(
        self,
        msg: game_pb2.GameState | bytes,
        move: game_pb2.Move,
        validate_only: bool = False,
        expected_version: int | None = None,
        wanted: Selection = EVERYTHING,
    ) -> tuple[bytes, Happened, game_pb2.Outcome | None]:
        """`apply_move` with the new state serialized, as the service sends it: the
        bytes the state is remembered by, so it is serialized once."""
        match, happened, outcome = self.played(msg, move, validate_only, expected_version, wanted)
        if match is None:
            return (msg if isinstance(msg, bytes) else msg.SerializeToString()), happened, outcome
        return self.remember(match), happened, outcome

    def played(
        self,
        msg: game_pb2.GameState | bytes,
        move: game_pb2.Move,
        validate_only: bool,
        expected_version: int | None,
        wanted: Selection = EVERYTHING,
    ) -> tuple[Match | None, Happened, game_pb2.Outcome | None]:
        """The move checked and, unless `validate_only`, played: (the match after it, or None
        when only validated), what happened and the outcome."""
        match = self.decode(msg)
        wanted.check(match.num_players)
        if expected_version is not None and expected_version != match.version:
            raise StaleState(
                f"the move was made against version {expected_version} of the state, "
                f"but this state is at version {match.version}"
            )
        if validate_only:
            match.check_move(move)
            return None, self.happened(match, [], wanted), self.encode_outcome(match)
        events = match.play(move)
        return match, self.happened(match, events, wanted), self.encode_outcome(match)

    def view(self, msg: game_pb2.GameState, player: int | None) -> game_pb2.View:
        match = self.decode(msg, read_only=True)
        if player is not None and not 0 <= player < match.num_players:
            raise bad_request("player", f"must be a seat from 0 to {match.num_players - 1}")
        return self.view_of(match, player)

    def view_of(self, match: Match, player: int | None, legal_moves: bool = True) -> game_pb2.View:
        """What `player` (None: a spectator) may see of the match (G5), their legal moves
        included when they must decide, unless `legal_moves` is False (a view an observation
        is made from: Observes.observe reads the header and the game's part alone)."""
        decision = match.decision()
        view = game_pb2.View(
            player=player,
            spectator=player is None,
            rules_version=match.game.facts.rules_version,
            num_players=match.num_players,
            version=match.version,
            next=next_decision_msg(decision),
        )
        deciding = decision.kind == PLAYER and decision.player == player
        if deciding and legal_moves:
            moves = encoded_legal_moves(match, decision)
            view.MergeFromString(wire.repeated_field(VIEW_LEGAL_MOVES, moves.bodies))
        outcome = self.encode_outcome(match)
        if outcome is not None:
            view.outcome.CopyFrom(outcome)
        part = getattr(view, match.game.facts.id)
        part.SetInParent()
        match.game.codec.encode_view(match.state, player, part)
        return view

    def observation(self, view: game_pb2.View, path: str = "view") -> list[float]:
        """A seat's observation tensor, computed from its view alone (docs/agents.md)."""
        game = self.game(view.WhichOneof("game"), f"{path}.game", path, bad_request)
        if view.spectator or not view.HasField("player"):
            raise bad_request(f"{path}.player", "an observation is a player's, not a spectator's")
        writer = game.observation_layout.writer()
        game.observe(view, writer)
        return writer.values

    def replay(
        self,
        game_id: str | None,
        options: Any,
        num_players: int,
        seed: int,
        chance_mode: int,
        moves: Sequence[game_pb2.Move],
        check: Callable[[], None] | None = None,
        ask_forced: bool = False,
    ) -> ReplayResult:
        """`check`, when given, is called before each move and may raise to stop the replay
        (the service stops when the call's deadline passes)."""
        match, _ = self.new_match(game_id, options, num_players, seed, chance_mode, ask_forced)
        for index, move in enumerate(moves):
            if check is not None:
                check()
            try:
                match.play(move, f"moves[{index}]")
            except RulesError as error:
                rule = getattr(error, "rule", error.reason)
                return ReplayResult(
                    False,
                    self.encode(match),
                    self.encode_outcome(match),
                    index,
                    index,
                    rule,
                    error.message,
                )
        return ReplayResult(True, self.encode(match), self.encode_outcome(match), len(moves))


def parse_state(data: bytes, path: str) -> game_pb2.GameState:
    try:
        return game_pb2.GameState.FromString(data)
    except Exception as error:  # DecodeError, recursion limit, bad UTF-8, ...
        why = str(error) or type(error).__name__
        raise bad_state(path, f"does not parse as crabgames.v1.GameState: {why}") from None


def check_version(version: int, field: str, error: MakeError) -> None:
    if version > MAX_VERSION:
        raise error(field, f"is {version}; no game reaches {MAX_VERSION} decisions")


def without_unknown_fields(msg: game_pb2.GameState, path: str = "state") -> game_pb2.GameState:
    """A copy of the state; MALFORMED_STATE, with the field's path, when it holds a field this
    engine never writes (at any depth): it would be kept and echoed back, and could pad a state
    without bound."""
    copy = game_pb2.GameState()
    copy.CopyFrom(msg)
    copy.DiscardUnknownFields()
    if copy.ByteSize() != msg.ByteSize():  # one pass in C; the path is looked for only now
        where, number = wire.first_unknown_field(msg, path) or (path, 0)
        raise bad_state(where, f"holds unknown field {number}, which this server never writes")
    return copy


def check_player_count(facts: GameFacts, num_players: int, field: str, error: MakeError) -> None:
    if not facts.min_players <= num_players <= facts.max_players:
        raise error(
            field,
            f"{facts.title} is for {facts.min_players} to {facts.max_players} players, "
            f"not {num_players}",
        )


def state_header_fields(match: Match) -> list[bytes]:
    """Every GameState field but the game's own, serialized deterministically, field by field
    (fields 1 to 9 in order; proto3 leaves zero scalars out; `prng` and `next` are always
    present). What stays the same all game long is serialized once per game."""
    constants, prng_seed = game_constants_bytes(
        match.game.facts.rules_version, match.num_players, match.seed, match.prng.seed
    )
    counter = PRNG_COUNTER_FIELD[match.prng.counter]
    return [
        constants,
        PRNG_TAG,
        wire.varint(len(prng_seed) + len(counter)),
        prng_seed,
        counter,
        CHANCE_MODE_FIELD[match.chance_mode],
        VERSION_FIELD[match.version],
        next_decision_field(match.decision()),
        SAMPLED_FIELD[match.sampled],
    ]


@functools.lru_cache(maxsize=1024)  # a few per game being played: they never change in a game
def game_constants_bytes(
    rules_version: str, num_players: int, seed: int, prng_seed: int
) -> tuple[bytes, bytes]:
    """Fields 1 to 3 of a GameState (rules version, player count, seed), and field 1 of its
    PRNG (the PRNG's seed: a 64-bit varint, slow to write in Python)."""
    constants = game_pb2.GameState(
        rules_version=rules_version, num_players=num_players, seed=seed
    ).SerializeToString(deterministic=True)
    return constants, wire.varint_field(1, prng_seed)


@functools.lru_cache(maxsize=1024)  # a game has a few dozen decisions per seat
def next_decision_field(decision: Decision) -> bytes:
    """A GameState's `next` field."""
    return wire.message_field(STATE_NEXT, next_decision_bytes(decision))


def next_decision_msg(decision: Decision) -> game_pb2.NextDecision:
    msg = game_pb2.NextDecision(
        kind=game_pb2.DeciderKind.ValueType(decision.kind), decision=decision.name
    )
    if decision.kind == PLAYER:  # only a player's decision names a seat
        msg.player = decision.player
    return msg


@functools.lru_cache(maxsize=1024)  # a game has a few dozen decisions per seat
def next_decision_bytes(decision: Decision) -> bytes:
    return next_decision_msg(decision).SerializeToString()


def describe(decision: Decision) -> str:
    if decision.kind == NOBODY:
        return "nobody (the game is over)"
    if decision.kind == CHANCE:
        return f"chance ({decision.name})"
    return f"player {decision.player} ({decision.name})"


class EncodedMoves(NamedTuple):
    """The legal moves of whoever decides now, each as protobuf bytes (varint length, then the
    serialized Move) ready to be framed as a repeated field; their ids come on request (only
    the legal-move mask needs them)."""

    bodies: list[bytes]
    move_ids: Callable[[], list[int]]


def encoded_legal_moves(match: Match, decision: Decision) -> EncodedMoves:
    """The legal moves of whoever decides now, encoded. A move (with its player, label and id)
    always encodes the same, so each game's encodings are kept: building a hundred Move messages
    per call would cost more than finding the moves."""
    game, state = match.game, match.state
    if decision.kind == NOBODY:
        return EncodedMoves([], list)
    if decision.kind == CHANCE:
        outcomes = game.chance_outcomes(state)
        total = sum(weight for _, weight in outcomes)
        bodies = [
            sized_move(
                game_pb2.Move(
                    label=game.codec.chance_label(state, value),
                    chance=game_pb2.ChanceOutcome(value=value, probability=weight / total),
                )
            )
            for value, weight in outcomes
        ]
        return EncodedMoves(bodies, lambda: [-1] * len(bodies))
    encodings = _encoded_moves(game, decision.player)
    moves = game.legal_moves(state)
    if len(moves) > MAX_LISTED_MOVES:  # before any is encoded: the length is cheap
        raise TooManyMoves(
            f"player {decision.player} has {len(moves)} legal moves ({decision.name});"
            f" an answer lists at most {MAX_LISTED_MOVES}: send the move itself (ApplyMove)"
        )
    keys = paths(game).move_cache_keys(state, moves)
    try:  # most calls find every move encoded already
        bodies = list(map(encodings.bodies.__getitem__, keys))
    except KeyError:
        bodies = encodings.add(keys, state, moves)
    return EncodedMoves(bodies, lambda: encodings.ids(keys, state, moves))


class MoveEncodings:
    """One player's encoded moves in one game, by the game's move_cache_key: the bodies (read
    on every call, so kept alone in a dict of their own) and the move ids (read only for a
    legal-move mask). Bounded, as a game's move space may be large: every table together holds
    at most BYTES, each entry weighed as its body plus ENTRY_BYTES (key, id and dict slots,
    measured); a table that would go past it starts over, and all of them if that is not
    enough."""

    BYTES: Final = 16 * 1024 * 1024
    ENTRY_BYTES: Final = 256
    total: ClassVar[int] = 0  # over every table

    def __init__(self, game: AnyGame, player: int) -> None:
        self.game = game
        self.player = player
        self.bodies: dict[Any, bytes] = {}
        self.move_ids: dict[Any, int] = {}
        self.bytes = 0

    def add(self, keys: list[Any], state: Any, moves: Sequence[Any]) -> list[bytes]:
        """The bodies of these moves, encoding the ones not met before."""
        bodies = []
        for key, move in zip(keys, moves, strict=True):
            body = self.bodies.get(key)
            if body is None:
                body = self.encode(key, state, move)
                move_id = self.move_ids[key]
                self.make_room(len(body) + self.ENTRY_BYTES)  # may start the table over
                self.bodies[key], self.move_ids[key] = body, move_id
            bodies.append(body)
        return bodies

    def make_room(self, weight: int) -> None:
        # Only on a move met for the first time; locked, as a server with a ledger encodes on
        # several threads and the shared total must not lose an update.
        with _ENCODINGS_LOCK:
            if MoveEncodings.total + weight > self.BYTES:
                self.clear()
            if MoveEncodings.total + weight > self.BYTES:
                for table in _ENCODED_MOVES.values():
                    table.clear()
            self.bytes += weight
            MoveEncodings.total += weight

    def clear(self) -> None:
        """Start over (the caller holds _ENCODINGS_LOCK)."""
        self.bodies.clear()
        self.move_ids.clear()
        MoveEncodings.total -= self.bytes
        self.bytes = 0

    def encode(self, key: Any, state: Any, native: Any) -> bytes:
        game = self.game
        move_id = self.move_ids[key] = game.move_id(state, native)
        msg = game_pb2.Move(
            player=self.player, label=game.codec.move_label(state, native), move_id=move_id
        )
        part = getattr(msg, game.facts.id)
        part.SetInParent()
        game.codec.encode_move(native, part)
        return sized_move(msg)

    def ids(self, keys: list[Any], state: Any, moves: Sequence[Any]) -> list[int]:
        try:
            return list(map(self.move_ids.__getitem__, keys))
        except KeyError:  # the table started over meanwhile (another call filled it)
            return [self.game.move_id(state, move) for move in moves]


def sized_move(msg: game_pb2.Move) -> bytes:
    return wire.sized(msg.SerializeToString())


def legal_move_msgs(match: Match, decision: Decision) -> list[game_pb2.Move]:
    holder = game_pb2.View()
    moves = encoded_legal_moves(match, decision)
    holder.MergeFromString(wire.repeated_field(VIEW_LEGAL_MOVES, moves.bodies))
    return list(holder.legal_moves)


VIEW_LEGAL_MOVES: Final = game_pb2.View.DESCRIPTOR.fields_by_name["legal_moves"].number
_STATE_FIELDS = game_pb2.GameState.DESCRIPTOR.fields_by_name
PRNG_TAG: Final = wire.tag(_STATE_FIELDS["prng"].number, wire.LENGTH_DELIMITED)
STATE_NEXT: Final = _STATE_FIELDS["next"].number
STATE_CHANCE_MODE = _STATE_FIELDS["chance_mode"].number
STATE_VERSION = _STATE_FIELDS["version"].number
STATE_SAMPLED = _STATE_FIELDS["sampled"].number
STATE_ASK_FORCED = _STATE_FIELDS["ask_forced_decisions"].number
# The header's varint fields by their values (wire.varint_fields): written on every call.
PRNG_COUNTER_FIELD: Final = wire.varint_fields(game_pb2.Prng.COUNTER_FIELD_NUMBER)
CHANCE_MODE_FIELD: Final = wire.varint_fields(STATE_CHANCE_MODE)
VERSION_FIELD: Final = wire.varint_fields(STATE_VERSION)
SAMPLED_FIELD: Final = wire.varint_fields(STATE_SAMPLED)
ASK_FORCED_FIELD: Final = wire.varint_fields(STATE_ASK_FORCED)
STATE_GAME_TAGS: Final = {
    field.name: wire.tag(field.number, wire.LENGTH_DELIMITED)
    for field in game_pb2.GameState.DESCRIPTOR.oneofs_by_name["game"].fields
}
_RESPONSE_FIELDS = api.LegalMovesResponse.DESCRIPTOR.fields_by_name
RESPONSE_MOVES: Final = _RESPONSE_FIELDS["moves"].number
RESPONSE_NEXT: Final = _RESPONSE_FIELDS["next"].number
RESPONSE_MOVE_ID_COUNT: Final = _RESPONSE_FIELDS["move_id_count"].number
RESPONSE_LEGAL_MASK: Final = _RESPONSE_FIELDS["legal_mask"].number
RESPONSE_EVENTS: Final = api.ApplyMoveResponse.DESCRIPTOR.fields_by_name["events"].number

# Each game's encoded moves, by player (by the game itself: two games may share an id, as a
# test's variant of a game does, and must not share encodings).
_ENCODED_MOVES: Final[dict[tuple[AnyGame, int], MoveEncodings]] = {}
_ENCODINGS_LOCK: Final = threading.Lock()


def _encoded_moves(game: AnyGame, player: int) -> MoveEncodings:
    encodings = _ENCODED_MOVES.get((game, player))
    if encodings is None:
        encodings = _ENCODED_MOVES[game, player] = MoveEncodings(game, player)
    return encodings
