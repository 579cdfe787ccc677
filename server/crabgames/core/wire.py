"""Protobuf wire framing for responses assembled from bytes the engine already holds (encoded
moves, events, states): concatenating serialized fields is a valid message, and skips building
a message only to serialize it again (docs/performance.md). Only the three framings the
responses need: varint fields, length-delimited fields and repeated length-delimited fields."""

from __future__ import annotations

import functools
import struct
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping, Sized
from typing import Any, ClassVar, Final, Generic, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

VARINT: Final = 0
LENGTH_DELIMITED: Final = 2

K = TypeVar("K", bound=Hashable)  # a Remembered table's keys: the pieces' values
V = TypeVar("V", bound=Sized)  # ... and what it remembers for each (bytes, or a few of them)


_ONE_BYTE: Final = [bytes((n,)) for n in range(0x80)]


def varint(n: int) -> bytes:
    """An unsigned varint (negative int32 values are sent as their 64-bit two's complement)."""
    if 0 <= n < 0x80:  # most lengths and tags: one byte
        return _ONE_BYTE[n]
    if 0 <= n < 0x4000:  # a state's length, a version: two bytes, without the loop
        return bytes((n & 0x7F | 0x80, n >> 7))
    n &= 0xFFFF_FFFF_FFFF_FFFF
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def tag(field_number: int, wire_type: int) -> bytes:
    return varint(field_number << 3 | wire_type)


def varint_field(field_number: int, value: int) -> bytes:
    """A scalar field; proto3 leaves a zero out."""
    return tag(field_number, VARINT) + varint(value) if value else b""


def varint_fields(field_number: int) -> Remembered[int, bytes]:
    """`table[value]` is `varint_field(field_number, value)`, kept: a field written on every
    call (a state's version, its PRNG's counter) takes a few hundred values, and a kept one is
    written without a Python call."""
    return Remembered(functools.partial(varint_field, field_number))


def message_field(field_number: int, payload: bytes) -> bytes:
    """A length-delimited field (a message, bytes, or packed scalars), present even if empty."""
    return tag(field_number, LENGTH_DELIMITED) + varint(len(payload)) + payload


def repeated_field(field_number: int, sized: Iterable[bytes]) -> bytes:
    """Each item already prefixed with its varint length, framed as one repeated field."""
    return tag(field_number, LENGTH_DELIMITED).join([b"", *sized])


def sized(payload: bytes) -> bytes:
    """A payload prefixed with its length, for `repeated_field`."""
    return varint(len(payload)) + payload


class Remembered(Generic[K, V]):
    """`table[value]` is `build(value)`, built on first use and remembered: the encodings of a
    game's small pieces (a pile, a hand, a ship) by their values, which a game meets a few
    hundred of. Bounded by count and by bytes: a table that would hold more than `LIMIT`
    entries or `max_bytes` (BYTES unless said) bytes (each entry's bytes, or what `weigh` says
    it holds, its key's shallow size and ENTRY_OVERHEAD, the dict slot and objects around
    them) starts over. The games bound each value (a pile holds at most the deck, a mission
    pile the deck of missions), so an entry stays small.

    It holds its entries in a dict rather than being one: indexing a subclass of dict goes
    through a Python-level `__getitem__` call (dict's own is a method, so a subclass's slot
    cannot take it), which cost a mid-game ApplyMove about 8k instructions; a compiled class
    indexes its dict directly. (A compiled subclass of dict is no answer: with attributes of
    its own it breaks the garbage collector, python/mypy#21133.)"""

    LIMIT: Final = 4096
    BYTES: Final = 1 << 20
    ENTRY_OVERHEAD: Final = 128
    # Every table made, for the metrics of the bytes they keep (service/metrics.py). Held for
    # good: tables are made once per game and message (at import, about 900) and live as long
    # as the process, and a compiled class's instances cannot be weakly referenced.
    tables: ClassVar[list[Remembered[Any, Any]]] = []

    def __init__(
        self, build: Callable[[K], V], weigh: Callable[[V], int] = len, max_bytes: int = BYTES
    ) -> None:
        self.entries: dict[K, V] = {}
        self.build = build
        self.weigh = weigh  # the bytes an entry's value holds
        self.max_bytes = max_bytes  # BYTES, or less for a table of larger, rarer entries
        self.used = 0
        Remembered.tables.append(self)

    def __getitem__(self, value: K) -> V:
        found = self.entries.get(value)  # never None: a value is Sized
        return self.remember(value, self.build(value)) if found is None else found

    def get(self, value: K) -> V | None:
        """The entry for `value` if it is remembered, without building it."""
        return self.entries.get(value)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, value: object) -> bool:
        """Whether `value`'s entry is remembered (nothing is built)."""
        return value in self.entries

    def remember(self, value: K, built: V) -> V:
        """Keep `built` as the entry for `value` (what `build(value)` would give, built by a
        caller that knows more, such as the field path to name in an error)."""
        cost = self.weigh(built) + sys.getsizeof(value) + self.ENTRY_OVERHEAD
        if len(self.entries) >= self.LIMIT or self.used + cost > self.max_bytes:
            self.clear()
        self.entries[value] = built
        self.used += cost
        return built

    def clear(self) -> None:
        self.entries.clear()
        self.used = 0


def leading_field(data: bytes, field_number: int) -> tuple[bytes, bytes] | None:
    """When a serialized message starts with the length-delimited field `field_number` (every
    protobuf library writes fields in number order), that field's bytes and the rest of the
    message; else None. Reads a few bytes, parses nothing."""
    head = tag(field_number, LENGTH_DELIMITED)
    if not data.startswith(head):
        return None
    framed = length_at(data, len(head))
    if framed is None:
        return None
    start, end = framed
    return data[start:end], data[end:]


def length_at(data: bytes, index: int) -> tuple[int, int] | None:
    """The payload a varint length at `index` frames, as (start, end) indexes into `data`; None
    when the length or its payload is cut short."""
    length = shift = 0
    for i in range(index, min(len(data), index + 5)):  # a length below 2**32: 5 bytes at most
        byte = data[i]
        length |= (byte & 0x7F) << shift
        if byte < 0x80:
            end = i + 1 + length
            return (i + 1, end) if end <= len(data) else None
        shift += 7
    return None


def unsized(data: bytes) -> bytes:
    """The payload of `sized(payload)`."""
    framed = length_at(data, 0)
    if framed is None:
        raise ValueError("not a sized payload")
    start, end = framed
    return data[start:end]


def first_unknown_field(message: Message, path: str) -> tuple[str, int] | None:
    """The path and number of the first field at any depth of `message` that its schema does
    not know, or None. A state or request parsed from a caller's bytes keeps such fields, and
    the engine never writes one."""
    unknown = UnknownFieldSet(message)
    if len(unknown):
        return path, unknown[0].field_number
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        items = enumerate(value) if field.is_repeated else [(None, value)]
        for index, item in items:
            where = f"{path}.{field.name}" + ("" if index is None else f"[{index}]")
            found = first_unknown_field(item, where)
            if found is not None:
                return found
    return None


# ----- a message's bytes from a native value, by the message's descriptor -----

# What a field's value is, read from the native value a message is written from.
Read = Callable[[Any], Any]
FIXED64, FIXED32 = 1, 5
_VARINT_TYPES = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_ENUM,
    FieldDescriptor.TYPE_BOOL,
}
_FIXED = {FieldDescriptor.TYPE_DOUBLE: ("<d", FIXED64), FieldDescriptor.TYPE_FLOAT: ("<f", FIXED32)}


def snake_case(name: str) -> str:
    """A class name as a field name: TileDealt is tile_dealt."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def by_class_name(value: Any) -> tuple[str, Any]:
    """A oneof's choice from the native value's class: a TileDealt is the field tile_dealt,
    written from the value itself."""
    return snake_case(type(value).__name__), value


class Encoder:
    """A message type's bytes written from a native value, field by field in field-number
    order: exactly what protobuf's deterministic serialization gives for the message filled
    from it (tests/test_encoder.py checks that for every game's values), without building it.

    A field's value is `read[name](value)` when given; else, from a plain tuple, the item at
    the field's place in the message's declaration; else the attribute of the same name. A
    oneof's is `read[oneof name](value)`, a (field name, field value) pair or None (by default
    the field named after the value's class, written from the value). Then by the field's type:
    an int, bool or enum is a varint; str, bytes, float as themselves; None (or a proto3 zero,
    empty string, empty list) leaves the field out; a list of scalars is packed; a dict is a
    map, its entries by key; a message is written by the Encoder `shapes` has for its type (a
    default one unless the game declared another). With `remember`, the values it writes are
    immutable (tuples, frozen dataclasses), and each field holding one keeps its bytes in a
    Remembered table: a game meets the same small pieces (a hand, a pile, an event) again and
    again. A field in `kept` is read as its bytes, already written (its tag and length
    included, a repeated field's items joined): from a value whose pieces keep their own."""

    def __init__(
        self,
        message: type[Message],
        read: Mapping[str, Read] | None = None,
        shapes: Shapes | None = None,
        remember: bool = True,
        kept: Mapping[str, Read] | None = None,
    ) -> None:
        self.message = message
        self.shapes = shapes if shapes is not None else Shapes()
        descriptor = message.DESCRIPTOR
        read = dict(read or {})
        declared = [f.name for f in descriptor.fields]
        # (read from an object, read from a plain tuple, write), a field (or oneof) each; a read
        # given as text is an attribute or item access, written inline by `joined`
        writers: list[tuple[Read | str, Read | str, Callable[[Any], bytes]]] = []
        written: set[str] = set()  # the oneofs already written
        fields: Iterable[FieldDescriptor] = descriptor.fields  # type: ignore[assignment]
        ordered = sorted(fields, key=lambda f: f.number)
        for place, field in enumerate(ordered):
            oneof = real_oneof(field)
            if kept and field.name in kept:
                writers.append((kept[field.name], kept[field.name], Write(AS_IS, None)))
            elif oneof is None:
                given = read.get(field.name)
                by_name = given or f".{field.name}"
                by_place = given or f"[{declared.index(field.name)}]"
                writers.append((by_name, by_place, self.field_writer(field)))
            elif oneof.name not in written:
                numbers = [f.number for f in ordered[place : place + len(oneof.fields)]]
                if sorted(f.number for f in oneof.fields) != numbers:
                    raise ValueError(f"{oneof.full_name}: its fields are not consecutive")
                written.add(oneof.name)
                choose, write = self.oneof_writer(oneof, read)
                writers.append((choose, choose, write))
        self.from_name = joined([(get, write) for get, _, write in writers])
        self.from_place = joined([(get, write) for _, get, write in writers])
        self.remember = remember
        self.table: Remembered[Any, bytes] | None = Remembered(self.build) if remember else None
        # The same as calling the encoder, one call shorter (on every call's path).
        self.write: Callable[[Any], bytes] = (
            self.build if self.table is None else self.table.__getitem__
        )

    def oneof_writer(
        self, oneof: Any, read: Mapping[str, Read]
    ) -> tuple[Read, Callable[[Any], bytes]]:
        """The oneof as one writer: its choice read from the value (by_class_name unless
        `read` says), the chosen field written as itself."""
        choose = read.get(oneof.name, by_class_name)
        fields = {f.name: self.field_writer(f, present=True) for f in oneof.fields}

        def write(choice: tuple[str, Any] | None) -> bytes:
            if choice is None:
                return b""
            name, value = choice
            return fields[name](value)

        return choose, write

    def field_writer(self, field: FieldDescriptor, present: bool = False) -> Callable[[Any], bytes]:
        if field.message_type is None or field.message_type.GetOptions().map_entry:
            return field_writer(field, present)
        encoder = self.shapes.encoder(message_class(field))
        tag_bytes = tag(field.number, LENGTH_DELIMITED)

        def whole(value: Any) -> bytes:
            return b"" if value is None else tag_bytes + sized(encoder.build(value))

        table = Remembered(whole) if encoder.remember else None
        if field.is_repeated:
            return Write(EACH, whole if table is None else table.__getitem__)
        return Write(CALL, whole) if table is None else Write(TABLE, table)

    def build(self, value: Any) -> bytes:
        """The message's bytes for `value`."""
        return self.from_place(value) if type(value) is tuple else self.from_name(value)

    def __call__(self, value: Any) -> bytes:
        """The message's bytes for `value`, remembered when its values are immutable."""
        return self.write(value)


def item_table(message: type[Message], field: str, encoder: Encoder) -> Remembered[Any, bytes]:
    """Each item's bytes as an item of `message`'s repeated `field` (its tag and length first),
    written by `encoder` and remembered by the item's value: for a `kept` field, joined from
    its items by a typed function of the game's."""
    number = message.DESCRIPTOR.fields_by_name[field].number
    return Remembered(lambda value: message_field(number, encoder.build(value)))


class Shapes:
    """The Encoders of one game's messages: a default one for each message type, built on
    first use, unless the game declares another (a cell written as a row and a column, a card
    id as its card): the shape of a native value that truly differs from its message's."""

    def __init__(self, declared: Mapping[type[Message], Callable[[Shapes], Encoder]] | None = None):
        self.declared = dict(declared or {})
        self.encoders: dict[type[Message], Encoder] = {}

    def encoder(self, message: type[Message]) -> Encoder:
        found = self.encoders.get(message)
        if found is None:
            make = self.declared.get(message)
            found = make(self) if make is not None else Encoder(message, shapes=self)
            self.encoders[message] = found
        return found


TABLE, EACH, CALL, AS_IS = "table", "each", "call", "as is"


class Write:
    """How a field's bytes are written from its value: `target[value]` (a Remembered table of
    them), `b"".join(map(target, values))` (a repeated field's items), `target(value)`, or the
    value itself (AS_IS: its bytes, already written). Called, it does that; `joined` writes the
    same as an expression."""

    __slots__ = ("how", "target")

    def __init__(self, how: str, target: Any) -> None:
        self.how, self.target = how, target

    def __call__(self, value: Any) -> bytes:
        if self.how == TABLE:
            found: bytes = self.target[value]
            return found
        if self.how == EACH:
            return b"".join(map(self.target, value or ()))
        if self.how == AS_IS:
            as_is: bytes = value
            return as_is
        written: bytes = self.target(value)
        return written


def joined(writers: list[tuple[Read | str, Callable[[Any], bytes]]]) -> Callable[[Any], bytes]:
    """One function joining each field's bytes, written out as one expression and compiled
    once per message type: a field read as an attribute or item is read inline, a remembered
    one is indexed, a repeated one joined in place. The loop over fields it stands for, and a
    call per field, would cost more than the fields' own work in a state of small fields."""
    if not writers:
        return lambda _value: b""
    names: dict[str, Any] = {}
    parts = []
    for i, (read, write) in enumerate(writers):
        if isinstance(read, str):
            got = f"value.{read[1:]}" if read.startswith(".") else f"value{read}"
        else:
            names[f"r{i}"], got = read, f"r{i}(value)"
        how, target = (write.how, write.target) if isinstance(write, Write) else (CALL, write)
        names[f"w{i}"] = target
        written = {TABLE: f"w{i}[{got}]", EACH: f"b''.join(map(w{i}, {got} or ()))", AS_IS: got}
        parts.append(written.get(how, f"w{i}({got})"))
    source = f"def build(value):\n    return b''.join(({', '.join(parts)},))\n"
    # The source is made here from field names (identifiers, from the descriptor) and indexes.
    exec(source, names)  # noqa: S102
    build: Callable[[Any], bytes] = names["build"]
    return build


def real_oneof(field: FieldDescriptor) -> Any:
    """The oneof the field is one choice of; None for a proto3 `optional`, whose oneof (its
    name starts with "_") only gives it presence."""
    oneof = field.containing_oneof
    return None if oneof is None or oneof.name.startswith("_") else oneof


def field_writer(field: FieldDescriptor, present: bool = False) -> Callable[[Any], bytes]:
    """How a scalar, repeated scalar or map field is written from its value (b"" when it is
    left out). `present`: written even when zero or empty (a oneof's chosen field; a proto3
    `optional` is written whenever its value is not None)."""
    if field.message_type is not None:
        return map_writer(field)
    scalar = scalar_bytes(field.type)
    if field.is_repeated and field.type in (
        FieldDescriptor.TYPE_STRING,
        FieldDescriptor.TYPE_BYTES,
    ):
        tag_bytes = tag(field.number, LENGTH_DELIMITED)
        return lambda values: b"".join([tag_bytes + scalar(v) for v in values or ()])
    if field.is_repeated:  # packed
        return packed_writer(field, scalar)
    tag_bytes = tag(field.number, wire_type(field.type))
    if present or field.has_presence:

        def write(value: Any) -> bytes:
            return b"" if value is None else tag_bytes + scalar(value)
    else:

        def write(value: Any) -> bytes:
            return tag_bytes + scalar(value) if value else b""

    # A varint field's bytes by its value, kept: the values a game writes are few (a seat, a
    # step, a count), and a kept one is written without a Python call.
    return Write(TABLE, Remembered(write)) if field.type in _VARINT_TYPES else write


def packed_writer(field: FieldDescriptor, scalar: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """A packed repeated scalar, left out when empty. Bytes whose every value is under 128 (a
    board of cells) are their own packed varints."""
    tag_bytes = tag(field.number, LENGTH_DELIMITED)
    varints = field.type in _VARINT_TYPES

    def write(values: Any) -> bytes:
        if values is None or not len(values):
            return b""
        if varints and type(values) in (bytes, bytearray) and values.isascii():
            return b"".join((tag_bytes, varint(len(values)), values))
        return tag_bytes + sized(b"".join(map(scalar, values)))

    return write


def wire_type(kind: int) -> int:
    if kind in _VARINT_TYPES:
        return VARINT
    return _FIXED[kind][1] if kind in _FIXED else LENGTH_DELIMITED


def scalar_bytes(kind: int) -> Callable[[Any], bytes]:
    """A scalar's bytes, without its tag (with its length, for a string or bytes)."""
    if kind in _VARINT_TYPES:
        return lambda value: varint(int(value))
    if kind in _FIXED:
        return struct.Struct(_FIXED[kind][0]).pack
    if kind == FieldDescriptor.TYPE_STRING:
        return lambda value: sized(value.encode())
    return lambda value: sized(bytes(value))


def message_class(field: FieldDescriptor) -> type[Message]:
    """The generated class of a message field's type."""
    found: type[Message] = field.message_type._concrete_class  # type: ignore[union-attr]
    return found


def map_writer(field: FieldDescriptor) -> Callable[[Any], bytes]:
    """A map from a dict: one entry per key, in key order (deterministic serialization)."""
    entry = field.message_type
    assert entry is not None  # a map field's entries are a message
    key = field_writer(entry.fields_by_name["key"], present=True)
    value = field_writer(entry.fields_by_name["value"], present=True)
    tag_bytes = tag(field.number, LENGTH_DELIMITED)
    return lambda items: b"".join(
        [tag_bytes + sized(key(k) + value(v)) for k, v in sorted(items.items())]
    )


# ----- ApplyMove's answer, framed by hand -----
#
# ApplyMove is the call a game makes most. Everything its answer holds the engine already keeps
# serialized: the new state (the bytes it is remembered by) and each event with its length in
# front (engine.Happened). An ApplyMoveResponse message would parse all of it back only to
# serialize it again: built so, the answer to a mid-game move took about 10 times as long as
# framing it (Kraby 41 against 5 us, Crab Bucket 53 against 5 us), as long as the whole call.
# So the answer is those bytes framed: the ApplyMoveResponse protobuf would build
# (tests/test_wire.py), here beside the rest of the framing, the only hand framing of answers.

_STATE_TAG: Final = tag(api.ApplyMoveResponse.STATE_FIELD_NUMBER, LENGTH_DELIMITED)
_SEAT_EVENTS_TAG: Final = tag(api.ApplyMoveResponse.SEAT_EVENTS_FIELD_NUMBER, LENGTH_DELIMITED)
_OUTCOME_TAG: Final = tag(api.ApplyMoveResponse.OUTCOME_FIELD_NUMBER, LENGTH_DELIMITED)
_EVENTS_FIELD: Final = api.ApplyMoveResponse.EVENTS_FIELD_NUMBER
_PUBLIC_EVENTS_FIELD: Final = api.ApplyMoveResponse.PUBLIC_EVENTS_FIELD_NUMBER
_SEAT_EVENTS_EVENTS_FIELD: Final = api.SeatEvents.EVENTS_FIELD_NUMBER


@functools.lru_cache(maxsize=1024)  # a handful of seats, and the lengths of their events
def _seat_entry_head(seat: int, body_length: int) -> bytes:
    """A `seat_events` entry up to its events (`body_length` bytes, framed): the field's tag,
    the entry's length and `SeatEvents.player`, written even for seat 0 (it has presence)."""
    player = tag(api.SeatEvents.PLAYER_FIELD_NUMBER, VARINT) + varint(seat)
    return _SEAT_EVENTS_TAG + varint(len(player) + body_length) + player


_APPLY_MOVES_RESPONSE: Final = api.ApplyMovesResponse.RESPONSE_FIELD_NUMBER


def apply_moves_response(response: bytes) -> bytes:
    """An ApplyMovesResponse (one on the stream) holding an ApplyMoveResponse's bytes."""
    return message_field(_APPLY_MOVES_RESPONSE, response)


def apply_move_response(
    state: bytes,
    events: list[bytes],
    public_events: list[bytes],
    seats: Iterable[tuple[int, list[bytes]]],
    outcome: game_pb2.Outcome | None,
) -> bytes:
    """An ApplyMoveResponse's wire bytes, from the serialized state and the events as the
    engine keeps them (each serialized once, with its length in front: Happened). Seats that
    see the same list (often every seat) share its framing."""
    host = repeated_field(_EVENTS_FIELD, events)
    parts = [
        _STATE_TAG,
        varint(len(state)),
        state,
        host,
        repeated_field(_PUBLIC_EVENTS_FIELD, public_events),
    ]
    # A seat's events are framed as the host's when their fields share a number (they do): a
    # seat that sees every event (often all of them) takes the host's framing.
    framed = {id(events): host} if _SEAT_EVENTS_EVENTS_FIELD == _EVENTS_FIELD else {}
    for seat, seen in seats:  # framed by id() of the list: the lists stay alive meanwhile
        body = framed.get(id(seen))
        if body is None:
            body = framed[id(seen)] = repeated_field(_SEAT_EVENTS_EVENTS_FIELD, seen)
        parts += (_seat_entry_head(seat, len(body)), body)
    if outcome is not None:
        parts += (_OUTCOME_TAG, sized(outcome.SerializeToString()))
    return b"".join(parts)
