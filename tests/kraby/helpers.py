"""Build Kraby positions by hand for rulebook examples."""

from __future__ import annotations

from crabgames.games.kraby import rules
from crabgames.games.kraby.data import SIZE, TILE_OFFSET
from crabgames.v1 import kraby_pb2 as pb

ORANGE, GREEN, BLUE, YELLOW, PINK = (
    pb.KRABY_COLOR_ORANGE,
    pb.KRABY_COLOR_GREEN,
    pb.KRABY_COLOR_BLUE,
    pb.KRABY_COLOR_YELLOW,
    pb.KRABY_COLOR_PINK,
)
NORTH, EAST, SOUTH, WEST = rules.NORTH, rules.EAST, rules.SOUTH, rules.WEST


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def position(
    num_players: int = 3, tiles: dict[tuple[int, int], int] | None = None, hand=None
) -> rules.KrabyState:
    """A mid-game state at the turn of player 0 with `tiles` on the board; the tiles come out of
    the bag so every count stays consistent."""
    state = rules.new_state(num_players, PINK, 0)
    for (row, col), color in (tiles or {}).items():
        state.cells[cell(row, col)] = color + TILE_OFFSET
        state.bag = rules.counted(state.bag, color, -1)
        state.turns_taken += 1
    state.rebuild_lines()
    for player in range(num_players):
        wanted = hand if (player == 0 and hand) else [ORANGE, GREEN, BLUE, YELLOW, PINK, ORANGE]
        for color in wanted:
            state.hands[player] = rules.counted(state.hands[player], color, 1)
            state.bag = rules.counted(state.bag, color, -1)
    state.step = rules.PLACE_TILE
    return state


def listed(state: rules.KrabyState) -> list[object]:
    """The legal moves, each tile without the stop cell it is listed with: as a fisher sends a
    move, so that a test can ask whether a move is among them, and whether one is not."""
    return [
        move._replace(stop=None) if isinstance(move, rules.PlaceTile) else move
        for move in rules.legal_moves(state)
    ]


def with_count(counts: tuple[int, ...], color: int, count: int) -> tuple[int, ...]:
    """`counts` (by colour - 1) with exactly `count` of `color`."""
    return rules.counted(counts, color, count - counts[color - 1])
