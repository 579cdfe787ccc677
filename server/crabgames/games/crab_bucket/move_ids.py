"""Stable integer ids for every move a player could make (for learning agents).

The id space is a fixed sequence of blocks, one per kind of move, in this order:
play card (card id x 8 piles), pass, then one block per ability (listed below), choose a
mission pile (levels 1..3), keep the first or second offered mission. A pile set is a bit mask.
An ability's id depends on the ability, not on which mission card carries it (the legal moves
list each ability once, from the first ready card that has it).
"""

from __future__ import annotations

from collections.abc import Callable

from crabgames.games.crab_bucket.data import (
    CARD_KINDS,
    CIRCLE,
    DISCARD_ALL_TOPS,
    DISCARD_PILE,
    DRAW_ONE_PLAY_TWO,
    NEW_MISSION,
    PLAY_FREELY,
    RESCUE_OXI,
    RESCUE_TOPS,
    SWAP_HAND_TOP,
    SWAP_TOPS,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Move,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import CrabBucketState

MASKS = 1 << CIRCLE


def _mask(piles: tuple[int, ...]) -> int:
    return sum(1 << p for p in piles)


def _card_pile(move: UseAbility) -> int:
    return move.card * CIRCLE + move.piles[0]


# ability -> (block size, id within the block)
ABILITY_BLOCKS: dict[int, tuple[int, Callable[[UseAbility], int]]] = {
    RESCUE_TOPS: (MASKS, lambda m: _mask(m.piles)),
    SWAP_TOPS: (MASKS, lambda m: _mask(m.piles)),
    RESCUE_OXI: ((CIRCLE + 1) * CIRCLE, lambda m: (m.source + 1) * CIRCLE + m.piles[0]),
    PLAY_FREELY: (CARD_KINDS * CIRCLE, _card_pile),
    SWAP_HAND_TOP: (CARD_KINDS * CIRCLE, _card_pile),
    DRAW_ONE_PLAY_TWO: (1, lambda m: 0),
    DISCARD_PILE: (CIRCLE, lambda m: m.piles[0]),
    DISCARD_ALL_TOPS: (1, lambda m: 0),
    NEW_MISSION: (1, lambda m: 0),
}

PLAY_IDS = CARD_KINDS * CIRCLE
PASS_ID = PLAY_IDS
ABILITY_OFFSETS: dict[int, int] = {}
_next = PASS_ID + 1
for _ability, (_size, _) in ABILITY_BLOCKS.items():
    ABILITY_OFFSETS[_ability] = _next
    _next += _size
CHOOSE_PILE_OFFSET = _next
KEEP_OFFSET = CHOOSE_PILE_OFFSET + 3
MOVE_ID_COUNT = KEEP_OFFSET + 2


def move_id(state: CrabBucketState, move: Move) -> int:
    if isinstance(move, PlayCard):
        return move.card * CIRCLE + move.pile
    if isinstance(move, Pass):
        return PASS_ID
    if isinstance(move, ChooseMissionPile):
        return CHOOSE_PILE_OFFSET + move.level - 1
    if isinstance(move, KeepMission):
        return KEEP_OFFSET + state.offered.index(move.mission)
    ability = state.options.missions[move.mission].ability
    return ABILITY_OFFSETS[ability] + ABILITY_BLOCKS[ability][1](move)
