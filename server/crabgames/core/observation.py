"""Observation tensors: a seat's view as a fixed-shape vector of numbers, for learning agents
(docs/agents.md). Each game lists its features in order; a feature is a named run of entries
with one meaning, and the tensor is the features side by side. The shape is the same for every
player count: features about seats have one slot per seat of the game's largest table, seats
counted from the viewer (slot 0 is the viewer, slot 1 the next seat clockwise...), and slots
of absent seats stay 0.

A game computes the tensor from the view message alone (never the state), so it cannot show
more than the view shows; the tests check it by changing what the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from crabgames.v1 import game_pb2

# Every entry of every game's tensor lies in this range (docs/agents.md gives each feature's).
LOW, HIGH = -1.0, 1.0


@dataclass(frozen=True)
class Feature:
    """`size` entries with one meaning (a sentence for docs/agents.md)."""

    name: str
    size: int
    meaning: str


class Layout:
    """A game's features in order, and where each starts."""

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = tuple(features)
        self.spans: dict[str, tuple[int, int]] = {}  # name: (first entry, one past the last)
        offset = 0
        for feature in self.features:
            if feature.name in self.spans or feature.size < 1:
                raise ValueError(f"feature {feature.name!r} repeated or empty")
            self.spans[feature.name] = (offset, offset + feature.size)
            offset += feature.size
        self.size = offset

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def writer(self) -> Writer:
        return Writer(self)


class Writer:
    """Fills one tensor feature by feature; every entry not written is 0."""

    __slots__ = ("spans", "values")

    def __init__(self, layout: Layout) -> None:
        self.spans = layout.spans
        self.values = [0.0] * layout.size

    def put(self, name: str, index: int = 0, value: float = 1.0) -> None:
        """Entry `index` of feature `name` (an index outside the feature is a bug)."""
        self.values[self.at(name, index)] = float(value)

    def add(self, name: str, index: int = 0, value: float = 1.0) -> None:
        self.values[self.at(name, index)] += float(value)

    def put_all(self, name: str, values: Iterable[float]) -> None:
        for index, value in enumerate(values):
            self.put(name, index, value)

    def at(self, name: str, index: int) -> int:
        first, end = self.spans[name]
        if not 0 <= index < end - first:
            raise IndexError(f"entry {index} of feature {name!r} (of {end - first})")
        return first + index


def put_to_decide(view: game_pb2.View, writer: Writer) -> None:
    """The `to_decide` feature: 1 when the viewer is the player who decides next (G3)."""
    deciding = view.next.kind == game_pb2.DECIDER_KIND_PLAYER and view.next.player == view.player
    writer.put("to_decide", 0, 1.0 if deciding else 0.0)


def seat_slot(seat: int, viewer: int, num_players: int) -> int:
    """A seat's slot in per-seat features: 0 for the viewer, then clockwise (G1)."""
    return (seat - viewer) % num_players
