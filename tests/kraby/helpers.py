"""Build Kraby positions by hand for rulebook examples, and the helpers several rule files
share."""

from __future__ import annotations

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    CELLS,
    COLORS,
    EAST,
    EDGES,
    EMPTY,
    GREEN,
    MULTIPLIERS,
    ORANGE,
    PINK,
    SIZE,
    TILE_OFFSET,
    YELLOW,
)
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    FigurePlaced,
    FigureSkipped,
    GameEnded,
    TileDealt,
    TileDrawn,
    TilePlaced,
    TurnBegan,
    TurnPassed,
)
from crabgames.games.kraby.moves import SKIP_FIGURE, Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.rules import Entry
from crabgames.games.kraby.state import PLACE_TILE, KrabyState, counted
from crabgames.v1 import game_pb2


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def position(
    num_players: int = 3, tiles: dict[tuple[int, int], int] | None = None, hand=None
) -> KrabyState:
    """A mid-game state at the turn of player 0 with `tiles` on the board; the tiles come out of
    the bag so every count stays consistent."""
    state = rules.initial_state(num_players, (PINK, 0))
    for (row, col), color in (tiles or {}).items():
        state.cells[cell(row, col)] = color + TILE_OFFSET
        state.bag = counted(state.bag, color, -1)
        state.turns_taken += 1
    state.rebuild_lines()
    for player in range(num_players):
        wanted = hand if (player == 0 and hand) else [ORANGE, GREEN, BLUE, YELLOW, PINK, ORANGE]
        for color in wanted:
            state.hands[player] = counted(state.hands[player], color, 1)
            state.bag = counted(state.bag, color, -1)
    state.step = PLACE_TILE
    return state


def where(entries: tuple[Entry, ...]) -> list[tuple[int, int, int]]:
    """Each entry point as (edge, lane, stop cell)."""
    return [(entry.edge, entry.lane, entry.stop) for entry in entries]


def listed(state: KrabyState) -> list[Move]:
    """The legal moves, each tile without the stop cell it is listed with: as a fisher sends a
    move, so that a test can ask whether a move is among them, and whether one is not."""
    return [
        move._replace(stop=None) if isinstance(move, PlaceTile) else move
        for move in rules.legal_moves(state)
    ]


def with_count(counts: tuple[int, ...], color: int, count: int) -> tuple[int, ...]:
    """`counts` (by colour - 1) with exactly `count` of `color`."""
    return counted(counts, color, count - counts[color - 1])


# ----- a move checked alone against the listed moves (K5, A Player's Turn, test_is_legal.py) -----


EVERY_TILE = [PlaceTile(e, lane, c) for e in EDGES for lane in range(SIZE) for c in COLORS]


EVERY_FIGURE = [PlaceFigure(c, m) for c in COLORS for m in MULTIPLIERS]


def assert_checked_alone_as_listed(state: KrabyState) -> None:
    legal = listed(state)
    for move in [*EVERY_TILE, *EVERY_FIGURE, SKIP_FIGURE]:
        assert GAME.is_legal(state, move) == (move in legal), move


# ----- boards for scoring (Groups and Scoring Values, Scoring, K9) -----


# Figure 6's orange groups, counted from top-left to bottom-right: 1, 1, 4, 6, 2, 1, 1, 4, 3, 1.
ORANGE_GROUPS = [
    [(0, 0)],
    [(0, 2)],
    [(0, 4), (0, 5), (0, 6), (1, 6)],
    [(2, c) for c in range(6)],
    [(3, 6), (3, 7)],  # touches the group of six only at a corner: a separate group
    [(4, 0)],
    [(4, 2)],
    [(6, 0), (6, 1), (7, 0), (7, 1)],
    [(9, 0), (9, 1), (9, 2)],
    [(10, 10)],
]


def board_with(groups, color) -> bytearray:
    cells = bytearray([EMPTY] * CELLS)
    for group in groups:
        for row, col in group:
            cells[cell(row, col)] = color + TILE_OFFSET
    return cells


# ----- every kind of event (test_events.py, G5) -----


EVERY_KIND = [
    TileDealt(0, ORANGE, 1, 119),
    TilePlaced(1, EAST, 4, BLUE, cell(4, 7), 5),
    TileDrawn(2, PINK, 6, 80),
    FigurePlaced(1, BLUE, 3, 2),
    FigureSkipped(0),
    TurnBegan(2),
    TurnPassed(2, NO_TILES),
    TurnPassed(0, NO_ENTRY),
    GameEnded(ALL_TILES_PLACED),
    GameEnded(NO_FISHER_CAN_PLACE),
]


def encoded(event: object) -> game_pb2.Event:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return msg
