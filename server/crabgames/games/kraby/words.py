"""Kraby in words: move labels, chance labels, and each event's template and sentence. Rows and
columns are the whole board's (0 to 10 at every player count, K1), as the moves and events
carry them."""

from __future__ import annotations

import functools
from typing import Final

from crabgames.games.kraby import rules
from crabgames.games.kraby.data import COLOR_NAMES, EAST, NORTH, SIZE, SOUTH, WEST, Color, Edge
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    HIDDEN_COLOR,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    Event,
    FigurePlaced,
    FigureSkipped,
    GameEnded,
    TileDealt,
    TileDrawn,
    TilePlaced,
    TurnBegan,
    TurnPassed,
)
from crabgames.games.kraby.moves import Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import DEAL, KrabyState

EDGE_NAMES: Final[dict[int, str]] = {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}


def a_tile(color: int, thing: str = "tile") -> str:
    """'an orange tile'; just 'a tile' when the colour is hidden (unspecified)."""
    if color not in COLOR_NAMES:
        return f"a {thing}"
    name = COLOR_NAMES[color]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} {thing}"


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"row {row}, column {col}"


def lane_kind(edge: Edge) -> str:
    return "column" if edge in (NORTH, SOUTH) else "row"


# Every tile there is, with every stop it can have: at most 4 x 11 x 11 x 5 labels.
@functools.lru_cache(maxsize=4096)
def tile_label(edge: Edge, lane: int, color: Color, stop: int | None) -> str:
    """The tile's label: its colour, where it enters and where it stops."""
    where = f" to {cell_name(stop)}" if stop is not None else ""
    return (
        f"slide {COLOR_NAMES[color]} in from the {EDGE_NAMES[edge]} along "
        f"{lane_kind(edge)} {lane}{where}"
    )


def move_label(state: KrabyState, move: Move) -> str:
    if isinstance(move, PlaceTile):
        stop = move.stop
        if stop is None:
            stop = rules.where_the_tile_stops(state, move.edge, move.lane)
        return tile_label(move.edge, move.lane, move.color, stop)
    if isinstance(move, PlaceFigure):
        return f"put {a_tile(move.color, 'figure')} in hold x{move.multiplier}"
    return "place no figure"


def chance_label(state: KrabyState, color: int) -> str:
    verb = "deal" if state.step == DEAL else "draw"
    return f"{verb} {a_tile(color)} to player {state.turn_player}"


# ----- event sentences: a template per kind (and per variant), its placeholders from the event


def seat(player: int) -> dict[str, str]:
    return {"player": str(player)}


def into_hand_sentence(event: TileDealt | TileDrawn) -> tuple[str, dict[str, str]]:
    """A tile dealt, or drawn back to six, into a hand."""
    verb = "is dealt" if isinstance(event, TileDealt) else "draws"
    if event.color == HIDDEN_COLOR:  # as the other seats see it
        return "player {player} " + verb + " a tile", seat(event.player)
    args = seat(event.player) | {"color": COLOR_NAMES[event.color]}
    return "player {player} " + verb + " one {color} tile", args


def placed_sentence(event: TilePlaced) -> tuple[str, dict[str, str]]:
    row, column = divmod(event.stop, SIZE)
    args = seat(event.player) | {
        "color": COLOR_NAMES[event.color],
        "edge": EDGE_NAMES[event.edge],
        "lane": str(event.lane),
        "row": str(row),
        "column": str(column),
    }
    template = (
        "player {player} slides one {color} tile in from the {edge} along "
        + lane_kind(event.edge)
        + " {lane}; it stops at row {row}, column {column}"
    )
    return template, args


PASS_TEMPLATES: Final[dict[int, str]] = {
    NO_TILES: "player {player} has no tile left and passes",
    NO_ENTRY: "player {player} cannot slide a tile in anywhere and passes",
}
END_TEMPLATES: Final[dict[int, str]] = {
    ALL_TILES_PLACED: "the game ends: all tiles are placed",
    NO_FISHER_CAN_PLACE: "the game ends: no fisher can place a tile",
}


def event_sentence(event: Event) -> tuple[str, dict[str, str]]:
    """The event's template and the text of each of its placeholders."""
    match event:
        case TileDealt() | TileDrawn():
            return into_hand_sentence(event)
        case TilePlaced():
            return placed_sentence(event)
        case FigurePlaced(player, color, multiplier):
            args = seat(player) | {"color": COLOR_NAMES[color], "multiplier": str(multiplier)}
            return "player {player} puts one {color} figure in hold x{multiplier}", args
        case FigureSkipped(player):
            return "player {player} places no figure", seat(player)
        case TurnBegan(player):
            return "it is player {player}'s turn", seat(player)
        case TurnPassed(player, reason):
            return PASS_TEMPLATES[reason], seat(player)
        case GameEnded(reason):
            return END_TEMPLATES[reason], {}
