"""G6: nobody is ever stuck (docs/rules/general.md, "G6: nobody is ever stuck"), for Kraby
(docs/rules/kraby.md, "A fisher who cannot place a tile" and "A fisher who has no figure
placement left"): a fisher with an empty hand is passed over, and a figure decision with no
figure to place is skipped, automatically."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import (
    BLUE,
    GREEN,
    ORANGE,
    WEST,
)
from crabgames.games.kraby.events import (
    NO_TILES,
    FigureSkipped,
    TurnBegan,
    TurnPassed,
)
from crabgames.games.kraby.moves import SKIP_FIGURE, PlaceTile
from crabgames.games.kraby.state import PLACE_FIGURE, PLACE_TILE, counted
from tests.kraby.helpers import position


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


def test_when_no_figure_can_be_placed_the_turn_passes_on_by_itself():
    state = position(num_players=4)
    state.ships[0] = (ORANGE, GREEN, 0)
    state.figure_supply = counted(state.figure_supply, ORANGE, -1)
    state.figure_supply = counted(state.figure_supply, GREEN, -1)
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    GAME.apply_chance(state, BLUE)
    assert state.turn_player == 1 and state.step == PLACE_TILE


def test_every_other_fisher_is_asked_before_the_one_who_just_played_plays_again():
    # The bag is empty and fishers 1 and 2 have no tile: both pass, and fisher 0, the last of
    # the three asked, plays on (the game is not over while one fisher can place a tile).
    state = position()
    for seat in (1, 2):
        state.hands[seat] = (0,) * 5
    state.bag = (0,) * 5  # the rest of the tiles are imagined on the board elsewhere
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    assert state.step == PLACE_FIGURE
    events = GAME.apply_move(state, SKIP_FIGURE)
    assert events == [
        FigureSkipped(0),
        TurnPassed(1, NO_TILES),
        TurnPassed(2, NO_TILES),
        TurnBegan(0),
    ]
    assert state.turn_player == 0 and state.step == PLACE_TILE
