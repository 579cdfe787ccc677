"""Events as the engine frames them: their bytes, and what each viewer may see (G5)."""

from __future__ import annotations

from crabgames.games.kraby import GAME, rules
from crabgames.v1 import game_pb2
from tests.kraby.helpers import BLUE, EAST, ORANGE, PINK, cell

EVERY_KIND = [
    rules.TileDealt(0, ORANGE),
    rules.TilePlaced(1, EAST, 4, BLUE, cell(4, 7)),
    rules.TileDrawn(2, PINK),
    rules.FigurePlaced(1, BLUE, 3),
    rules.FigureSkipped(0),
    rules.TurnPassed(2),
    rules.GameEnded("all tiles placed"),
]


def message_route(event: object) -> bytes:
    msg = game_pb2.Event()
    GAME.fill_event(event, msg)
    return msg.SerializeToString()


def test_every_event_kind_encodes_to_the_bytes_of_its_message():
    hidden = [GAME.redact_event(event, None) for event in EVERY_KIND]
    for event in EVERY_KIND + hidden:
        assert GAME.encode_event_bytes(event) == message_route(event), event
        msg = game_pb2.Event()
        GAME.encode_event(event, msg)
        assert msg.SerializeToString() == message_route(event), event


def test_a_tile_into_a_hand_is_seen_only_by_its_fisher_and_public_events_are_shared_whole():
    dealt = rules.TileDealt(0, ORANGE)
    assert GAME.redact_event(dealt, 0) is dealt
    assert GAME.redact_event(dealt, 1) == rules.TileDealt(0, 0)
    assert GAME.redact_event(dealt, None) == rules.TileDealt(0, 0)
    for event in EVERY_KIND:
        if not isinstance(event, (rules.TileDealt, rules.TileDrawn)):
            assert GAME.redact_event(event, None) is event
