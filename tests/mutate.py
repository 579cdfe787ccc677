"""Hypothesis strategies that break protobuf messages the way a careless or hostile client would:
one field set to an edge value, a list grown, shrunk or cleared, a sub-message dropped, a few bits
flipped in the wire bytes. Generic over descriptors, so they cover every game's messages."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

F = FieldDescriptor
INT32 = (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32)
INT64 = (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64)
UINT32 = (F.TYPE_UINT32, F.TYPE_FIXED32)
UINT64 = (F.TYPE_UINT64, F.TYPE_FIXED64)
LIMITS = {
    INT32: (-(2**31), 2**31 - 1),
    INT64: (-(2**63), 2**63 - 1),
    UINT32: (0, 2**32 - 1),
    UINT64: (0, 2**64 - 1),
}
# Values around the edges that rules code tends to trust: small counts, seats, -1, huge.
SMALL = (-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 30, 50, 100, 1000)


@dataclass
class Slot:
    """One place in a message tree: a field of `parent` (an element index for lists)."""

    parent: Message
    field: FieldDescriptor
    path: str


def slots(message: Message, path: str = "", depth: int = 0) -> list[Slot]:
    """Every field of the message tree, set or not (oneof members included)."""
    found: list[Slot] = []
    if depth > 8:
        return found
    for field in message.DESCRIPTOR.fields:
        here = f"{path}.{field.name}" if path else field.name
        found.append(Slot(message, field, here))
        if field.type != F.TYPE_MESSAGE:
            continue
        if is_repeated(field):
            if field.message_type.GetOptions().map_entry:
                continue
            for i, child in enumerate(getattr(message, field.name)):
                found.extend(slots(child, f"{here}[{i}]", depth + 1))
        elif message.HasField(field.name):
            found.extend(slots(getattr(message, field.name), here, depth + 1))
    return found


def is_repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


def scalar_values(field: FieldDescriptor, old=None) -> st.SearchStrategy:
    kind = field.type
    if kind == F.TYPE_BOOL:
        return st.booleans()
    if kind == F.TYPE_STRING:
        return st.one_of(st.just(""), st.sampled_from(["x", "kraby", "place_tile", "é" * 3]),
                         st.text(max_size=20))  # fmt: skip
    if kind == F.TYPE_BYTES:
        return st.binary(max_size=40)
    if kind in (F.TYPE_DOUBLE, F.TYPE_FLOAT):
        return st.floats(allow_nan=True, allow_infinity=True, width=32)
    if kind == F.TYPE_ENUM:
        numbers = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(numbers), st.integers(-3, 40))
    for kinds, (low, high) in LIMITS.items():
        if kind in kinds:
            near = [v for v in SMALL if low <= v <= high] + [low, high]
            if isinstance(old, int):
                near += [v for v in (old - 1, old + 1, old * 2) if low <= v <= high]
            return st.one_of(st.sampled_from(near), st.integers(low, high))
    raise AssertionError(f"unhandled field type {kind}")


@st.composite
def mutate_field(draw, message: Message) -> str:
    """Change one field in place; returns a description of what was done."""
    options = slots(message)
    slot = draw(st.sampled_from(options))
    parent, field, name = slot.parent, slot.field, slot.field.name
    if is_repeated(field):
        values = getattr(parent, name)
        if field.type == F.TYPE_MESSAGE and field.message_type.GetOptions().map_entry:
            return f"left map {slot.path}"
        action = draw(st.sampled_from(["append", "delete", "clear", "set", "grow"]))
        if action == "clear" or (action in ("delete", "set") and not values):
            parent.ClearField(name)
            return f"cleared {slot.path}"
        if action == "delete":
            del values[draw(st.integers(0, len(values) - 1))]
            return f"deleted an element of {slot.path}"
        if field.type == F.TYPE_MESSAGE:
            if values:
                copy = values[draw(st.integers(0, len(values) - 1))]
                count = draw(st.sampled_from([1, 1, 2, 50])) if action == "grow" else 1
                for _ in range(count):
                    values.add().CopyFrom(copy)
            else:
                values.add()
            return f"added to {slot.path}"
        if action == "set" and values:
            index = draw(st.integers(0, len(values) - 1))
            values[index] = draw(scalar_values(field, values[index]))
            return f"set {slot.path}[{index}]"
        count = draw(st.sampled_from([1, 1, 2, 100])) if action == "grow" else 1
        values.extend([draw(scalar_values(field))] * count)
        return f"appended {count} to {slot.path}"
    if field.type == F.TYPE_MESSAGE:
        if parent.HasField(name):
            parent.ClearField(name)
            return f"cleared {slot.path}"
        getattr(parent, name).SetInParent()
        return f"set empty {slot.path}"
    old = getattr(parent, name)
    value = draw(scalar_values(field, old))
    setattr(parent, name, value)
    return f"set {slot.path} = {value!r}"


@st.composite
def mutated(draw, message: Message, max_changes: int = 3) -> tuple[Message, list[str]]:
    """A copy of `message` with one to `max_changes` field mutations."""
    copy = type(message)()
    copy.CopyFrom(message)
    changes = [draw(mutate_field(copy)) for _ in range(draw(st.integers(1, max_changes)))]
    return copy, changes


@st.composite
def flipped_bytes(draw, data: bytes) -> bytes:
    """The wire bytes with a few bits flipped, a cut or junk appended."""
    if not data:
        return draw(st.binary(min_size=1, max_size=20))
    out = bytearray(data)
    action = draw(st.sampled_from(["flip", "flip", "cut", "append"]))
    if action == "cut":
        return bytes(out[: draw(st.integers(0, len(out) - 1))])
    if action == "append":
        return bytes(out) + draw(st.binary(min_size=1, max_size=20))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(out) - 1))
        out[i] ^= 1 << draw(st.integers(0, 7))
    return bytes(out)
