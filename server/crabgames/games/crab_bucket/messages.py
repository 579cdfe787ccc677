"""Crab Bucket's native values as its messages (core/wire.py): a state, an event, a move, a seat's
view. Every message is written from the native value of the same shape (the fields of an event,
a move, the options or a mission by name; a plain tuple's items in the message's order: a
pending decision, a card on a pile, a completed mission and whether its ability is used), but
for the few declared here: a card is its id, a colour counts from 0 where the enum counts from
1, a pile (or a hand, or a mission pile) is the tuple of what it holds, and a view is the state
as one seat may see it (B2, G5): every pile whole, the seat's own hand, the size of every hand
and of the draw pile, and the current decision."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.game import Seat, event_encoder
from crabgames.games.crab_bucket import abilities, rules, words
from crabgames.games.crab_bucket.data import CRAB_CARDS, OXI, color_of, number_of
from crabgames.games.crab_bucket.state import NO_MISSION, CrabBucketState
from crabgames.v1 import crab_bucket_pb2 as pb

# ----- the pieces -----


def proto_color(color: int) -> int:
    """A colour (0 to 3, data.py) as the protocol's enum (1 to 4; 0 is unspecified)."""
    return color + 1


# Each piece's fields read from its native value where not by name.
READS: Final[dict[type[Message], dict[str, wire.Read]]] = {
    # A card id (data.py) as its card: an Oxi! card, or a crab card's colour and number.
    pb.CrabBucketCard: {
        "oxi": lambda card: card == OXI,
        "color": lambda card: None if card == OXI else proto_color(color_of(card)),
        "number": lambda card: None if card == OXI else number_of(card),
    },
    # A pile or a hand from the tuple of its cards, a mission pile from its missions'.
    pb.CrabBucketPile: {"cards": lambda items: items},
    pb.CrabBucketMissionPile: {"missions": lambda items: items},
    # A pile as every seat sees it (B2: each card was dealt or played face up): its cards,
    # bottom first, with its top, height and Oxi! cards counted.
    pb.CrabBucketPileView: {
        "top": lambda stack: stack[-1] if stack else None,
        "height": len,
        "oxi_count": lambda stack: stack.count(OXI),
        "cards": lambda stack: stack,
    },
    # Colour fields: a gap's, the two of an "X" or a "Chain" icon.
    pb.CrabBucketGap: {"color": lambda gap: proto_color(gap.color)},
    pb.CrabBucketColorPair: {
        "first": lambda pair: proto_color(pair.first),
        "second": lambda pair: proto_color(pair.second),
    },
    # A use of an ability: its card and the pile an Oxi! comes from are -1 when it has none.
    pb.CrabBucketUseAbility: {
        "card": lambda move: None if move.card < 0 else move.card,
        "oxi_from_pile": lambda move: None if move.source < 0 else move.source,
    },
}


def shape(message: type[Message]) -> Callable[[wire.Shapes], wire.Encoder]:
    return lambda shapes: wire.Encoder(message, READS[message], shapes)


SHAPES: Final = wire.Shapes({message: shape(message) for message in READS})

# ----- the state -----

OPTIONS_FIELD: Final = pb.CrabBucketState.OPTIONS_FIELD_NUMBER
DRAW_PILE_FIELD: Final = pb.CrabBucketState.DRAW_PILE_FIELD_NUMBER


def options_field(state: CrabBucketState) -> bytes:
    """The state's options field, written once for each Options and kept by them: they never
    change, and they are most of a state's bytes."""
    options = state.options
    if not options.encoded:
        encoded = wire.message_field(OPTIONS_FIELD, SHAPES.encoder(pb.CrabBucketOptions)(options))
        object.__setattr__(options, "encoded", encoded)  # a frozen dataclass's own field
    return options.encoded


def card_field(card: int) -> bytes:
    """A card in the state's draw_pile field."""
    return wire.message_field(DRAW_PILE_FIELD, SHAPES.encoder(pb.CrabBucketCard)(card))


CRAB_CARD_FIELDS: Final = tuple(map(card_field, range(CRAB_CARDS)))  # by card id
OXI_FIELD: Final = card_field(OXI)


def draw_pile(state: CrabBucketState) -> bytes:
    """The draw pile's cards in card-id order (a multiset: no order is stored, G2): each crab
    card there once (there is one of each, B1), then the Oxi! cards, the last id."""
    counts = state.draw_pile
    cards = [CRAB_CARD_FIELDS[card] for card in range(CRAB_CARDS) if counts[card]]
    return b"".join(cards) + OXI_FIELD * counts[OXI]


def current_mission(state: CrabBucketState) -> int | None:
    return None if state.current == NO_MISSION else state.current


def completed(state: CrabBucketState) -> Iterable[tuple[int, bool]]:
    """Each completed mission, in completion order, and whether its ability is used (none
    until the first mission is completed: a state has none most of a game)."""
    return zip(state.completed, state.spent, strict=True) if state.completed else ()


# The state's fields whose values are not the state's attributes of the same name.
STATE_READS: Final[dict[str, wire.Read]] = {
    "current_mission": current_mission,
    "completed": completed,
    "offered_missions": operator.attrgetter("offered"),
    "talking_allowed": rules.talking_allowed,
}
STATE: Final = wire.Encoder(
    pb.CrabBucketState,
    STATE_READS,
    SHAPES,
    remember=False,  # a state's lists change in place
    kept={"options": options_field, "draw_pile": draw_pile},
)
EVENT: Final = event_encoder("crab_bucket", words.words, SHAPES)
# An outcome's detail (rules.Outcome): the mode, won, points, title, note and end by name.
OUTCOME: Final = wire.Encoder(
    pb.CrabBucketOutcome, {"completed_missions": operator.attrgetter("completed")}, SHAPES
)
MOVE: Final = wire.Encoder(pb.CrabBucketMove, shapes=SHAPES)

# ----- a seat's view -----


class OpenDecision(NamedTuple):
    """The current decision and what it is about (CrabBucketDecision), from public facts only:
    every view shows the same (G3)."""

    kind: int
    player: int | None = None
    pile: int | None = None
    level: int = 0
    levels: tuple[int, ...] = ()
    missions: tuple[int, ...] = ()
    plays_left: int = 0
    may_use_ability: bool = False
    extra: bool = False


# Each decision's kind by its name (rules.decision_name), as the enum names it.
DECISION_KINDS: Final = {
    name.removeprefix("CRAB_BUCKET_DECISION_KIND_").lower(): value
    for name, value in pb.CrabBucketDecisionKind.items()
    if value
}


def open_decision(state: CrabBucketState) -> OpenDecision:
    """Who decides or receives the card, and which pile, level or choices it is about."""
    name = rules.decision_name(state)
    kind = DECISION_KINDS[name]
    if name == "game_over":
        return OpenDecision(kind)
    if name == "deal":  # onto the circle's next pile, or into a hand
        receiver = rules.card_receiver(state)
        return OpenDecision(kind, receiver, state.dealt if receiver is None else None)
    if name in ("draw_mission", "draw_offer"):
        return OpenDecision(kind, level=state.pending[-1][1])
    player = state.turn_player
    if name == "draw_card":  # the extra draw is a pending decision; a refill is not
        return OpenDecision(kind, player, extra=bool(state.pending))
    if name == "play":
        ready = rules.may_use_ability(state) and bool(abilities.ready_missions(state))
        return OpenDecision(kind, player, plays_left=state.plays_left, may_use_ability=ready)
    if name == "keep_mission":
        return OpenDecision(kind, player, missions=tuple(state.offered))
    # choosing a mission pile: the levels whose piles are not empty (B5)
    return OpenDecision(kind, player, levels=tuple(rules.levels_to_draw_from(state)))


def own_hand(seat: Seat) -> tuple[int, ...]:
    """A player's own cards; nobody else's (a spectator has none)."""
    return () if seat.player is None else seat.state.hands[seat.player]


def seen(read: wire.Read) -> wire.Read:
    """A field of the view read from the state the seat sees."""
    return lambda seat: read(seat.state)


# A field the view shares with the state (by name) is what every seat sees of it (B2): the
# options, every pile whole, the Oxi! cards counted, the cards removed, the missions, the turn,
# what is pending, the end. The state's cards hidden from some seat (the hands, the draw pile)
# and its mission piles, face down, are fields of the state alone; the view shows of them only
# what is declared here.
SHARED: Final = set(pb.CrabBucketView.DESCRIPTOR.fields_by_name) & set(
    pb.CrabBucketState.DESCRIPTOR.fields_by_name
)
VIEW: Final = wire.Encoder(
    pb.CrabBucketView,
    {name: seen(STATE_READS.get(name, operator.attrgetter(name))) for name in SHARED}
    | {
        "hand": own_hand,
        "hand_sizes": seen(lambda state: [len(hand) for hand in state.hands]),
        "draw_pile_size": seen(rules.draw_total),
        "mission_pile_sizes": seen(lambda state: [len(pile) for pile in state.mission_piles]),
        "points": seen(rules.points),
        "decision": seen(open_decision),
    },
    SHAPES,
    remember=False,
)
