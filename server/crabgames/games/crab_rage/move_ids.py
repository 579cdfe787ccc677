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
from crabgames.games.crab_rage.moves import MOVE_KINDS, AllianceChoice, Move, MoveKind

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


def target_index(move: Move) -> int:
    return move.target[0] * CRABS + move.target[1]


def act_offset(move: Move) -> int:
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


def alliance_offset(move: Move) -> int:
    if move.alliance == AllianceChoice.INDEPENDENT:
        return 0
    return 1 + (move.alliance - 1) * SEATS + move.partner


def signature_target_offset(move: Move) -> int:
    if move.target[0] < 0:
        return move.crab  # Shell Up
    return CRABS + target_index(move) * ARENAS + move.arena  # Frenzy (arena 0), Riptide


KIND_SIZE = {
    MoveKind.PASS: 1,
    MoveKind.ACT: sum(ACT_SIZE.values()) * CRABS,
    MoveKind.SIGNATURE: ARENAS,
    MoveKind.DESTINATION: ARENAS,
    MoveKind.ALLIANCE: 1 + 2 * SEATS,
    MoveKind.BILLBOARD_CRAB: CRABS,
    MoveKind.STYLE_BONUS: ARENAS,
    MoveKind.MUTATION_CRAB: CRABS,
    MoveKind.RUMBLE_OPPONENT: SEATS,
    MoveKind.SIGNATURE_TARGET: CRABS + TARGETS * ARENAS,
    MoveKind.HARDCORE_FANS: MAX_HARDCORE + 1,
    MoveKind.DUEL_REROLL: 1,
    MoveKind.DUEL_KEEP: 1,
}
KIND_START = {}
_start = 0
for _kind in MOVE_KINDS:
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
    kind = move.kind
    base = KIND_START[kind]
    if kind == MoveKind.ACT:
        action = Action(move.action)
        if action == Action.SMASH and move.amount > X_IDS:
            return SMASH_ABOVE + move.crab * TARGETS + target_index(move)
        return base + ACT_START[action] + move.crab * ACT_SIZE[action] + act_offset(move)
    if kind in (MoveKind.SIGNATURE, MoveKind.DESTINATION, MoveKind.STYLE_BONUS):
        return base + move.arena
    if kind in (MoveKind.BILLBOARD_CRAB, MoveKind.MUTATION_CRAB):
        return base + move.crab
    if kind == MoveKind.ALLIANCE:
        return base + alliance_offset(move)
    if kind == MoveKind.RUMBLE_OPPONENT:
        return base + move.partner
    if kind == MoveKind.SIGNATURE_TARGET:
        return base + signature_target_offset(move)
    if kind == MoveKind.HARDCORE_FANS:
        return base + move.amount
    return base
