"""Build Crab Bucket positions by hand for rulebook examples and ability tests, and the
circles, hands, decks and steps several rule files share."""

from __future__ import annotations

from google.protobuf import json_format

from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import (
    BLUE,
    CIRCLE,
    COLOR_NAMES,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    DISCARD_ALL_TOPS,
    DISCARD_PILE,
    GREEN,
    HAND_SIZE,
    NEW_MISSION,
    OXI,
    RED,
    RESCUE_OXI,
    RESCUE_TOPS,
    YELLOW,
    Gap,
    Mission,
    NotAdjacent,
    card_id,
    color_of,
    number_of,
)
from crabgames.games.crab_bucket.events import CardDrawn, Event, TurnEnded
from crabgames.games.crab_bucket.moves import PlayCard, UseAbility
from crabgames.games.crab_bucket.state import (
    PLAY,
    QUICK,
    REFILL,
    WILD_CRAB,
    CrabBucketState,
    Options,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

__all__ = [
    "QUICK",
    "WILD_CRAB",
    "card",
    "card_message",
    "cards",
    "position",
    "mission_index",
    "PILES",
    "HAND",
    "ready",
    "uses",
    "use",
    "use_mission",
    "kinds",
    "only",
    "as_json",
    "as_sent",
    "BLOCKING",
    "BLOCKED",
    "LOW",
    "STUCK",
    "TOPS",
    "SIMPLE",
    "simple",
    "ONLY",
    "red_pair_position",
    "play",
    "draws_back_to_3_and_ends_the_turn",
    "APART_MISSIONS",
    "APART_PILES",
    "APART_HAND",
    "at",
    "EXAMPLE",
    "MEETS_EXAMPLE",
    "colors_of",
    "PILES_WITH_AN_OXI",
]


def card(name: str) -> int:
    """'green 2' -> its card id; 'oxi' -> the Oxi! card."""
    if name.lower() in ("oxi", "oxi!"):
        return OXI
    color, number = name.split()
    return card_id(COLOR_NAMES.index(color), int(number))


def card_message(card: int) -> pb.CrabBucketCard:
    """A card id as the protocol's comment describes its card, built here and not by the
    game's codec: an Oxi! card is `oxi` alone; a crab card is its colour (RED is 1) and its
    number."""
    if card == OXI:
        return pb.CrabBucketCard(oxi=True)
    name = f"CRAB_BUCKET_COLOR_{COLOR_NAMES[color_of(card)].upper()}"
    return pb.CrabBucketCard(color=pb.CrabBucketColor.Value(name), number=number_of(card))


def cards(*names: str) -> tuple[int, ...]:
    """The cards in this order: a pile, bottom first (piles and hands are tuples)."""
    return tuple(card(n) for n in names)


def mission_index(name: str, missions: tuple[Mission, ...] = DEFAULT_MISSIONS) -> int:
    return next(i for i, m in enumerate(missions) if m.name == name)


def position(
    piles: list[list[str]] | list[str],
    hands: dict[int, list[str]] | None = None,
    *,
    mode: int = QUICK,
    num_players: int = 2,
    missions: tuple[Mission, ...] = DEFAULT_MISSIONS,
    current: str | None = "Mission 1-A",
    completed: tuple[str, ...] = (),
    turn: int = 0,
    draw_pile: list[str] | None = None,
) -> CrabBucketState:
    """A state at the start of `turn`'s turn. `piles` is 8 stacks (bottom first) or 8 top-card
    names ('' for an empty pile). Hands not given get the lowest free crab cards. Every card
    not placed is in the draw pile (or only `draw_pile`, the rest then removed from the game)."""
    options = Options(mode, 0, missions, 1)
    state = rules.new_state(num_players, options)
    free = state.draw_pile[:]  # every card of the game (B1): the draw pile and the Oxi! set aside
    free[OXI] += state.oxi_set_aside
    state.oxi_set_aside = 0

    def take(name: str) -> int:
        c = card(name)
        assert free[c] > 0, f"{name} used twice"
        free[c] -= 1
        return c

    stacks = [p if isinstance(p, list) else ([p] if p else []) for p in piles]
    assert len(stacks) == CIRCLE
    state.piles = [tuple(take(n) for n in stack) for stack in stacks]
    hands = hands or {}
    for seat in range(num_players):
        if seat in hands:
            state.hands[seat] = tuple(sorted(take(n) for n in hands[seat]))
    for seat in range(num_players):
        if seat not in hands:
            picked = [c for c in range(CRAB_CARDS) if free[c]][:HAND_SIZE]
            for c in picked:
                free[c] -= 1
            state.hands[seat] = tuple(picked)
    if draw_pile is None:
        state.draw_pile = free
    else:
        state.draw_pile = [0] * len(free)
        for name in draw_pile:
            state.draw_pile[take(name)] += 1
        # Everything else is out of play: crab cards removed, Oxi! cards discarded.
        state.removed = [c for c in range(CRAB_CARDS) if free[c]]
        state.oxi_discarded = free[OXI]
    state.dealt = rules.deal_size(num_players)
    state.step = PLAY
    state.turn_player = turn
    for name in completed:
        _take_mission(state, mission_index(name, missions))
        state.completed.append(mission_index(name, missions))
        state.spent.append(False)
    if current is not None:
        index = mission_index(current, missions)
        _take_mission(state, index)
        state.current = index
    assert rules.invariant_violations(state) == []
    return state


def _take_mission(state: CrabBucketState, index: int) -> None:
    for level, pile in enumerate(state.mission_piles):
        if index in pile:
            state.mission_piles[level] = rules.without(pile, index)


# ----- a circle and a hand where abilities act (the abilities, B6, G3, G5) -----


# Current mission 1-D needs two neighbouring green tops: never met by these circles.
PILES = [
    ["blue 1", "red 8"],
    ["red 7"],
    ["green 1", "green 8"],
    ["red 6"],
    ["blue 2", "yellow 8"],
    ["red 5"],
    ["blue 8"],
    ["red 4"],
]


HAND = ["red 1", "blue 3", "yellow 3"]


def ready(mission: str, piles=PILES, hand=HAND, **kw):
    kw.setdefault("current", "Mission 1-D")
    return position(piles, {0: hand}, completed=(mission,), **kw)


def uses(state) -> list[UseAbility]:
    return [m for m in turn.legal_moves(state) if isinstance(m, UseAbility)]


def use(state, move: UseAbility) -> list:
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


def use_mission(state, mission: str, piles=(), card_=-1, source=-1) -> list[Event]:
    move = UseAbility(mission_index(mission), piles, card_, source)
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def only(events, kind: str) -> Event:
    (event,) = [e for e in events if e.kind == kind]
    return event


def as_json(event: Event) -> dict:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


def as_sent(event: Event) -> game_pb2.Event:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return msg


# ----- circles where cards are stuck in the hand (B6, B7, G6, How to Play) -----


# Nothing of green 8 or yellow 8 fits on these tops (different colours, all lower than 8).
BLOCKING = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "red 7", "blue 7"]


BLOCKED = ["green 8", "yellow 8"]


# Low red and blue tops: a green or yellow card above every top fits nowhere (another colour,
# higher), so green 7, green 8 and yellow 8 are stuck in the hand while the tops stay below 7.
# Current mission 1-D needs two neighbouring green tops: never met here.
LOW = ["red 1", "red 2", "red 3", "red 4", "red 5", "blue 1", "blue 2", "blue 3"]


STUCK = ["green 7", "green 8", "yellow 8"]


# ----- decks of one Gap each, on the same tops (the main actions, B5, B7-B9, End of Game) -----


TOPS = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]


# One Gap each: "two red tops side by side" (level 1), green (2), blue (3); plus spares.
SIMPLE = (
    Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),
    Mission("Green pair", 2, RESCUE_TOPS, (Gap(GREEN, 0),)),
    Mission("Blue pair", 3, RESCUE_TOPS, (Gap(BLUE, 0),)),
    Mission("Spare 1", 1, RESCUE_TOPS, (Gap(RED, 1),)),
    Mission("Spare 3", 3, RESCUE_TOPS, (Gap(GREEN, 3),)),
)


def simple(hands, mode=QUICK, current="Red pair", **kw):
    return position(TOPS, hands, mode=mode, missions=SIMPLE, current=current, **kw)


# A deck of one mission, "Red pair": two red tops side by side (on TOPS red 8, pile 0, and red 1,
# pile 6, are not). Once it is completed every mission pile is empty.
ONLY = (Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),)


def red_pair_position(piles, hand: list[str], mode: int = QUICK) -> CrabBucketState:
    return position(piles, {0: hand}, mode=mode, missions=ONLY, current="Red pair")


def play(state: CrabBucketState, move: PlayCard) -> list[Event]:
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


def draws_back_to_3_and_ends_the_turn(state: CrabBucketState, drawn: str) -> None:
    """The one play was the main action: the player draws back to 3, then player 1 plays."""
    assert state.step == REFILL and rules.decision_name(state) == "draw_card"
    assert state.current == 0 and state.completed == []
    events = turn.apply_chance(state, card(drawn))
    assert events == [CardDrawn(0, card(drawn)), TurnEnded(0, 0, 1)]
    assert len(state.hands[0]) == 3 and state.turn_player == 1 and state.step == PLAY
    assert rules.invariant_violations(state) == []


# ----- "Apart" and a deck with each ability (the abilities checked to the end, B5) -----


# Current: "Apart" wants the red tops one pile apart and no red top beside a yellow one.
APART_MISSIONS = (
    Mission("Apart", 1, RESCUE_TOPS, (Gap(RED, 1), NotAdjacent(RED, YELLOW))),
    Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),
    Mission("Discard all", 3, DISCARD_ALL_TOPS, (Gap(GREEN, 0),)),
    Mission("Discard pile", 3, DISCARD_PILE, (Gap(BLUE, 0),)),
    Mission("Rescue oxi", 1, RESCUE_OXI, (Gap(YELLOW, 0),)),
    Mission("Next", 2, RESCUE_TOPS, (Gap(GREEN, 3),)),
    Mission("New mission", 3, NEW_MISSION, (Gap(YELLOW, 3),)),
)


# Red 1 and red 2 with yellow 8 between them: "Apart" waits only for the yellow to go.
APART_PILES = [["red 1"], ["yellow 8"], ["red 2"], ["blue 8"], ["green 8"],
               ["green 3", "oxi"], ["blue 7"], ["green 7"]]  # fmt: skip


APART_HAND = ["blue 1", "blue 2", "green 1"]


def at(ability_mission: str, current: str = "Apart", piles=APART_PILES, **kw):
    return position(piles, {0: APART_HAND}, missions=APART_MISSIONS, current=current,
                    completed=(ability_mission,), **kw)  # fmt: skip


# ----- the rulebook's example mission (Mission Cards, B3) -----


EXAMPLE = DEFAULT_MISSIONS[mission_index("Mission 1-A")]


# A circle meeting the rulebook's example: red at 0 and 4 (3 between), green at 1 and 6
# (2 between, counting clockwise from 6), blue at 2 and 3 (0 between), yellow at 5 and 7 (1).
MEETS_EXAMPLE = [
    "red 1",
    "green 1",
    "blue 1",
    "blue 2",
    "red 2",
    "yellow 1",
    "green 2",
    "yellow 2",
]


def colors_of(tops: list[str]) -> int:
    return rules.top_colors(position(tops, current=None))


# ----- a circle with an Oxi! buried in a pile (views, B7) -----


PILES_WITH_AN_OXI = [
    ["blue 1", "red 8"],
    ["red 7"],
    ["green 1", "green 8"],
    ["red 6"],
    ["blue 2", "yellow 8"],
    ["red 5"],
    ["blue 8"],
    ["oxi", "red 4"],
]


def text(event: Event) -> str:
    """An event's sentence as a player reads it: its template filled in with its args."""
    template, args = words.words(event)
    return template.format_map(args)
