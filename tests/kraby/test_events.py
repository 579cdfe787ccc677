"""Events as the engine frames them: their messages and their sentences. What each viewer may see
of them (G5) is test_g5_what_each_seat_may_see.py's."""

from __future__ import annotations

import string

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import BLUE, EAST
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    FigurePlaced,
    GameEnded,
    TilePlaced,
    TurnBegan,
    TurnPassed,
)
from tests.kraby.helpers import EVERY_KIND, cell, encoded


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_event_kind_is_its_message_holding_its_data():
    """Each kind is the oneof field of its name, holding each of the event's facts in the field
    of the same name (the stop cell as its row and column)."""
    hidden = [GAME.redact_event(event, None) for event in EVERY_KIND]
    for event in EVERY_KIND + hidden:
        kind = encoded(event).kraby
        assert kind.WhichOneof("event") == event.kind, event
        fields = getattr(kind, event.kind)
        for name, value in event._asdict().items():
            if name == "stop":
                assert (fields.stop.row, fields.stop.column) == divmod(value, 11), event
            elif name != "kind":
                assert getattr(fields, name) == value, (event, name)
        assert {f.name for f, _ in fields.ListFields()} <= set(event._fields), event


def test_every_event_has_its_text_from_its_template_and_args():
    for event in EVERY_KIND + [GAME.redact_event(event, None) for event in EVERY_KIND]:
        msg = encoded(event)
        assert msg.template and msg.text == msg.template.format_map(msg.args), event
        assert placeholders(msg.template) == set(msg.args), event


def test_a_template_keeps_numbers_and_names_in_its_args():
    placed = encoded(TilePlaced(1, EAST, 4, BLUE, cell(4, 7), 5))
    assert (
        placed.text
        == "player 1 slides one blue tile in from the east along row 4; it stops at row 4, column 7"
    )
    assert dict(placed.args) == {
        "player": "1",
        "color": "blue",
        "edge": "east",
        "lane": "4",
        "row": "4",
        "column": "7",
    }
    assert not any(ch.isdigit() for ch in placed.template)
    figure = encoded(FigurePlaced(1, BLUE, 3, 2))
    assert figure.text == "player 1 puts one blue figure in hold x3"
    assert figure.template == "player {player} puts one {color} figure in hold x{multiplier}"


def test_the_stop_cell_is_data_in_the_placement_event():
    placed = encoded(TilePlaced(1, EAST, 4, BLUE, cell(4, 7), 5)).kraby.tile_placed
    assert (placed.stop.row, placed.stop.column) == (4, 7)
    assert (placed.player, placed.edge, placed.lane, placed.color, placed.hand_size) == (
        1,
        EAST,
        4,
        BLUE,
        5,
    )


def test_seat_zero_and_lane_zero_are_set_not_left_out():
    placed = encoded(TilePlaced(0, EAST, 0, BLUE, cell(0, 9), 0)).kraby.tile_placed
    for field in ("player", "lane", "hand_size"):
        assert placed.HasField(field), field
    assert placed.stop.HasField("row") and placed.stop.HasField("column")
    assert encoded(TurnBegan(0)).kraby.turn_began.HasField("player")


def test_the_end_says_why_as_a_value():
    all_placed = encoded(GameEnded(ALL_TILES_PLACED))
    stuck = encoded(GameEnded(NO_FISHER_CAN_PLACE))
    assert all_placed.kraby.game_ended.reason == ALL_TILES_PLACED
    assert stuck.kraby.game_ended.reason == NO_FISHER_CAN_PLACE
    assert all_placed.text == "the game ends: all tiles are placed"
    assert stuck.text == "the game ends: no fisher can place a tile"


def test_a_pass_says_why():
    no_tiles = encoded(TurnPassed(2, NO_TILES))
    no_entry = encoded(TurnPassed(0, NO_ENTRY))
    assert no_tiles.kraby.turn_passed.reason == NO_TILES
    assert no_entry.kraby.turn_passed.reason == NO_ENTRY
    assert no_tiles.template != no_entry.template
