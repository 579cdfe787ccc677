"""Turn flow: the deal, drawing back to six, passing when no tile fits (G6) and the end (K8)."""

from __future__ import annotations

from crabgames.core.game import Decision
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import BLUE, COLORS, EMPTY, ISLAND, ORANGE, SIZE, TILE_OFFSET, WEST
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    FigureSkipped,
    GameEnded,
    TurnBegan,
    TurnPassed,
)
from crabgames.games.kraby.moves import SKIP_FIGURE, PlaceTile
from crabgames.games.kraby.state import PLACE_FIGURE, KrabyState, counted
from tests.kraby.helpers import position


def test_the_deal_gives_six_tiles_to_each_fisher_then_the_first_player_starts():
    state = rules.set_up(3, 5, first_player=2)
    for _ in range(18):
        assert GAME.next_decision(state).name == "deal_tile"
        GAME.apply_chance(state, ORANGE if sum(state.bag[1:]) == 0 else BLUE)
    assert [sum(h) for h in state.hands] == [6, 6, 6]
    assert GAME.next_decision(state) == Decision.player_decides(2, "place_tile")


def test_after_placing_a_tile_the_fisher_draws_back_to_six():
    state = position()
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    assert sum(state.hands[0]) == 5
    assert GAME.next_decision(state).name == "draw_tile"
    outcomes = dict(GAME.chance_outcomes(state))
    assert outcomes == {c: state.bag[c - 1] for c in COLORS if state.bag[c - 1]}
    GAME.apply_chance(state, BLUE)
    assert sum(state.hands[0]) == 6


def full_board_except_row(row: int) -> KrabyState:
    """Every cell taken but one row: no tile can enter anywhere (K3), though every free cell
    still sees an edge (K4)."""
    state = rules.set_up(3, 5, 0)
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


def test_a_fisher_with_an_empty_hand_is_skipped():
    state = position()
    state.bag = tuple(b + h for b, h in zip(state.bag, state.hands[1], strict=True))
    state.hands[1] = (0,) * 5
    state.bag = (0,) * 5  # the rest of the tiles are imagined on the board elsewhere
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    if state.step == PLACE_FIGURE:
        events = GAME.apply_move(state, SKIP_FIGURE)
        assert events == [
            FigureSkipped(0),
            TurnPassed(1, NO_TILES),
            TurnBegan(2),
        ]
    assert state.turn_player == 2
