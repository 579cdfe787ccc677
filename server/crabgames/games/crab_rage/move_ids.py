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

from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import (
    MOVE_CLASSES,
    Act,
    Alliance,
    AllianceChoice,
    BillboardCrab,
    Destination,
    HardcoreFans,
    Move,
    MutationCrab,
    RumbleOpponent,
    Signature,
    SignatureTarget,
    StyleBonus,
)

SEATS, CRABS, ARENAS = 5, 4, 4
TARGETS = SEATS * CRABS
# Smash ids give X exactly up to X_IDS; a larger X (rage has no limit: repeated Scatters between
# Attack of the Fans and Pressure Cooker build it without bound) shares its (crab, target)'s
# SMASH_ABOVE id.
X_IDS = 127
MAX_HARDCORE = 32

# Ids per crab for each action, and what picks an id within them.
ACT_SIZE = {
    Action.MOVE: ARENAS,
    Action.GO_CLAM: ARENAS,
    Action.SPLIT: SEATS,
    Action.SMASH: TARGETS * X_IDS,
    Action.RUSH: 1,
    Action.SCATTER: 1,
    Action.PSYCH_OUT: TARGETS,
    Action.SWAP: TARGETS,
    Action.CHARM: 1,
    Action.RAGE: 5,
}


def target_index(move: Act | SignatureTarget) -> int:
    return move.target[0] * CRABS + move.target[1]


def act_offset(move: Act) -> int:
    action = Action(move.action)
    if action in (Action.MOVE, Action.GO_CLAM):
        return move.arena
    if action == Action.SPLIT:
        return move.partner
    if action == Action.SMASH:
        return target_index(move) * X_IDS + move.amount - 1
    if action in (Action.PSYCH_OUT, Action.SWAP):
        return target_index(move)
    if action == Action.RAGE:
        return move.amount - 1
    return 0


def alliance_offset(move: Alliance) -> int:
    if move.alliance == AllianceChoice.INDEPENDENT:
        return 0
    return 1 + (move.alliance - 1) * SEATS + move.partner


def signature_target_offset(move: SignatureTarget) -> int:
    if move.target[0] < 0:
        return move.crab  # Shell Up
    return CRABS + target_index(move) * ARENAS + move.arena  # Frenzy (arena 0), Riptide


KIND_SIZE = {
    "pass": 1,
    "act": sum(ACT_SIZE.values()) * CRABS,
    "signature": ARENAS,
    "destination": ARENAS,
    "alliance": 1 + 2 * SEATS,
    "billboard_crab": CRABS,
    "style_bonus": ARENAS,
    "mutation_crab": CRABS,
    "rumble_opponent": SEATS,
    "signature_target": CRABS + TARGETS * ARENAS,
    "hardcore_fans": MAX_HARDCORE + 1,
    "duel_reroll": 1,
    "duel_keep": 1,
}
KIND_START = {}
_start = 0
for _class in MOVE_CLASSES:  # in CrabRageMoveKind's order
    _kind = _class._field_defaults["kind"]
    KIND_START[_kind] = _start
    _start += KIND_SIZE[_kind]
SMASH_ABOVE = _start  # Smash with X above X_IDS: one id per (crab, target)
MOVE_ID_COUNT = SMASH_ABOVE + CRABS * TARGETS
ACT_START = {}
_start = 0
for _action in Action:
    ACT_START[_action] = _start
    _start += ACT_SIZE[_action] * CRABS


# An id depends on the move alone: remembered, as every LegalMoves response lists one per move.
@functools.lru_cache(maxsize=1 << 16)
def move_id(move: Move) -> int:
    base = KIND_START[move.kind]
    if isinstance(move, Act):
        action = Action(move.action)
        if action == Action.SMASH and move.amount > X_IDS:
            return SMASH_ABOVE + move.crab * TARGETS + target_index(move)
        return base + ACT_START[action] + move.crab * ACT_SIZE[action] + act_offset(move)
    if isinstance(move, (Signature, Destination, StyleBonus)):
        return base + move.arena
    if isinstance(move, (BillboardCrab, MutationCrab)):
        return base + move.crab
    if isinstance(move, Alliance):
        return base + alliance_offset(move)
    if isinstance(move, RumbleOpponent):
        return base + move.partner
    if isinstance(move, SignatureTarget):
        return base + signature_target_offset(move)
    if isinstance(move, HardcoreFans):
        return base + move.amount
    return base  # Pass, DuelReroll, DuelKeep
