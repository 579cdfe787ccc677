"""Build Crab Bucket positions by hand for rulebook examples and ability tests."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import (
    COLOR_NAMES,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    OXI,
    Mission,
    card_id,
    color_of,
    number_of,
)
from crabgames.games.crab_bucket.state import PLAY, QUICK, WILD_CRAB, CrabBucketState, Options
from crabgames.v1 import crab_bucket_pb2 as pb

__all__ = ["QUICK", "WILD_CRAB", "card", "card_message", "cards", "position", "mission_index"]


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
    free = [1] * CRAB_CARDS + [num_players]
    state.oxi_set_aside = 0

    def take(name: str) -> int:
        c = card(name)
        assert free[c] > 0, f"{name} used twice"
        free[c] -= 1
        return c

    stacks = [p if isinstance(p, list) else ([p] if p else []) for p in piles]
    assert len(stacks) == 8
    state.piles = [tuple(take(n) for n in stack) for stack in stacks]
    hands = hands or {}
    for seat in range(num_players):
        if seat in hands:
            state.hands[seat] = tuple(sorted(take(n) for n in hands[seat]))
    for seat in range(num_players):
        if seat not in hands:
            picked = [c for c in range(CRAB_CARDS) if free[c]][:3]
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
