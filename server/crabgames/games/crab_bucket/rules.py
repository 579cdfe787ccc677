"""Crab Bucket's rules on a native state: the deal, placement, the Oxi! card in each mode, missions
(B3-B5), the turn (B6), drawing, passing and the end (B7, G6). The nine mission abilities, their
uses and effects, are in abilities.py.

A card is an int (data.py). The draw pile is a multiset (counts per card kind, G2): a draw is a
chance event over what is in it. Decisions that interrupt a turn (choosing the next mission pile,
"draw 2 choose 1", the extra draw) live on a small stack, `pending`, decided last-in first-out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import getitem
from typing import Any, NamedTuple

from crabgames.games.crab_bucket import abilities, words
from crabgames.games.crab_bucket.data import (
    CARD_KINDS,
    CIRCLE,
    CRAB_CARDS,
    HAND_SIZE,
    LEVELS,
    MAX_PLAYERS,
    NO_TITLE_NOTE,
    OXI,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
    card_name,
    color_of,
    number_of,
    title_for,
)
from crabgames.v1 import crab_bucket_pb2 as pb

QUICK = pb.CRAB_BUCKET_MODE_QUICK
WILD_CRAB = pb.CRAB_BUCKET_MODE_WILD_CRAB

DEAL = pb.CRAB_BUCKET_STEP_DEAL
PLAY = pb.CRAB_BUCKET_STEP_PLAY
REFILL = pb.CRAB_BUCKET_STEP_REFILL
GAME_OVER = pb.CRAB_BUCKET_STEP_GAME_OVER
STEPS = (DEAL, PLAY, REFILL, GAME_OVER)

DRAW_MISSION = pb.CRAB_BUCKET_PENDING_KIND_DRAW_MISSION
CHOOSE_MISSION_PILE = pb.CRAB_BUCKET_PENDING_KIND_CHOOSE_MISSION_PILE
EXTRA_DRAW = pb.CRAB_BUCKET_PENDING_KIND_EXTRA_DRAW
OFFER_CHOOSE_PILE = pb.CRAB_BUCKET_PENDING_KIND_OFFER_CHOOSE_PILE
OFFER_DRAW = pb.CRAB_BUCKET_PENDING_KIND_OFFER_DRAW
KEEP_MISSION = pb.CRAB_BUCKET_PENDING_KIND_KEEP_MISSION
PENDING_KINDS = (
    DRAW_MISSION,
    CHOOSE_MISSION_PILE,
    EXTRA_DRAW,
    OFFER_CHOOSE_PILE,
    OFFER_DRAW,
    KEEP_MISSION,
)
LEVELED_PENDING = (DRAW_MISSION, OFFER_DRAW)

LEVEL_3_COMPLETED = pb.CRAB_BUCKET_END_REASON_LEVEL_3_COMPLETED
CARDS_RAN_OUT = pb.CRAB_BUCKET_END_REASON_CARDS_RAN_OUT
STALLED = pb.CRAB_BUCKET_END_REASON_STALLED

EMPTY = -1  # the "top" of an empty pile
NO_MISSION = -1

# Decision names (G3), by step and by pending kind (two enums: their values overlap).
STEP_DECISIONS = {DEAL: "deal", PLAY: "play", REFILL: "draw_card"}
PENDING_DECISIONS = {
    DRAW_MISSION: "draw_mission",
    CHOOSE_MISSION_PILE: "choose_mission_pile",
    EXTRA_DRAW: "draw_card",
    OFFER_CHOOSE_PILE: "choose_offer_pile",
    OFFER_DRAW: "draw_offer",
    KEEP_MISSION: "keep_mission",
}
CHANCE_PENDING = (DRAW_MISSION, EXTRA_DRAW, OFFER_DRAW)
CHANCE_STEPS = (DEAL, REFILL)  # a card dealt, a card drawn to refill the hand


# ----- options, state, moves, events -----


@dataclass(frozen=True)
class Options:
    mode: int
    first_player: int
    missions: tuple[Mission, ...]
    first_mission_level: int

    @cached_property  # read on most moves; the options never change
    def wild(self) -> bool:
        return self.mode == WILD_CRAB

    @cached_property  # each mission's requirements as links (`links_met`), built once
    def mission_links(self) -> tuple[tuple[Link, ...], ...]:
        return tuple(tuple(map(link_of, mission.requirements)) for mission in self.missions)


@dataclass
class CrabBucketState:
    options: Options
    num_players: int
    # The piles, hands and mission piles are tuples, replaced when they change and never
    # changed in place, so a clone shares them (copy-on-write): it copies only the lists.
    piles: list[tuple[int, ...]]  # 8 stacks, bottom first (B2)
    hands: list[tuple[int, ...]]  # sorted
    draw_pile: list[int]  # count per card kind (CARD_KINDS entries)
    oxi_set_aside: int
    oxi_discarded: int = 0
    removed: list[int] = field(default_factory=list)  # sorted
    mission_piles: list[tuple[int, ...]] = field(default_factory=list)  # levels 1..3, sorted
    current: int = NO_MISSION
    completed: list[int] = field(default_factory=list)
    spent: list[bool] = field(default_factory=list)  # parallel to `completed`
    discarded_missions: list[int] = field(default_factory=list)
    offered: list[int] = field(default_factory=list)
    step: int = DEAL
    turn_player: int = 0
    dealt: int = 0
    ability_used: bool = False
    plays_left: int = 1
    played: int = 0
    draws_over: bool = False
    passes: int = 0
    pending: list[tuple[int, int]] = field(default_factory=list)  # (kind, level)
    end_reason: int = 0

    def clone(self) -> CrabBucketState:
        return CrabBucketState(
            self.options,
            self.num_players,
            list(self.piles),
            list(self.hands),
            list(self.draw_pile),
            self.oxi_set_aside,
            self.oxi_discarded,
            list(self.removed),
            list(self.mission_piles),
            self.current,
            list(self.completed),
            list(self.spent),
            list(self.discarded_missions),
            list(self.offered),
            self.step,
            self.turn_player,
            self.dealt,
            self.ability_used,
            self.plays_left,
            self.played,
            self.draws_over,
            self.passes,
            list(self.pending),
            self.end_reason,
        )


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Main action: a card from the hand onto a pile (Wild Crab Oxi!: discard it, cut `pile`)."""

    card: int
    pile: int


@dataclass(frozen=True, slots=True)
class Pass:
    """No main action is possible (B6)."""


@dataclass(frozen=True, slots=True)
class UseAbility:
    """Use completed mission `mission`'s ability; parameters as in the proto's comment."""

    mission: int
    piles: tuple[int, ...] = ()
    card: int = -1
    source: int = -1  # RESCUE_OXI in Quick mode: the pile holding the Oxi!


@dataclass(frozen=True, slots=True)
class ChooseMissionPile:
    level: int


@dataclass(frozen=True, slots=True)
class KeepMission:
    mission: int


Move = PlayCard | Pass | UseAbility | ChooseMissionPile | KeepMission


@dataclass(slots=True)
class Event:
    """`kind` is the proto oneof field; `data` its fields (cards as ints, a card on a pile as a
    (pile, card) pair, repeated fields as tuples; a field left out is not in the event), plus the
    names its sentence reads that no field holds (a mission's `name`). The sentence is built from
    the data only when it is read (words.py): playouts never build it."""

    kind: str
    data: dict[str, Any]

    @property
    def text(self) -> str:
        return words.text(self.kind, self.data)


def say(events: list[Event], kind: str, **data: Any) -> None:
    events.append(Event(kind, data))


# ----- what each seat sees (G5) -----


INTO_HAND = ("card_dealt", "card_drawn")  # events that may carry a card into a hand
# What every other seat and the spectators see of a card dealt or drawn into `holder`'s hand,
# UNSEEN_INTO_HAND[kind, holder, extra]: one shared event (never changed), so the engine encodes
# it once for them all. `extra`: the card of "Draw 1 card and play 2" (public: the ability is).
UNSEEN_INTO_HAND = {
    ("card_dealt", holder, False): Event("card_dealt", {"player": holder})
    for holder in range(MAX_PLAYERS)
} | {
    ("card_drawn", holder, extra): Event("card_drawn", {"player": holder, "extra": extra})
    for holder in range(MAX_PLAYERS)
    for extra in (False, True)
}


def seen_by(event: Event, viewer: int | None) -> Event:
    """G5, B2: a card dealt or drawn into a hand is seen by its holder only; the others (and
    spectators) see that the player got a card. Every other event is public (rules notes)."""
    if event.kind not in INTO_HAND:
        return event
    data = event.data
    holder = data.get("player")
    if holder is None or holder == viewer:
        return event
    return UNSEEN_INTO_HAND[event.kind, holder, data.get("extra", False)]


def card_receiver(state: CrabBucketState) -> int | None:
    """At a chance node: the player the card goes to (a deal into a hand, a refill or an extra
    draw); None when the outcome is public (the deal to the circle, a mission draw)."""
    if not is_chance(state):
        return None
    if state.pending:
        return state.turn_player if state.pending[-1][0] == EXTRA_DRAW else None
    if state.step == DEAL:
        return (state.dealt - CIRCLE) // HAND_SIZE if state.dealt >= CIRCLE else None
    return state.turn_player  # REFILL


def chance_hidden_from(state: CrabBucketState) -> list[int]:
    receiver = card_receiver(state)
    if receiver is None:
        return []
    return [p for p in range(state.num_players) if p != receiver]


# ----- set-up -----


def deal_size(num_players: int) -> int:
    return CIRCLE + HAND_SIZE * num_players


def new_state(num_players: int, options: Options) -> CrabBucketState:
    draw_pile = [1] * CRAB_CARDS + [0]  # the Oxi! cards wait until after the deal (B1)
    mission_piles = [
        tuple(i for i, m in enumerate(options.missions) if m.level == level) for level in LEVELS
    ]
    return CrabBucketState(
        options,
        num_players,
        [()] * CIRCLE,
        [()] * num_players,
        draw_pile,
        num_players,
        mission_piles=mission_piles,
        turn_player=options.first_player,
    )


# ----- the circle -----


def tops(state: CrabBucketState) -> list[int]:
    return [pile[-1] if pile else EMPTY for pile in state.piles]


# A changed pile, hand or mission pile is a new tuple (the state's copy-on-write pieces).


def sorted_with(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """A sorted hand (or mission pile) with one more card (or mission) in its place: after the
    ones not above it. A short loop, no sort: a draw happens on most calls, and sorting runs far
    more machine code (a cold cost in the server)."""
    i = 0
    while i < len(cards) and cards[i] <= card:
        i += 1
    return cards[:i] + (card,) + cards[i:]


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The cards (or missions) with one copy of `card` taken out."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def can_place(card: int, top: int) -> bool:
    """1. Play a Crab Card: same colour only if higher, different colour only if lower or equal;
    anything on an Oxi! or an empty pile (B2)."""
    if top in (EMPTY, OXI):
        return True
    if color_of(card) == color_of(top):
        return number_of(card) > number_of(top)
    return number_of(card) <= number_of(top)


# B3: Oxi! tops (and empty piles) have no colour. TOP_COLOR[card] for every card kind.
NO_COLOR = -1
TOP_COLOR = (*(color_of(card) for card in range(CRAB_CARDS)), NO_COLOR)

# Missions are checked on bit sets (python-chess style): bit i of a colour's set is pile i, set
# when that pile's top has the colour; a requirement is then a few shifts and ands. The four
# colours' sets sit side by side in one int, `colors`: pile i's top of colour c is bit 8c + i.
ALL_PILES = (1 << CIRCLE) - 1
# TOP_BITS[pile][top] (top EMPTY, -1, is the last entry), 0 for a top without colour.
TOP_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        0 if TOP_COLOR[top] == NO_COLOR else 1 << (CIRCLE * TOP_COLOR[top] + pile)
        for top in (*range(CARD_KINDS), EMPTY)
    )
    for pile in range(CIRCLE)
)


def top_colors(state: CrabBucketState) -> int:
    """The colours of the tops, as the four colours' bit sets side by side."""
    return sum(map(getitem, TOP_BITS, tops(state)))


class Link(NamedTuple):
    """A requirement (B3) as one test on the tops' colours: whether some pile whose top has the
    first colour has a top of the second colour `near` or `far` places clockwise, which the
    requirement wants (`wanted`) or forbids. A Gap of n is its colour to itself n + 1 places
    on; a Chain (Adjacent) is the first colour with the second 1 place on or 1 place back (7
    on); an X (NotAdjacent) is the same link, forbidden. Colours are given as the shift of
    their bit set in `colors` (8 times the colour)."""

    first: int
    second: int
    near: int
    far: int
    wanted: bool


def link_of(req: Any) -> Link:
    if isinstance(req, Gap):
        shift = CIRCLE * req.color
        return Link(shift, shift, req.between + 1, req.between + 1, True)
    assert isinstance(req, NotAdjacent | Adjacent)
    wanted = isinstance(req, Adjacent)
    return Link(CIRCLE * req.first, CIRCLE * req.second, 1, CIRCLE - 1, wanted)


def links_met(links: Sequence[Link], colors: int) -> bool:
    """Every link as it is wanted, on the tops' colours (`top_colors`). A loop of shifts and
    ands, no call per requirement: missions are checked after every card play."""
    for first, second, near, far, wanted in links:
        piles = colors >> first & ALL_PILES
        others = colors >> second & ALL_PILES
        # bit i of `others >> d | others << (8 - d)`: pile i + d (around the circle) has it
        linked = piles & (
            others >> near | others << (CIRCLE - near) | others >> far | others << (CIRCLE - far)
        )
        if bool(linked) != wanted:
            return False
    return True


def requirement_met(req: Any, colors: int) -> bool:
    """B3, on the tops' colours (`top_colors`)."""
    return links_met((link_of(req),), colors)


def mission_met(mission: Mission, colors: int) -> bool:
    return links_met(tuple(map(link_of, mission.requirements)), colors)


# ----- who decides -----


def draw_total(state: CrabBucketState) -> int:
    return sum(state.draw_pile)


def decision_name(state: CrabBucketState) -> str:
    if state.step == GAME_OVER:
        return "game_over"
    if state.pending:
        return PENDING_DECISIONS[state.pending[-1][0]]
    return STEP_DECISIONS[state.step]


def is_chance(state: CrabBucketState) -> bool:
    if state.step == GAME_OVER:
        return False
    if state.pending:
        return state.pending[-1][0] in CHANCE_PENDING
    return state.step in CHANCE_STEPS


def waits_for_decision(state: CrabBucketState) -> bool:
    """Chance, or a player with at least one legal move, or the end: nothing automatic pending."""
    if state.step == GAME_OVER:
        return True
    if is_chance(state):
        return bool(chance_outcomes(state))
    return bool(legal_moves(state))


# ----- legal moves -----


def legal_moves(state: CrabBucketState) -> list[Move]:
    """Nothing at the end or while chance decides (`is_chance`, read here without a call)."""
    if state.step == GAME_OVER:
        return []
    if state.pending:
        kind = state.pending[-1][0]
        if kind == KEEP_MISSION:
            return [KeepMission(m) for m in state.offered]
        if kind in CHANCE_PENDING:
            return []
        return [ChooseMissionPile(level) for level in LEVELS if state.mission_piles[level - 1]]
    if state.step != PLAY:  # a card dealt or drawn: chance decides
        return []
    return play_moves(state)


def play_moves(state: CrabBucketState) -> list[Move]:
    """B6: an ability first (optional), then the main action; Pass only when no main action is
    possible but an ability is (with neither, the turn passes automatically, G6)."""
    mains = main_moves(state)
    uses: list[Move] = []
    if state.completed and not state.ability_used and state.played == 0:
        uses = abilities.ability_moves(state)  # only a completed mission has an ability
    if mains:
        return uses + mains
    if uses:
        return [*uses, Pass()]
    return []


def can_act(state: CrabBucketState) -> bool:
    """Whether `play_moves` lists any move: a main action settles it without listing the ability
    uses (which may be dozens)."""
    return has_main_action(state) or bool(play_moves(state))


def has_main_action(state: CrabBucketState) -> bool:
    """Whether `main_moves` lists any card play: the same table, read until the first fit."""
    top = tops(state)
    for card in state.hands[state.turn_player]:  # noqa: SIM110 (a loop: asked every turn)
        if not FITS_ON[card].isdisjoint(top):
            return True
    return False


def main_moves(state: CrabBucketState) -> list[Move]:
    return card_plays(state, state.hands[state.turn_player])


PILES = range(CIRCLE)
# An empty pile read as this stand-in, whose last card is the EMPTY top: `(stack or NO_TOP)[-1]`.
NO_TOP = (EMPTY,)


def card_plays(
    state: CrabBucketState, cards: list[int], piles: Sequence[int] = PILES
) -> list[Move]:
    """The main action with each of `cards` (from the turn player's hand, sorted) on each of
    `piles`, pile by pile; a card held twice (Oxi!) plays once. Each pile's top is read where it
    is needed (no list of the tops first): `is_legal` asks for one card on one pile."""
    stacks = state.piles
    moves: list[Move] = []
    previous = None
    for card in cards:
        if card == previous:  # sorted: a second copy follows the first
            continue
        previous = card
        fits, plays = PLACEABLE[card], PLAY_CARD[card]
        moves += [plays[pile] for pile in piles if fits[(stacks[pile] or NO_TOP)[-1]]]
    return moves


def is_legal(state: CrabBucketState, move: Move) -> bool:
    """Whether `legal_moves` lists `move`; a card play is looked for among the plays of its own
    card on its own pile only (the same generator), which is all it can be. A card play is
    decided in the "play" decision only: the PLAY step with nothing pending (`decision_name`)."""
    if not isinstance(move, PlayCard):
        return move in legal_moves(state)
    card, pile = move.card, move.pile
    if state.step != PLAY or state.pending or card not in state.hands[state.turn_player]:
        return False
    return 0 <= pile < CIRCLE and move in card_plays(state, (card,), (pile,))


# Legal-move generation asks for every card in hand on every pile, so both answers are tables
# built once from the rules above. PLACEABLE[card][top] (top EMPTY, -1, is the last entry):
# Oxi!, Quick, onto any pile; Wild Crab, discarded and any pile cut.
PLACEABLE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(card == OXI or can_place(card, top) for top in (*range(CARD_KINDS), EMPTY))
    for card in range(CARD_KINDS)
)
# The tops each card may be placed on, from PLACEABLE: FITS_ON[card].
FITS_ON: tuple[frozenset[int], ...] = tuple(
    frozenset(top for top in (*range(CARD_KINDS), EMPTY) if PLACEABLE[card][top])
    for card in range(CARD_KINDS)
)
# The PlayCard moves, shared (they are frozen): PLAY_CARD[card][pile].
PLAY_CARD: tuple[tuple[PlayCard, ...], ...] = tuple(
    tuple(PlayCard(card, pile) for pile in range(CIRCLE)) for card in range(CARD_KINDS)
)


# ----- chance -----


def chance_outcomes(state: CrabBucketState) -> list[tuple[int, int]]:
    """Card draws: (card id, copies in the draw pile) in card-id order. Mission draws: (mission
    index, 1) in index order (G2)."""
    if state.step == GAME_OVER:
        return []
    if state.pending:  # chance decides a mission draw or an extra card draw (`is_chance`)
        kind, level = state.pending[-1]
        if kind in LEVELED_PENDING:
            return [(m, 1) for m in state.mission_piles[level - 1]]
        if kind != EXTRA_DRAW:
            return []
    elif state.step not in CHANCE_STEPS:
        return []
    # Each crab card is in the game once, so its count is 0 or 1 (`compress` stops at the last
    # crab card); the Oxi! cards are the last card id and may be there several times.
    draw_pile = state.draw_pile
    outcomes = list(compress(CRAB_CARD_DRAWS, draw_pile))
    if draw_pile[OXI]:
        outcomes.append((OXI, draw_pile[OXI]))
    return outcomes


CRAB_CARD_DRAWS = tuple((card, 1) for card in range(CRAB_CARDS))


def apply_chance(state: CrabBucketState, value: int) -> list[Event]:
    events: list[Event] = []
    if state.pending:
        kind, level = state.pending.pop()
        if kind == EXTRA_DRAW:
            _draw_card(state, value, True, events)
        else:
            _draw_mission(state, value, level, kind == OFFER_DRAW, events)
    elif state.step == DEAL:
        _deal(state, value, events)
    else:
        _draw_card(state, value, False, events)
    advance(state, events)
    return events


def _draw_mission(
    state: CrabBucketState, mission: int, level: int, offered: bool, events: list[Event]
) -> None:
    """A mission drawn as the current one (B5) or into a "draw 2 choose 1" offer."""
    state.mission_piles[level - 1] = without(state.mission_piles[level - 1], mission)
    name = state.options.missions[mission].name
    say(events, "mission_drawn", mission=mission, level=level, offered=offered, name=name)
    if offered:
        state.offered.append(mission)
    else:
        state.current = mission
        check_mission(state, events)


def _deal(state: CrabBucketState, card: int, events: list[Event]) -> None:
    state.draw_pile[card] -= 1
    if state.dealt < CIRCLE:
        pile = state.dealt
        state.piles[pile] += (card,)
        say(events, "card_dealt", card=card, pile=pile)
    else:
        player = (state.dealt - CIRCLE) // HAND_SIZE
        state.hands[player] = sorted_with(state.hands[player], card)
        say(events, "card_dealt", card=card, player=player)
    state.dealt += 1
    if state.dealt == deal_size(state.num_players):
        _finish_setup(state, events)


def _finish_setup(state: CrabBucketState, events: list[Event]) -> None:
    count = state.oxi_set_aside
    state.draw_pile[OXI] += count  # B1: shuffled in after the deal
    state.oxi_set_aside = 0
    say(events, "oxi_shuffled_in", count=count)
    state.step = PLAY
    state.turn_player = state.options.first_player
    level = state.options.first_mission_level
    state.pending.append((DRAW_MISSION, level))


def _draw_card(state: CrabBucketState, card: int, extra: bool, events: list[Event]) -> None:
    """Drawing back to 3, or (`extra`) the card of "Draw 1 card and play 2"."""
    player = state.turn_player
    state.draw_pile[card] -= 1
    state.hands[player] = sorted_with(state.hands[player], card)
    events.append(Event("card_drawn", {"player": player, "card": card, "extra": extra}))


# ----- missions (B5) -----


def check_mission(state: CrabBucketState, events: list[Event]) -> None:
    """B5: after every change to the circle, and when a new mission becomes current."""
    if state.current == NO_MISSION or state.step == GAME_OVER:
        return
    options = state.options
    if not links_met(options.mission_links[state.current], top_colors(state)):
        return
    mission = options.missions[state.current]
    state.completed.append(state.current)
    state.spent.append(False)
    say(events, "mission_completed", mission=state.current, level=mission.level)
    state.current = NO_MISSION
    if not state.options.wild:
        if mission.level >= 3:
            game_over(state, LEVEL_3_COMPLETED, events)
        else:
            state.pending.append((DRAW_MISSION, mission.level + 1))
    else:
        state.pending.append((CHOOSE_MISSION_PILE, 0))


def keep_mission(
    state: CrabBucketState, mission: int, player: int | None, events: list[Event]
) -> None:
    """ "Draw 2 choose 1": `mission` becomes current (chosen by `player`, None when it was the
    only one drawn); the other goes back to its pile (rules notes)."""
    missions = state.options.missions
    returned = tuple(m for m in state.offered if m != mission)
    for m in returned:
        level = missions[m].level
        state.mission_piles[level - 1] = sorted_with(state.mission_piles[level - 1], m)
    state.offered = []
    state.current = mission
    data: dict[str, Any] = {
        "mission": mission,
        "returned": returned,
        "name": missions[mission].name,
    }
    if player is not None:
        data["player"] = player
        data["returned_names"] = tuple(missions[m].name for m in returned)
    events.append(Event("mission_kept", data))
    check_mission(state, events)


def points(state: CrabBucketState) -> int:
    """B8: the sum of the levels of the completed missions."""
    return sum(state.options.missions[m].level for m in state.completed)


def talking_allowed(state: CrabBucketState) -> bool:
    """B9: Quick mode allows talking during the first mission only; Wild Crab never."""
    return not state.options.wild and not state.completed


# ----- player moves -----


def apply_move(state: CrabBucketState, move: Move) -> list[Event]:
    events: list[Event] = []
    if isinstance(move, PlayCard):
        _play_card(state, move.card, move.pile, events)
    elif isinstance(move, Pass):
        say(events, "turn_passed", player=state.turn_player, automatic=False)
        end_turn(state, events, passed=not state.ability_used)
    elif isinstance(move, UseAbility):
        abilities.use_ability(state, move, events)
    elif isinstance(move, ChooseMissionPile):
        kind, _ = state.pending.pop()
        offer = kind == OFFER_CHOOSE_PILE
        state.pending.append((OFFER_DRAW if offer else DRAW_MISSION, move.level))
        say(events, "mission_pile_chosen", player=state.turn_player, level=move.level, offer=offer)
    else:
        state.pending.pop()
        keep_mission(state, move.mission, state.turn_player, events)
    advance(state, events)
    return events


def take_from_hand(state: CrabBucketState, card: int) -> None:
    state.hands[state.turn_player] = without(state.hands[state.turn_player], card)


def _play_card(state: CrabBucketState, card: int, pile: int, events: list[Event]) -> None:
    hands, player = state.hands, state.turn_player
    hands[player] = without(hands[player], card)
    count_play(state)
    if card == OXI and state.options.wild:
        state.oxi_discarded += 1
        cut_pile(state, pile, False, events)
    else:
        play_from_hand(state, card, pile, False, events)
    check_mission(state, events)


def count_play(state: CrabBucketState) -> None:
    """B6: one main-action play made; with none left the turn goes on to drawing back to 3."""
    state.plays_left -= 1
    state.played += 1
    if state.plays_left <= 0:
        state.step = REFILL


def play_from_hand(
    state: CrabBucketState, card: int, pile: int, freely: bool, events: list[Event]
) -> None:
    """The card (already out of the hand) onto the pile: the main action, or (`freely`) "Play a
    card freely"."""
    state.piles[pile] += (card,)
    data = {"player": state.turn_player, "card": card, "pile": pile, "freely": freely}
    events.append(Event("card_played", data))


def cut_pile(state: CrabBucketState, pile: int, rescued: bool, events: list[Event]) -> None:
    """Wild Crab Oxi!: the pile keeps only its top card; the rest go back into the draw pile.
    `rescued`: the Oxi! came back from the discard ("Rescue an Oxi! card"), not from the hand."""
    stack = state.piles[pile]
    returned = stack[:-1]
    for card in returned:
        state.draw_pile[card] += 1
    state.piles[pile] = stack[-1:]
    say(
        events,
        "pile_cut",
        player=state.turn_player,
        pile=pile,
        returned=len(returned),
        returned_cards=returned,  # public (B2): every card on a pile was dealt or played face up
        rescued=rescued,
    )


# ----- the flow of turns -----


def advance(state: CrabBucketState, events: list[Event]) -> None:
    """Run every step that needs no decision, until someone (or chance) must decide."""
    while True:
        if state.step == GAME_OVER:
            state.pending.clear()
            return
        if state.pending:
            if _pending_waits(state, events):
                return
            continue
        if state.step == DEAL:
            return
        if state.step == PLAY:
            if _play_waits(state, events):
                return
            continue
        if _refill_waits(state, events):
            return


def _pending_waits(state: CrabBucketState, events: list[Event]) -> bool:
    kind, level = state.pending[-1]
    if kind in LEVELED_PENDING:
        waits = bool(state.mission_piles[level - 1])
    elif kind == EXTRA_DRAW:
        waits = draw_total(state) > 0
    elif kind in (CHOOSE_MISSION_PILE, OFFER_CHOOSE_PILE):
        waits = any(state.mission_piles)  # B5: with every pile empty there is no next mission
    else:
        waits = len(state.offered) >= 2
    if waits:
        return True
    state.pending.pop()
    if kind in LEVELED_PENDING:
        say(events, "no_mission_drawn", level=level, offer=kind == OFFER_DRAW)
    elif kind in (CHOOSE_MISSION_PILE, OFFER_CHOOSE_PILE):
        say(events, "no_mission_drawn", offer=kind == OFFER_CHOOSE_PILE)
    elif kind == KEEP_MISSION and state.offered:
        keep_mission(state, state.offered[0], None, events)  # only one could be drawn
    return False


def _play_waits(state: CrabBucketState, events: list[Event]) -> bool:
    if state.plays_left <= 0:
        state.step = REFILL
        return False
    if has_main_action(state) or play_moves(state):  # `can_act`, without the call
        return True
    player = state.turn_player
    if state.played:  # "Draw 1 card and play 2" with no legal second play: on to the draw
        state.plays_left = 0
        state.step = REFILL
        say(events, "no_main_action", player=player, second_play=True)
    elif state.ability_used:  # the turn ends without drawing; not a pass (rules notes)
        say(events, "no_main_action", player=player, second_play=False)
        end_turn(state, events, passed=False)
    else:  # B6, G6: no legal decision at all
        say(events, "turn_passed", player=player, automatic=True)
        end_turn(state, events, passed=True)
    return False


def _refill_waits(state: CrabBucketState, events: list[Event]) -> bool:
    if len(state.hands[state.turn_player]) >= HAND_SIZE or state.draws_over:
        end_turn(state, events, passed=False)
        return False
    if not draw_total(state):
        state.draws_over = True  # B7: nobody draws again
        say(events, "draw_pile_empty")
        end_turn(state, events, passed=False)
        return False
    return True


def end_turn(state: CrabBucketState, events: list[Event], passed: bool) -> None:
    state.passes = state.passes + 1 if passed else 0
    state.ability_used = False
    state.plays_left = 1
    state.played = 0
    hands = state.hands
    holders = sum(map(bool, hands))  # the players with cards in hand
    ended = state.turn_player
    if not holders or state.passes >= holders:
        events.append(Event("turn_ended", {"player": ended, "passes": state.passes}))
        # B7: every hand is empty; B7, G6: a full round of passes
        game_over(state, STALLED if holders else CARDS_RAN_OUT, events)
        return
    player = ended
    while True:  # the next holder clockwise (there is one)
        player = (player + 1) % state.num_players
        if hands[player]:
            break
    state.turn_player = player
    state.step = PLAY
    data = {"player": ended, "next_player": player, "passes": state.passes}
    events.append(Event("turn_ended", data))


def game_over(state: CrabBucketState, reason: int, events: list[Event]) -> None:
    state.step = GAME_OVER
    state.end_reason = reason
    state.pending.clear()
    result = outcome(state)
    assert result is not None
    say(
        events,
        "game_ended",
        reason=reason,
        points=result.points,
        won=result.won,
        title=result.title,
        wild=state.options.wild,
    )


# ----- outcome -----


class Outcome(NamedTuple):
    num_players: int
    mode: int
    won: bool
    points: int
    title: str
    note: str
    completed: tuple[int, ...]
    end_reason: int


def outcome(state: CrabBucketState) -> Outcome | None:
    if state.step != GAME_OVER:
        return None
    total = points(state)
    title = note = ""
    if state.options.wild:
        title = title_for(total)
        if not title:
            note = NO_TITLE_NOTE  # B8
    return Outcome(
        state.num_players,
        state.options.mode,
        # Wild Crab has no loss: the team reaches the title of its points (rules notes).
        state.options.wild or state.end_reason == LEVEL_3_COMPLETED,
        total,
        title,
        note,
        tuple(state.completed),
        state.end_reason,
    )


# ----- conservation -----


def card_counts(state: CrabBucketState) -> list[int]:
    """How many of each card kind are anywhere: piles, hands, draw pile, discard, removed, aside."""
    counts = list(state.draw_pile)
    for stack in (*state.piles, *state.hands, state.removed):
        for card in stack:
            counts[card] += 1
    counts[OXI] += state.oxi_discarded + state.oxi_set_aside
    return counts


def invariant_violations(state: CrabBucketState) -> list[str]:
    problems: list[str] = []
    counts = card_counts(state)
    for card in range(CRAB_CARDS):
        if counts[card] != 1:
            problems.append(f"{card_name(card)} is in {counts[card]} places, not 1")
    if counts[OXI] != state.num_players:
        problems.append(f"{counts[OXI]} Oxi! cards, not {state.num_players} (B1)")
    if any(n < 0 for n in state.draw_pile):
        problems.append("negative count in the draw pile")
    if len(state.piles) != CIRCLE:
        problems.append("the circle must have 8 piles")
    places = [
        *(m for pile in state.mission_piles for m in pile),
        *state.completed,
        *state.discarded_missions,
        *state.offered,
    ]
    if state.current != NO_MISSION:
        places.append(state.current)
    if sorted(places) != list(range(len(state.options.missions))):
        problems.append("every mission must be in exactly one place")
    if any(len(h) > HAND_SIZE + 1 for h in state.hands):
        problems.append("a hand holds more than 4 cards")
    return problems
