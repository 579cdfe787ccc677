"""Build Kraby positions by hand for rulebook examples."""

from __future__ import annotations

from crabgames.games.kraby import rules
from crabgames.games.kraby.data import (
    BLUE,
    GREEN,
    ORANGE,
    PINK,
    SIZE,
    TILE_OFFSET,
    YELLOW,
)
from crabgames.games.kraby.moves import Move, PlaceTile
from crabgames.games.kraby.rules import Entry
from crabgames.games.kraby.state import PLACE_TILE, KrabyState, counted


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def position(
    num_players: int = 3, tiles: dict[tuple[int, int], int] | None = None, hand=None
) -> KrabyState:
    """A mid-game state at the turn of player 0 with `tiles` on the board; the tiles come out of
    the bag so every count stays consistent."""
    state = rules.set_up(num_players, PINK, 0)
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
