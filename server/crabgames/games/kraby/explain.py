"""Which rule an illegal Kraby move breaks, by the same rule functions the move generator calls
(rules.py), asked in the order a fisher meets them."""

from __future__ import annotations

from crabgames.core.game import Violation
from crabgames.games.kraby import rules
from crabgames.games.kraby.data import COLOR_NAMES
from crabgames.games.kraby.moves import Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import PLACE_FIGURE, PLACE_TILE, KrabyState
from crabgames.games.kraby.words import cell_name


def explain_illegal(state: KrabyState, move: Move) -> Violation:
    """Only asked once `rules.is_legal` said no."""
    if isinstance(move, PlaceTile):
        return explain_tile(state, move)
    if state.step != PLACE_FIGURE:
        return Violation(
            "Placing a Crab in the Ship's Hold",
            "a figure may only be placed right after placing a tile",
        )
    assert isinstance(move, PlaceFigure)  # "no figure" is legal whenever a figure is
    return explain_figure(state, move)


def explain_tile(state: KrabyState, move: PlaceTile) -> Violation:
    if state.step != PLACE_TILE:
        return Violation("A Player's Turn", "a tile may be placed only once per turn")
    if not rules.holds_a_tile(state, move.color):
        return Violation("Crab Move", f"there is no {COLOR_NAMES[move.color]} tile in your hand")
    lanes = rules.LANES[state.num_players]
    if move.lane not in lanes:
        area = f"{lanes.start}..{lanes.stop - 1}"
        return Violation("K1", f"lane {move.lane} is outside the playing area ({area})")
    stop = rules.where_the_tile_stops(state, move.edge, move.lane)
    if stop is None:
        return Violation(
            "K3",
            "nothing stops the tile on that line (or its entry cell is "
            "taken), so it cannot enter there",
        )
    assert not rules.may_enter(state, move.edge, move.lane)  # K4 is all that is left
    return Violation(
        "K4",
        f"stopping at {cell_name(stop)} would leave a free cell that no tile could ever reach",
    )


def explain_figure(state: KrabyState, move: PlaceFigure) -> Violation:
    player, name = state.turn_player, COLOR_NAMES[move.color]
    ship = state.ships[player]
    if not rules.ship_has_room(state, player):
        return Violation("K6", "your ship already holds as many figures as allowed")
    if not rules.figure_beside_the_board(state.figure_supply, move.color):
        return Violation("K6", f"no {name} figure is left next to the board")
    if rules.color_on_ship(ship, move.color):
        return Violation("K6", f"your ship already has a {name} figure")
    if not rules.hold_is_free(ship, move.multiplier):
        return Violation("K6", f"hold x{move.multiplier} of your ship is taken")
    assert (move.color, move.multiplier) in rules.holds_taken_on_other_ships(state, player)
    return Violation("K6", f"another ship already has {name} in hold x{move.multiplier}")
