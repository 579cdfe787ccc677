"""The moves of CRAB RAGE!: one decision each (G3).

A move is one `typing.NamedTuple`, its kind first: moves of two kinds never compare equal, and
the fields a kind does not use keep their defaults (the proto's zero values; `codec.decode_move`
reads only the fields the kind uses), so equal moves compare equal.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.state import NO_CRAB, CrabRef


class MoveKind:
    """CrabRageMoveKind.

    Plain int constants, not an IntEnum: they are read on every move, and Python 3.11 reads
    an enum member through its metaclass's attribute hook."""

    PASS = 1
    ACT = 2
    SIGNATURE = 3
    DESTINATION = 4
    ALLIANCE = 5
    BILLBOARD_CRAB = 6
    STYLE_BONUS = 7
    MUTATION_CRAB = 8
    RUMBLE_OPPONENT = 9
    SIGNATURE_TARGET = 10
    HARDCORE_FANS = 11
    DUEL_REROLL = 12
    DUEL_KEEP = 13


MOVE_KIND_NAMES = {v: k for k, v in vars(MoveKind).items() if k.isupper()}
MOVE_KINDS = sorted(MOVE_KIND_NAMES)


class AllianceChoice(IntEnum):
    """R10: what a manager entering an arena with other teams' crabs does."""

    FORM = 1
    BOOST = 2
    INDEPENDENT = 3


class Move(NamedTuple):
    """One decision (G3): `kind`, then the fields that kind uses (`KIND_FIELDS`, `ACT_FIELDS`);
    the others keep their defaults."""

    kind: int  # a MoveKind
    action: int = 0
    crab: int = 0
    arena: int = 0
    target: CrabRef = NO_CRAB
    amount: int = 0
    partner: int = 0
    alliance: int = 0


# Which Move fields each kind (and each action) uses; `codec.decode_move` reads only those and
# leaves the rest at their defaults, so equal moves compare equal.
ACT_FIELDS = {
    Action.MOVE: ("arena",),
    Action.GO_CLAM: ("arena",),
    Action.SPLIT: ("partner",),  # the alliance, named by its lowest seat
    Action.SMASH: ("target", "amount"),  # amount: X
    Action.PSYCH_OUT: ("target",),
    Action.SWAP: ("target",),
    Action.RAGE: ("amount",),  # amount: X
}
KIND_FIELDS: dict[int, tuple[str, ...]] = {
    MoveKind.PASS: (),
    MoveKind.SIGNATURE: ("arena",),
    MoveKind.DESTINATION: ("arena",),
    MoveKind.ALLIANCE: ("alliance", "partner"),
    MoveKind.BILLBOARD_CRAB: ("crab",),
    MoveKind.STYLE_BONUS: ("arena",),
    MoveKind.MUTATION_CRAB: ("crab",),
    MoveKind.RUMBLE_OPPONENT: ("partner",),
    MoveKind.SIGNATURE_TARGET: ("crab", "arena", "target"),
    MoveKind.HARDCORE_FANS: ("amount",),
    MoveKind.DUEL_REROLL: (),
    MoveKind.DUEL_KEEP: (),
}

Uses = tuple[bool, bool, bool, bool, bool, bool, bool]


def uses(*names: str) -> Uses:
    """For each Move field after `kind`, in order, whether a move uses it."""
    action, crab, arena, target, amount, partner, alliance = (
        name in names for name in Move._fields[1:]
    )
    return action, crab, arena, target, amount, partner, alliance


ACT_USES = {int(action): uses("action", "crab", *names) for action, names in ACT_FIELDS.items()}
ACT_PLAIN_USES = uses("action", "crab")  # Rush, Scatter, Charm (and unknown actions)
INDEPENDENT_USES = uses("alliance")  # R10: an independent names no partner
KIND_USES = {kind: uses(*names) for kind, names in KIND_FIELDS.items()}
# A signature move's follow-up: Shell Up names an own crab; Frenzy and Riptide a rival crab and
# an arena (Riptide's destination; 0 and unused for Frenzy).
SHELL_UP_USES = uses("crab")
TARGET_USES = uses("arena", "target")

PASS = Move(MoveKind.PASS)
