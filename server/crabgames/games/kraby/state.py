"""Kraby's native state: the board with its lines of sight, the hands, the bag, the ships and the
figure supply, and the step the game is at."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from crabgames.games.kraby.data import CELLS, EMPTY, OFF_BOARD, SIZE, Color
from crabgames.v1 import kraby_pb2 as pb

Step: TypeAlias = pb.KrabyStep.ValueType

# The steps of the game, each with the name of the decision it waits for.
DEAL: Final = pb.KRABY_STEP_DEAL
PLACE_TILE: Final = pb.KRABY_STEP_PLACE_TILE
DRAW: Final = pb.KRABY_STEP_DRAW
PLACE_FIGURE: Final = pb.KRABY_STEP_PLACE_FIGURE
GAME_OVER: Final = pb.KRABY_STEP_GAME_OVER
STEP_NAMES: Final[dict[Step, str]] = {
    DEAL: "deal_tile",
    PLACE_TILE: "place_tile",
    DRAW: "draw_tile",
    PLACE_FIGURE: "place_figure",
    GAME_OVER: "game_over",
}
# The steps of a fisher's turn: during the deal and after the end, it is nobody's turn.
TURN_STEPS: Final = (PLACE_TILE, DRAW, PLACE_FIGURE)

# The colour in holds x1, x2 and x3 (NO_FIGURE: free). Any length to the type checker, so that
# mypyc keeps it a tuple object it can index by a hold's number (a fixed-length tuple it unpacks,
# and packs again on every such index).
Ship = tuple[Color, ...]


@dataclass(slots=True, init=False)
class KrabyState:
    """A position. A clone is taken before every move, so the pieces a move replaces rather than
    changes (the hands, the bag, the ships and the figure supply) are tuples a clone shares, and
    only the board and its lines of sight are copied.

    The lines of sight are ints used as bit sets: bit c of `row_blocked[r]` is set when cell
    (r, c) holds a tile or the sand bar, and bit r of `col_blocked[c]` likewise. Cells outside
    the playing area are never set, so the end of a line is the edge of the playing area.

    The __init__ is written out: the compiled build compiles it, but runs a dataclass's
    generated one interpreted (a clone is built on every call)."""

    num_players: int
    excluded_color: Color
    first_player: int
    cells: bytearray  # KrabyCell values, row-major, as the state message holds them
    hands: list[tuple[int, ...]]  # per seat, tile counts indexed by colour - 1
    bag: tuple[int, ...]  # tile counts indexed by colour - 1
    ships: list[Ship]  # per seat
    figure_supply: tuple[int, ...]  # figures beside the board, indexed by colour - 1
    step: Step
    turn_player: int
    turns_taken: int
    row_blocked: list[int]
    col_blocked: list[int]

    def __init__(
        self,
        num_players: int,
        excluded_color: Color,
        first_player: int,
        cells: bytearray,
        hands: list[tuple[int, ...]],
        bag: tuple[int, ...],
        ships: list[Ship],
        figure_supply: tuple[int, ...],
        step: Step,
        turn_player: int,
        turns_taken: int,
        row_blocked: list[int] | None = None,
        col_blocked: list[int] | None = None,
    ) -> None:
        self.num_players = num_players
        self.excluded_color = excluded_color
        self.first_player = first_player
        self.cells = cells
        self.hands = hands
        self.bag = bag
        self.ships = ships
        self.figure_supply = figure_supply
        self.step = step
        self.turn_player = turn_player
        self.turns_taken = turns_taken
        if row_blocked is None or col_blocked is None:
            self.rebuild_lines()  # from the cells, for a state just set up or decoded
        else:
            self.row_blocked, self.col_blocked = row_blocked, col_blocked

    def rebuild_lines(self) -> None:
        """The lines of sight from the cells."""
        self.row_blocked = [0] * SIZE
        self.col_blocked = [0] * SIZE
        for cell in range(CELLS):
            if self.cells[cell] not in (EMPTY, OFF_BOARD):
                self.block(cell)

    def block(self, cell: int) -> None:
        """A tile (or the sand bar) now stands on `cell`."""
        row, col = cell // SIZE, cell % SIZE
        # An item set to a new value, not changed in place (|=): mypyc compiles the first to
        # native int operations, the second to Python's number protocol.
        self.row_blocked[row] = self.row_blocked[row] | 1 << col
        self.col_blocked[col] = self.col_blocked[col] | 1 << row

    def copy(self) -> KrabyState:
        return KrabyState(
            self.num_players,
            self.excluded_color,
            self.first_player,
            self.cells[:],
            self.hands[:],
            self.bag,
            self.ships[:],
            self.figure_supply,
            self.step,
            self.turn_player,
            self.turns_taken,
            self.row_blocked[:],
            self.col_blocked[:],
        )

    def __copy__(self) -> KrabyState:
        """Python's copy protocol, as the engine clones a state."""
        return self.copy()


def counted(counts: tuple[int, ...], color: Color, change: int) -> tuple[int, ...]:
    """`counts` (indexed by colour - 1) with `change` more of `color`, as a new tuple: the old
    one may be shared with a clone."""
    changed = list(counts)
    changed[color - 1] = changed[color - 1] + change  # not +=: see KrabyState.block
    return tuple(changed)


def tiles_in(counts: tuple[int, ...]) -> int:
    """How many tiles a hand or the bag holds in all (`counts` indexed by colour - 1)."""
    return sum(count for count in counts)  # a generator: mypyc sums it in a native loop
