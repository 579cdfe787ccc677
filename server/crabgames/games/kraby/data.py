"""Kraby's components as data (rulebooks/kraby.txt, K1, K2, K6)."""

from __future__ import annotations

from crabgames.v1 import kraby_pb2 as pb

SIZE = 11
CELLS = SIZE * SIZE
ISLAND = 5 * SIZE + 5  # K1: the sand bar is the single centre cell
HAND_SIZE = 6
MAX_PLAYERS = 4

# K2: the species, in scoring order. Values are KrabyColor numbers (1..5).
COLORS = (
    pb.KRABY_COLOR_ORANGE,
    pb.KRABY_COLOR_GREEN,
    pb.KRABY_COLOR_BLUE,
    pb.KRABY_COLOR_YELLOW,
    pb.KRABY_COLOR_PINK,
)
COLOR_NAMES: dict[int, str] = {
    c: pb.KrabyColor.Name(c).removeprefix("KRABY_COLOR_").lower() for c in COLORS
}

# Cell values (KrabyCell). A tile of colour c is cell value c + TILE_OFFSET.
EMPTY = pb.KRABY_CELL_EMPTY
OFF_BOARD = pb.KRABY_CELL_OFF_BOARD
ISLAND_CELL = pb.KRABY_CELL_ISLAND
TILE_OFFSET = pb.KRABY_CELL_ORANGE - pb.KRABY_COLOR_ORANGE

# Points for a group of one species, by size (5 or more score 5).
GROUP_POINTS = {1: -1, 2: 0, 3: 1, 4: 3}
BIG_GROUP_POINTS = 5


def group_points(size: int) -> int:
    return GROUP_POINTS.get(size, BIG_GROUP_POINTS)


def playing_area(num_players: int) -> tuple[int, int]:
    """First and last row/column in play (K1): the central 9x9 with two players."""
    return (1, SIZE - 2) if num_players == 2 else (0, SIZE - 1)


def colors_in_play(num_players: int, excluded: int) -> tuple[int, ...]:
    return tuple(c for c in COLORS if num_players != 2 or c != excluded)


def tiles_per_color(num_players: int) -> int:
    return 20 if num_players == 2 else 24  # 80 tiles in four colours, or all 120


def figures_per_color(num_players: int) -> int:
    return 2 if num_players == 4 else 3  # K6


def max_figures_per_ship(num_players: int) -> int:
    return 2 if num_players == 4 else 3  # K6


MULTIPLIERS = (1, 2, 3)
