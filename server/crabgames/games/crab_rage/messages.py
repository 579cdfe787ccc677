"""CRAB RAGE!'s native values as its messages (core/wire.py): a state, an event, a move, the
outcome's part and a seat's view. Every message is written from the native value of the same
shape (its fields by name; a crab named by a (seat, index) tuple, its items in the message's
order), but for the few declared here: a field the native value holds under another name or
derives (a crab's place, an event's cause), a message written from a sequence (a unit's seats,
a fanbase card's rewards), the fields a move uses, and the view: the state as one seat may see
it (view.py). A state's players, arenas and pending steps are written from their values, their
bytes kept with the piece while it cannot change (state.py), so unchanged pieces are not
written again."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter, itemgetter
from typing import Any

from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.game import event_encoder
from crabgames.games.crab_rage import words
from crabgames.games.crab_rage.codec import (
    MOVE_KIND_VALUE,
    PLACE_ARENA,
    PLACE_BACKSTAGE,
    PLACE_TRANSIT,
    kind_values,
    move_fields,
)
from crabgames.games.crab_rage.endgame import Result
from crabgames.games.crab_rage.events import EVENT_CLASSES, Cause, Event
from crabgames.games.crab_rage.phases import unrevealed_cards
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    Arena,
    Crab,
    Player,
    State,
    Task,
    seats_of,
)
from crabgames.games.crab_rage.view import decision_about, managers, seen_state, tie_break_arena
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2

# How a game declares a message's Encoder (wire.Shapes).
Maker = Callable[[wire.Shapes], wire.Encoder]

# ----- pieces -----


def sequence(message: type[Message], remember: bool = True) -> Maker:
    """A message of one repeated field, written from the sequence itself (a unit's seats, a
    fanbase card's rewards, a duelist's rolls)."""
    (field,) = message.DESCRIPTOR.fields
    read = {field.name: lambda items: items}
    return lambda shapes: wire.Encoder(message, read, shapes, remember)


PLACE_OF = {BACKSTAGE: PLACE_BACKSTAGE, IN_TRANSIT: PLACE_TRANSIT}


def place(arena: int) -> int:
    """Where a crab in `arena` (or BACKSTAGE, IN_TRANSIT) is, as CrabRagePlace."""
    return PLACE_OF.get(arena, PLACE_ARENA)


def arena_of(arena: int, destination: int) -> int:
    """The arena a crab is in, or the one it is entering in transit; -1 backstage."""
    return destination if arena == IN_TRANSIT else arena


def seat_or_none(seat: int) -> int | None:
    """A seat or an arena, None for the state's -1 (unset in a view)."""
    return seat if seat >= 0 else None


# A crab as its value, its fields in Crab's order: a Crab changes in place, so the player's
# crabs are written from their values, each remembered.
CRAB_FIELDS = [f.name for f in dataclasses.fields(Crab)]
MUSCLE, ARENA, RIDING_FANS, DESTINATION = map(
    CRAB_FIELDS.index, ("muscle", "arena", "riding_fans", "destination")
)


def crab(shapes: wire.Shapes) -> wire.Encoder:
    """A crab in the state, from its value: its arena -1 backstage."""
    read: dict[str, wire.Read] = {
        "muscle": itemgetter(MUSCLE),
        "place": lambda value: place(value[ARENA]),
        "arena": lambda value: arena_of(value[ARENA], value[DESTINATION]),
        "riding_fans": itemgetter(RIDING_FANS),
    }
    return wire.Encoder(pb.CrabRageCrab, read, shapes)


def crab_view(shapes: wire.Shapes) -> wire.Encoder:
    """A crab as the table shows it: no arena backstage."""
    read = {
        "place": lambda c: place(c.arena),
        "arena": lambda c: seat_or_none(arena_of(c.arena, c.destination)),
    }
    return wire.Encoder(pb.CrabRageCrabView, read, shapes, remember=False)


# The CrabRagePlayer and CrabRageManager fields a Player holds under another name.
PLAYER_NAMES = {
    "hardcore_fans": "hardcore",
    "signature_move": "signature",
    "fanbase_card": "fanbase",
}


def manager(shapes: wire.Shapes) -> wire.Encoder:
    """A view.Manager: the player's board, and the commitment as the seat sees it (G4)."""
    read: dict[str, wire.Read] = {
        f.name: attrgetter(f"player.{PLAYER_NAMES.get(f.name, f.name)}")
        for f in pb.CrabRageManager.DESCRIPTOR.fields
    }
    read["commitment"] = attrgetter("commitment")
    return wire.Encoder(pb.CrabRageManager, read, shapes, remember=False)


def arena_view(shapes: wire.Shapes) -> wire.Encoder:
    """An arena as the table shows it: its alliances as pairs of seats, by the lower one."""
    read = {
        "alliances": lambda arena: [
            (seat, other) for seat, other in enumerate(arena.partner) if seat < other
        ]
    }
    return wire.Encoder(pb.CrabRageArenaView, read, shapes, remember=False)


def roll_off_view(shapes: wire.Shapes) -> wire.Encoder:
    """The roll-off under way, written from the state: the tied rumble's arena (none: the
    microphone), the units as their seats."""
    read: dict[str, wire.Read] = {
        "arena": lambda state: seat_or_none(tie_break_arena(state)),
        "standing": lambda state: [seats_of(unit) for unit in state.roll_off.standing],
        "rolling": lambda state: [seats_of(unit) for unit in state.roll_off.rolling],
        "dice": lambda state: state.roll_off.dice,
    }
    return wire.Encoder(pb.CrabRageRollOffView, read, shapes, remember=False)


def changing(message: type[Message]) -> Maker:
    """A message written from a value that changes (a roll-off, a duel, an outcome's lists):
    not remembered."""
    return lambda shapes: wire.Encoder(message, shapes=shapes, remember=False)


# ----- moves and events -----


def move_field(name: str) -> wire.Read:
    """A CrabRageMove field: the move's own when its kind uses it (codec.move_fields)."""
    return lambda move: getattr(move, name) if name in move_fields(move) else None


def move(shapes: wire.Shapes) -> wire.Encoder:
    read = {f.name: move_field(f.name) for f in pb.CrabRageMove.DESCRIPTOR.fields}
    read["kind"] = lambda move: MOVE_KIND_VALUE[move.kind]
    return wire.Encoder(pb.CrabRageMove, read, shapes)


# The CrabRageEvent field naming what caused a change, by its cause (an event's `why`).
WHY_FIELD = {
    Cause.ACTION: "action",
    Cause.SIGNATURE_MOVE: "signature_move",
    Cause.BILLBOARD: "billboard",
}
# Each event class's CrabRageEventKind value, by its `kind`.
EVENT_KIND_VALUE = kind_values(EVENT_CLASSES, pb.CrabRageEventKind, "CRAB_RAGE_EVENT_KIND_")


def event_field(name: str) -> wire.Read:
    """A CrabRageEvent field as the event holds it under the same name (None: unset, as for an
    event that has no such field)."""
    return lambda event: getattr(event, name, None)


def why_field(name: str, cause: int) -> wire.Read:
    """The action, signature move or billboard that caused a change (its `why`), else the
    event's own field."""

    def read(event: Event) -> int | None:
        why = getattr(event, "why", None)
        return why[1] if why is not None and why[0] == cause else getattr(event, name, None)

    return read


def cause_of(event: Event) -> int | None:
    why = getattr(event, "why", None)
    return getattr(event, "cause", None) if why is None else why[0]


# Each CrabRageEvent field (but its kind) as the event holds it, None: unset.
EVENT_FIELDS: dict[str, wire.Read] = {
    f.name: event_field(f.name) for f in pb.CrabRageEvent.DESCRIPTOR.fields if f.name != "kind"
}
EVENT_FIELDS |= {name: why_field(name, cause) for cause, name in WHY_FIELD.items()}
EVENT_FIELDS["cause"] = cause_of


def event(shapes: wire.Shapes) -> wire.Encoder:
    read = dict(EVENT_FIELDS)
    read["kind"] = lambda event: EVENT_KIND_VALUE[event.kind]
    return wire.Encoder(pb.CrabRageEvent, read, shapes)


# ----- the messages -----

SHAPES = wire.Shapes(
    {
        pb.CrabRageUnit: sequence(pb.CrabRageUnit),
        pb.CrabRageFanbaseCard: sequence(pb.CrabRageFanbaseCard),
        pb.CrabRageDuelRolls: sequence(pb.CrabRageDuelRolls, remember=False),
        pb.CrabRageCrab: crab,
        pb.CrabRageCrabView: crab_view,
        pb.CrabRageManager: manager,
        pb.CrabRageArenaView: arena_view,
        pb.CrabRageRollOff: changing(pb.CrabRageRollOff),
        pb.CrabRageRollOffView: roll_off_view,
        pb.CrabRageDuel: changing(pb.CrabRageDuel),
        pb.CrabRageOutcome: changing(pb.CrabRageOutcome),
        pb.CrabRageArenaGlory: changing(pb.CrabRageArenaGlory),
        pb.CrabRageMove: move,
        pb.CrabRageEvent: event,
    }
)

# ----- a state's pieces, by their values -----

# A player's, an arena's or a step's value: the arguments it is built from (its __reduce__: its
# fields in its class's order), each list as a tuple and a crab as its value: what its bytes are
# remembered by. A frozen player or arena, and a pushed step, never change: each keeps its
# bytes, found once (state.py), so a state's unchanged pieces cost nothing.


def valued(fields: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple([tuple(v) if type(v) is list else v for v in fields])


def state_items(field: str, piece: type, names: dict[str, str]) -> wire.Remembered[Any, bytes]:
    """A piece's bytes as an item of the state's repeated `field` (its tag and length first),
    by the piece's value: each of the message's fields read at its place among the piece's
    fields, by the name `names` gives, else its own."""
    message = wire.message_class(pb.CrabRageState.DESCRIPTOR.fields_by_name[field])
    order = [f.name for f in dataclasses.fields(piece)]
    read = {
        f.name: itemgetter(order.index(names.get(f.name, f.name)))
        for f in message.DESCRIPTOR.fields
    }
    encoder = wire.Encoder(message, read, SHAPES, remember=False)
    return wire.item_table(pb.CrabRageState, field, encoder)


PLAYERS = state_items("players", Player, PLAYER_NAMES)
ARENAS = state_items("arenas", Arena, {})
PENDING = state_items("pending", Task, {})
CRABS = [f.name for f in dataclasses.fields(Player)].index("crabs")


def player_bytes(player: Player) -> bytes:
    """The player's bytes, kept: the player is frozen (a change copies it first)."""
    fields = list(player.__reduce__()[1])
    fields[CRABS] = tuple([crab.__reduce__()[1] for crab in player.crabs])  # crabs' values
    player.frozen, player.written = True, PLAYERS[tuple(fields)]
    return player.written


def arena_bytes(arena: Arena) -> bytes:
    """The arena's bytes, kept: the arena is frozen (a change copies it first)."""
    arena.frozen, arena.written = True, ARENAS[valued(arena.__reduce__()[1])]
    return arena.written


def task_bytes(task: Task) -> bytes:
    task.written = PENDING[valued(task.__reduce__()[1])]
    return task.written


# A state's pieces' bytes (typed, so that each piece's are read as a native attribute).


def players_bytes(state: State) -> bytes:
    return b"".join([p.written or player_bytes(p) for p in state.players])


def arenas_bytes(state: State) -> bytes:
    return b"".join([a.written or arena_bytes(a) for a in state.arenas])


def pending_bytes(state: State) -> bytes:
    return b"".join([t.written or task_bytes(t) for t in state.pending])


def enums(name: str) -> wire.Read:
    """A list of enum values as bytes: each value is under 128, its own packed varint
    (wire.packed_writer), written without a call per value."""
    return lambda state: bytes(getattr(state, name))


STATE = wire.Encoder(
    pb.CrabRageState,
    {
        "action_cards": enums("action_cards"),
        "active_player": attrgetter("active"),
        "used_actions": enums("used_actions"),
        "billboards_to_deal": enums("billboards_to_deal"),
    },
    SHAPES,
    remember=False,  # a state changes in place
    kept={"players": players_bytes, "arenas": arenas_bytes, "pending": pending_bytes},
)
EVENT = event_encoder("crab_rage", words.words, SHAPES)
MOVE = SHAPES.encoder(pb.CrabRageMove)
OUTCOME = SHAPES.encoder(pb.CrabRageOutcome)


def state_field(name: str) -> wire.Read:
    return lambda seat: getattr(seat.state, name)


# The CrabRageView fields the table shows as the state holds them.
SHOWN = ("arenas", "action_cards", "used_actions", "round", "phase", "duel")


VIEW = wire.Encoder(
    pb.CrabRageView,
    {
        "action_deck_count": lambda seat: len(unrevealed_cards(seat.state)),
        "players": lambda seat: managers(seat.state, seat.player),
        **{name: state_field(name) for name in SHOWN},
        "microphone": lambda seat: seat_or_none(seat.state.microphone),
        "active_player": lambda seat: seat_or_none(seat.state.active),
        "roll_off": lambda seat: None if seat.state.roll_off is None else seat.state,
        "decision": lambda seat: decision_about(seat.state),
        "continuation": lambda seat: STATE(seen_state(seat.state, seat.player)),
    },
    SHAPES,
    remember=False,
)


def encode_outcome(result: Result, msg: game_pb2.Outcome) -> None:
    for seat, (glory, rank) in enumerate(zip(result.glory, result.ranks, strict=True)):
        msg.players.add(player=seat, score=glory, rank=rank, winner=seat in result.winners)
    msg.winners.extend(result.winners)
    names = " and ".join(result.teams[w] for w in result.winners)
    best = max(result.glory)
    duel = " after a spotlight duel" if result.duel is not None else ""
    msg.summary = f"{names} win(s) with {best} glory{duel}"
    msg.crab_rage.MergeFromString(OUTCOME(result))
