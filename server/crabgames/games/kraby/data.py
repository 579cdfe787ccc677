"""Kraby's components as data: the printed ones (rulebooks/kraby.txt, Components and Setup, as the
rulings K1, K2 and K6 read them) and the house defaults."""

from __future__ import annotations

from typing import Final, TypeAlias

from crabgames.v1 import kraby_pb2 as pb

Color: TypeAlias = pb.KrabyColor.ValueType
Edge: TypeAlias = pb.KrabyEdge.ValueType

# The colours, holds and edges are tuples of any length to the type checker, so that mypyc loops
# over them natively (a fixed-length tuple it packs into a new tuple object for every loop).

# ----- printed -----

# K1: an 11x11 board, rows and columns 0 to 10 from the top left, the sand bar in the centre.
SIZE: Final = 11
CELLS: Final = SIZE * SIZE
ISLAND: Final = 5 * SIZE + 5
PLAYER_COUNTS: Final = (2, 3, 4)
MAX_PLAYERS: Final = 4
# The first and last row (and column) in play, by number of fishers: two play on the central 9x9.
PLAYING_AREA: Final = {2: (1, 9), 3: (0, 10), 4: (0, 10)}

# K2: the five species, in scoring order.
ORANGE: Final = pb.KRABY_COLOR_ORANGE
GREEN: Final = pb.KRABY_COLOR_GREEN
BLUE: Final = pb.KRABY_COLOR_BLUE
YELLOW: Final = pb.KRABY_COLOR_YELLOW
PINK: Final = pb.KRABY_COLOR_PINK
COLORS: Final[tuple[Color, ...]] = (ORANGE, GREEN, BLUE, YELLOW, PINK)
COLOR_NAMES: Final[dict[int, str]] = {
    color: pb.KrabyColor.Name(color).removeprefix("KRABY_COLOR_").lower() for color in COLORS
}

# Setup: the tiles of each colour in the bag (80 in four colours with two fishers, else all
# 120), and each fisher's six behind the ship-screen.
TILES_PER_COLOR: Final = {2: 20, 3: 24, 4: 24}
HAND_SIZE: Final = 6

# K6: the crab figures of each colour beside the board, and how many one ship may hold.
FIGURES_PER_COLOR: Final = {2: 3, 3: 3, 4: 2}
FIGURES_PER_SHIP: Final = {2: 3, 3: 3, 4: 2}
MULTIPLIERS: Final[tuple[int, ...]] = (1, 2, 3)  # the holds x1, x2 and x3 of a ship
NO_FIGURE: Final = pb.KRABY_COLOR_UNSPECIFIED  # a free hold

# Crab Move: a tile is slid in from any of the four sides.
NORTH: Final = pb.KRABY_EDGE_NORTH
EAST: Final = pb.KRABY_EDGE_EAST
SOUTH: Final = pb.KRABY_EDGE_SOUTH
WEST: Final = pb.KRABY_EDGE_WEST
EDGES: Final[tuple[Edge, ...]] = (NORTH, EAST, SOUTH, WEST)

# Groups and Scoring Values: the points of a group of one species by its size, 5 or more
# scoring 5.
GROUP_POINTS: Final = {1: -1, 2: 0, 3: 1, 4: 3}
BIG_GROUP_POINTS: Final = 5

# ----- house defaults -----

DEFAULT_EXCLUDED_COLOR: Final = PINK  # K2: the colour that sits out with two fishers
DEFAULT_FIRST_PLAYER: Final = 0  # K7: the "youngest" fisher

# ----- the board as the state message holds it -----

# A cell's KrabyCell value: a tile of colour c is c + TILE_OFFSET.
EMPTY: Final = pb.KRABY_CELL_EMPTY
OFF_BOARD: Final = pb.KRABY_CELL_OFF_BOARD
ISLAND_CELL: Final = pb.KRABY_CELL_ISLAND
TILE_OFFSET: Final = pb.KRABY_CELL_ORANGE - pb.KRABY_COLOR_ORANGE
