"""Crab Bucket's accelerators: the state's and the events' protobuf wire bytes written directly,
and the keys the engine caches move encodings by. Each gives exactly what the readable codec
(codec.py) gives, which tests/crab_bucket check byte for byte over random games; the engine
works the same without them.

Each is worth keeping because it runs on every call and the readable path takes many times
longer (measured in-process over random mid-game states, issue 15): the state's message built
and serialized about 14 times as long as joining its remembered parts, an event's about 45
times (a distinct event is written once), and the default move keys (each move's label and
id) about 10 times.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import compress
from typing import Any

from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.game import FastPaths
from crabgames.core.wire import Remembered
from crabgames.games.crab_bucket import rules, words
from crabgames.games.crab_bucket.codec import CARD_MSGS, PENDING_KIND, options_encodings
from crabgames.games.crab_bucket.data import CRAB_CARDS, OXI
from crabgames.games.crab_bucket.events import Event
from crabgames.games.crab_bucket.moves import KeepMission, Move, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import NO_MISSION, CrabBucketState, PendingKind
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2


def one_card_encodings(holder: type[Message], field: str) -> tuple[bytes, ...]:
    """Each card serialized as the only element of `holder`'s repeated card field `field`.
    Protobuf merges concatenated serializations and appends their repeated fields, so a list of
    cards is the join of its cards' encodings."""
    return tuple(holder(**{field: [card]}).SerializeToString() for card in CARD_MSGS)


# ----- the state -----

# The state is written as protobuf wire bytes, its fields in field-number order: exactly what
# protobuf's deterministic serialization writes, so the service sends (and remembers a state by)
# these bytes as they are, and the engine merges them in one call. A repeated field is the join
# of its elements' encodings, and a length-delimited field holding a message is one element (an
# empty one for an empty pile). Each part's bytes come from protobuf itself (a message holding only
# that part, serialized), remembered by the part's value: a pile's or hand's cards, a mission
# pile, a completed mission, a pending decision, a group of scalar fields. These are small
# values, mostly as they were one move ago (a move changes one pile and one hand).


def field_tag(holder: type[Message], field: str) -> bytes:
    """The wire tag of a length-delimited (message or packed) field of `holder`."""
    return wire.tag(holder.DESCRIPTOR.fields_by_name[field].number, wire.LENGTH_DELIMITED)


def field_bytes(tag: bytes, body: bytes) -> bytes:
    return tag + wire.sized(body)


IN_DRAW_PILE = one_card_encodings(pb.CrabBucketState, "draw_pile")
CRABS_IN_DRAW_PILE = IN_DRAW_PILE[:CRAB_CARDS]  # each crab card is in the game once
IN_REMOVED = one_card_encodings(pb.CrabBucketState, "removed")


def _stack_part(field: str) -> Remembered[tuple[int, ...], bytes]:
    """A pile's (or hand's) cards, as a tuple, as the only element of the state's `field`."""

    def build(cards: tuple[int, ...]) -> bytes:
        stack = pb.CrabBucketPile(cards=[CARD_MSGS[c] for c in cards])
        msg = pb.CrabBucketState()
        getattr(msg, field).append(stack)
        return msg.SerializeToString()

    return Remembered(build)


def _scalars_part(*fields: str) -> Remembered[tuple[int, ...], bytes]:
    """The state's scalar `fields` (consecutive field numbers), from a tuple of their values."""

    def build(values: tuple[int, ...]) -> bytes:
        msg = pb.CrabBucketState()
        for name, value in zip(fields, values, strict=True):
            setattr(msg, name, value)
        return msg.SerializeToString()

    return Remembered(build)


def _current_mission(mission: int) -> bytes:
    if mission == NO_MISSION:
        return b""
    return pb.CrabBucketState(current_mission=mission).SerializeToString()


PILE_PARTS = _stack_part("piles")
HAND_PARTS = _stack_part("hands")
MISSION_PILE_PARTS: Remembered[tuple[int, ...], bytes] = Remembered(
    lambda ids: pb.CrabBucketState(
        mission_piles=[pb.CrabBucketMissionPile(missions=ids)]
    ).SerializeToString()
)
OXI_COUNT_PARTS = _scalars_part("oxi_set_aside", "oxi_discarded")
CURRENT_MISSION_PARTS = Remembered(_current_mission)
TURN_PARTS = _scalars_part(
    "step", "turn_player", "dealt", "ability_used", "plays_left", "played", "draws_over", "passes"
)
END_PARTS = _scalars_part("end_reason", "talking_allowed")


def _completed(done: tuple[int, bool]) -> bytes:
    mission = pb.CrabBucketCompletedMission(mission=done[0], ability_used=done[1])
    return pb.CrabBucketState(completed=[mission]).SerializeToString()


def _pending(item: tuple[PendingKind, int]) -> bytes:
    decision = pb.CrabBucketPending(kind=PENDING_KIND(item[0]), level=item[1])
    return pb.CrabBucketState(pending=[decision]).SerializeToString()


COMPLETED_PARTS = Remembered(_completed)
DISCARDED_PARTS: Remembered[tuple[int, ...], bytes] = Remembered(
    lambda ids: pb.CrabBucketState(discarded_missions=ids).SerializeToString()
)
OFFERED_PARTS: Remembered[tuple[int, ...], bytes] = Remembered(
    lambda ids: pb.CrabBucketState(offered_missions=ids).SerializeToString()
)
PENDING_PARTS = Remembered(_pending)


def state_bytes(state: CrabBucketState) -> bytes:
    """The state message serialized, as protobuf's deterministic serialization writes it."""
    draw_pile = state.draw_pile
    return b"".join(
        [
            options_encodings(state.options)[2],  # 1
            *map(PILE_PARTS.__getitem__, state.piles),  # 2
            *map(HAND_PARTS.__getitem__, state.hands),  # 3
            # 4: the crab cards counted 1 (`compress` stops at the last crab card), then the Oxi!
            # cards, which are the last card id and may be there several times.
            *compress(CRABS_IN_DRAW_PILE, draw_pile),
            IN_DRAW_PILE[OXI] * draw_pile[OXI],
            OXI_COUNT_PARTS[state.oxi_set_aside, state.oxi_discarded],  # 5, 6
            *map(IN_REMOVED.__getitem__, state.removed),  # 7
            *map(MISSION_PILE_PARTS.__getitem__, state.mission_piles),  # 8
            CURRENT_MISSION_PARTS[state.current],  # 9
            mission_lists_bytes(state),  # 10 to 12
            TURN_PARTS[  # 13 to 20
                state.step,
                state.turn_player,
                state.dealt,
                state.ability_used,
                state.plays_left,
                state.played,
                state.draws_over,
                state.passes,
            ],
            *map(PENDING_PARTS.__getitem__, state.pending),  # 21
            END_PARTS[state.end_reason, rules.talking_allowed(state)],  # 22, 23
        ]
    )


def mission_lists_bytes(state: CrabBucketState) -> bytes:
    """The completed, discarded and offered missions (empty until a mission is completed)."""
    if not (state.completed or state.discarded_missions or state.offered):
        return b""
    return b"".join(
        [
            *map(COMPLETED_PARTS.__getitem__, zip(state.completed, state.spent, strict=True)),
            DISCARDED_PARTS[tuple(state.discarded_missions)],
            OFFERED_PARTS[tuple(state.offered)],
        ]
    )


# ----- events -----

# An event is written as protobuf wire bytes too (the engine frames responses from them): the
# `Event` message's `text` (1), `template` (2) and `args` (3, map entries sorted by key, as
# deterministic serialization writes them) and `crab_bucket` (11) fields, the last holding the
# CrabBucketEvent whose oneof field is the event's kind, holding the kind's fields from the
# event's data. Each kind's fields are read from its message descriptor once, in field-number
# order, as protobuf writes. A whole event's bytes are a function of its kind and data (its
# sentence is built from them, words.py), so they are remembered by them, kind by kind: most
# events are a few small ints (a player, a card, a pile).
EVENT_TEXT = wire.tag(
    game_pb2.Event.DESCRIPTOR.fields_by_name["text"].number, wire.LENGTH_DELIMITED
)
EVENT_TEMPLATE = wire.tag(
    game_pb2.Event.DESCRIPTOR.fields_by_name["template"].number, wire.LENGTH_DELIMITED
)
EVENT_ARGS = wire.tag(
    game_pb2.Event.DESCRIPTOR.fields_by_name["args"].number, wire.LENGTH_DELIMITED
)
MAP_KEY = wire.tag(1, wire.LENGTH_DELIMITED)
MAP_VALUE = wire.tag(2, wire.LENGTH_DELIMITED)
EVENT_GAME = field_tag(game_pb2.Event, "crab_bucket")
FieldWriter = Callable[[Any], bytes]


def card_bytes(card: int) -> bytes:
    return CARD_MSGS[card].SerializeToString()


def pile_card_bytes(pile_card: tuple[int, int]) -> bytes:
    """A (pile, card) pair as a CrabBucketPileCard."""
    pile, card = pile_card
    return pb.CrabBucketPileCard(pile=pile, card=CARD_MSGS[card]).SerializeToString()


# How an event's message field is written from its value, by message type.
MESSAGE_WRITERS: dict[str, Callable[[Any], bytes]] = {
    pb.CrabBucketCard.DESCRIPTOR.full_name: card_bytes,
    pb.CrabBucketPileCard.DESCRIPTOR.full_name: pile_card_bytes,
}


def _field_writer(field: Any) -> FieldWriter:
    """How one field of an event kind is written from its value (None: not in the event)."""
    if field.message_type is not None:  # cards, and cards on piles
        tag = wire.tag(field.number, wire.LENGTH_DELIMITED)
        body = MESSAGE_WRITERS[field.message_type.full_name]
        if field.is_repeated:  # a tuple of values, each an element (none: left out)
            return lambda values: b"".join(field_bytes(tag, body(v)) for v in values or ())
        return lambda value: b"" if value is None else field_bytes(tag, body(value))
    if field.type == field.TYPE_STRING:  # a title: left out when empty
        tag = wire.tag(field.number, wire.LENGTH_DELIMITED)
        return lambda value: string_field(tag, value or "")
    if field.is_repeated:  # packed ints, left out when empty
        tag = wire.tag(field.number, wire.LENGTH_DELIMITED)
        return lambda values: (
            field_bytes(tag, b"".join(map(wire.varint, values))) if values else b""
        )
    tag = wire.tag(field.number, wire.VARINT)
    if field.has_presence:  # `optional`: written whenever set, zero included
        return lambda value: b"" if value is None else tag + wire.varint(value)
    return lambda value: tag + wire.varint(value) if value else b""  # proto3: zero left out


def string_field(tag: bytes, value: str) -> bytes:
    """A string field, left out when empty (proto3)."""
    return field_bytes(tag, value.encode()) if value else b""


def sentence_bytes(event: Event) -> bytes:
    """The event's `text`, `template` and `args` fields."""
    template, args = words.words(event)
    entries = [
        field_bytes(
            EVENT_ARGS, field_bytes(MAP_KEY, key.encode()) + field_bytes(MAP_VALUE, value.encode())
        )
        for key, value in sorted(args.items())
    ]
    return b"".join(
        (
            string_field(EVENT_TEXT, template.format_map(args)),
            string_field(EVENT_TEMPLATE, template),
            *entries,
        )
    )


def _event_parts(kind: Any) -> Remembered[Event, bytes]:
    """The bytes of an event of this kind, by the event."""
    fields = sorted(kind.message_type.fields, key=lambda f: f.number)
    writers = [(f.name, _field_writer(f)) for f in fields]
    kind_tag = wire.tag(kind.number, wire.LENGTH_DELIMITED)

    def build(event: Event) -> bytes:
        body = b"".join(write(getattr(event, name)) for name, write in writers)
        game_part = field_bytes(EVENT_GAME, field_bytes(kind_tag, body))
        return sentence_bytes(event) + game_part

    return Remembered(build)


# kind -> its events' bytes, by the event
EVENT_KINDS: dict[str, Remembered[Event, bytes]] = {
    kind.name: _event_parts(kind)
    for kind in pb.CrabBucketEvent.DESCRIPTOR.oneofs_by_name["event"].fields
}


def event_bytes(event: Event) -> bytes:
    """The `Event` message `codec.encode_event` fills, serialized."""
    return EVENT_KINDS[event.kind][event]


# ----- move encodings -----


def move_cache_keys(state: CrabBucketState, moves: Sequence[Move]) -> list[Hashable]:
    """What each move's label and id read besides the move: whether an Oxi! cuts for a card play,
    the mission's ability for a use; a kept mission's name and offer slot, the move with both."""
    cuts, missions = rules.oxi_cuts(state), state.options.missions
    keys: list[Hashable] = []
    for move in moves:
        if type(move) is PlayCard:
            keys.append((move, cuts))
        elif type(move) is UseAbility:
            keys.append((move, missions[move.mission].ability))
        elif type(move) is KeepMission:
            keys.append((move, missions[move.mission].name, state.offered.index(move.mission)))
        else:
            keys.append(move)
    return keys


FAST: FastPaths[CrabBucketState, Move, Event] = FastPaths(
    state_bytes=state_bytes, event_bytes=event_bytes, move_cache_keys=move_cache_keys
)
