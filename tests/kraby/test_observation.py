"""Kraby's observation tensor (docs/agents.md): each feature encodes what the docs say."""

from __future__ import annotations

import random

from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.games.kraby.data import CELLS, SIZE
from crabgames.games.kraby.observation import CELL_KINDS, LAYOUT
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

ENGINE = Engine(all_games())


def observe(view: game_pb2.View) -> list[float]:
    return ENGINE.observation(view)


def feature(values: list[float], name: str) -> list[float]:
    first, end = LAYOUT.spans[name]
    return values[first:end]


def board_view(player: int = 0, num_players: int = 3, **fields: object) -> game_pb2.View:
    part = pb.KrabyView(cells=[pb.KRABY_CELL_EMPTY] * CELLS, **fields)  # type: ignore[arg-type]
    return game_pb2.View(player=player, num_players=num_players, kraby=part)


def test_a_tile_of_a_species_lights_its_cells_plane_and_only_it():
    view = board_view()
    view.kraby.cells[3 * SIZE + 7] = pb.KRABY_CELL_BLUE
    cells = feature(observe(view), "cells")
    at = (3 * SIZE + 7) * CELL_KINDS
    assert cells[at : at + CELL_KINDS] == [0, 0, 0, 0, 0, 1, 0, 0]  # blue is the sixth kind
    assert cells[(3 * SIZE + 6) * CELL_KINDS] == 1  # its neighbour is empty
    assert sum(cells) == CELLS  # one kind per cell


def test_the_sand_bar_and_the_dark_border_have_their_own_planes():
    view = Table.new(ENGINE, "kraby", 2, seed=1).view(0)  # two fishers: the border is off board
    cells = feature(observe(view), "cells")
    assert cells[(5 * SIZE + 5) * CELL_KINDS + pb.KRABY_CELL_ISLAND - 1] == 1
    assert cells[0 * CELL_KINDS + pb.KRABY_CELL_OFF_BOARD - 1] == 1
    assert cells[(1 * SIZE + 1) * CELL_KINDS + pb.KRABY_CELL_OFF_BOARD - 1] == 0


def test_hand_sizes_are_counted_from_the_viewer_clockwise():
    view = board_view(player=2, hand_sizes=[6, 3, 0])
    assert feature(observe(view), "hand_sizes") == [0, 1, 0.5, 0]  # seat 2, seat 0, seat 1, none


def test_a_figure_in_a_hold_is_one_entry_of_its_seats_ship():
    view = board_view(player=1, ships=[pb.KrabyShip(), pb.KrabyShip(hold_x2=pb.KRABY_COLOR_GREEN)])
    ships = feature(observe(view), "ships")
    assert ships[(0 * 3 + 1) * 5 + 1] == 1  # slot 0 (the viewer), hold x2, green
    assert sum(ships) == 1


def test_own_hand_counts_the_viewers_tiles_only():
    view = board_view(own_hand=pb.KrabyTileCounts(orange=3, pink=6), bag_size=60)
    values = observe(view)
    assert feature(values, "own_hand") == [0.5, 0, 0, 0, 1]
    assert feature(values, "bag_size") == [0.5]


def test_with_two_fishers_the_excluded_species_is_not_in_play():
    view = board_view(num_players=2, options=pb.KrabyOptions(excluded_color=pb.KRABY_COLOR_GREEN))
    values = observe(view)
    assert feature(values, "in_play") == [1, 0, 1, 1, 1]
    assert feature(values, "players") == [1, 0, 0]
    view = board_view(num_players=4, options=pb.KrabyOptions(excluded_color=pb.KRABY_COLOR_GREEN))
    assert feature(observe(view), "in_play") == [1, 1, 1, 1, 1]


def test_the_decider_sees_to_decide_and_the_open_entries_match_the_decision():
    table = Table.new(ENGINE, "kraby", 3, seed=2)
    decider = table.decision().player
    view = table.view(decider)
    assert view.kraby.step == pb.KRABY_STEP_PLACE_TILE
    values = observe(view)
    assert feature(values, "to_decide") == [1]
    assert feature(values, "turn_player") == [1, 0, 0, 0]
    assert feature(values, "step") == [0, 1, 0, 0, 0]
    entries = feature(values, "entries")
    open_entries = {(e.edge - 1) * SIZE + e.lane for e in view.kraby.decision.entries}
    assert {i for i, v in enumerate(entries) if v} == open_entries
    other = (decider + 1) % 3
    values = observe(table.view(other))
    assert feature(values, "to_decide") == [0]
    assert feature(values, "turn_player") == [0, 0, 1, 0]  # the decider sits before `other`


def test_figure_choices_list_the_figures_the_decision_offers():
    view = board_view(
        decision=pb.KrabyDecision(
            step=pb.KRABY_STEP_PLACE_FIGURE,
            figures=[pb.KrabyFigureChoice(color=pb.KRABY_COLOR_YELLOW, multiplier=3)],
        )
    )
    choices = feature(observe(view), "figure_choices")
    assert choices[3 * 3 + 2] == 1 and sum(choices) == 1


def test_at_the_end_winners_and_scores_are_by_slot():
    table = Table.new(ENGINE, "kraby", 3, seed=5)
    rng = random.Random(5)
    while not table.is_over():
        table.play(rng.choice(table.legal_move_ids()))
    outcome = table.outcome()
    assert outcome is not None
    values = observe(table.view(1))
    for result in outcome.players:
        at = (result.player - 1) % 3
        assert feature(values, "winners")[at] == (1 if result.winner else 0)
        assert feature(values, "scores")[at] == max(-1, min(1, result.score / 100))
    assert feature(values, "step") == [0, 0, 0, 0, 1]
