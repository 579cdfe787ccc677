"""Protobuf wire framing for responses assembled from bytes the engine already holds (encoded
moves, events, states): concatenating serialized fields is a valid message, and skips building
a message only to serialize it again (docs/performance.md). Only the three framings the
responses need: varint fields, length-delimited fields and repeated length-delimited fields."""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable, Hashable, Iterable, Sized
from typing import Any, ClassVar, TypeVar

from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

VARINT = 0
LENGTH_DELIMITED = 2

K = TypeVar("K", bound=Hashable)  # a Remembered table's keys: the pieces' values
V = TypeVar("V", bound=Sized)  # ... and what it remembers for each (bytes, or a few of them)


_ONE_BYTE = [bytes((n,)) for n in range(0x80)]


def varint(n: int) -> bytes:
    """An unsigned varint (negative int32 values are sent as their 64-bit two's complement)."""
    if 0 <= n < 0x80:  # most lengths and tags: one byte
        return _ONE_BYTE[n]
    n &= 0xFFFF_FFFF_FFFF_FFFF
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


@functools.cache  # a message type has a few dozen fields
def tag(field_number: int, wire_type: int) -> bytes:
    return varint(field_number << 3 | wire_type)


def varint_field(field_number: int, value: int) -> bytes:
    """A scalar field; proto3 leaves a zero out."""
    return tag(field_number, VARINT) + varint(value) if value else b""


def message_field(field_number: int, payload: bytes) -> bytes:
    """A length-delimited field (a message, bytes, or packed scalars), present even if empty."""
    return tag(field_number, LENGTH_DELIMITED) + varint(len(payload)) + payload


def repeated_field(field_number: int, sized: Iterable[bytes]) -> bytes:
    """Each item already prefixed with its varint length, framed as one repeated field."""
    return tag(field_number, LENGTH_DELIMITED).join([b"", *sized])


def sized(payload: bytes) -> bytes:
    """A payload prefixed with its length, for `repeated_field`."""
    return varint(len(payload)) + payload


class Remembered(dict[K, V]):
    """`table[value]` is `build(value)`, built on first use and remembered: the encodings of a
    game's small pieces (a pile, a hand, a ship) by their values, which a game meets a few
    hundred of. Bounded by count and by bytes: a table that would hold more than `LIMIT`
    entries or `BYTES` bytes (each entry's bytes, its key's shallow size and ENTRY_OVERHEAD,
    the dict slot and objects around them) starts over. The games bound each value (a pile
    holds at most the deck, a mission pile the deck of missions), so an entry stays small."""

    LIMIT = 4096
    BYTES = 1 << 20
    ENTRY_OVERHEAD = 128
    # Every table alive, for the metrics of the bytes they keep (service/metrics.py).
    # By id: a dict is not hashable, so not a WeakSet member.
    tables: ClassVar[weakref.WeakValueDictionary[int, Remembered[Any, Any]]] = (
        weakref.WeakValueDictionary()
    )

    def __init__(self, build: Callable[[K], V]) -> None:
        super().__init__()
        self.build = build
        self.used = 0
        Remembered.tables[id(self)] = self

    def __missing__(self, value: K) -> V:
        built = self.build(value)
        cost = len(built) + sys.getsizeof(value) + self.ENTRY_OVERHEAD
        if len(self) >= self.LIMIT or self.used + cost > self.BYTES:
            self.clear()
        self[value] = built
        self.used += cost
        return built

    def clear(self) -> None:
        super().clear()
        self.used = 0


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
