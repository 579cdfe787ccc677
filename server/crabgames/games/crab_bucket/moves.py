"""Crab Bucket's moves, one class per field of the CrabBucketMove oneof.

Each move ends with its `kind`, the oneof field's name, left at its default: moves of two kinds
never compare equal, whatever their other fields hold.
"""

from __future__ import annotations

from typing import Literal, NamedTuple


class PlayCard(NamedTuple):
    """Main action: a card from the hand onto a pile (an Oxi! that cuts: discarded, `pile` cut)."""

    card: int
    pile: int
    kind: Literal["play_card"] = "play_card"


class Pass(NamedTuple):
    """No main action is possible (B6)."""

    kind: Literal["pass"] = "pass"


class UseAbility(NamedTuple):
    """Use completed mission `mission`'s ability; parameters as in the proto's comment."""

    mission: int
    piles: tuple[int, ...] = ()
    card: int = -1
    source: int = -1  # RESCUE_OXI in Quick mode: the pile holding the Oxi!
    kind: Literal["use_ability"] = "use_ability"


class ChooseMissionPile(NamedTuple):
    level: int
    kind: Literal["choose_mission_pile"] = "choose_mission_pile"


class KeepMission(NamedTuple):
    mission: int
    kind: Literal["keep_mission"] = "keep_mission"


Move = PlayCard | Pass | UseAbility | ChooseMissionPile | KeepMission
