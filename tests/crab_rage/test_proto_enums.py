"""CRAB RAGE!'s constants are the proto's enums (issue 28): each native name is the generated
value of the same name less the enum's prefix, and every value of the enum but UNSPECIFIED has
one, so a kind added to the proto without its constant (or a name given another's value) fails
here."""

from __future__ import annotations

from enum import EnumMeta
from typing import Any

import pytest

from crabgames.games.crab_rage.data import Action, Billboard, SignatureMove, Team
from crabgames.games.crab_rage.events import Cause
from crabgames.games.crab_rage.moves import AllianceChoice
from crabgames.games.crab_rage.state import Phase, Step
from crabgames.v1 import crab_rage_pb2 as pb

NAMESPACES = {
    Step: pb.CrabRagePendingKind,
    Cause: pb.CrabRageCause,
    Phase: pb.CrabRagePhase,
    Team: pb.CrabRageTeam,
    Billboard: pb.CrabRageBillboard,
    Action: pb.CrabRageAction,
    SignatureMove: pb.CrabRageSignatureMove,
    AllianceChoice: pb.CrabRageAllianceChoice,
}


def native(namespace: Any) -> dict[str, int]:
    """An IntEnum's members, or a class of plain int constants (Step, Cause), by name."""
    if isinstance(namespace, EnumMeta):
        return {member.name: member.value for member in namespace}
    return {name: value for name, value in vars(namespace).items() if name.isupper()}


@pytest.mark.parametrize("namespace", NAMESPACES, ids=lambda namespace: namespace.__name__)
def test_each_constant_is_the_proto_value_of_its_name_and_every_value_has_one(namespace):
    enum = NAMESPACES[namespace]
    prefix = enum.Name(0).removesuffix("UNSPECIFIED")
    proto = {name.removeprefix(prefix): value for name, value in enum.items() if value}
    assert native(namespace) == proto
