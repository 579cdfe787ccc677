"""Events built once per value (core.game.built_once) are the values a fresh build gives,
shared, and their tables stay bounded whatever values come; a decoded move equals the one
LegalMoves lists."""

from __future__ import annotations

from crabgames.core.game import BUILT_ONCE
from crabgames.games.crab_rage.codec import decode_move
from crabgames.games.crab_rage.events import RAGE, Rage
from crabgames.games.crab_rage.moves import FORM_ALLIANCE
from crabgames.v1 import crab_rage_pb2 as pb


def test_a_value_built_once_is_the_value_built_afresh_and_shared():
    fields = (1, 2, 5, 0, (pb.CRAB_RAGE_CAUSE_RUMBLE, 0), pb.CRAB_RAGE_TEAM_YELLOW)
    first = RAGE(*fields)
    assert first == Rage(*fields) and type(first) is Rage
    assert RAGE(*fields) is first
    assert RAGE(2, *fields[1:]) == Rage(2, *fields[1:]) != first


def test_a_table_of_values_built_once_is_bounded():
    for amount in range(3 * BUILT_ONCE):
        assert RAGE(0, amount, 5, 0, (pb.CRAB_RAGE_CAUSE_RUMBLE, 0), 1) == Rage(
            0, amount, 5, 0, (pb.CRAB_RAGE_CAUSE_RUMBLE, 0), 1
        )
    assert RAGE.cache_info().currsize <= BUILT_ONCE


def test_a_decoded_move_is_the_listed_one():
    msg = pb.CrabRageMove(
        kind=pb.CRAB_RAGE_MOVE_KIND_ALLIANCE, alliance=pb.CRAB_RAGE_ALLIANCE_CHOICE_FORM, partner=2
    )
    assert decode_move(msg, "move") == FORM_ALLIANCE[2]
