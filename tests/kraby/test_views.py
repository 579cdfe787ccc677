"""What a view shows (issue 16): the table, the playing area (K1), whose turn it is, and the
decision waited for as data (its open entries with their stop cells, K3-K5, or its figures,
K6), the same for every viewer; one numbering for labels and fields; the options as ListGames
types them."""

from __future__ import annotations

import random
import re

import pytest
from google.protobuf import json_format

from crabgames.core.errors import InvalidArgument
from crabgames.games.kraby import GAME
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb
from tests.conformance.common import ENGINE

OPTIONS = pb.KrabyOptions()


def new_game(num_players: int = 3, seed: int = 7, **kwargs) -> game_pb2.GameState:
    state, _ = ENGINE.new_game("kraby", pb.KrabyOptions(**kwargs), num_players, seed)
    return state


def play_until(state: game_pb2.GameState, step: int, seed: int = 1) -> game_pb2.GameState:
    """Random moves until the game waits at `step`."""
    rng = random.Random(seed)
    while ENGINE.view(state, None).kraby.step != step:
        moves, _ = ENGINE.legal_moves(state)
        state, _, _ = ENGINE.apply_move(state, rng.choice(moves))
    return state


def entry_of(move: game_pb2.Move) -> tuple[int, int, int, int]:
    tile = move.kraby.place_tile
    return tile.edge, tile.lane, tile.stop.row, tile.stop.column


def test_the_tile_decision_lists_every_open_entry_with_its_stop_as_the_moves_do():
    state = play_until(new_game(), pb.KRABY_STEP_PLACE_TILE)
    for _ in range(12):  # a few turns into the game, where stops vary
        moves, _ = ENGINE.legal_moves(state)
        decision = ENGINE.view(state, None).kraby.decision
        assert decision.step == pb.KRABY_STEP_PLACE_TILE
        assert decision.player == state.next.player
        listed = list(dict.fromkeys(entry_of(m) for m in moves))  # each entry once, in order
        entries = [(e.edge, e.lane, e.stop.row, e.stop.column) for e in decision.entries]
        assert entries == listed
        assert not decision.figures
        state = play_until(ENGINE.apply_move(state, moves[-1])[0], pb.KRABY_STEP_PLACE_TILE)


def test_the_figure_decision_lists_the_figures_the_moves_offer():
    state = play_until(new_game(), pb.KRABY_STEP_PLACE_FIGURE)
    moves, _ = ENGINE.legal_moves(state)
    decision = ENGINE.view(state, None).kraby.decision
    assert decision.step == pb.KRABY_STEP_PLACE_FIGURE and decision.player == state.next.player
    figures = [(f.color, f.multiplier) for f in decision.figures]
    offered = [
        (m.kraby.place_figure.color, m.kraby.place_figure.multiplier)
        for m in moves
        if m.kraby.HasField("place_figure")
    ]
    assert figures == offered and len(figures) == 15  # the first figure: any colour, any hold
    assert not decision.entries


def test_every_viewer_sees_the_same_decision():
    for step in (pb.KRABY_STEP_PLACE_TILE, pb.KRABY_STEP_PLACE_FIGURE):
        state = play_until(new_game(4, seed=3), step)
        seen = {
            ENGINE.view(state, v).kraby.decision.SerializeToString() for v in (None, 0, 1, 2, 3)
        }
        assert len(seen) == 1


def test_during_the_deal_the_decision_names_who_receives_the_next_tile():
    state, _ = ENGINE.new_game("kraby", OPTIONS, 3, 7, game_pb2.CHANCE_MODE_EXPLICIT)
    for receiver in (0, 0, 0, 0, 0, 0, 1):
        view = ENGINE.view(state, 2).kraby
        assert view.step == pb.KRABY_STEP_DEAL and view.decision.player == receiver
        assert not view.HasField("turn_player")  # nobody's turn yet
        moves, _ = ENGINE.legal_moves(state)
        state, _, _ = ENGINE.apply_move(state, moves[0])


def test_once_the_game_is_over_there_is_no_turn_and_no_decision():
    state = play_until(new_game(2), pb.KRABY_STEP_GAME_OVER)
    view = ENGINE.view(state, 0).kraby
    assert not view.HasField("turn_player") and not view.HasField("decision")


def test_seat_zero_row_zero_and_column_zero_are_written_in_json():
    state = new_game(3, first_player=0)
    view = json_format.MessageToDict(ENGINE.view(state, 0).kraby, preserving_proto_field_name=True)
    assert view["turn_player"] == 0 and view["decision"]["player"] == 0
    assert view["playing_area"] == {"first": 0, "last": 10}
    stops = [e["stop"] for e in view["decision"]["entries"]]
    assert all(set(stop) == {"row", "column"} for stop in stops)
    assert json_format.MessageToDict(state.kraby)["turnPlayer"] == 0


@pytest.mark.parametrize(("num_players", "area"), ((2, (1, 9)), (3, (0, 10)), (4, (0, 10))))
def test_the_view_says_which_rows_and_columns_are_in_play(num_players, area):
    view = ENGINE.view(new_game(num_players), None).kraby
    assert (view.playing_area.first, view.playing_area.last) == area
    first, last = area
    for index, cell in enumerate(view.cells):
        row, column = divmod(index, 11)
        inside = first <= row <= last and first <= column <= last
        assert (cell != pb.KRABY_CELL_OFF_BOARD) == inside, (row, column)


LABEL = re.compile(
    r"^slide (\w+) in from the (north|east|south|west) along (row|column) (\d+)"
    r" to row (\d+), column (\d+)$"
)


@pytest.mark.parametrize("num_players", (2, 3))
def test_a_tile_label_prints_the_numbers_its_fields_carry(num_players):
    # One numbering (K1): with two fishers too, the first row in play is row 1 in the label and
    # in the fields alike, and a tile listed as stopping at row r, column c is placed there.
    state = new_game(num_players, seed=11)
    rng = random.Random(num_players)
    checked = 0
    while state.next.kind != game_pb2.DECIDER_KIND_NONE and checked < 2000:
        moves, _ = ENGINE.legal_moves(state)
        for move in moves:
            if not move.kraby.HasField("place_tile"):
                continue
            tile = move.kraby.place_tile
            color, edge, kind, lane, row, column = LABEL.match(move.label).groups()
            assert color == pb.KrabyColor.Name(tile.color).removeprefix("KRABY_COLOR_").lower()
            assert edge == pb.KrabyEdge.Name(tile.edge).removeprefix("KRABY_EDGE_").lower()
            assert kind == ("column" if edge in ("north", "south") else "row")
            assert (int(lane), int(row), int(column)) == (
                tile.lane,
                tile.stop.row,
                tile.stop.column,
            )
            assert int(lane) == (tile.stop.row if kind == "row" else tile.stop.column)
            checked += 1
        move = rng.choice(moves)
        state, happened, _ = ENGINE.apply_move(state, move)
        events = happened.events
        if move.kraby.HasField("place_tile"):
            placed = next(e.kraby.tile_placed for e in events if e.kraby.HasField("tile_placed"))
            assert placed.stop == move.kraby.place_tile.stop
            cells = ENGINE.view(state, None).kraby.cells
            assert cells[placed.stop.row * 11 + placed.stop.column] == pb.KRABY_CELL_ORANGE + (
                placed.color - 1
            )
    assert checked > 100


def test_the_stop_a_move_is_listed_with_is_ignored_when_it_is_sent():
    state = play_until(new_game(), pb.KRABY_STEP_PLACE_TILE)
    moves, _ = ENGINE.legal_moves(state)
    honest, _, _ = ENGINE.apply_move(state, moves[0])
    sent = game_pb2.Move()
    sent.CopyFrom(moves[0])
    sent.kraby.place_tile.stop.row = 5  # a stop of the caller's own invention
    sent.kraby.place_tile.stop.column = 5
    wrong, _, _ = ENGINE.apply_move(state, sent)
    assert wrong.kraby == honest.kraby
    sent.kraby.place_tile.ClearField("stop")
    bare, _, _ = ENGINE.apply_move(state, sent)
    assert bare.kraby == honest.kraby


def test_no_two_moves_of_one_decision_share_a_label():
    # The tiles of one entry differ by colour, two entries by edge and lane (even when they stop
    # on the same cell), the figures by colour and hold.
    rng = random.Random(2)
    for num_players in (2, 3, 4):
        state = new_game(num_players, seed=num_players)
        while state.next.kind != game_pb2.DECIDER_KIND_NONE:
            moves, _ = ENGINE.legal_moves(state)
            labels = [m.label for m in moves]
            assert len(set(labels)) == len(labels), labels
            state, _, _ = ENGINE.apply_move(state, rng.choice(moves))


def test_first_player_is_typed_as_a_seat_and_every_seat_in_range_starts():
    option = next(o for o in GAME.facts.options if o.name == "first_player")
    assert (option.minimum, option.maximum, option.seat) == (0, 3, True)
    for num_players in (2, 3, 4):
        for seat in range(option.minimum, num_players):
            state = new_game(num_players, first_player=seat)
            assert state.next.player == seat
        with pytest.raises(InvalidArgument):
            new_game(num_players, first_player=num_players)


def test_any_colour_may_sit_out_with_two_fishers():
    for color in range(1, 6):
        view = ENGINE.view(new_game(2, excluded_color=color), None).kraby
        supply = [
            getattr(view.figure_supply, name)
            for name in pb.KrabyTileCounts.DESCRIPTOR.fields_by_name
        ]
        assert supply == [0 if c == color else 3 for c in range(1, 6)]
