"""A move checked alone agrees with the listed moves (K3-K6), a placed tile blocks its row and
column for every later tile (K3), a drawn tile leaves the bag (G2), and the hole rule (K4)
agrees with looking along every line of every free cell."""

from __future__ import annotations

import random

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    COLORS,
    EAST,
    EDGES,
    EMPTY,
    GREEN,
    NORTH,
    ORANGE,
    PINK,
    PLAYING_AREA,
    SIZE,
    SOUTH,
    TILE_OFFSET,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.events import TileDrawn, TilePlaced
from crabgames.games.kraby.moves import SKIP_FIGURE, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import DEAL, DRAW, GAME_OVER, PLACE_FIGURE, KrabyState, counted
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import cell, listed, position, where

EVERY_TILE = [PlaceTile(e, lane, c) for e in EDGES for lane in range(SIZE) for c in COLORS]
EVERY_FIGURE = [PlaceFigure(c, m) for c in COLORS for m in (1, 2, 3)]


def assert_checked_alone_as_listed(state: KrabyState) -> None:
    legal = listed(state)
    for move in [*EVERY_TILE, *EVERY_FIGURE, SKIP_FIGURE]:
        assert GAME.is_legal(state, move) == (move in legal), move


def test_a_tile_checked_alone_is_legal_exactly_when_it_is_listed():
    # One of each colour but orange (none) and pink (two): a tile of a colour not in hand is
    # never legal (K5: the colour comes from the hand), wherever it could enter.
    state = position(hand=[GREEN, BLUE, YELLOW, PINK, PINK, GREEN])
    assert_checked_alone_as_listed(state)
    assert not GAME.is_legal(state, PlaceTile(WEST, 5, ORANGE))
    assert GAME.is_legal(state, PlaceTile(WEST, 5, YELLOW))  # exactly one yellow in hand
    tiles = {(m.edge, m.lane, m.color) for m in GAME.legal_moves(state)}
    assert (WEST, 5, ORANGE) not in tiles and (WEST, 5, GREEN) in tiles


def test_only_the_colours_in_hand_are_offered():
    # K5: one move per entry and colour held; no yellow or pink in this hand.
    state = position(hand=[ORANGE, ORANGE, GREEN, BLUE, BLUE, BLUE])
    assert {m.color for m in GAME.legal_moves(state)} == {ORANGE, GREEN, BLUE}
    state = position(hand=[YELLOW, PINK, PINK, PINK, PINK, PINK])
    assert {m.color for m in GAME.legal_moves(state)} == {YELLOW, PINK}


def test_a_figure_is_legal_only_right_after_a_tile_and_a_tile_only_before():
    state = position()
    assert_checked_alone_as_listed(state)  # placing a tile: no figure yet
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    GAME.apply_chance(state, BLUE)
    assert state.step == PLACE_FIGURE
    assert_checked_alone_as_listed(state)  # the figure: no second tile
    assert not GAME.is_legal(state, PlaceTile(EAST, 5, ORANGE))
    assert GAME.is_legal(state, PlaceFigure(PINK, 3)) and GAME.is_legal(state, SKIP_FIGURE)


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_checked_alone_and_listed_agree_through_whole_games(num_players):
    rng = random.Random(num_players)
    state = rules.set_up(num_players, PINK, 0)
    while state.step != GAME_OVER:
        if state.step in (DEAL, DRAW):
            GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
            continue
        if rng.random() < 0.2:
            assert_checked_alone_as_listed(state)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))


def test_a_placed_tile_stops_every_later_tile_on_its_row_and_column():
    # K3: the pink crab stops at the island (Figure 3a/3b); the next crab on that row stops
    # at the pink one, and a crab down that column stops on top of it.
    state = position()
    events = GAME.apply_move(state, PlaceTile(WEST, 5, PINK))
    assert events[0] == TilePlaced(0, WEST, 5, PINK, cell(5, 4), 5)
    assert state.cells[cell(5, 4)] == PINK + TILE_OFFSET
    assert state.turns_taken == 1
    assert rules.where_the_tile_stops(state, WEST, 5) == cell(5, 3)
    assert rules.where_the_tile_stops(state, NORTH, 4) == cell(4, 4)
    assert rules.where_the_tile_stops(state, SOUTH, 4) == cell(6, 4)
    fresh = state.copy()
    fresh.rebuild_lines()  # the lines of sight from the cells alone
    assert (state.row_blocked, state.col_blocked) == (fresh.row_blocked, fresh.col_blocked)


def test_a_drawn_tile_leaves_the_bag_and_joins_the_hand_of_the_fisher_who_played():
    state = position()
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    bag, hand = state.bag, state.hands[0]
    events = GAME.apply_chance(state, GREEN)
    assert events[0] == TileDrawn(0, GREEN, 6, sum(bag) - 1)
    assert state.bag == counted(bag, GREEN, -1)
    assert state.hands[0] == counted(hand, GREEN, 1)
    assert GAME.invariant_violations(state) == []


def test_a_clone_is_the_same_position():
    state = position(2, {(3, 3): BLUE})
    state.excluded_color = YELLOW
    clone = GAME.clone(state)
    assert GAME.codec.state_bytes(clone) == GAME.codec.state_bytes(state)
    assert clone.excluded_color == YELLOW and clone.num_players == 2
    assert (clone.row_blocked, clone.col_blocked) == (state.row_blocked, state.col_blocked)


# ----- the hole rule (K4) against looking along every line -----


def sees_an_edge(state: KrabyState, row: int, col: int) -> bool:
    """Whether the free cell has a straight line of free cells to the playing area's edge."""
    low, high = PLAYING_AREA[state.num_players]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        while low <= r <= high and low <= c <= high and state.cells[r * SIZE + c] == EMPTY:
            r, c = r + dr, c + dc
        if not (low <= r <= high and low <= c <= high):
            return True
    return False


def holes_by_looking(state: KrabyState) -> list[int]:
    return [
        i
        for i, v in enumerate(state.cells)
        if v == EMPTY and not sees_an_edge(state, *divmod(i, SIZE))
    ]


@pytest.mark.parametrize("num_players", (2, 3))
@pytest.mark.parametrize("seed", range(12))
def test_the_hole_rule_agrees_with_looking_along_every_line(seed, num_players):
    # K4: an entry is legal when, afterwards, every free cell still sees an edge. Tiles go in
    # at random legal entries, some games choosing entries near the walls first.
    rng = random.Random(seed * 7 + num_players)
    state = position(num_players)
    while True:
        assert rules.unfillable_cells(state) == holes_by_looking(state) == []
        legal_entries = []
        for edge in EDGES:
            for lane in range(SIZE):
                stop = rules.where_the_tile_stops(state, edge, lane)
                if stop is None:
                    continue
                after = state.copy()
                after.cells[stop] = pb.KRABY_CELL_BLUE
                after.block(stop)
                looked = holes_by_looking(after)
                assert rules.unfillable_cells(after) == looked, (edge, lane)
                assert rules.may_enter(state, edge, lane) == (not looked)
                if not looked:
                    legal_entries.append((edge, lane, stop))
        assert where(rules.entry_points(state)) == legal_entries
        assert rules.has_entry_point(state) == bool(legal_entries)
        if not legal_entries:
            break
        _, _, stop = rng.choice(legal_entries[: 3 if seed % 3 == 0 else None])
        state.cells[stop] = pb.KRABY_CELL_GREEN
        state.block(stop)
