"""Kraby's components as data: the printed ones (rulebooks/kraby.txt, Components and Setup, as the
rulings K1, K2 and K6 read them) and the house defaults."""

from __future__ import annotations

from typing import TypeAlias

from crabgames.v1 import kraby_pb2 as pb

Color: TypeAlias = pb.KrabyColor.ValueType
Edge: TypeAlias = pb.KrabyEdge.ValueType
Cell: TypeAlias = pb.KrabyCell.ValueType

# ----- printed -----

# K1: an 11x11 board, rows and columns 0 to 10 from the top left, the sand bar in the centre.
SIZE = 11
CELLS = SIZE * SIZE
ISLAND = 5 * SIZE + 5
PLAYER_COUNTS = (2, 3, 4)
MAX_PLAYERS = 4
# The first and last row (and column) in play, by number of fishers: two play on the central 9x9.
PLAYING_AREA = {2: (1, 9), 3: (0, 10), 4: (0, 10)}

# K2: the five species, in scoring order.
ORANGE = pb.KRABY_COLOR_ORANGE
GREEN = pb.KRABY_COLOR_GREEN
BLUE = pb.KRABY_COLOR_BLUE
YELLOW = pb.KRABY_COLOR_YELLOW
PINK = pb.KRABY_COLOR_PINK
COLORS = (ORANGE, GREEN, BLUE, YELLOW, PINK)
COLOR_NAMES: dict[int, str] = {
    color: pb.KrabyColor.Name(color).removeprefix("KRABY_COLOR_").lower() for color in COLORS
}

# Setup: the tiles of each colour in the bag (80 in four colours with two fishers, else all
# 120), and each fisher's six behind the ship-screen.
TILES_PER_COLOR = {2: 20, 3: 24, 4: 24}
HAND_SIZE = 6

# K6: the crab figures of each colour beside the board, and how many one ship may hold.
FIGURES_PER_COLOR = {2: 3, 3: 3, 4: 2}
FIGURES_PER_SHIP = {2: 3, 3: 3, 4: 2}
MULTIPLIERS = (1, 2, 3)  # the holds x1, x2 and x3 of a ship
NO_FIGURE = pb.KRABY_COLOR_UNSPECIFIED  # a free hold

# Crab Move: a tile is slid in from any of the four sides.
NORTH = pb.KRABY_EDGE_NORTH
EAST = pb.KRABY_EDGE_EAST
SOUTH = pb.KRABY_EDGE_SOUTH
WEST = pb.KRABY_EDGE_WEST
EDGES = (NORTH, EAST, SOUTH, WEST)

# Groups and Scoring Values: the points of a group of one species by its size, 5 or more
# scoring 5.
GROUP_POINTS = {1: -1, 2: 0, 3: 1, 4: 3}
BIG_GROUP_POINTS = 5

# ----- house defaults -----

DEFAULT_EXCLUDED_COLOR = PINK  # K2: the colour that sits out with two fishers
DEFAULT_FIRST_PLAYER = 0  # K7: the "youngest" fisher

# ----- the board as the state message holds it -----

# A cell's KrabyCell value: a tile of colour c is c + TILE_OFFSET.
EMPTY = pb.KRABY_CELL_EMPTY
OFF_BOARD = pb.KRABY_CELL_OFF_BOARD
ISLAND_CELL = pb.KRABY_CELL_ISLAND
TILE_OFFSET = pb.KRABY_CELL_ORANGE - pb.KRABY_COLOR_ORANGE
