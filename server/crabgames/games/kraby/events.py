"""Kraby's events, and who sees each (G5).

Each kind ends with its `kind`, the name of its field in KrabyEvent, so that events of two kinds
never compare equal (a tile dealt and a tile drawn carry the same numbers)."""

from __future__ import annotations

import functools
from typing import Final, Literal, NamedTuple, TypeAlias

from crabgames.core.game import built_once
from crabgames.games.kraby.data import MAX_PLAYERS, Color, Edge
from crabgames.games.kraby.state import KrabyState
from crabgames.v1 import kraby_pb2 as pb

PassReason: TypeAlias = pb.KrabyPassReason.ValueType
EndReason: TypeAlias = pb.KrabyEndReason.ValueType

NO_TILES: Final = pb.KRABY_PASS_REASON_NO_TILES
NO_ENTRY: Final = pb.KRABY_PASS_REASON_NO_ENTRY
ALL_TILES_PLACED: Final = pb.KRABY_END_REASON_ALL_TILES_PLACED
NO_FISHER_CAN_PLACE: Final = pb.KRABY_END_REASON_NO_FISHER_CAN_PLACE

HIDDEN_COLOR: Final = pb.KRABY_COLOR_UNSPECIFIED  # a tile's colour in the copy other seats see


class TileDealt(NamedTuple):
    player: int
    color: Color  # HIDDEN_COLOR in the copy the other seats see
    hand_size: int  # after it
    bag_size: int
    kind: Literal["tile_dealt"] = "tile_dealt"


class TilePlaced(NamedTuple):
    player: int
    edge: Edge
    lane: int
    color: Color
    stop: int  # the cell where it stopped (K3)
    hand_size: int  # after it
    kind: Literal["tile_placed"] = "tile_placed"


class TileDrawn(NamedTuple):
    player: int
    color: Color  # HIDDEN_COLOR in the copy the other seats see
    hand_size: int  # after it
    bag_size: int
    kind: Literal["tile_drawn"] = "tile_drawn"


# A tile placed and a tile drawn happen every turn; an event never changes, so each value met is
# built once and shared (core.game.built_once), as CRAB RAGE!'s commonest events are.
tile_placed: Final = built_once(TilePlaced)
tile_drawn: Final = built_once(TileDrawn)


class FigurePlaced(NamedTuple):
    player: int
    color: Color
    multiplier: int
    supply_left: int  # figures of that colour left beside the board
    kind: Literal["figure_placed"] = "figure_placed"


class FigureSkipped(NamedTuple):
    player: int
    kind: Literal["figure_skipped"] = "figure_skipped"


class TurnBegan(NamedTuple):
    player: int
    kind: Literal["turn_began"] = "turn_began"


# TURN_BEGAN[seat]: an event is immutable, so one per seat, built once.
TURN_BEGAN: Final = tuple(TurnBegan(seat) for seat in range(MAX_PLAYERS))


class TurnPassed(NamedTuple):
    player: int
    reason: PassReason
    kind: Literal["turn_passed"] = "turn_passed"


class GameEnded(NamedTuple):
    reason: EndReason
    kind: Literal["game_ended"] = "game_ended"


Event = (
    TileDealt
    | TilePlaced
    | TileDrawn
    | FigurePlaced
    | FigureSkipped
    | TurnBegan
    | TurnPassed
    | GameEnded
)


def redact_event(event: Event, viewer: int | None) -> Event:
    """A tile dealt or drawn is seen whole by its fisher only: the others (and spectators) see
    who received it and the hand's and the bag's sizes, anyone at the table can count those,
    but not its colour. Every other event is public."""
    if isinstance(event, (TileDealt, TileDrawn)) and event.player != viewer:
        return without_color(event)
    return event


@functools.lru_cache(maxsize=1024)  # every other seat and the spectator ask for the same copy
def without_color(event: TileDealt | TileDrawn) -> TileDealt | TileDrawn:
    return event._replace(color=HIDDEN_COLOR)


def chance_hidden_from(state: KrabyState) -> list[int]:
    """Every chance event is a tile into the hand of the fisher to play: only they see it."""
    return [seat for seat in range(state.num_players) if seat != state.turn_player]
