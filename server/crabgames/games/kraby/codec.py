"""Kraby's codec: options, states and moves decoded field by field through the protobuf API, the
messages written by their shapes (messages.py), outcomes written here, labels in words.py. A
state no legal play could reach is refused with the path of the first problem."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Final

from crabgames.core.errors import InvalidArgument, bad_move, bad_request, bad_state
from crabgames.core.game import Codec, Messages, Words
from crabgames.games.kraby import rules, words
from crabgames.games.kraby.data import (
    CELLS,
    COLOR_NAMES,
    COLORS,
    DEFAULT_EXCLUDED_COLOR,
    DEFAULT_FIRST_PLAYER,
    EDGES,
    EMPTY,
    FIGURES_PER_COLOR,
    FIGURES_PER_SHIP,
    HAND_SIZE,
    ISLAND,
    ISLAND_CELL,
    MULTIPLIERS,
    NO_FIGURE,
    OFF_BOARD,
    PLAYING_AREA,
    SIZE,
    TILE_OFFSET,
    Color,
)
from crabgames.games.kraby.events import (
    Event,
)
from crabgames.games.kraby.messages import EVENT, MOVE, STATE, VIEW
from crabgames.games.kraby.moves import SKIP_FIGURE, Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.rules import KrabyOutcome
from crabgames.games.kraby.state import (
    DEAL,
    DRAW,
    GAME_OVER,
    PLACE_FIGURE,
    PLACE_TILE,
    STEP_NAMES,
    KrabyState,
    Ship,
)
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

COLOR_FIELDS: Final = tuple(COLOR_NAMES[color] for color in COLORS)  # KrabyTileCounts, by colour

Options = tuple[Color, int]  # the excluded colour (K2) and the first player (K7)
Fail = Callable[[str, str], InvalidArgument]


# ----- pieces of messages -----


def counts_msg(counts: Sequence[int]) -> pb.KrabyTileCounts:
    msg = pb.KrabyTileCounts()
    msg.orange, msg.green, msg.blue, msg.yellow, msg.pink = counts
    return msg


def decode_counts(msg: pb.KrabyTileCounts, path: str) -> list[int]:
    counts = [getattr(msg, name) for name in COLOR_FIELDS]
    for name, count in zip(COLOR_FIELDS, counts, strict=True):
        if count < 0:
            raise bad_state(f"{path}.{name}", "cannot be negative")
    return counts


# ----- options -----


def decode_options(
    options: pb.KrabyOptions, num_players: int, path: str, fail: Fail = bad_request
) -> Options:
    """The options of a new game (bad_request), or of a state sent back (bad_state)."""
    excluded = options.excluded_color or DEFAULT_EXCLUDED_COLOR
    if excluded not in COLORS:
        raise fail(f"{path}.excluded_color", f"unknown colour {excluded}")
    first = options.first_player if options.HasField("first_player") else DEFAULT_FIRST_PLAYER
    if not 0 <= first < num_players:
        raise fail(f"{path}.first_player", f"must be a seat from 0 to {num_players - 1}")
    return excluded, first


# ----- states -----


def decode_state(msg: pb.KrabyState, n: int, path: str) -> KrabyState:
    """Build the native state, checking that it is one legal play could reach."""
    excluded, first = decode_options(msg.options, n, f"{path}.options", bad_state)
    if len(msg.cells) != CELLS:  # before the cells become a list
        raise bad_state(
            f"{path}.cells", f"must hold {CELLS} cells (11x11, row-major), has {len(msg.cells)}"
        )
    values = list(msg.cells)
    check_cells(values, n, excluded, f"{path}.cells")
    cells = bytearray(values)  # every value checked: each fits a byte
    if len(msg.hands) != n:
        raise bad_state(f"{path}.hands", f"needs one hand per player ({n}), has {len(msg.hands)}")
    hands = [tuple(decode_counts(h, f"{path}.hands[{i}]")) for i, h in enumerate(msg.hands)]
    bag = tuple(decode_counts(msg.bag, f"{path}.bag"))
    if len(msg.ships) != n:
        raise bad_state(f"{path}.ships", f"needs one ship per player ({n}), has {len(msg.ships)}")
    ships: list[Ship] = [(s.hold_x1, s.hold_x2, s.hold_x3) for s in msg.ships]
    supply = tuple(decode_counts(msg.figure_supply, f"{path}.figure_supply"))
    check_figures(ships, supply, n, excluded, path)
    if msg.step not in STEP_NAMES:
        raise bad_state(f"{path}.step", f"unknown step {msg.step}")
    if not 0 <= msg.turn_player < n:
        raise bad_state(f"{path}.turn_player", f"must be a seat from 0 to {n - 1}")
    tiles_on_board = sum(1 for v in values if v > ISLAND_CELL)
    if msg.turns_taken != tiles_on_board:
        raise bad_state(
            f"{path}.turns_taken",
            f"is {msg.turns_taken} but {tiles_on_board} tiles are on the board",
        )
    state = KrabyState(
        n,
        excluded,
        first,
        cells,
        hands,
        bag,
        ships,
        supply,
        msg.step,
        msg.turn_player,
        msg.turns_taken,
    )
    for field, why in rules.laws_broken(state):
        raise bad_state(f"{path}.{field}", why)
    check_step(state, path)
    return state


def check_cells(cells: Sequence[int], n: int, excluded: Color, path: str) -> None:
    inside, outside, allowed = cell_layout(n, excluded)
    if (
        cells[ISLAND] == ISLAND_CELL
        and all(cells[i] == OFF_BOARD for i in outside)
        and all(cells[i] in allowed for i in inside)
    ):
        return  # the quick check passed; otherwise find and name the first bad cell below
    for i, value in enumerate(cells):
        if i == ISLAND:
            if value != ISLAND_CELL:
                raise bad_state(f"{path}[{i}]", "must be the island (K1)")
        elif i in outside:
            if value != OFF_BOARD:
                raise bad_state(f"{path}[{i}]", "is outside the playing area: must be OFF_BOARD")
        elif value not in allowed:
            raise bad_state(f"{path}[{i}]", "must be EMPTY or a tile of a colour in play")


@functools.cache
def cell_layout(n: int, excluded: Color) -> tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]:
    """(cells inside the playing area but the island, cells outside it, the values allowed
    inside: EMPTY or a tile of a colour in play), for `check_cells`."""
    low, high = PLAYING_AREA[n]
    inside: list[int] = []
    outside: list[int] = []
    for i in range(CELLS):
        row, col = divmod(i, SIZE)
        if i != ISLAND:
            (inside if low <= row <= high and low <= col <= high else outside).append(i)
    in_play = rules.colors_in_play(n, excluded)
    allowed = frozenset([EMPTY, *(c + TILE_OFFSET for c in in_play)])
    return tuple(inside), tuple(outside), allowed


def check_figures(
    ships: list[Ship], supply: tuple[int, ...], n: int, excluded: Color, path: str
) -> None:
    in_play = rules.colors_in_play(n, excluded)
    seen: set[tuple[int, int]] = set()
    for i, ship in enumerate(ships):
        for m, color in zip(MULTIPLIERS, ship, strict=True):
            where = f"{path}.ships[{i}].hold_x{m}"
            if color != NO_FIGURE and color not in in_play:
                raise bad_state(where, "must be empty or a colour in play")
            if color != NO_FIGURE and (color, m) in seen:
                raise bad_state(where, f"another ship has {COLOR_NAMES[color]} at x{m} (K6)")
            seen.add((color, m))
        placed = [c for c in ship if c != NO_FIGURE]
        if len(set(placed)) != len(placed):
            raise bad_state(f"{path}.ships[{i}]", "holds two figures of one colour (K6)")
        if rules.room_on_ship(ship, n) < 0:
            raise bad_state(f"{path}.ships[{i}]", f"holds more than {FIGURES_PER_SHIP[n]} (K6)")
    for color in COLORS:
        expected = FIGURES_PER_COLOR[n] if color in in_play else 0
        count = supply[color - 1] + sum(ship.count(color) for ship in ships)
        if count != expected:
            raise bad_state(
                f"{path}.figure_supply.{COLOR_NAMES[color]}",
                f"{count} {COLOR_NAMES[color]} figures in all; the game has {expected}",
            )


def check_step(state: KrabyState, path: str) -> None:
    """The step and hands must fit each other (a state only legal play could reach)."""
    sizes = [sum(hand) for hand in state.hands]
    bag = sum(state.bag)
    step, turn = state.step, state.turn_player
    if step == DEAL:
        ok = state.turns_taken == 0 and all(
            s == (HAND_SIZE if p < turn else 0) for p, s in enumerate(sizes) if p != turn
        )
        ok = ok and sizes[turn] < HAND_SIZE
    elif step == DRAW:
        ok = bag > 0 and sizes[turn] == HAND_SIZE - 1
    elif step == GAME_OVER:
        ok = True
    else:
        ok = not (bag and any(s != HAND_SIZE for p, s in enumerate(sizes) if p != turn))
        ok = ok and (step != PLACE_TILE or bool(sizes[turn] and rules.has_entry_point(state)))
        ok = ok and (step != PLACE_FIGURE or bool(rules.figure_placements(state)))
    if not ok:
        raise bad_state(
            f"{path}.step",
            f"{STEP_NAMES[step]} does not fit the hands, bag and board; no legal play leads here",
        )


# ----- moves -----


# Every tile placement there is, by its (edge, lane, colour): a valid one decodes to a shared
# PlaceTile by one lookup. A tile as sent says nothing of where it stops (its `stop` is only
# listed, and ignored here).
TILES: Final = {
    (edge, lane, color): PlaceTile(edge, lane, color)
    for edge in EDGES
    for lane in range(SIZE)
    for color in COLORS
}


def decode_move(msg: pb.KrabyMove, path: str) -> Move:
    which = msg.WhichOneof("move")
    if which == "place_tile":
        tile = msg.place_tile
        known = TILES.get((tile.edge, tile.lane, tile.color))
        if known is not None:
            return known
        if tile.edge not in words.EDGE_NAMES:
            raise bad_move(f"{path}.place_tile.edge", "must be NORTH, EAST, SOUTH or WEST")
        if not 0 <= tile.lane < SIZE:
            raise bad_move(f"{path}.place_tile.lane", f"must be a row or column 0..{SIZE - 1}")
        raise bad_move(f"{path}.place_tile.color", "must be a crab colour")
    if which == "place_figure":
        figure = msg.place_figure
        if figure.color not in COLORS:
            raise bad_move(f"{path}.place_figure.color", "must be a crab colour")
        if figure.multiplier not in MULTIPLIERS:
            raise bad_move(f"{path}.place_figure.multiplier", "must be 1, 2 or 3")
        return PlaceFigure(figure.color, figure.multiplier)
    if which == "skip_figure":
        return SKIP_FIGURE
    raise bad_move(f"{path}.move", "no move given: set place_tile, place_figure or skip_figure")


# ----- outcomes -----


def encode_outcome(outcome: KrabyOutcome, msg: game_pb2.Outcome) -> None:
    for fisher, rank in zip(outcome.fishers, outcome.ranks, strict=True):
        msg.players.add(
            player=fisher.player,
            score=fisher.total,
            rank=rank,
            winner=fisher.player in outcome.winners,
        )
    msg.winners.extend(outcome.winners)
    scores = ", ".join(f"player {f.player} {f.total}" for f in outcome.fishers)
    who = " and ".join(f"player {p}" for p in outcome.winners)
    msg.summary = f"{who} win{'s' if len(outcome.winners) == 1 else ''} ({scores})"
    for species in outcome.species:
        msg.kraby.species.add(
            color=species.color, group_sizes=species.group_sizes, points=species.points
        )
    for fisher in outcome.fishers:
        f = msg.kraby.fishers.add(
            player=fisher.player, total=fisher.total, best_contribution=fisher.best_contribution
        )
        for color, m, points in fisher.contributions:
            f.contributions.add(color=color, multiplier=m, species_points=points, points=m * points)


CODEC: Codec[KrabyState, Move, Event, KrabyOutcome] = Codec(
    Messages(pb.KrabyState, STATE, EVENT, VIEW, MOVE, encode_outcome),
    decode_options,
    decode_state,
    decode_move,
    Words(words.move_label, words.chance_label),
)
