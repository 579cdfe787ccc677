"""Kraby's reference reducer: a `KrabyView` brought up to date from the events one viewer sees,
read from the events' data alone (never their text), as a front end animating them would.

Every change at the table has its event: a tile dealt or drawn (the hand's and the bag's sizes
after it, the colour for its fisher only), a tile placed (where it stopped, the hand after it),
a figure placed (its hold, the supply left), a turn beginning, a pass and the end. The step
follows from them; after a placement or a draw the fisher may place a figure next, unless the
turn ends at once, which the next event (a turn beginning, or the end) then says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

DERIVED_FIELDS: tuple[str, ...] = (
    # The decision being waited for: its open entries follow from the whole board (K3, K4) and
    # its figures from every ship and the supply (K6); no event tells them, each view brings
    # them anew.
    "decision",
)

SIZE = 11  # the board's rows and columns (K1): a cell's index is row * 11 + column
COLOR_FIELDS = {
    pb.KRABY_COLOR_ORANGE: "orange",
    pb.KRABY_COLOR_GREEN: "green",
    pb.KRABY_COLOR_BLUE: "blue",
    pb.KRABY_COLOR_YELLOW: "yellow",
    pb.KRABY_COLOR_PINK: "pink",
}
TILE_CELL = {color: pb.KRABY_CELL_ORANGE + color - pb.KRABY_COLOR_ORANGE for color in COLOR_FIELDS}
HOLDS = {1: "hold_x1", 2: "hold_x2", 3: "hold_x3"}


def add_to_own_hand(view: pb.KrabyView, color: int, change: int) -> None:
    field = COLOR_FIELDS[color]
    setattr(view.own_hand, field, getattr(view.own_hand, field) + change)


def into_hand(view: pb.KrabyView, tile: pb.KrabyTileDealt | pb.KrabyTileDrawn, viewer: int | None):
    """A tile from the bag into a hand: everyone sees both sizes; its fisher sees the colour."""
    view.hand_sizes[tile.player] = tile.hand_size
    view.bag_size = tile.bag_size
    if tile.player == viewer and tile.color:
        add_to_own_hand(view, tile.color, 1)


def tile_dealt(view: pb.KrabyView, dealt: pb.KrabyTileDealt, viewer: int | None) -> None:
    into_hand(view, dealt, viewer)


def tile_drawn(view: pb.KrabyView, drawn: pb.KrabyTileDrawn, viewer: int | None) -> None:
    into_hand(view, drawn, viewer)
    view.step = pb.KRABY_STEP_PLACE_FIGURE  # unless the turn ends at once (the next event)


def tile_placed(view: pb.KrabyView, placed: pb.KrabyTilePlaced, viewer: int | None) -> None:
    view.cells[placed.stop.row * SIZE + placed.stop.column] = TILE_CELL[placed.color]
    view.hand_sizes[placed.player] = placed.hand_size
    if placed.player == viewer:
        add_to_own_hand(view, placed.color, -1)
    view.turns_taken += 1
    # The fisher draws back to six while the bag has tiles; then comes the figure, unless the
    # turn ends at once (the next event).
    view.step = pb.KRABY_STEP_DRAW if view.bag_size else pb.KRABY_STEP_PLACE_FIGURE


def figure_placed(view: pb.KrabyView, figure: pb.KrabyFigurePlaced, viewer: int | None) -> None:
    setattr(view.ships[figure.player], HOLDS[figure.multiplier], figure.color)
    setattr(view.figure_supply, COLOR_FIELDS[figure.color], figure.supply_left)


def turn_began(view: pb.KrabyView, began: pb.KrabyTurnBegan, viewer: int | None) -> None:
    view.turn_player = began.player
    view.step = pb.KRABY_STEP_PLACE_TILE


def game_ended(view: pb.KrabyView, ended: pb.KrabyGameEnded, viewer: int | None) -> None:
    view.step = pb.KRABY_STEP_GAME_OVER
    view.ClearField("turn_player")  # nobody's turn any more


def changes_nothing(view: pb.KrabyView, event: Any, viewer: int | None) -> None:
    """A skipped figure or a pass: said, but nothing at the table changes (the next turn's
    beginning, or the end, follows)."""


HANDLERS: dict[str, Callable[[pb.KrabyView, Any, int | None], None]] = {
    "tile_dealt": tile_dealt,
    "tile_drawn": tile_drawn,
    "tile_placed": tile_placed,
    "figure_placed": figure_placed,
    "figure_skipped": changes_nothing,
    "turn_began": turn_began,
    "turn_passed": changes_nothing,
    "game_ended": game_ended,
}


def apply_event(view: pb.KrabyView, event: game_pb2.Event, viewer: int | None) -> None:
    """`view` (the game's part of `viewer`'s View; None: a spectator) after `event`."""
    if event.WhichOneof("event") != "kraby":
        return  # a forced move: its own events follow
    kind = event.kraby.WhichOneof("event")
    assert kind is not None, "a Kraby event without its data"
    HANDLERS[kind](view, getattr(event.kraby, kind), viewer)
