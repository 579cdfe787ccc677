"""Stable integer ids for every move a player could make (for learning agents).

The id space is a fixed sequence of blocks, one per kind of move, in this order:
play card (card id x 8 piles), pass, then one block per ability (listed below), choose a
mission pile (levels 1..3), keep the first or second offered mission. A pile set is a bit mask.
An ability's id depends on the ability, not on which mission card carries it (the legal moves
list each ability once, from the first ready card that has it).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Final

from crabgames.games.crab_bucket import data
from crabgames.games.crab_bucket.data import CARD_KINDS, CIRCLE, LEVELS
from crabgames.games.crab_bucket.moves import ChooseMissionPile, KeepMission, Move, Pass, PlayCard
from crabgames.games.crab_bucket.moves import UseAbility as Use
from crabgames.games.crab_bucket.state import CrabBucketState


def _mask(move: Use) -> int:
    return sum(1 << p for p in move.piles)


def _card_pile(move: Use) -> int:
    return move.card * CIRCLE + move.piles[0]


# Each ability's block: its size and a use's id within it.
ABILITY_BLOCKS: Final[dict[int, tuple[int, Callable[[Use], int]]]] = {
    data.RESCUE_TOPS: (1 << CIRCLE, _mask),
    data.SWAP_TOPS: (1 << CIRCLE, _mask),
    data.RESCUE_OXI: ((CIRCLE + 1) * CIRCLE, lambda m: (m.source + 1) * CIRCLE + m.piles[0]),
    data.PLAY_FREELY: (CARD_KINDS * CIRCLE, _card_pile),
    data.SWAP_HAND_TOP: (CARD_KINDS * CIRCLE, _card_pile),
    data.DRAW_ONE_PLAY_TWO: (1, lambda m: 0),
    data.DISCARD_PILE: (CIRCLE, lambda m: m.piles[0]),
    data.DISCARD_ALL_TOPS: (1, lambda m: 0),
    data.NEW_MISSION: (1, lambda m: 0),
}

PASS_ID: Final = CARD_KINDS * CIRCLE  # after every card on every pile
# Each block's first id: the abilities', then choosing a mission pile's, then keeping's.
*_firsts, CHOOSE_PILE_OFFSET = accumulate(
    (size for size, _ in ABILITY_BLOCKS.values()), initial=PASS_ID + 1
)
ABILITY_OFFSETS: Final = dict(zip(ABILITY_BLOCKS, _firsts, strict=True))
KEEP_OFFSET: Final = CHOOSE_PILE_OFFSET + len(LEVELS)
MOVE_ID_COUNT: Final = KEEP_OFFSET + 2  # the first or the second mission offered


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
