"""Kraby's accelerators: a state's bytes written directly, each event's bytes kept, and the legal
tiles' cache keys from the table walk of the move generator. Each gives exactly what the readable
codec (codec.py) gives, which tests/kraby/test_fast_paths.py checks byte for byte over random
games; the engine works the same without them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence

from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.game import FastPaths
from crabgames.games.kraby import rules
from crabgames.games.kraby.codec import CODEC
from crabgames.games.kraby.data import CELLS
from crabgames.games.kraby.events import Event
from crabgames.games.kraby.move_ids import TILE_IDS, move_id_of
from crabgames.games.kraby.moves import Move, PlaceTile
from crabgames.games.kraby.rules import COLORS_HELD, Entry
from crabgames.games.kraby.state import PLACE_TILE, KrabyState
from crabgames.v1 import kraby_pb2 as pb

# ----- a state's bytes -----

# The state's fields are written as protobuf would write them, in field-number order, each from
# a table of the bytes of its possible values. Every value is a small int (cells, colours,
# counts, seats, at most 120 turns), so each varint is one byte, and every submessage is under
# 128 bytes, so each length is one byte too.
assert CELLS < 128 and max(pb.KrabyCell.values()) < 128


def field_tag(number: int) -> bytes:
    """The tag of a length-delimited field (a message or packed scalars)."""
    return wire.tag(number, wire.LENGTH_DELIMITED)


# The cells as their packed repeated field: the packed body is just the cells' bytes.
CELLS_FIELD_HEAD = field_tag(pb.KrabyState.CELLS_FIELD_NUMBER) + bytes([CELLS])


def message_field(number: int, kind: type[Message]) -> Callable[[tuple[int, ...]], bytes]:
    """A builder of a submessage field's bytes from the values of `kind`'s fields in order (the
    options, tile counts by colour, a ship's holds)."""
    tag = field_tag(number)
    names = [f.name for f in kind.DESCRIPTOR.fields]

    def build(values: tuple[int, ...]) -> bytes:
        msg = kind()
        for name, value in zip(names, values, strict=True):
            setattr(msg, name, value)
        body = msg.SerializeToString()
        return tag + bytes([len(body)]) + body

    return build


# One table per field, by the piece's value: the pieces are tuples, looked up as they are.
OPTIONS_FIELD = wire.Remembered(message_field(pb.KrabyState.OPTIONS_FIELD_NUMBER, pb.KrabyOptions))
HAND_FIELD = wire.Remembered(message_field(pb.KrabyState.HANDS_FIELD_NUMBER, pb.KrabyTileCounts))
BAG_FIELD = wire.Remembered(message_field(pb.KrabyState.BAG_FIELD_NUMBER, pb.KrabyTileCounts))
SHIP_FIELD = wire.Remembered(message_field(pb.KrabyState.SHIPS_FIELD_NUMBER, pb.KrabyShip))
SUPPLY_FIELD = wire.Remembered(
    message_field(pb.KrabyState.FIGURE_SUPPLY_FIELD_NUMBER, pb.KrabyTileCounts)
)


def small_varints(number: int, has_presence: bool = False) -> list[bytes]:
    """A varint field's bytes for each value under 128; proto3 leaves zero out, unless the field
    is `optional` (set, it is written whatever its value)."""
    tag = wire.tag(number, wire.VARINT)[0]
    return [bytes((tag, value)) if value or has_presence else b"" for value in range(128)]


STEP_FIELD = small_varints(pb.KrabyState.STEP_FIELD_NUMBER)
TURN_PLAYER_FIELD = small_varints(pb.KrabyState.TURN_PLAYER_FIELD_NUMBER, has_presence=True)
TURNS_TAKEN_FIELD = small_varints(pb.KrabyState.TURNS_TAKEN_FIELD_NUMBER)


def state_bytes(state: KrabyState) -> bytes:
    """The state message `codec.encode_state` fills, serialized deterministically."""
    return b"".join(
        [
            OPTIONS_FIELD[state.excluded_color, state.first_player],
            CELLS_FIELD_HEAD,
            state.cells,
            *[HAND_FIELD[hand] for hand in state.hands],
            BAG_FIELD[state.bag],
            *[SHIP_FIELD[ship] for ship in state.ships],
            SUPPLY_FIELD[state.figure_supply],
            STEP_FIELD[state.step],
            TURN_PLAYER_FIELD[state.turn_player],
            TURNS_TAKEN_FIELD[state.turns_taken],
        ]
    )


# ----- an event's bytes -----


# An event is a small value (a game makes a few hundred), and the same one always encodes the
# same: each one's bytes are kept.
@functools.lru_cache(maxsize=4096)
def event_bytes(event: Event) -> bytes:
    """The `Event` message `codec.encode_event` fills, serialized deterministically (its args
    map sorted by key)."""
    return CODEC.event_bytes(event)


# ----- the legal moves' cache keys -----


def tile_key(tile: PlaceTile, stop: int | None) -> Hashable:
    """What a tile's encoding depends on (its id, label and stop cell), as one small int; the
    tile itself when it cannot enter."""
    return tile if stop is None else stop * TILE_IDS + move_id_of(tile)


def move_cache_key(state: KrabyState, move: Move) -> Hashable:
    """Everything a move's encoding depends on (its label and id, what it carries)."""
    if isinstance(move, PlaceTile):
        return tile_key(move, rules.where_the_tile_stops(state, move.edge, move.lane))
    return move  # a figure's label and id depend on the move alone


class KeysByEntry(dict[Entry, tuple[tuple[Hashable, ...], ...]]):
    """ENTRY_KEYS[entry][colors]: the keys of `entry.tiles[colors]`, built on first use (at
    most 4 x 11 x 11 entries)."""

    def __missing__(self, entry: Entry) -> tuple[tuple[Hashable, ...], ...]:
        keys = self[entry] = tuple(
            tuple(tile_key(tile, entry.stop) for tile in tiles) for tiles in entry.tiles
        )
        return keys


ENTRY_KEYS = KeysByEntry()


def move_cache_keys(state: KrabyState, moves: Sequence[Move]) -> list[Hashable]:
    """The keys of the legal moves, in order: the tiles' by the same walk as
    `rules.legal_moves` (the entry points, each entry's tiles by the colours in hand)."""
    if state.step != PLACE_TILE:
        return list(moves)
    colors = COLORS_HELD[state.hands[state.turn_player]]
    keys: list[Hashable] = []
    for entry in rules.entry_points(state):
        keys += ENTRY_KEYS[entry][colors]
    if len(keys) != len(moves):  # not this state's legal moves: key them one by one
        return [move_cache_key(state, move) for move in moves]
    return keys


FAST: FastPaths[KrabyState, Move, Event] = FastPaths(
    state_bytes=state_bytes, event_bytes=event_bytes, move_cache_keys=move_cache_keys
)
