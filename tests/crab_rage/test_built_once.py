"""Events and moves built once per value (moves.Made) are the values a fresh build gives, and
their tables stay bounded whatever values come."""

from __future__ import annotations

from crabgames.games.crab_rage.codec import DECODED_MOVES, decode_move
from crabgames.games.crab_rage.events import RAGE, Rage
from crabgames.games.crab_rage.moves import FORM_ALLIANCE, Made
from crabgames.v1 import crab_rage_pb2 as pb


def test_a_value_built_once_is_the_value_built_afresh_and_shared():
    fields = (1, 2, 5, 0, (pb.CRAB_RAGE_CAUSE_RUMBLE, 0), pb.CRAB_RAGE_TEAM_YELLOW)
    first = RAGE(*fields)
    assert first == Rage(*fields) and type(first) is Rage
    assert RAGE(*fields) is first
    assert RAGE(2, *fields[1:]) == Rage(2, *fields[1:]) != first


def test_a_decoded_move_is_shared_and_equal_to_the_listed_one():
    msg = pb.CrabRageMove(
        kind=pb.CRAB_RAGE_MOVE_KIND_ALLIANCE, alliance=pb.CRAB_RAGE_ALLIANCE_CHOICE_FORM, partner=2
    )
    move = decode_move(msg, "move")
    assert move == FORM_ALLIANCE[2]
    assert decode_move(msg, "move") is move


def test_a_table_of_values_built_once_is_bounded():
    made: Made[tuple[int]] = Made(lambda n: (n,))
    for n in range(3 * Made.LIMIT):
        assert made(n) == (n,)
        assert len(made.made) <= Made.LIMIT
    assert len(DECODED_MOVES.made) <= Made.LIMIT
