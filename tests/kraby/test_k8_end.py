"""K8: the end (docs/rules/kraby.md, "K8: the end", and the rulebook's "End of the Game"): the game
ends when every tile is on the board, or, by G6, when no fisher can place a tile (each fisher
then passes, saying why); the end says which of the two it is."""

from __future__ import annotations

from crabgames.core.game import Decision
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import COLORS, EMPTY, ISLAND, ORANGE, SIZE, TILE_OFFSET
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    GameEnded,
    TurnPassed,
)
from crabgames.games.kraby.state import KrabyState, counted


def full_board_except_row(row: int) -> KrabyState:
    """Every cell taken but one row: no tile can enter anywhere (K3), though every free cell
    still sees an edge (K4)."""
    state = rules.initial_state(3, (5, 0))
    placed = 0
    for cell in range(SIZE * SIZE):
        if cell != ISLAND and cell // SIZE != row:
            color = COLORS[placed % 5]
            state.cells[cell] = color + TILE_OFFSET
            state.bag = counted(state.bag, color, -1)
            placed += 1
    for color in COLORS:  # the 11 tiles left go to two hands
        while state.bag[color - 1]:
            player = 0 if sum(state.hands[0]) < 6 else 1
            state.hands[player] = counted(state.hands[player], color, 1)
            state.bag = counted(state.bag, color, -1)
    state.turns_taken = placed
    state.rebuild_lines()
    return state


def test_when_no_fisher_can_place_a_tile_the_game_ends():
    state = full_board_except_row(3)
    assert rules.unfillable_cells(state) == []
    assert rules.entry_points(state) == ()
    events = rules.begin_turn(state)
    # Fishers 0 and 1 hold the tiles left but have no entry; fisher 2's hand is empty (G6).
    assert events == [
        TurnPassed(0, NO_ENTRY),
        TurnPassed(1, NO_ENTRY),
        TurnPassed(2, NO_TILES),
        GameEnded(NO_FISHER_CAN_PLACE),
    ]
    assert GAME.next_decision(state) == Decision.game_over()
    assert GAME.outcome(state) is not None


def test_the_game_ends_when_every_tile_is_on_the_board():
    state = full_board_except_row(3)
    state.hands = [(0,) * 5] * 3
    state.cells = bytearray(c if c != EMPTY else ORANGE + TILE_OFFSET for c in state.cells)
    state.rebuild_lines()
    assert rules.begin_turn(state) == [GameEnded(ALL_TILES_PLACED)]
