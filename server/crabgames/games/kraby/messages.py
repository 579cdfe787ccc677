"""Kraby's native values as its messages (core/wire.py): a state, an event, a seat's view. Every
message is written from the native value of the same shape (a NamedTuple's fields, or a tuple's
items in the message's order: tile counts by colour, a ship's holds), but for the few declared
here: a cell is a row and a column, and a view is the state as one seat may see it (G5): the
board, the ships and the figure supply are public; a fisher sees their own tiles, and of the
others' hands and the bag only how many tiles each holds."""

from __future__ import annotations

from typing import Final

from crabgames.core import wire
from crabgames.core.game import Seat, event_encoder
from crabgames.games.kraby import rules, words
from crabgames.games.kraby.data import PLAYING_AREA, SIZE
from crabgames.games.kraby.state import GAME_OVER, PLACE_FIGURE, PLACE_TILE, TURN_STEPS, KrabyState
from crabgames.v1 import kraby_pb2 as pb


def position(shapes: wire.Shapes) -> wire.Encoder:
    """A cell as its row and column on the 11x11 board (K1), the numbers its label prints."""
    read = {"row": lambda cell: cell // SIZE, "column": lambda cell: cell % SIZE}
    return wire.Encoder(pb.KrabyPosition, read, shapes)


def own_hand(seat: Seat) -> tuple[int, ...] | None:
    """A fisher's own tiles; nobody else's (a spectator has none)."""
    return None if seat.player is None else seat.state.hands[seat.player]


def decision(state: KrabyState) -> KrabyState | None:
    """What the table waits for, until the game is over."""
    return None if state.step == GAME_OVER else state


def state_field(name: str) -> wire.Read:
    return lambda seat: getattr(seat.state, name)


def open_decision(shapes: wire.Shapes) -> wire.Encoder:
    """Who decides (or receives a tile), and the open entries (they depend on the board alone,
    K5) or the figures (on the ships and the supply, K6), as every viewer may see them."""
    read: dict[str, wire.Read] = {
        "player": lambda state: state.turn_player,
        "entries": lambda state: rules.entry_points(state) if state.step == PLACE_TILE else (),
        "figures": lambda state: (
            rules.figure_placements(state) if state.step == PLACE_FIGURE else ()
        ),
    }
    return wire.Encoder(pb.KrabyDecision, read, shapes, remember=False)


SHAPES = wire.Shapes({pb.KrabyPosition: position, pb.KrabyDecision: open_decision})


# A hand's or a ship's bytes by its value: a tuple of its fields in the message's order (a
# hand's counts, a ship's holds).
HANDS: Final = wire.item_table(pb.KrabyState, "hands", SHAPES.encoder(pb.KrabyTileCounts))
SHIPS: Final = wire.item_table(pb.KrabyState, "ships", SHAPES.encoder(pb.KrabyShip))


# The hands' and the ships' bytes joined by typed functions (each piece read as a native
# attribute and looked up in place), not a map over them in the state's generated writer.
def hands_bytes(state: KrabyState) -> bytes:
    return b"".join([HANDS[hand] for hand in state.hands])


def ships_bytes(state: KrabyState) -> bytes:
    return b"".join([SHIPS[ship] for ship in state.ships])


STATE = wire.Encoder(
    pb.KrabyState,
    {"options": lambda state: (state.excluded_color, state.first_player)},
    SHAPES,
    remember=False,  # a state's board changes in place
    kept={"hands": hands_bytes, "ships": ships_bytes},
)
EVENT = event_encoder("kraby", words.event_sentence, SHAPES)
MOVE = SHAPES.encoder(pb.KrabyMove)  # a tile, a figure or none, by its class; a tile's stop cell
VIEW = wire.Encoder(
    pb.KrabyView,
    {
        "options": lambda seat: (seat.state.excluded_color, seat.state.first_player),
        "cells": state_field("cells"),
        "own_hand": own_hand,
        "hand_sizes": lambda seat: [sum(hand) for hand in seat.state.hands],
        "bag_size": lambda seat: sum(seat.state.bag),
        "ships": state_field("ships"),
        "figure_supply": state_field("figure_supply"),
        "step": state_field("step"),
        # a fisher's turn only: during the deal and after the end it is nobody's
        "turn_player": lambda seat: (
            seat.state.turn_player if seat.state.step in TURN_STEPS else None
        ),
        "turns_taken": state_field("turns_taken"),
        "playing_area": lambda seat: PLAYING_AREA[seat.state.num_players],
        "decision": lambda seat: decision(seat.state),
    },
    SHAPES,
    remember=False,
)
