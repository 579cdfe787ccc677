"""The rulebook's next chapter: 3. Use a Mission's Ability (B6), then the nine Mission Abilities in
the rulebook's order, for each the uses a player may choose (its legal moves) and its effect, side
by side.

A completed mission's ability is ready until used (its card is then turned face down); a turn
may use one, before the main action (`rules.may_use_ability`). `turn.play_moves` lists the uses
from `ability_moves` and `turn.apply_move` applies one with `use_ability`. Each effect says what
it moved, from where to where, in its own event (after the `ability_used` event that turns the
card face down). The effects change the circle through the rules' own functions
(`play_from_hand`, `cut_pile`, `check_mission`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Final

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import (
    CIRCLE,
    DISCARD_ALL_TOPS,
    DISCARD_PILE,
    DRAW_ONE_PLAY_TWO,
    NEW_MISSION,
    OXI,
    PLAY_FREELY,
    RESCUE_OXI,
    RESCUE_TOPS,
    SWAP_HAND_TOP,
    SWAP_TOPS,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    Event,
    HandTopSwapped,
    MissionDiscarded,
    OxiRescued,
    PileDiscarded,
    TopsDiscarded,
    TopsRescued,
    TopsSwapped,
)
from crabgames.games.crab_bucket.moves import Move, UseAbility
from crabgames.games.crab_bucket.state import (
    EXTRA_DRAW,
    KEEP_MISSION,
    NO_MISSION,
    OFFER_CHOOSE_PILE,
    OFFER_DRAW,
    CrabBucketState,
)

# ----- which abilities are ready, and their uses -----


def ready_missions(state: CrabBucketState) -> list[int]:
    """Completed missions whose ability is not used yet (card still face up)."""
    return [m for m, spent in zip(state.completed, state.spent, strict=True) if not spent]


def offering_missions(state: CrabBucketState) -> dict[int, int]:
    """Each ready ability and the mission whose uses are listed for it: two ready cards with one
    ability offer the same uses, so only the first one's are."""
    offering: dict[int, int] = {}
    for mission in ready_missions(state):
        offering.setdefault(state.options.missions[mission].ability, mission)
    return offering


def ability_moves(state: CrabBucketState) -> list[Move]:
    moves: list[Move] = []
    for ability, mission in offering_missions(state).items():
        moves.extend(USES[ability](state, mission))
    return moves


def use_ability(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    index = state.completed.index(move.mission)
    state.spent[index] = True  # turned face down (B6)
    state.ability_used = True
    ability = state.options.missions[move.mission].ability
    events.append(AbilityUsed(state.turn_player, move.mission, ability, move.piles))
    EFFECTS[ability](state, move, events)


def _full_piles(state: CrabBucketState) -> list[int]:
    return [i for i, pile in enumerate(state.piles) if pile]


def _crab_cards_in_hand(state: CrabBucketState) -> list[int]:
    return sorted({c for c in state.hands[state.turn_player] if c != OXI})


# ----- level 1 abilities -----


def _uses_rescue_tops(state: CrabBucketState, mission: int) -> list[Move]:
    """Rescue up to 3 cards from the top: 1 to 3 non-empty piles (rules notes)."""
    full = _full_piles(state)
    return [UseAbility(mission, combo) for size in (1, 2, 3) for combo in combinations(full, size)]


def _rescue_tops(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    tops = []
    for pile in move.piles:
        stack = state.piles[pile]
        state.draw_pile[stack[-1]] += 1
        state.piles[pile] = stack[:-1]
        tops.append((pile, stack[-1]))
    events.append(TopsRescued(state.turn_player, tuple(tops)))
    rules.check_mission(state, events)


def _uses_swap_tops(state: CrabBucketState, mission: int) -> list[Move]:
    return [UseAbility(mission, pair) for pair in combinations(_full_piles(state), 2)]


def _swap_tops(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    p, q = move.piles
    a, b = state.piles[p], state.piles[q]
    state.piles[p], state.piles[q] = a[:-1] + b[-1:], b[:-1] + a[-1:]
    first, second = (p, a[-1]), (q, b[-1])
    events.append(TopsSwapped(state.turn_player, first, second))
    rules.check_mission(state, events)


def _uses_rescue_oxi(state: CrabBucketState, mission: int) -> list[Move]:
    """An Oxi! that cuts (`rules.oxi_cuts`, Wild Crab): one discarded by play, to cut any pile.
    Otherwise (Quick): an Oxi! from any pile that holds one (not only its top), onto any pile
    (rules notes)."""
    if rules.oxi_cuts(state):
        if not state.oxi_discarded:
            return []
        return [UseAbility(mission, (pile,)) for pile in range(CIRCLE)]
    sources = [i for i, pile in enumerate(state.piles) if OXI in pile]
    return [
        UseAbility(mission, (pile,), -1, source) for source in sources for pile in range(CIRCLE)
    ]


def _rescue_oxi(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    (pile,) = move.piles
    player = state.turn_player
    if rules.oxi_cuts(state):
        # Out of the discard and used at once: discarded again, cutting `pile`.
        events.append(OxiRescued(player, pile))
        rules.cut_pile(state, pile, True, events)
    else:
        source = state.piles[move.source]
        uppermost = len(source) - 1 - source[::-1].index(OXI)  # the uppermost Oxi! there
        state.piles[move.source] = source[:uppermost] + source[uppermost + 1 :]
        state.piles[pile] += (OXI,)  # not a play from the hand: its own event
        events.append(OxiRescued(player, pile, move.source, uppermost))
    rules.check_mission(state, events)


# ----- level 2 abilities -----


def _uses_play_freely(state: CrabBucketState, mission: int) -> list[Move]:
    return [
        UseAbility(mission, (pile,), card)
        for card in _crab_cards_in_hand(state)
        for pile in range(CIRCLE)
    ]


def _play_freely(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    # B6: this is the turn's main action, without the placement rule.
    rules.take_from_hand(state, move.card)
    rules.count_play(state)
    rules.play_from_hand(state, move.card, move.piles[0], True, events)
    rules.check_mission(state, events)


def _uses_swap_hand_top(state: CrabBucketState, mission: int) -> list[Move]:
    hand = state.hands[state.turn_player]
    # An Oxi! that cuts never goes onto a pile (it is only ever discarded).
    cards = _crab_cards_in_hand(state) if rules.oxi_cuts(state) else sorted(set(hand))
    return [UseAbility(mission, (pile,), card) for pile in _full_piles(state) for card in cards]


def _swap_hand_top(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    (pile,) = move.piles
    stack = state.piles[pile]
    player = state.turn_player
    hand = rules.without(state.hands[player], move.card)
    state.hands[player] = rules.sorted_with(hand, stack[-1])
    state.piles[pile] = (*stack[:-1], move.card)
    events.append(HandTopSwapped(player, pile, move.card, stack[-1]))
    rules.check_mission(state, events)


def _uses_draw_one_play_two(state: CrabBucketState, mission: int) -> list[Move]:
    """Only while there is a card to draw and draws are not over (B7, rules notes)."""
    if state.draws_over or not rules.can_draw(state):
        return []
    return [UseAbility(mission)]


DRAW_ONE_PLAYS: Final = 2  # "Draw 1 card and play 2": the main-action plays the turn then owes


def _draw_one_play_two(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    state.plays_left = DRAW_ONE_PLAYS
    state.pending.append((EXTRA_DRAW, 0))


# ----- level 3 abilities -----


def _uses_discard_pile(state: CrabBucketState, mission: int) -> list[Move]:
    return [UseAbility(mission, (pile,)) for pile in _full_piles(state)]


def _discard_pile(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    (pile,) = move.piles
    cards = state.piles[pile]
    state.removed.extend(cards)  # level 3: removed from the game
    state.removed.sort()
    state.piles[pile] = ()
    events.append(PileDiscarded(state.turn_player, pile, cards))
    rules.check_mission(state, events)


def _uses_discard_all_tops(state: CrabBucketState, mission: int) -> list[Move]:
    return [UseAbility(mission)] if _full_piles(state) else []


def _discard_all_tops(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    tops = []
    for pile, stack in enumerate(state.piles):
        if stack:
            state.removed.append(stack[-1])
            state.piles[pile] = stack[:-1]
            tops.append((pile, stack[-1]))
    state.removed.sort()
    events.append(TopsDiscarded(state.turn_player, tuple(tops)))
    rules.check_mission(state, events)


def _uses_new_mission(state: CrabBucketState, mission: int) -> list[Move]:
    if state.current == NO_MISSION:
        return []
    return [UseAbility(mission)] if offer_levels(state) else []


def offer_levels(state: CrabBucketState) -> list[int]:
    """The piles "draw 2 choose 1" may draw from: any in Wild Crab mode; in Quick mode only the
    current mission's level, so the levels still come in order (rules notes)."""
    if state.options.wild:
        return rules.levels_to_draw_from(state)
    level = state.options.missions[state.current].level
    return [level] if state.mission_piles[level - 1] else []


def _new_mission(state: CrabBucketState, move: UseAbility, events: list[Event]) -> None:
    """Discard the Mission, draw 2 choose 1: two draws (Wild Crab: each from a chosen pile),
    then keep one; the other goes back to its pile (rules notes)."""
    discarded = state.options.missions[state.current]
    events.append(
        MissionDiscarded(state.turn_player, state.current, discarded.level, discarded.name)
    )
    state.discarded_missions.append(state.current)
    state.current = NO_MISSION
    state.pending.append((KEEP_MISSION, 0))
    if state.options.wild:
        state.pending += [(OFFER_CHOOSE_PILE, 0), (OFFER_CHOOSE_PILE, 0)]
    else:
        state.pending += [(OFFER_DRAW, discarded.level), (OFFER_DRAW, discarded.level)]


USES: Final[dict[int, Callable[[CrabBucketState, int], list[Move]]]] = {
    RESCUE_TOPS: _uses_rescue_tops,
    SWAP_TOPS: _uses_swap_tops,
    RESCUE_OXI: _uses_rescue_oxi,
    PLAY_FREELY: _uses_play_freely,
    SWAP_HAND_TOP: _uses_swap_hand_top,
    DRAW_ONE_PLAY_TWO: _uses_draw_one_play_two,
    DISCARD_PILE: _uses_discard_pile,
    DISCARD_ALL_TOPS: _uses_discard_all_tops,
    NEW_MISSION: _uses_new_mission,
}

EFFECTS: Final[dict[int, Callable[[CrabBucketState, UseAbility, list[Event]], None]]] = {
    RESCUE_TOPS: _rescue_tops,
    SWAP_TOPS: _swap_tops,
    RESCUE_OXI: _rescue_oxi,
    PLAY_FREELY: _play_freely,
    SWAP_HAND_TOP: _swap_hand_top,
    DRAW_ONE_PLAY_TWO: _draw_one_play_two,
    DISCARD_PILE: _discard_pile,
    DISCARD_ALL_TOPS: _discard_all_tops,
    NEW_MISSION: _new_mission,
}
