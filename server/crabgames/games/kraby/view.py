"""A seat's view of a Kraby game (G5): the board, the ships and the figure supply are public;
a fisher sees their own tiles, and of the others' hands and the bag only how many tiles each
holds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from crabgames.games.kraby import codec, rules
from crabgames.games.kraby.data import PLAYING_AREA, Cell
from crabgames.games.kraby.state import GAME_OVER, PLACE_FIGURE, PLACE_TILE, TURN_STEPS, KrabyState
from crabgames.v1 import kraby_pb2 as pb


def encode_view(state: KrabyState, player: int | None, msg: pb.KrabyView) -> None:
    """Fill the view of `player` (None: a spectator)."""
    msg.options.excluded_color = state.excluded_color
    msg.options.first_player = state.first_player
    msg.cells.extend(cast(Iterable[Cell], state.cells))
    if player is not None:
        codec.set_counts(msg.own_hand, state.hands[player])
    msg.hand_sizes.extend([sum(hand) for hand in state.hands])
    msg.bag_size = sum(state.bag)
    for ship in state.ships:
        codec.set_ship(msg.ships.add(), ship)
    codec.set_counts(msg.figure_supply, state.figure_supply)
    msg.step = state.step
    if state.step in TURN_STEPS:
        msg.turn_player = state.turn_player
    msg.turns_taken = state.turns_taken
    msg.playing_area.first, msg.playing_area.last = PLAYING_AREA[state.num_players]
    if state.step != GAME_OVER:
        encode_decision(state, msg.decision)


def encode_decision(state: KrabyState, msg: pb.KrabyDecision) -> None:
    """What the table waits for, as every viewer may see it: who decides (or receives a tile),
    and the open entries (they depend on the board alone, K5) or the figures (on the ships and
    the supply, K6)."""
    msg.step, msg.player = state.step, state.turn_player
    if state.step == PLACE_TILE:
        for entry in rules.entry_points(state):
            listed = msg.entries.add(edge=entry.edge, lane=entry.lane)
            codec.set_position(listed.stop, entry.stop)
    elif state.step == PLACE_FIGURE:
        for figure in rules.figure_placements(state):
            msg.figures.add(color=figure.color, multiplier=figure.multiplier)
