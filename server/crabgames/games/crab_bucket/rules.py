"""Crab Bucket's rules, in the rulebook's order: Setup (B1), Mission Cards and How to Complete Them
(B3, B5), How to Play (B6), 1. Play a Crab Card, 2. Play an Oxi! Card, drawing back to 3, End of
Game (B7) and the Levels Table (B8). 3. Use a Mission's Ability and the nine Mission Abilities
are the next chapter, in abilities.py, built on these; turn.py puts both together into a turn:
the moves listed, applied, and the steps between decisions.

The state is in state.py, the moves in moves.py, the events in events.py.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping
from typing import Final, NamedTuple, TypeVar

from crabgames.core.game import Decision
from crabgames.games.crab_bucket.consistency import (
    Problem,
    card_counts,
    cards_conserved,
    missions_placed_once,
    places_hold,
)
from crabgames.games.crab_bucket.data import (
    CARD_KINDS,
    CIRCLE,
    CRAB_CARDS,
    HAND_SIZE,
    LEVELS,
    MAX_BETWEEN,
    MAX_PLAYERS,
    NO_TITLE_NOTE,
    OXI,
    Adjacent,
    Gap,
    Mission,
    Requirement,
    color_of,
    number_of,
    title_for,
)
from crabgames.games.crab_bucket.events import (
    CARDS_DRAWN,
    CARDS_PLAYED,
    TURNS_PASSED_ON,
    CardDealt,
    Event,
    GameEnded,
    MissionCompleted,
    MissionDrawn,
    MissionKept,
    MissionPileChosen,
    OxiShuffledIn,
    PileCut,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import (
    Move,
    PlayCard,
)
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    CHOOSE_MISSION_PILE,
    DEAL,
    DRAW_MISSION,
    EMPTY,
    EXTRA_DRAW,
    GAME_OVER,
    KEEP_MISSION,
    LEVEL_3_COMPLETED,
    LEVELED_PENDING,
    NO_MISSION,
    OFFER_CHOOSE_PILE,
    OFFER_DRAW,
    PLAY,
    REFILL,
    STALLED,
    CrabBucketState,
    EndReason,
    Mode,
    Options,
)

PILES: Final = tuple(range(CIRCLE))


# ----- Setup (B1) -----


def deal_size(num_players: int) -> int:
    """8 crab cards to form the circle, then 3 to each player."""
    return CIRCLE + HAND_SIZE * num_players


def new_state(num_players: int, options: Options) -> CrabBucketState:
    """Before the deal: one Oxi! card per player set aside (B1), the missions sorted into three
    piles by level."""
    draw_pile = [1] * CRAB_CARDS + [0]
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


def deal(state: CrabBucketState, card: int, events: list[Event]) -> None:
    """One card of the deal: the circle's 8 piles first, then 3 cards to each player in turn."""
    state.draw_pile[card] -= 1
    if state.dealt < CIRCLE:
        pile = state.dealt
        state.piles[pile] += (card,)
        events.append(CardDealt(card, pile=pile))
    else:
        player = (state.dealt - CIRCLE) // HAND_SIZE
        state.hands[player] = sorted_with(state.hands[player], card)
        events.append(CardDealt(card, player=player))
    state.dealt += 1
    if state.dealt == deal_size(state.num_players):
        shuffle_in_oxi_cards(state, events)


def shuffle_in_oxi_cards(state: CrabBucketState, events: list[Event]) -> None:
    """B1: the Oxi! cards set aside are shuffled into the draw pile once the deal is done; the
    first mission is drawn from the pile the options name, and the first player starts."""
    count = state.oxi_set_aside
    state.draw_pile[OXI] += count
    state.oxi_set_aside = 0
    events.append(OxiShuffledIn(count))
    state.step = PLAY
    state.turn_player = state.options.first_player
    state.pending.append((DRAW_MISSION, state.options.first_mission_level))


# ----- the circle -----


def tops(state: CrabBucketState) -> list[int]:
    return [pile[-1] if pile else EMPTY for pile in state.piles]


def sorted_with(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """A sorted hand (or mission pile) with one more card (or mission) in its place. A changed
    pile, hand or mission pile is a new tuple (the state's copy-on-write pieces)."""
    i = bisect_right(cards, card)
    return cards[:i] + (card,) + cards[i:]


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The cards (or missions) with one copy of `card` taken out."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


# ----- Mission Cards and How to Complete Them (B3) -----

NO_COLOR: Final = -1


def top_color(top: int) -> int:
    """B3: an Oxi! top, or an empty pile, has no colour (it still counts as a pile between)."""
    if top in (EMPTY, OXI):
        return NO_COLOR
    return color_of(top)


def piles_between(first: int, second: int) -> int:
    """B3: the piles between two piles of the circle, counted clockwise from the first."""
    return (second - first) % CIRCLE - 1


def next_to(first: int, second: int) -> bool:
    """B3: neighbouring piles; the circle wraps (pile 7 neighbours pile 0)."""
    return (second - first) % CIRCLE in (1, CIRCLE - 1)


# The requirements read the piles whose tops have one colour as a set: an int whose bit i is
# pile i. The circle's four colours' sets sit side by side in one int (`top_colors`): colour c's
# set is `colors >> CIRCLE * c & ALL_PILES`. Each requirement is read as a `Link`, a lookup in a
# table built from the rules above for every set of piles.
ALL_PILES: Final = (1 << CIRCLE) - 1


def partners(piles: int, between: int) -> int:
    """The piles that have one of these piles exactly `between` piles on, clockwise."""
    return sum(
        1 << p
        for p in PILES
        if any(piles >> q & 1 and piles_between(p, q) == between for q in PILES)
    )


def neighbours(piles: int) -> int:
    """The piles next to one of these piles."""
    return sum(1 << p for p in PILES if any(piles >> q & 1 and next_to(p, q) for q in PILES))


# Both, for every set of piles: PARTNERS[between][piles], NEIGHBOURS[piles].
PARTNERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(partners(piles, between) for piles in range(ALL_PILES + 1))
    for between in range(MAX_BETWEEN + 1)
)
NEIGHBOURS: Final[tuple[int, ...]] = tuple(neighbours(piles) for piles in range(ALL_PILES + 1))

# TOP_BITS[pile][top] (top EMPTY, -1, is the last entry): the bit of `top_colors` that pile
# sets with that top, 0 for a top without colour.
TOP_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        0 if top_color(top) == NO_COLOR else 1 << (CIRCLE * top_color(top) + pile)
        for top in (*range(CARD_KINDS), EMPTY)
    )
    for pile in PILES
)


def top_colors(state: CrabBucketState) -> int:
    """The colours of the tops, as the four colours' sets of piles side by side."""
    colors = 0
    for pile, top in enumerate(tops(state)):
        colors |= TOP_BITS[pile][top]
    return colors


class Link(NamedTuple):
    """A requirement as one test on the tops' colours: whether some pile of the `first` colour
    is in `table[piles of the second colour]`, which the requirement wants (`wanted`) or
    forbids. Colours are given as the shift of their set in `top_colors` (8 times the colour)."""

    first: int
    second: int
    table: tuple[int, ...]
    wanted: bool


def link_of(req: Requirement) -> Link:
    """B3. Gap: some top of the colour has another of the colour exactly n piles on
    (`partners`); Chain (Adjacent): some top of the one colour is next to one of the other
    (`neighbours`); X (NotAdjacent): none is."""
    if isinstance(req, Gap):
        shift = CIRCLE * req.color
        return Link(shift, shift, PARTNERS[req.between], True)
    return Link(CIRCLE * req.first, CIRCLE * req.second, NEIGHBOURS, isinstance(req, Adjacent))


def links_met(links: tuple[Link, ...], colors: int) -> bool:
    """Every link as it is wanted, on the tops' colours (`top_colors`)."""
    for first, second, table, wanted in links:
        found = colors >> first & table[colors >> second & ALL_PILES]
        if bool(found) != wanted:
            return False
    return True


def requirement_met(req: Requirement, colors: int) -> bool:
    return links_met((link_of(req),), colors)


def mission_met(mission: Mission, colors: int) -> bool:
    """A mission's requirements must all be met at the same time."""
    return links_met(requirement_links(mission.requirements), colors)


# A mission is checked after every change to the circle (B5): its requirements are read as
# links once and kept, by the requirements' identity (a game's missions are the same objects in
# every state cloned from it, where a cache by value hashed and compared them on every check).
# An entry keeps its requirements alive, so no other object takes their id while it is kept; at
# most MAX_READ are kept (all are forgotten when that many are).
MAX_READ: Final = 1024
READ_LINKS: Final[dict[int, tuple[tuple[Requirement, ...], tuple[Link, ...]]]] = {}


def requirement_links(requirements: tuple[Requirement, ...]) -> tuple[Link, ...]:
    known = READ_LINKS.get(id(requirements))
    if known is not None:
        return known[1]
    if len(READ_LINKS) >= MAX_READ:
        READ_LINKS.clear()
    links = tuple(map(link_of, requirements))
    READ_LINKS[id(requirements)] = (requirements, links)
    return links


# ----- completing missions (B5) -----


def check_mission(state: CrabBucketState, events: list[Event]) -> None:
    """B5: after every change to the circle, and when a new mission becomes current. A
    completed mission is set apart, its ability ready; Quick mode draws the next level (level 3
    wins), Wild Crab mode lets the player choose the pile."""
    if state.current == NO_MISSION or state.step == GAME_OVER:
        return
    mission = state.options.missions[state.current]
    if not mission_met(mission, top_colors(state)):
        return
    state.completed.append(state.current)
    state.spent.append(False)
    events.append(MissionCompleted(state.current, mission.level))
    state.current = NO_MISSION
    if state.options.wild:
        state.pending.append((CHOOSE_MISSION_PILE, 0))
    elif mission.level >= 3:
        game_over(state, LEVEL_3_COMPLETED, events)
    else:
        state.pending.append((DRAW_MISSION, mission.level + 1))


def draw_mission(
    state: CrabBucketState, mission: int, level: int, offered: bool, events: list[Event]
) -> None:
    """A mission drawn as the current one (B5) or into a "draw 2 choose 1" offer."""
    state.mission_piles[level - 1] = without(state.mission_piles[level - 1], mission)
    events.append(MissionDrawn(mission, level, offered, state.options.missions[mission].name))
    if offered:
        state.offered.append(mission)
    else:
        state.current = mission
        check_mission(state, events)


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
    name = missions[mission].name
    if player is None:
        events.append(MissionKept(mission, returned, name))
    else:
        names = tuple(missions[m].name for m in returned)
        events.append(MissionKept(mission, returned, name, player, names))
    check_mission(state, events)


def levels_to_draw_from(state: CrabBucketState) -> list[int]:
    """B5 (Wild Crab): the levels whose pile the next mission may be drawn from, those not
    empty."""
    return [level for level in LEVELS if state.mission_piles[level - 1]]


def choose_mission_pile(state: CrabBucketState, level: int, events: list[Event]) -> None:
    """B5 (Wild Crab): the pile the next mission (or, "draw 2 choose 1", an offered one) is
    drawn from."""
    kind, _ = state.pending.pop()
    offer = kind == OFFER_CHOOSE_PILE
    state.pending.append((OFFER_DRAW if offer else DRAW_MISSION, level))
    events.append(MissionPileChosen(state.turn_player, level, offer))


def talking_allowed(state: CrabBucketState) -> bool:
    """B9: Quick mode allows talking during the first mission only; Wild Crab never."""
    return not state.options.wild and not state.completed


# ----- How to Play: who decides (B6, G3) -----

# Decision names (G3), by step and by pending kind (two enums: their values overlap).
STEP_DECISIONS: Final = {DEAL: "deal", PLAY: "play", REFILL: "draw_card"}
PENDING_DECISIONS: Final = {
    DRAW_MISSION: "draw_mission",
    CHOOSE_MISSION_PILE: "choose_mission_pile",
    EXTRA_DRAW: "draw_card",
    OFFER_CHOOSE_PILE: "choose_offer_pile",
    OFFER_DRAW: "draw_offer",
    KEEP_MISSION: "keep_mission",
}
CHANCE_PENDING: Final = (DRAW_MISSION, EXTRA_DRAW, OFFER_DRAW)
CHANCE_STEPS: Final = (DEAL, REFILL)  # a card dealt, a card drawn to refill the hand


K = TypeVar("K", bound=int)  # a step or a pending kind


def deciders(names: Mapping[K, str], chance: tuple[K, ...]) -> dict[K, tuple[Decision, ...]]:
    """Each decision (G3) by what decides it (a step, or the pending decision on top of the
    stack), then by the turn player's seat; a chance decision is the same at every seat."""
    return {
        key: (Decision.chance(name),) * MAX_PLAYERS
        if key in chance
        else tuple(Decision.player_decides(seat, name) for seat in range(MAX_PLAYERS))
        for key, name in names.items()
    }


GAME_OVER_DECISION: Final = Decision.game_over()
STEP_DECIDERS: Final = deciders(STEP_DECISIONS, CHANCE_STEPS)
PENDING_DECIDERS: Final = deciders(PENDING_DECISIONS, CHANCE_PENDING)


def next_decision(state: CrabBucketState) -> Decision:
    """The open decision on top of the stack (a mission drawn, a pile chosen, ...), else the
    step's: the deal, the turn player's play, the refill (B6)."""
    if state.step == GAME_OVER:
        return GAME_OVER_DECISION
    if state.pending:
        return PENDING_DECIDERS[state.pending[-1][0]][state.turn_player]
    return STEP_DECIDERS[state.step][state.turn_player]


def decision_name(state: CrabBucketState) -> str:
    return next_decision(state).name


def is_chance(state: CrabBucketState) -> bool:
    if state.step == GAME_OVER:
        return False
    if state.pending:
        return state.pending[-1][0] in CHANCE_PENDING
    return state.step in CHANCE_STEPS


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
    """G5, B2: a card dealt or drawn into a hand is hidden from everyone but its holder."""
    receiver = card_receiver(state)
    if receiver is None:
        return []
    return [p for p in range(state.num_players) if p != receiver]


def chance_outcomes(state: CrabBucketState) -> list[tuple[int, int]]:
    """Card draws: (card id, copies in the draw pile) in card-id order. Mission draws: (mission
    index, 1) in index order (G2)."""
    if not is_chance(state):
        return []
    if state.pending and state.pending[-1][0] in LEVELED_PENDING:
        level = state.pending[-1][1]
        return [(m, 1) for m in state.mission_piles[level - 1]]
    # Each crab card is in the game once, so its count is 0 or 1 (CRAB_CARD_DRAWS); the Oxi!
    # cards are the last card id and may be there several times.
    draw_pile = state.draw_pile
    outcomes: list[tuple[int, int]] = [
        CRAB_CARD_DRAWS[card] for card in range(CRAB_CARDS) if draw_pile[card]
    ]
    if draw_pile[OXI]:
        outcomes.append((OXI, draw_pile[OXI]))
    return outcomes


class CardDraw(NamedTuple):
    """A chance outcome of a card draw: the card and its copies in the draw pile (G2)."""

    card: int
    copies: int


# Each crab card's draw, built once and shared by every list of outcomes (a NamedTuple: compiled,
# a plain (card, 1) pair read from a table is rebuilt as a new tuple at each use).
CRAB_CARD_DRAWS: Final = tuple(CardDraw(card, 1) for card in range(CRAB_CARDS))


def may_use_ability(state: CrabBucketState) -> bool:
    """B6: one ability per turn, used before the main action."""
    return not state.ability_used and not state.played


# ----- 1. Play a Crab Card, 2. Play an Oxi! Card -----


def can_place(card: int, top: int) -> bool:
    """1. Play a Crab Card: same colour only if higher, different colour only if lower or equal;
    anything on an Oxi! or an empty pile (B2)."""
    if top in (EMPTY, OXI):
        return True
    if color_of(card) == color_of(top):
        return number_of(card) > number_of(top)
    return number_of(card) <= number_of(top)


def may_play_on(card: int, top: int) -> bool:
    """The main action with a card of the hand on a pile with this top: a crab card as
    `can_place` says; an Oxi! card on any pile (2.: onto it, or cutting it, `oxi_cuts`)."""
    return card == OXI or can_place(card, top)


# The rule for every card on every top, as a table: PLACEABLE[card][top] (top EMPTY, -1, is the
# last entry).
PLACEABLE: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(may_play_on(card, top) for top in (*range(CARD_KINDS), EMPTY))
    for card in range(CARD_KINDS)
)
# The card plays, one per card and pile, shared by every list of legal moves: PLAY_CARD[card][pile].
PLAY_CARD: Final[tuple[tuple[PlayCard, ...], ...]] = tuple(
    tuple(PlayCard(card, pile) for pile in PILES) for card in range(CARD_KINDS)
)
NO_TOP: Final = (EMPTY,)  # an empty pile read as a stack whose last card is the EMPTY top


def has_main_action(state: CrabBucketState) -> bool:
    """Whether `main_moves` lists any card play: a card of the hand that may go on a top."""
    top = tops(state)
    return any(PLACEABLE[card][t] for card in state.hands[state.turn_player] for t in top)


def main_moves(state: CrabBucketState) -> list[Move]:
    return card_plays(state, state.hands[state.turn_player])


def card_plays(
    state: CrabBucketState, cards: tuple[int, ...], piles: tuple[int, ...] = PILES
) -> list[Move]:
    """The main action with each of `cards` (from the turn player's hand, sorted) on each of
    `piles`, pile by pile; a card held twice (Oxi!) plays once."""
    stacks = state.piles
    moves: list[Move] = []
    for i, card in enumerate(cards):
        if i and card == cards[i - 1]:  # sorted: a second copy follows the first
            continue
        fits, plays = PLACEABLE[card], PLAY_CARD[card]
        for pile in piles:
            if fits[(stacks[pile] or NO_TOP)[-1]]:
                moves.append(plays[pile])
    return moves


def play_card(state: CrabBucketState, card: int, pile: int, events: list[Event]) -> None:
    """The main action: a crab card onto a pile (1.), or an Oxi! card (2.)."""
    take_from_hand(state, card)
    count_play(state)
    if card == OXI:
        play_oxi(state, pile, events)
    else:
        play_from_hand(state, card, pile, False, events)
    check_mission(state, events)


def oxi_cuts(state: CrabBucketState) -> bool:
    """2. Play an Oxi! Card: in Wild Crab mode an Oxi! is discarded and cuts the pile chosen
    (`cut_pile`); in Quick mode it goes onto the pile. So in Wild Crab mode no Oxi! ever lies on
    a pile, and only there is one ever discarded."""
    return state.options.wild


def no_oxi_on_a_pile_in_wild_crab(state: CrabBucketState) -> Iterator[Problem]:
    """2. Play an Oxi! Card: in Wild Crab mode a played Oxi! is discarded (`oxi_cuts`)."""
    if oxi_cuts(state):
        for i, stack in enumerate(state.piles):
            if OXI in stack:
                yield (
                    f"piles[{i}]",
                    "holds an Oxi! card; in Wild Crab mode a played Oxi! card is discarded (2.)",
                )


def play_oxi(state: CrabBucketState, pile: int, events: list[Event]) -> None:
    """2. Play an Oxi! Card: discarded, cutting the pile (`oxi_cuts`), or onto the pile."""
    if oxi_cuts(state):
        state.oxi_discarded += 1
        cut_pile(state, pile, False, events)
    else:
        play_from_hand(state, OXI, pile, False, events)


def take_from_hand(state: CrabBucketState, card: int) -> None:
    state.hands[state.turn_player] = without(state.hands[state.turn_player], card)


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
    events.append(CARDS_PLAYED[state.turn_player][card][pile][freely])


def cut_pile(state: CrabBucketState, pile: int, rescued: bool, events: list[Event]) -> None:
    """An Oxi! that cuts (`oxi_cuts`): the pile keeps only its top card; the rest go back into
    the draw pile.
    `rescued`: the Oxi! came back from the discard ("Rescue an Oxi! card"), not from the hand."""
    stack = state.piles[pile]
    returned = stack[:-1]
    for card in returned:
        state.draw_pile[card] += 1
    state.piles[pile] = stack[-1:]
    # The returned cards are public (B2): every card on a pile was dealt or played face up.
    events.append(PileCut(state.turn_player, pile, len(returned), returned, rescued))


# ----- drawing back to 3 cards -----


def draw_total(state: CrabBucketState) -> int:
    return sum(state.draw_pile)


def can_draw(state: CrabBucketState) -> bool:
    """Whether the draw pile holds a card (asked before every draw: the first card kind found
    there settles it, where `draw_total` counts them all)."""
    return any(count > 0 for count in state.draw_pile)


def draw_card(state: CrabBucketState, card: int, extra: bool, events: list[Event]) -> None:
    """Drawing back to 3, or (`extra`) the card of "Draw 1 card and play 2"."""
    player = state.turn_player
    state.draw_pile[card] -= 1
    state.hands[player] = sorted_with(state.hands[player], card)
    events.append(CARDS_DRAWN[player][card][extra])


# ----- End of Game (B7) -----


def end_turn(state: CrabBucketState, events: list[Event], passed: bool) -> None:
    """The next player clockwise with cards in hand plays (B7); the game ends when every hand is
    empty (B7) or after a full round of passes (B7, G6)."""
    state.passes = state.passes + 1 if passed else 0
    state.ability_used = False
    state.plays_left = 1
    state.played = 0
    hands = state.hands
    holders = sum(1 for hand in hands if hand)  # the players with cards in hand
    ended = state.turn_player
    if not holders or state.passes >= holders:
        events.append(TurnEnded(ended, state.passes))
        game_over(state, STALLED if holders else CARDS_RAN_OUT, events)
        return
    player = ended
    while True:  # the next holder clockwise (there is one)
        player = (player + 1) % state.num_players
        if hands[player]:
            break
    state.turn_player = player
    state.step = PLAY
    events.append(TURNS_PASSED_ON[ended][state.passes][player])


def game_over(state: CrabBucketState, reason: EndReason, events: list[Event]) -> None:
    state.step = GAME_OVER
    state.end_reason = reason
    state.pending.clear()
    result = outcome(state)
    assert result is not None
    events.append(GameEnded(reason, result.points, result.won, result.title, state.options.wild))


# ----- Levels Table for Wild Crab Mode (B8) -----


def points(state: CrabBucketState) -> int:
    """B8: the sum of the levels of the completed missions."""
    return sum(state.options.missions[m].level for m in state.completed)


class Outcome(NamedTuple):
    num_players: int
    mode: Mode
    won: bool
    points: int
    title: str
    note: str
    completed: tuple[int, ...]
    end_reason: EndReason


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


def invariant_violations(state: CrabBucketState) -> list[str]:
    """Every law of the state's places (consistency.py) a state breaks: its places' sizes, each
    card and mission in one place."""
    laws = (
        places_hold(
            state.num_players,
            [len(stack) for stack in state.piles],
            [len(hand) for hand in state.hands],
            draw_pile=draw_total(state),
            removed=len(state.removed),
            oxi_set_aside=state.oxi_set_aside,
            oxi_discarded=state.oxi_discarded,
        ),
        cards_conserved(card_counts(state), state.num_players),
        missions_placed_once(state),
    )
    problems = [
        f"{where}: {problem}" if where else problem for law in laws for where, problem in law
    ]
    if any(n < 0 for n in state.draw_pile):
        problems.append("negative count in the draw pile")
    return problems
