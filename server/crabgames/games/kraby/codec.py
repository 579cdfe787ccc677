"""Kraby's protobuf codec: decode and check states and moves (a state no legal play could reach
is refused with the path of the first problem), and encode states, moves, views and outcomes."""

from __future__ import annotations

import functools

from crabgames.core import wire
from crabgames.core.errors import bad_move, bad_state
from crabgames.games.kraby import rules
from crabgames.games.kraby.data import (
    CELLS,
    COLOR_NAMES,
    COLORS,
    HAND_SIZE,
    ISLAND,
    ISLAND_CELL,
    MULTIPLIERS,
    OFF_BOARD,
    SIZE,
    TILE_OFFSET,
    colors_in_play,
    figures_per_color,
    max_figures_per_ship,
    playing_area,
    tiles_per_color,
)
from crabgames.games.kraby.rules import (
    DEAL,
    DRAW,
    GAME_OVER,
    PLACE_FIGURE,
    PLACE_TILE,
    SKIP_FIGURE,
    KrabyState,
    PlaceFigure,
    PlaceTile,
)
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

COLOR_FIELDS = ("orange", "green", "blue", "yellow", "pink")
EDGE_NAMES: dict[int, str] = {
    rules.NORTH: "north",
    rules.EAST: "east",
    rules.SOUTH: "south",
    rules.WEST: "west",
}
STEP_NAMES: dict[int, str] = {
    DEAL: "deal_tile",
    PLACE_TILE: "place_tile",
    DRAW: "draw_tile",
    PLACE_FIGURE: "place_figure",
    GAME_OVER: "game_over",
}


def counts_msg(counts: list[int]) -> pb.KrabyTileCounts:
    msg = pb.KrabyTileCounts()
    set_counts(msg, counts)
    return msg


def set_counts(msg: pb.KrabyTileCounts, counts: list[int]) -> None:
    msg.orange, msg.green, msg.blue, msg.yellow, msg.pink = counts  # COLOR_FIELDS order


def set_ship(msg: pb.KrabyShip, ship: list[int]) -> None:
    msg.hold_x1, msg.hold_x2, msg.hold_x3 = ship


def set_position(msg: pb.KrabyPosition, cell: int) -> None:
    """A cell as its row and column on the 11x11 board (K1), the numbers its label prints."""
    msg.row, msg.column = divmod(cell, SIZE)


# The state is written as protobuf wire bytes and merged in one call: a message operation per
# field, hand and ship costs several times more. Every value in it is a small int (cells,
# colours, counts, seats, at most 120 turns), so each varint is one byte, and every submessage
# is under 128 bytes, so each length is one byte too.
assert CELLS < 128 and max(pb.KrabyCell.values()) < 128
assert pb.KrabyView.CELLS_FIELD_NUMBER == pb.KrabyState.CELLS_FIELD_NUMBER


def field_tag(number: int) -> bytes:
    """The tag of a length-delimited field (a message or packed scalars)."""
    return wire.tag(number, wire.LENGTH_DELIMITED)


# The cells as their packed repeated field: the packed body is just the cells' bytes.
CELLS_FIELD_HEAD = field_tag(pb.KrabyState.CELLS_FIELD_NUMBER) + bytes([CELLS])
OPTIONS_TAG = field_tag(pb.KrabyState.OPTIONS_FIELD_NUMBER)
HANDS_TAG = field_tag(pb.KrabyState.HANDS_FIELD_NUMBER)
BAG_TAG = field_tag(pb.KrabyState.BAG_FIELD_NUMBER)
SHIPS_TAG = field_tag(pb.KrabyState.SHIPS_FIELD_NUMBER)
SUPPLY_TAG = field_tag(pb.KrabyState.FIGURE_SUPPLY_FIELD_NUMBER)


def message_field(tag: bytes, kind: type, values: tuple[int, ...]) -> bytes:
    """A submessage field: `values` are the fields of `kind` in order (tile counts in
    COLOR_FIELDS order, a ship's holds, the options)."""
    names = [f.name for f in kind.DESCRIPTOR.fields]
    body = kind(**dict(zip(names, values, strict=True))).SerializeToString()
    return tag + bytes([len(body)]) + body


def field_table(tag: bytes, kind: type) -> wire.Remembered:
    """One state field's bytes by the piece's values (a hand, the bag, a ship, ...): the pieces
    are tuples, so looking one up costs no conversion."""
    return wire.Remembered(functools.partial(message_field, tag, kind))


OPTIONS_FIELD = field_table(OPTIONS_TAG, pb.KrabyOptions)
HAND_FIELD = field_table(HANDS_TAG, pb.KrabyTileCounts)
BAG_FIELD = field_table(BAG_TAG, pb.KrabyTileCounts)
SHIP_FIELD = field_table(SHIPS_TAG, pb.KrabyShip)
SUPPLY_FIELD = field_table(SUPPLY_TAG, pb.KrabyTileCounts)


def small_scalars(tag: int, has_presence: bool = False) -> list[bytes]:
    """A varint field's bytes for each value under 128, by value; proto3 leaves zero out, unless
    the field is `optional` (set, it is written whatever its value)."""
    return [bytes((tag, value)) if value or has_presence else b"" for value in range(128)]


STEP_FIELD = small_scalars(pb.KrabyState.STEP_FIELD_NUMBER << 3)  # varint fields: wire type 0
TURN_PLAYER_FIELD = small_scalars(pb.KrabyState.TURN_PLAYER_FIELD_NUMBER << 3, True)
TURNS_TAKEN_FIELD = small_scalars(pb.KrabyState.TURNS_TAKEN_FIELD_NUMBER << 3)


def add_cells(cells: bytearray, msg: pb.KrabyState | pb.KrabyView) -> None:
    msg.MergeFromString(CELLS_FIELD_HEAD + cells)


def encode_state_bytes(state: KrabyState) -> bytes:
    """The state serialized, its fields in field-number order (as protobuf's deterministic
    serialization writes them: the engine remembers states by these bytes)."""
    return b"".join(
        [
            OPTIONS_FIELD[state.excluded_color, state.first_player],
            CELLS_FIELD_HEAD,
            state.cells,
            *[HAND_FIELD[hand] for hand in state.hands],
            BAG_FIELD[state.bag],
            *[SHIP_FIELD[ship] for ship in state.ships],
            SUPPLY_FIELD[state.figure_supply],
            STEP_FIELD[state.step],
            TURN_PLAYER_FIELD[state.turn_player],
            TURNS_TAKEN_FIELD[state.turns_taken],
        ]
    )


# Every tile placement there is, by its (edge, lane, colour): a valid one decodes to a shared
# PlaceTile by one lookup. A tile as sent says nothing of where it stops (its `stop` is only
# listed, and ignored here).
TILES = {
    (edge, lane, color): PlaceTile(edge, lane, color)
    for edge in rules.EDGES
    for lane in range(SIZE)
    for color in COLORS
}


def decode_move(msg: pb.KrabyMove, path: str) -> object:
    which = msg.WhichOneof("move")
    if which == "place_tile":
        tile = msg.place_tile
        known = TILES.get((tile.edge, tile.lane, tile.color))
        if known is not None:
            return known
        if tile.edge not in EDGE_NAMES:
            raise bad_move(f"{path}.place_tile.edge", "must be NORTH, EAST, SOUTH or WEST")
        if not 0 <= tile.lane < SIZE:
            raise bad_move(f"{path}.place_tile.lane", f"must be a row or column 0..{SIZE - 1}")
        if tile.color not in COLORS:
            raise bad_move(f"{path}.place_tile.color", "must be a crab colour")
        return PlaceTile(tile.edge, tile.lane, tile.color)
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


def encode_move(move: object, msg: pb.KrabyMove) -> None:
    if isinstance(move, PlaceTile):
        tile = msg.place_tile
        tile.edge, tile.lane, tile.color = move.edge, move.lane, move.color
        if move.stop is not None:
            set_position(tile.stop, move.stop)
    elif isinstance(move, PlaceFigure):
        msg.place_figure.color, msg.place_figure.multiplier = move
    else:
        msg.skip_figure.SetInParent()


def encode_view(state: KrabyState, player: int | None, msg: pb.KrabyView) -> None:
    msg.options.excluded_color = state.excluded_color
    msg.options.first_player = state.first_player
    add_cells(state.cells, msg)
    if player is not None:
        set_counts(msg.own_hand, state.hands[player])
    msg.hand_sizes.extend([sum(hand) for hand in state.hands])
    msg.bag_size = sum(state.bag)
    for ship in state.ships:
        set_ship(msg.ships.add(), ship)
    set_counts(msg.figure_supply, state.figure_supply)
    msg.step = state.step
    if state.step in TURN_STEPS:
        msg.turn_player = state.turn_player
    msg.turns_taken = state.turns_taken
    msg.playing_area.first, msg.playing_area.last = playing_area(state.num_players)
    if state.step != GAME_OVER:
        encode_decision(state, msg.decision)


# The steps of a fisher's turn: during the deal and after the end, it is nobody's turn.
TURN_STEPS = (PLACE_TILE, DRAW, PLACE_FIGURE)


def encode_decision(state: KrabyState, msg: pb.KrabyDecision) -> None:
    """What the table waits for, as every viewer may see it: who decides (or receives a tile),
    and the open entries (they depend on the board alone, K5) or the figures (on the ships and
    the supply, K6)."""
    msg.step, msg.player = state.step, state.turn_player
    if state.step == PLACE_TILE:
        for edge, lane, stop in rules.entry_points(state):
            entry = msg.entries.add(edge=edge, lane=lane)
            set_position(entry.stop, stop)
    elif state.step == PLACE_FIGURE:
        for figure in rules.figure_placements(state, state.turn_player):
            msg.figures.add(color=figure.color, multiplier=figure.multiplier)


def encode_outcome(outcome: rules.KrabyOutcome, msg: game_pb2.Outcome) -> None:
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


def decode_counts(msg: pb.KrabyTileCounts, path: str) -> list[int]:
    counts = [getattr(msg, name) for name in COLOR_FIELDS]
    for name, count in zip(COLOR_FIELDS, counts, strict=True):
        if count < 0:
            raise bad_state(f"{path}.{name}", "cannot be negative")
    return counts


def decode_state(msg: pb.KrabyState, n: int, path: str) -> KrabyState:
    """Build the native state, checking that it is one legal play could reach."""
    excluded = msg.options.excluded_color or pb.KRABY_COLOR_PINK
    if excluded not in COLORS:
        raise bad_state(f"{path}.options.excluded_color", f"unknown colour {excluded}")
    first = msg.options.first_player
    if not 0 <= first < n:
        raise bad_state(f"{path}.options.first_player", f"must be a seat from 0 to {n - 1}")
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
    for i, hand in enumerate(hands):
        if sum(hand) > HAND_SIZE:
            raise bad_state(f"{path}.hands[{i}]", f"holds {sum(hand)} tiles; at most {HAND_SIZE}")
    bag = tuple(decode_counts(msg.bag, f"{path}.bag"))
    check_tile_totals(cells, hands, bag, n, excluded, path)
    if len(msg.ships) != n:
        raise bad_state(f"{path}.ships", f"needs one ship per player ({n}), has {len(msg.ships)}")
    ships = [(s.hold_x1, s.hold_x2, s.hold_x3) for s in msg.ships]
    supply = tuple(decode_counts(msg.figure_supply, f"{path}.figure_supply"))
    check_figures(ships, supply, n, excluded, path)
    if msg.step not in STEP_NAMES:
        raise bad_state(f"{path}.step", f"unknown step {msg.step}")
    if not 0 <= msg.turn_player < n:
        raise bad_state(f"{path}.turn_player", f"must be a seat from 0 to {n - 1}")
    tiles_on_board = sum(1 for v in cells if v > ISLAND_CELL)
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
    holes = rules.unfillable_cells(state)
    if holes:
        raise bad_state(
            f"{path}.cells[{holes[0]}]",
            "is a free cell no tile could ever reach (K4); no legal play leads here",
        )
    check_step(state, path)
    return state


def check_cells(cells: list[int], n: int, excluded: int, path: str) -> None:
    if len(cells) != CELLS:
        raise bad_state(path, f"must hold {CELLS} cells (11x11, row-major), has {len(cells)}")
    inside, outside, allowed = cell_layout(n, excluded)
    if (
        cells[ISLAND] == ISLAND_CELL
        and all(cells[i] == OFF_BOARD for i in outside)
        and all(cells[i] in allowed for i in inside)
    ):
        return  # the quick check passed; otherwise find and name the first bad cell below
    low, high = playing_area(n)
    in_play = colors_in_play(n, excluded)
    for i, value in enumerate(cells):
        row, col = divmod(i, SIZE)
        inside = low <= row <= high and low <= col <= high
        if i == ISLAND:
            if value != ISLAND_CELL:
                raise bad_state(f"{path}[{i}]", "must be the island (K1)")
        elif not inside:
            if value != OFF_BOARD:
                raise bad_state(f"{path}[{i}]", "is outside the playing area: must be OFF_BOARD")
        elif value != rules.EMPTY and value - TILE_OFFSET not in in_play:
            raise bad_state(f"{path}[{i}]", "must be EMPTY or a tile of a colour in play")


@functools.cache
def cell_layout(n: int, excluded: int) -> tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]:
    """(cells inside the playing area but the island, cells outside it, the values allowed
    inside: EMPTY or a tile of a colour in play), for `check_cells`."""
    low, high = playing_area(n)
    inside, outside = [], []
    for i in range(CELLS):
        row, col = divmod(i, SIZE)
        if i != ISLAND:
            (inside if low <= row <= high and low <= col <= high else outside).append(i)
    allowed = frozenset([rules.EMPTY, *(c + TILE_OFFSET for c in colors_in_play(n, excluded))])
    return tuple(inside), tuple(outside), allowed


def check_tile_totals(cells, hands, bag, n: int, excluded: int, path: str) -> None:
    in_play = colors_in_play(n, excluded)
    for color in COLORS:
        expected = tiles_per_color(n) if color in in_play else 0
        count = cells.count(color + TILE_OFFSET) + sum(h[color - 1] for h in hands) + bag[color - 1]
        if count != expected:
            raise bad_state(
                f"{path}.bag.{COLOR_FIELDS[color - 1]}",
                f"{count} {COLOR_NAMES[color]}"
                f" tiles in all (board, hands, bag); the game has {expected}",
            )


def check_figures(ships, supply, n: int, excluded: int, path: str) -> None:
    in_play = colors_in_play(n, excluded)
    seen: set[tuple[int, int]] = set()
    for i, ship in enumerate(ships):
        for m, color in zip(MULTIPLIERS, ship, strict=True):
            where = f"{path}.ships[{i}].hold_x{m}"
            if color and color not in in_play:
                raise bad_state(where, "must be empty or a colour in play")
            if color and (color, m) in seen:
                raise bad_state(where, f"another ship has {COLOR_NAMES[color]} at x{m} (K6)")
            seen.add((color, m))
        placed = [c for c in ship if c]
        if len(set(placed)) != len(placed):
            raise bad_state(f"{path}.ships[{i}]", "holds two figures of one colour (K6)")
        if len(placed) > max_figures_per_ship(n):
            raise bad_state(f"{path}.ships[{i}]", f"holds more than {max_figures_per_ship(n)} (K6)")
    for color in COLORS:
        expected = figures_per_color(n) if color in in_play else 0
        count = supply[color - 1] + sum(ship.count(color) for ship in ships)
        if count != expected:
            raise bad_state(
                f"{path}.figure_supply.{COLOR_FIELDS[color - 1]}",
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
        ok = ok and (step != PLACE_FIGURE or bool(rules.figure_placements(state, turn)))
    if not ok:
        raise bad_state(
            f"{path}.step",
            f"{STEP_NAMES[step]} does not fit the hands, bag and board; no legal play leads here",
        )
