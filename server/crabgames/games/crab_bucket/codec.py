"""Crab Bucket's protobuf codec: cards, missions, options, and the validated state decoder."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Any

from crabgames.core import wire
from crabgames.core.errors import InvalidArgument, bad_state
from crabgames.core.wire import Remembered
from crabgames.games.crab_bucket import rules, words
from crabgames.games.crab_bucket.data import (
    ABILITIES,
    CARD_KINDS,
    CIRCLE,
    COLORS,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    HAND_SIZE,
    LEVELS,
    MAX_BETWEEN,
    MAX_HAND,
    MAX_PENDING,
    OXI,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
    card_id,
    card_name,
    color_of,
    deck_size,
    number_of,
)
from crabgames.games.crab_bucket.rules import (
    DEAL,
    GAME_OVER,
    LEVELED_PENDING,
    NO_MISSION,
    PENDING_KINDS,
    QUICK,
    STEPS,
    WILD_CRAB,
    CrabBucketState,
    Options,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

# Custom decks (B4) are the caller's: bounded so that every state, view and answer of such a game
# stays far below the 4 MiB message limit, and each deck the caches keep is small. The worst
# deck, MAX_MISSIONS missions named with MAX_NAME four-byte characters and MAX_REQUIREMENTS
# requirements each, encodes in about 75 KB (tests/test_bounds.py measures it): its state, its
# views and an ApplyMove answer with every event stay under 100 KB.
MAX_MISSIONS = 200  # 11 times the default deck of 18
MAX_NAME = 64  # characters in a mission's name
MAX_REQUIREMENTS = 12  # twice the most a default mission shows (4 gaps, an X and a chain)
Fail = Callable[[str, str], InvalidArgument]


# ----- small codecs -----


def card_msg(card: int) -> pb.CrabBucketCard:
    if card == OXI:
        return pb.CrabBucketCard(oxi=True)
    return pb.CrabBucketCard(color=color_of(card) + 1, number=number_of(card))


# Every card's message, built once: callers copy them (extend, CopyFrom), never change them.
CARD_MSGS: tuple[pb.CrabBucketCard, ...] = tuple(card_msg(c) for c in range(CARD_KINDS))


def one_card_encodings(holder: type, field: str) -> tuple[bytes, ...]:
    """Each card serialized as the only element of `holder`'s repeated card field `field`.
    Protobuf merges concatenated serializations and appends their repeated fields, so a list of
    cards is the join of its cards' encodings: far cheaper than building and copying a
    CrabBucketCard message per card."""
    return tuple(holder(**{field: [card]}).SerializeToString() for card in CARD_MSGS)


def decode_card(msg: pb.CrabBucketCard, path: str, fail: Fail) -> int:
    if msg.oxi:
        if msg.color or msg.number:
            raise fail(path, "an Oxi! card has no colour or number")
        return OXI
    if msg.color - 1 not in COLORS:
        raise fail(f"{path}.color", "must be red, green, blue or yellow (or set oxi)")
    if not 1 <= msg.number <= 8:
        raise fail(f"{path}.number", f"is {msg.number}; crab cards are numbered 1 to 8")
    return card_id(msg.color - 1, msg.number)


# Every valid card message's (oxi, color, number) and its card id.
CARD_IDS: dict[tuple[bool, int, int], int] = {
    (False, color + 1, number): card_id(color, number) for color in COLORS for number in range(1, 9)
} | {(True, 0, 0): OXI}


def decode_cards(msgs: Any, path: str, fail: Fail) -> list[int]:
    """The cards of a repeated field by table lookup; the first one that is not a valid card is
    decoded by `decode_card`, which names its problem."""
    cards = [CARD_IDS.get((c.oxi, c.color, c.number)) for c in msgs]
    for i, card in enumerate(cards):
        if card is None:
            decode_card(msgs[i], f"{path}[{i}]", fail)  # raises
    return cards  # type: ignore[return-value]  # no None is left


def decode_color(value: int, path: str, fail: Fail) -> int:
    if value - 1 not in COLORS:
        raise fail(path, "must be red, green, blue or yellow")
    return value - 1


def requirement_msg(req: Any) -> pb.CrabBucketRequirement:
    if isinstance(req, Gap):
        return pb.CrabBucketRequirement(
            gap=pb.CrabBucketGap(color=req.color + 1, between=req.between)
        )
    pair = pb.CrabBucketColorPair(first=req.first + 1, second=req.second + 1)
    if isinstance(req, NotAdjacent):
        return pb.CrabBucketRequirement(not_adjacent=pair)
    return pb.CrabBucketRequirement(adjacent=pair)


def decode_requirement(msg: pb.CrabBucketRequirement, path: str, fail: Fail) -> Any:
    which = msg.WhichOneof("requirement")
    if which is None:
        raise fail(path, "set one of gap, not_adjacent, adjacent")
    if which == "gap":
        color = decode_color(msg.gap.color, f"{path}.gap.color", fail)
        if not 0 <= msg.gap.between <= MAX_BETWEEN:
            raise fail(
                f"{path}.gap.between",
                f"is {msg.gap.between}; between two of 8 piles there are 0 to {MAX_BETWEEN}",
            )
        return Gap(color, msg.gap.between)
    pair = getattr(msg, which)
    first = decode_color(pair.first, f"{path}.{which}.first", fail)
    second = decode_color(pair.second, f"{path}.{which}.second", fail)
    return (NotAdjacent if which == "not_adjacent" else Adjacent)(first, second)


# Every valid requirement (60) by its encoding: a deck's requirements decode by lookup, one
# call each instead of reading every field; any other encoding (an invalid value, unknown
# fields) goes through the checks.
REQUIREMENTS: dict[bytes, Any] = {
    requirement_msg(req).SerializeToString(): req
    for req in (
        *(Gap(color, between) for color in COLORS for between in range(MAX_BETWEEN + 1)),
        *(kind(a, b) for kind in (NotAdjacent, Adjacent) for a in COLORS for b in COLORS),
    )
}


def mission_msg(mission: Mission) -> pb.CrabBucketMission:
    return pb.CrabBucketMission(
        name=mission.name,
        level=mission.level,
        ability=mission.ability,
        requirements=[requirement_msg(r) for r in mission.requirements],
    )


def decode_mission(msg: pb.CrabBucketMission, path: str, fail: Fail) -> Mission:
    if len(msg.name) > MAX_NAME:
        raise fail(f"{path}.name", f"at most {MAX_NAME} characters")
    if msg.level not in LEVELS:
        raise fail(f"{path}.level", f"is {msg.level}; missions are level 1, 2 or 3")
    if msg.ability not in ABILITIES:
        raise fail(f"{path}.ability", "must be one of the nine abilities")
    if not msg.requirements:
        raise fail(f"{path}.requirements", "a mission needs at least one requirement")
    if len(msg.requirements) > MAX_REQUIREMENTS:
        raise fail(f"{path}.requirements", f"at most {MAX_REQUIREMENTS} requirements")
    reqs = [_valid_requirement(r) for r in msg.requirements]
    for i, req in enumerate(reqs):
        if req is None:
            decode_requirement(msg.requirements[i], f"{path}.requirements[{i}]", fail)  # raises
    return Mission(msg.name, msg.level, msg.ability, tuple(reqs))


def _valid_requirement(msg: pb.CrabBucketRequirement) -> Any:
    """The requirement, or None where `decode_requirement` would find a problem (it names it);
    no error paths are built for the valid ones."""
    known = REQUIREMENTS.get(msg.SerializeToString())
    if known is not None:
        return known
    which = msg.WhichOneof("requirement")
    if which == "gap":
        color, between = msg.gap.color - 1, msg.gap.between
        return Gap(color, between) if color in COLORS and 0 <= between <= MAX_BETWEEN else None
    if which is None:
        return None
    pair = getattr(msg, which)
    first, second = pair.first - 1, pair.second - 1
    if first not in COLORS or second not in COLORS:
        return None
    return (NotAdjacent if which == "not_adjacent" else Adjacent)(first, second)


def decode_options_msg(msg: pb.CrabBucketOptions, num_players: int, path: str, fail: Fail):
    mode = msg.mode or QUICK
    if mode not in (QUICK, WILD_CRAB):
        raise fail(f"{path}.mode", f"unknown mode {mode}")
    first = msg.first_player if msg.HasField("first_player") else 0
    if not 0 <= first < num_players:
        raise fail(f"{path}.first_player", f"must be a seat from 0 to {num_players - 1}")
    if len(msg.missions) > MAX_MISSIONS:
        raise fail(f"{path}.missions", f"at most {MAX_MISSIONS} missions")
    missions = tuple(
        decode_mission(m, f"{path}.missions[{i}]", fail) for i, m in enumerate(msg.missions)
    )
    missions = missions or DEFAULT_MISSIONS
    level = msg.first_mission_level if msg.HasField("first_mission_level") else 1
    if level not in LEVELS:
        raise fail(f"{path}.first_mission_level", "must be 1, 2 or 3")
    if mode == QUICK and level != 1:
        raise fail(f"{path}.first_mission_level", "Quick mode starts with a level 1 mission")
    levels = {m.level for m in missions}
    if mode == QUICK and levels != set(LEVELS):
        raise fail(f"{path}.missions", "Quick mode needs at least one mission of each level")
    if level not in levels:
        raise fail(f"{path}.missions", f"there is no level {level} mission to start with")
    return Options(mode, first, missions, level)


# The options are most of a state's bytes and never change during a game: each Options object
# (shared by every clone of a game's states) is encoded once, bare and as the state's `options`
# field. Keyed by id, with the object kept beside its bytes so that its id cannot be reused while
# the entry exists.
OPTIONS_CACHE_SIZE = 256
# Each options table keeps at most this many bytes, estimated from the options' encoded size:
# the Options object (names, requirements, links) takes about 5 times its encoding (measured:
# 352 KB for the largest deck, 70 KB encoded), plus the bytes the entry holds. 16 largest decks,
# or hundreds of default-sized ones.
OPTIONS_CACHE_BYTES = 8 << 20
OPTIONS_COST = 5  # bytes kept per encoded byte, beside the entry's own bytes
ENTRY_OVERHEAD = 512  # the entry's tuple, dict slot and bytes objects


class OptionsTable(dict):
    """A table of options bounded by count and by the bytes it keeps (estimated): it starts
    over rather than pass either bound."""

    def __init__(self) -> None:
        super().__init__()
        self.used = 0

    def keep(self, key: Any, value: Any, size: int) -> Any:
        """Remember `value` under `key`; `size` is the bytes of the options' encodings it holds
        beside the Options object."""
        cost = ENTRY_OVERHEAD + OPTIONS_COST * size
        if len(self) >= OPTIONS_CACHE_SIZE or self.used + cost > OPTIONS_CACHE_BYTES:
            self.clear()
        self[key] = value
        self.used += cost
        return value

    def clear(self) -> None:
        super().clear()
        self.used = 0


_OPTIONS_BYTES = OptionsTable()  # id(options) -> (options, bare bytes, as the state's field)


def options_encodings(options: Options) -> tuple[Options, bytes, bytes]:
    """(options, the options message's bytes, the same as a state's `options` field)."""
    entry = _OPTIONS_BYTES.get(id(options))
    if entry is None or entry[0] is not options:
        body = _options_bytes(options)
        entry = (options, body, field_bytes(OPTIONS_TAG, body))
        _OPTIONS_BYTES.keep(id(options), entry, 2 * len(body))
    return entry


def options_msg(options: Options, msg: pb.CrabBucketOptions) -> None:
    msg.MergeFromString(options_encodings(options)[1])


def _options_bytes(options: Options) -> bytes:
    return pb.CrabBucketOptions(
        mode=options.mode,
        first_player=options.first_player,
        first_mission_level=options.first_mission_level,
        missions=[mission_msg(m) for m in options.missions],
    ).SerializeToString()


# ----- the state -----

# The state is written as protobuf wire bytes, its fields in field-number order: exactly what
# protobuf's deterministic serialization writes, so the service sends (and remembers a state by)
# these bytes as they are, and the engine merges them in one call (a message operation per
# pile, hand, card or field costs several times more). A repeated field is the join of its
# elements' encodings, and a length-delimited field holding a message is one element (an empty
# one for an empty pile). Each part's bytes come from protobuf itself (a message holding only
# that part, serialized), remembered by the part's value: a pile's or hand's cards, a mission
# pile, a completed mission, a pending decision, a group of scalar fields. These are small
# values, mostly as they were one move ago (a move changes one pile and one hand).


def field_tag(holder: type, field: str) -> bytes:
    """The wire tag of a length-delimited (message or packed) field of `holder`."""
    return wire.tag(holder.DESCRIPTOR.fields_by_name[field].number, wire.LENGTH_DELIMITED)


def field_bytes(tag: bytes, body: bytes) -> bytes:
    return tag + wire.sized(body)


OPTIONS_TAG = field_tag(pb.CrabBucketState, "options")
IN_DRAW_PILE = one_card_encodings(pb.CrabBucketState, "draw_pile")
CRABS_IN_DRAW_PILE = IN_DRAW_PILE[:CRAB_CARDS]  # each crab card is in the game once
IN_REMOVED = one_card_encodings(pb.CrabBucketState, "removed")


def _stack_part(field: str) -> Remembered:
    """A pile's (or hand's) cards, as a tuple, as the only element of the state's `field`."""

    def build(cards: tuple[int, ...]) -> bytes:
        stack = pb.CrabBucketPile(cards=[CARD_MSGS[c] for c in cards])
        return pb.CrabBucketState(**{field: [stack]}).SerializeToString()

    return Remembered(build)


def _scalars_part(*fields: str) -> Remembered:
    """The state's scalar `fields` (consecutive field numbers), from a tuple of their values."""
    return Remembered(
        lambda values: pb.CrabBucketState(
            **dict(zip(fields, values, strict=True))
        ).SerializeToString()
    )


def _current_mission(mission: int) -> bytes:
    if mission == NO_MISSION:
        return b""
    return pb.CrabBucketState(current_mission=mission).SerializeToString()


PILE_PARTS = _stack_part("piles")
HAND_PARTS = _stack_part("hands")
MISSION_PILE_PARTS = Remembered(
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


class ListParts:
    """The repeated mission and decision fields' elements as `holder`'s fields (the state and
    the view share these fields' names and contents, not their numbers)."""

    def __init__(self, holder: type) -> None:
        def completed(done: tuple[int, bool]) -> bytes:
            mission = pb.CrabBucketCompletedMission(mission=done[0], ability_used=done[1])
            return holder(completed=[mission]).SerializeToString()

        def pending(item: tuple[int, int]) -> bytes:
            decision = pb.CrabBucketPending(kind=item[0], level=item[1])
            return holder(pending=[decision]).SerializeToString()

        self.completed = Remembered(completed)
        self.pending = Remembered(pending)
        self.discarded = Remembered(lambda ids: holder(discarded_missions=ids).SerializeToString())
        self.offered = Remembered(lambda ids: holder(offered_missions=ids).SerializeToString())


STATE_LISTS = ListParts(pb.CrabBucketState)


def encode_state_bytes(state: CrabBucketState) -> bytes:
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
            mission_lists_bytes(state, STATE_LISTS),  # 10 to 12
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
            *map(STATE_LISTS.pending.__getitem__, state.pending),  # 21
            # 22, 23: talking is allowed in Quick mode's first mission only (B9)
            END_PARTS[state.end_reason, not (state.options.wild or state.completed)],
        ]
    )


def mission_lists_bytes(state: CrabBucketState, parts: ListParts) -> bytes:
    """The completed, discarded and offered missions (empty until a mission is completed)."""
    if not (state.completed or state.discarded_missions or state.offered):
        return b""
    return b"".join(
        [
            *map(parts.completed.__getitem__, zip(state.completed, state.spent, strict=True)),
            parts.discarded[tuple(state.discarded_missions)],
            parts.offered[tuple(state.offered)],
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


def sentence_bytes(kind: str, data: dict[str, Any]) -> bytes:
    """The event's `text`, `template` and `args` fields."""
    template, args = words.words(kind, data)
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


def _event_parts(kind: Any) -> Remembered:
    """The bytes of an event of this kind, by its data's items."""
    fields = sorted(kind.message_type.fields, key=lambda f: f.number)
    writers = [(f.name, _field_writer(f)) for f in fields]
    kind_tag = wire.tag(kind.number, wire.LENGTH_DELIMITED)

    def build(items: tuple[tuple[str, Any], ...]) -> bytes:
        data = dict(items)
        body = b"".join(write(data.get(name)) for name, write in writers)
        game_part = field_bytes(EVENT_GAME, field_bytes(kind_tag, body))
        return sentence_bytes(kind.name, data) + game_part

    return Remembered(build)


# kind -> its events' bytes, by the event's data items
EVENT_KINDS: dict[str, Remembered] = {
    kind.name: _event_parts(kind)
    for kind in pb.CrabBucketEvent.DESCRIPTOR.oneofs_by_name["event"].fields
}


def encode_event_bytes(event: rules.Event) -> bytes:
    """The `Event` message serialized, as deterministic `SerializeToString` writes it (tests
    compare the two for every kind of event)."""
    return EVENT_KINDS[event.kind][tuple(event.data.items())]


def encode_event(event: rules.Event, msg: game_pb2.Event) -> None:
    """The same event built with protobuf's own API (the reference for `encode_event_bytes`)."""
    template, args = words.words(event.kind, event.data)
    msg.text = template.format_map(args)
    msg.template = template
    msg.args.update(args)
    part = getattr(msg.crab_bucket, event.kind)
    part.SetInParent()
    for field in part.DESCRIPTOR.fields:
        value = event.data.get(field.name)
        if value is None:
            continue
        if field.message_type is None:
            if field.is_repeated:
                getattr(part, field.name).extend(value)
            else:
                setattr(part, field.name, value)
            continue
        values = value if field.is_repeated else (value,)
        for item in values:
            element = (
                getattr(part, field.name).add() if field.is_repeated else getattr(part, field.name)
            )
            if isinstance(item, tuple):  # a card on a pile
                element.pile = item[0]
                element.card.CopyFrom(CARD_MSGS[item[1]])
            else:
                element.CopyFrom(CARD_MSGS[item])


# ----- the public fields of a view -----

# The turn's counters, in the order `public_bytes` reads them (then the current mission).
COUNTERS = (
    "oxi_set_aside",
    "oxi_discarded",
    "step",
    "turn_player",
    "ability_used",
    "plays_left",
    "played",
    "draws_over",
    "passes",
    "end_reason",
    "talking_allowed",
)


class PublicParts(ListParts):
    """The parts of the fields every view shows as they are in the state, for the view."""

    def __init__(self, holder: type) -> None:
        super().__init__(holder)

        def counters(values: tuple) -> bytes:
            fields = dict(zip(COUNTERS, values[:-1], strict=True))
            if values[-1] != NO_MISSION:
                fields["current_mission"] = values[-1]
            return holder(**fields).SerializeToString()

        self.counters = Remembered(counters)


VIEW_PUBLIC = PublicParts(pb.CrabBucketView)


def encode_public(state: CrabBucketState, msg: pb.CrabBucketView) -> None:
    """The fields every view shows as they are in the state (merged: their order is free)."""
    msg.MergeFromString(public_bytes(state, VIEW_PUBLIC))


def public_bytes(state: CrabBucketState, parts: PublicParts) -> bytes:
    counters = parts.counters[
        (
            state.oxi_set_aside,
            state.oxi_discarded,
            state.step,
            state.turn_player,
            state.ability_used,
            state.plays_left,
            state.played,
            state.draws_over,
            state.passes,
            state.end_reason,
            rules.talking_allowed(state),
            state.current,
        )
    ]
    if not (state.completed or state.discarded_missions or state.offered or state.pending):
        return counters
    return b"".join(
        [
            counters,
            mission_lists_bytes(state, parts),
            *map(parts.pending.__getitem__, state.pending),
        ]
    )


def decode_state(msg: pb.CrabBucketState, num_players: int, path: str) -> CrabBucketState:
    """Validate every field and build the native state; the first problem raises bad_state."""
    options = _decode_options_once(msg.options, num_players, f"{path}.options")
    state = rules.new_state(num_players, options)
    deck = deck_size(num_players)
    piles = _decode_stacks(msg.piles, CIRCLE, deck, f"{path}.piles", "8 piles (B2)")
    hands = _decode_stacks(msg.hands, num_players, MAX_HAND, f"{path}.hands", "one per player")
    state.piles = list(map(tuple, piles))
    state.hands = [tuple(sorted(hand)) for hand in hands]
    state.draw_pile = [0] * CARD_KINDS
    for card in decode_cards(
        _at_most(msg.draw_pile, deck, f"{path}.draw_pile"), f"{path}.draw_pile", bad_state
    ):
        state.draw_pile[card] += 1
    state.oxi_set_aside = _oxi_count(msg.oxi_set_aside, num_players, f"{path}.oxi_set_aside")
    state.oxi_discarded = _oxi_count(msg.oxi_discarded, num_players, f"{path}.oxi_discarded")
    removed = _at_most(msg.removed, deck, f"{path}.removed")
    state.removed = sorted(decode_cards(removed, f"{path}.removed", bad_state))
    _check_cards(state, path)
    _decode_missions(msg, state, path)
    _decode_turn(msg, state, path)
    _check_at_rest(msg, state, path)
    return state


# Options decoded lately, by their exact bytes and the player count (the only other input): a
# state's options are most of its bytes and never change during a game. Only options that passed
# every check are kept, so changed options are always checked in full (and the same bytes would
# pass the same checks again). The Options are frozen, so sharing them is safe.
# Options longer than this are more than any valid options encode to (the largest deck is
# about 70 KB): they carry fields the engine never writes, and are neither decoded nor kept.
MAX_OPTIONS_BYTES = 96 * 1024
_DECODED_OPTIONS = OptionsTable()  # (options bytes, player count) -> Options


def _decode_options_once(msg: pb.CrabBucketOptions, num_players: int, path: str) -> Options:
    if msg.ByteSize() > MAX_OPTIONS_BYTES:
        raise bad_state(path, f"{msg.ByteSize()} bytes: more than any valid options")
    key = (msg.SerializeToString(deterministic=True), num_players)
    options = _DECODED_OPTIONS.get(key)
    if options is None:
        options = decode_options_msg(msg, num_players, path, bad_state)
        _DECODED_OPTIONS.keep(key, options, len(key[0]))
    return options


def _oxi_count(value: int, num_players: int, path: str) -> int:
    if not 0 <= value <= num_players:
        raise bad_state(path, f"must be 0 to {num_players}: one Oxi! card per player (B1)")
    return value


def _at_most(cards: Any, most: int, path: str) -> Any:
    """A repeated card field, refused before decoding when longer than the game allows."""
    if len(cards) > most:
        raise bad_state(path, f"holds {len(cards)} cards; at most {most}")
    return cards


def _decode_stacks(msgs: Any, size: int, most: int, path: str, what: str) -> list[list[int]]:
    """`size` stacks of at most `most` cards each (a pile: the whole deck; a hand: MAX_HAND)."""
    if len(msgs) != size:
        raise bad_state(path, f"has {len(msgs)} entries; there must be {what}")
    return [
        decode_cards(_at_most(s.cards, most, f"{path}[{i}].cards"), f"{path}[{i}].cards", bad_state)
        for i, s in enumerate(msgs)
    ]


def _check_cards(state: CrabBucketState, path: str) -> None:
    counts = rules.card_counts(state)
    for card in range(CRAB_CARDS):
        if counts[card] != 1:
            raise bad_state(
                path, f"the {card_name(card)} is in {counts[card]} places; each crab card is in 1"
            )
    if counts[OXI] != state.num_players:
        raise bad_state(
            path, f"there are {counts[OXI]} Oxi! cards; there must be one per player (B1)"
        )


def _mission_id(value: int, state: CrabBucketState, path: str) -> int:
    if not 0 <= value < len(state.options.missions):
        raise bad_state(path, f"is {value}; there are {len(state.options.missions)} missions")
    return value


def _decode_missions(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    if len(msg.mission_piles) != len(LEVELS):
        raise bad_state(f"{path}.mission_piles", "there must be 3 mission piles (levels 1-3)")
    missions = state.options.missions
    piles = [list(pile.missions) for pile in msg.mission_piles]
    current = [msg.current_mission] if msg.HasField("current_mission") else []
    completed = [done.mission for done in msg.completed]
    discarded, offered = list(msg.discarded_missions), list(msg.offered_missions)
    everywhere = [*piles[0], *piles[1], *piles[2], *current, *completed, *discarded, *offered]
    # Every mission in exactly one place, and each pile's in its level: checked at once, and
    # only a state that fails is walked place by place to name the first problem.
    placed_once = sorted(everywhere) == list(range(len(missions)))
    if not placed_once or any(
        missions[m].level != level for level, pile in enumerate(piles, start=1) for m in pile
    ):
        _name_misplaced_mission(msg, state, path)
    state.mission_piles = [tuple(sorted(pile)) for pile in piles]
    state.current = current[0] if current else NO_MISSION
    state.completed, state.spent = completed, [done.ability_used for done in msg.completed]
    state.discarded_missions, state.offered = discarded, offered
    if len(state.offered) > 2:
        raise bad_state(f"{path}.offered_missions", "at most 2 missions are offered")


def _name_misplaced_mission(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    """Raise for the first mission out of range, in two places, or in the wrong level's pile, in
    the order the places are listed; or, with none of those, for a mission that is nowhere."""
    seen: set[int] = set()

    def take(value: int, where: str) -> int:
        mission = _mission_id(value, state, where)
        if mission in seen:
            raise bad_state(where, f"mission {mission} is in two places")
        seen.add(mission)
        return mission

    for level, pile in enumerate(msg.mission_piles, start=1):
        where = f"{path}.mission_piles[{level - 1}].missions"
        ids = [take(m, f"{where}[{i}]") for i, m in enumerate(pile.missions)]
        if any(state.options.missions[m].level != level for m in ids):
            raise bad_state(where, f"holds a mission that is not level {level}")
    if msg.HasField("current_mission"):
        take(msg.current_mission, f"{path}.current_mission")
    for i, done in enumerate(msg.completed):
        take(done.mission, f"{path}.completed[{i}].mission")
    for i, m in enumerate(msg.discarded_missions):
        take(m, f"{path}.discarded_missions[{i}]")
    for i, m in enumerate(msg.offered_missions):
        take(m, f"{path}.offered_missions[{i}]")
    raise bad_state(f"{path}.mission_piles", "every mission must be somewhere")


def _decode_turn(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    n = state.num_players
    if msg.step not in STEPS:
        raise bad_state(f"{path}.step", f"unknown step {msg.step}")
    state.step = msg.step
    if not 0 <= msg.turn_player < n:
        raise bad_state(f"{path}.turn_player", f"must be a seat from 0 to {n - 1}")
    state.turn_player = msg.turn_player
    total = rules.deal_size(n)
    if not 0 <= msg.dealt <= total:
        raise bad_state(f"{path}.dealt", f"must be 0 to {total}")
    state.dealt = msg.dealt
    if (state.step == DEAL) != (state.dealt < total):
        raise bad_state(f"{path}.dealt", "the deal goes on exactly while cards remain to deal")
    if (state.step == DEAL) != (state.oxi_set_aside > 0):
        raise bad_state(f"{path}.oxi_set_aside", "the Oxi! cards are aside only during the deal")
    if state.step == DEAL:
        _check_deal(state, path)
    if not 0 <= msg.plays_left <= 2 or not 0 <= msg.played <= 2:
        raise bad_state(f"{path}.plays_left", "plays_left and played are 0 to 2")
    state.ability_used, state.plays_left, state.played = (
        msg.ability_used,
        msg.plays_left,
        msg.played,
    )
    state.draws_over = msg.draws_over
    if not 0 <= msg.passes <= n:
        raise bad_state(f"{path}.passes", f"must be 0 to {n}")
    state.passes = msg.passes
    state.pending = []
    for i, item in enumerate(msg.pending):
        where = f"{path}.pending[{i}]"
        if item.kind not in PENDING_KINDS:
            raise bad_state(f"{where}.kind", f"unknown kind {item.kind}")
        wanted = LEVELS if item.kind in LEVELED_PENDING else (0,)
        if item.level not in wanted:
            raise bad_state(f"{where}.level", f"must be one of {list(wanted)}")
        state.pending.append((item.kind, item.level))
    if len(state.pending) > MAX_PENDING:
        raise bad_state(f"{path}.pending", f"at most {MAX_PENDING} pending decisions")
    if state.offered and (rules.KEEP_MISSION, 0) not in state.pending:
        raise bad_state(f"{path}.offered_missions", "missions are offered only before a keep")
    if (state.step == GAME_OVER) != (msg.end_reason != 0):
        raise bad_state(f"{path}.end_reason", "is set exactly when the game is over")
    if msg.end_reason not in (0, rules.LEVEL_3_COMPLETED, rules.CARDS_RAN_OUT, rules.STALLED):
        raise bad_state(f"{path}.end_reason", f"unknown reason {msg.end_reason}")
    state.end_reason = msg.end_reason
    if msg.talking_allowed != rules.talking_allowed(state):
        raise bad_state(f"{path}.talking_allowed", "does not match the mode and missions (B9)")


def _check_deal(state: CrabBucketState, path: str) -> None:
    for i, stack in enumerate(state.piles):
        if len(stack) != (1 if i < state.dealt else 0):
            raise bad_state(f"{path}.piles[{i}]", f"does not match {state.dealt} cards dealt")
    for seat, hand in enumerate(state.hands):
        expected = min(max(state.dealt - CIRCLE - HAND_SIZE * seat, 0), HAND_SIZE)
        if len(hand) != expected:
            raise bad_state(f"{path}.hands[{seat}]", f"does not match {state.dealt} cards dealt")
    if state.pending or state.current != NO_MISSION or state.completed:
        raise bad_state(f"{path}.pending", "no mission is drawn before the deal ends")


def _check_at_rest(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    """A valid state waits for a decision someone can make (nothing automatic is left to run)."""
    probe = state.clone()
    try:
        events: list = []
        rules.advance(probe, events)
        waiting = rules.waits_for_decision(state)
    except (ValueError, IndexError, KeyError, AttributeError) as error:
        raise bad_state(path, f"inconsistent state ({error})") from error
    if events or probe.step != state.step or probe.pending != state.pending or not waiting:
        raise bad_state(path, "the state is not waiting for a decision anyone can make")
