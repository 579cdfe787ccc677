"""The moves of CRAB RAGE!: one decision each (G3), one class per CrabRageMoveKind.

A move holds the CrabRageMove fields its kind uses, then its `kind`, the kind's name in
CrabRageMoveKind (lower case), left at its default: moves of two kinds never compare equal. An
`Act` holds every field an action may use; the ones its action does not use (`ACT_FIELDS`) keep
their defaults, the proto's zero values (`codec.decode_move` reads only the fields the move
uses), so equal moves compare equal.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, Literal, NamedTuple, get_args

from crabgames.games.crab_rage.data import (
    ARENA_COUNTS,
    CRAB_INDICES,
    FANS_PER_PLAYER,
    SEATS,
    Action,
)
from crabgames.games.crab_rage.state import NO_CRAB, CrabRef
from crabgames.v1 import crab_rage_pb2 as pb


class AllianceChoice(IntEnum):
    """R10: what a manager entering an arena with other teams' crabs does
    (CrabRageAllianceChoice's values)."""

    FORM = pb.CRAB_RAGE_ALLIANCE_CHOICE_FORM
    BOOST = pb.CRAB_RAGE_ALLIANCE_CHOICE_BOOST
    INDEPENDENT = pb.CRAB_RAGE_ALLIANCE_CHOICE_INDEPENDENT


class Pass(NamedTuple):
    """Action Phase: pass for the rest of the round (R7)."""

    kind: Literal["pass"] = "pass"


class Act(NamedTuple):
    """Action Phase: perform `action` with own crab `crab` (R7, R8); `arena`: Move's and Go Clam's
    destination, `target`: the rival crab of Smash, Psych Out and Swap, `amount`: X of Smash and
    Rage, `partner`: a seat of the alliance a Split splits (its lowest)."""

    action: int  # an Action
    crab: int
    arena: int = 0
    target: CrabRef = NO_CRAB
    amount: int = 0
    partner: int = 0
    kind: Literal["act"] = "act"


class Signature(NamedTuple):
    """Action Phase: perform the signature move in `arena` (R13)."""

    arena: int
    kind: Literal["signature"] = "signature"


class Destination(NamedTuple):
    """Rush, Scatter: the next leaving crab goes to `arena` (R9)."""

    arena: int
    kind: Literal["destination"] = "destination"


class Alliance(NamedTuple):
    """Movement rules (R10): form or boost an alliance with `partner`, or go independent (no
    partner)."""

    alliance: int  # an AllianceChoice
    partner: int = 0
    kind: Literal["alliance"] = "alliance"


class BillboardCrab(NamedTuple):
    """Mega Muscle, Barnacle Brawl: own entering crab `crab` takes the +1 or -1 (R11)."""

    crab: int
    kind: Literal["billboard_crab"] = "billboard_crab"


class StyleBonus(NamedTuple):
    """The style bonus fan goes to `arena` (R12)."""

    arena: int
    kind: Literal["style_bonus"] = "style_bonus"


class MutationCrab(NamedTuple):
    """Mutation: own crab `crab` is rolled (R4)."""

    crab: int
    kind: Literal["mutation_crab"] = "mutation_crab"


class RumbleOpponent(NamedTuple):
    """Rumble tie: roll against the unit of seat `partner`, its lowest seat (R15)."""

    partner: int
    kind: Literal["rumble_opponent"] = "rumble_opponent"


class SignatureTarget(NamedTuple):
    """A signature move's follow-up (R13): Frenzy hits `target`; Shell Up boosts own `crab`;
    Riptide sends `target` to `arena`."""

    crab: int = 0
    arena: int = 0
    target: CrabRef = NO_CRAB
    kind: Literal["signature_target"] = "signature_target"


class HardcoreFans(NamedTuple):
    """Hardcore Fans: secretly commit `amount` to the current arena (R17)."""

    amount: int
    kind: Literal["hardcore_fans"] = "hardcore_fans"


class DuelReroll(NamedTuple):
    """Spotlight duel: unleash 1 rage to re-roll the current crab (R19)."""

    kind: Literal["duel_reroll"] = "duel_reroll"


class DuelKeep(NamedTuple):
    """Spotlight duel: keep the current crab's roll (R19)."""

    kind: Literal["duel_keep"] = "duel_keep"


# Every kind, in CrabRageMoveKind's order.
Move = (
    Pass
    | Act
    | Signature
    | Destination
    | Alliance
    | BillboardCrab
    | StyleBonus
    | MutationCrab
    | RumbleOpponent
    | SignatureTarget
    | HardcoreFans
    | DuelReroll
    | DuelKeep
)
MOVE_CLASSES: tuple[type[Move], ...] = get_args(Move)

# Which Act fields each action uses besides `action` and `crab` (Rush, Scatter and Charm: none).
ACT_FIELDS: dict[int, tuple[str, ...]] = {
    Action.MOVE: ("arena",),
    Action.GO_CLAM: ("arena",),
    Action.SPLIT: ("partner",),  # the alliance, named by its lowest seat
    Action.SMASH: ("target", "amount"),  # amount: X
    Action.PSYCH_OUT: ("target",),
    Action.SWAP: ("target",),
    Action.RAGE: ("amount",),  # amount: X
}

PASS: Final = Pass()
DUEL_KEEP: Final = DuelKeep()
DUEL_REROLL: Final = DuelReroll()

# The moves that name one small number, built once and shared, by that number (as actions.py's
# tables of actions): a playout lists a decision's moves on every move, and building a NamedTuple
# is a call the compiled build runs interpreted.
MUTATION_CRAB: Final = tuple(MutationCrab(crab=i) for i in CRAB_INDICES)
BILLBOARD_CRAB: Final = tuple(BillboardCrab(crab=i) for i in CRAB_INDICES)
DESTINATION: Final = tuple(Destination(arena=a) for a in range(max(ARENA_COUNTS)))
STYLE_BONUS: Final = tuple(StyleBonus(arena=a) for a in range(max(ARENA_COUNTS)))
RUMBLE_OPPONENT: Final = tuple(RumbleOpponent(partner=seat) for seat in SEATS)
HARDCORE_FANS: Final = tuple(HardcoreFans(amount=n) for n in range(FANS_PER_PLAYER + 1))
GO_INDEPENDENT: Final = Alliance(alliance=AllianceChoice.INDEPENDENT)
BOOST_ALLIANCE: Final = tuple(Alliance(AllianceChoice.BOOST, partner=seat) for seat in SEATS)
FORM_ALLIANCE: Final = tuple(Alliance(AllianceChoice.FORM, partner=seat) for seat in SEATS)
