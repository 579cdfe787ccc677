"""Stable integer ids for every move a player could ever make (for learning agents and bots).

The id space is laid out kind by kind in a fixed order (see docs/games/crab_rage.md); sizes use
the largest table (5 seats, 4 crabs, 4 arenas) so the space does not depend on the player count.

Smash has no limit on X (the rulebook; R3, R8), but an id space has a fixed size: each crab has
an id for every (target, X) with X up to X_IDS, and one id per (crab, target) after every other
kind, SMASH_ABOVE, shared by every X above X_IDS (the move's `amount` then says which X). So the
ids of all other moves, and of every Smash a real game plays, are those of the first layout.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import accumulate
from operator import attrgetter
from typing import Any

from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import MOVE_CLASSES, Act, AllianceChoice, Move

SEATS, CRABS, ARENAS = 5, 4, 4
TARGETS = SEATS * CRABS
# Smash ids give X exactly up to X_IDS; a larger X (rage has no limit: repeated Scatters between
# Attack of the Fans and Pressure Cooker build it without bound) shares its (crab, target)'s
# SMASH_ABOVE id.
X_IDS = 127
MAX_HARDCORE = 32

Ids = tuple[int, Callable[[Any], int]]  # how many ids, and a move's place among them


def none(move: Any) -> int:
    return 0


def target_index(move: Any) -> int:
    return int(move.target[0] * CRABS + move.target[1])


# Ids per crab for each action, in Action's order.
ACT_IDS: dict[Action, Ids] = {
    Action.MOVE: (ARENAS, attrgetter("arena")),
    Action.GO_CLAM: (ARENAS, attrgetter("arena")),
    Action.SPLIT: (SEATS, attrgetter("partner")),
    Action.SMASH: (TARGETS * X_IDS, lambda move: target_index(move) * X_IDS + move.amount - 1),
    Action.RUSH: (1, none),
    Action.SCATTER: (1, none),
    Action.PSYCH_OUT: (TARGETS, target_index),
    Action.SWAP: (TARGETS, target_index),
    Action.CHARM: (1, none),
    Action.RAGE: (5, lambda move: move.amount - 1),
}
*act_starts, _ = accumulate((n * CRABS for n, _ in ACT_IDS.values()), initial=0)
ACT_START = dict(zip(ACT_IDS, act_starts, strict=True))


def act_offset(move: Act) -> int:
    action = Action(move.action)
    size, offset = ACT_IDS[action]
    return ACT_START[action] + move.crab * size + offset(move)


def alliance_offset(move: Any) -> int:
    if move.alliance == AllianceChoice.INDEPENDENT:
        return 0
    return int(1 + (move.alliance - 1) * SEATS + move.partner)


def signature_target_offset(move: Any) -> int:
    if move.target[0] < 0:
        return int(move.crab)  # Shell Up
    return int(CRABS + target_index(move) * ARENAS + move.arena)  # Frenzy (arena 0), Riptide


# Ids for each kind of move.
KIND_IDS: dict[str, Ids] = {
    "pass": (1, none),
    "act": (sum(n for n, _ in ACT_IDS.values()) * CRABS, act_offset),
    "signature": (ARENAS, attrgetter("arena")),
    "destination": (ARENAS, attrgetter("arena")),
    "alliance": (1 + 2 * SEATS, alliance_offset),
    "billboard_crab": (CRABS, attrgetter("crab")),
    "style_bonus": (ARENAS, attrgetter("arena")),
    "mutation_crab": (CRABS, attrgetter("crab")),
    "rumble_opponent": (SEATS, attrgetter("partner")),
    "signature_target": (CRABS + TARGETS * ARENAS, signature_target_offset),
    "hardcore_fans": (MAX_HARDCORE + 1, attrgetter("amount")),
    "duel_reroll": (1, none),
    "duel_keep": (1, none),
}
KINDS = [cls._field_defaults["kind"] for cls in MOVE_CLASSES]  # in CrabRageMoveKind's order
*starts, SMASH_ABOVE = accumulate((KIND_IDS[kind][0] for kind in KINDS), initial=0)
KIND_START: dict[str, int] = dict(zip(KINDS, starts, strict=True))
MOVE_ID_COUNT = SMASH_ABOVE + CRABS * TARGETS  # Smash with X above X_IDS: one per (crab, target)


# An id depends on the move alone: remembered, as every LegalMoves response lists one per move.
@functools.lru_cache(maxsize=1 << 16)
def move_id(move: Move) -> int:
    if isinstance(move, Act) and move.action == Action.SMASH and move.amount > X_IDS:
        return SMASH_ABOVE + move.crab * TARGETS + target_index(move)
    return KIND_START[move.kind] + KIND_IDS[move.kind][1](move)
