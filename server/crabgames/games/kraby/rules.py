"""Kraby's rules on a native state: sliding entry (K3), the hole rule (K4), figures (K6), the end
(K8) and scoring (K9).

Lines of sight use ints as bit sets: `row_blocked[r]` has bit c set when cell (r, c) holds a tile
or the island, `col_blocked[c]` has bit r set likewise. Cells outside the playing area are never
set, so "no bit between here and the edge" means a clear line to the edge of the playing area.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from crabgames.games.kraby.data import (
    CELLS,
    COLORS,
    EMPTY,
    HAND_SIZE,
    ISLAND,
    ISLAND_CELL,
    MAX_PLAYERS,
    MULTIPLIERS,
    OFF_BOARD,
    SIZE,
    TILE_OFFSET,
    colors_in_play,
    figures_per_color,
    group_points,
    max_figures_per_ship,
    playing_area,
    tiles_per_color,
)
from crabgames.v1 import kraby_pb2 as pb

NORTH, EAST, SOUTH, WEST = (
    pb.KRABY_EDGE_NORTH,
    pb.KRABY_EDGE_EAST,
    pb.KRABY_EDGE_SOUTH,
    pb.KRABY_EDGE_WEST,
)
EDGES = (NORTH, EAST, SOUTH, WEST)

DEAL, PLACE_TILE, DRAW, PLACE_FIGURE, GAME_OVER = (
    pb.KRABY_STEP_DEAL,
    pb.KRABY_STEP_PLACE_TILE,
    pb.KRABY_STEP_DRAW,
    pb.KRABY_STEP_PLACE_FIGURE,
    pb.KRABY_STEP_GAME_OVER,
)


# ----- moves and events -----


class PlaceTile(NamedTuple):
    edge: int
    lane: int
    color: int
    # Where the tile stops (K3), on a move `legal_moves` lists; a move as a fisher sends it has
    # none (the board decides it).
    stop: int | None = None


class PlaceFigure(NamedTuple):
    color: int
    multiplier: int


class SkipFigure(NamedTuple):
    pass


SKIP_FIGURE = SkipFigure()


class TileDealt(NamedTuple):
    player: int
    color: int  # unspecified (0) in the copy the other seats see
    hand_size: int  # after it
    bag_size: int


class TilePlaced(NamedTuple):
    player: int
    edge: int
    lane: int
    color: int
    stop: int  # the cell where it stopped (K3)
    hand_size: int  # after it


class TileDrawn(NamedTuple):
    player: int
    color: int  # unspecified (0) in the copy the other seats see
    hand_size: int  # after it
    bag_size: int


class FigurePlaced(NamedTuple):
    player: int
    color: int
    multiplier: int
    supply_left: int  # figures of that colour left beside the board


class FigureSkipped(NamedTuple):
    player: int


class TurnBegan(NamedTuple):
    player: int


class TurnPassed(NamedTuple):
    player: int
    reason: int  # KrabyPassReason


class GameEnded(NamedTuple):
    reason: int  # KrabyEndReason


NO_TILES, NO_ENTRY = pb.KRABY_PASS_REASON_NO_TILES, pb.KRABY_PASS_REASON_NO_ENTRY
ALL_TILES_PLACED = pb.KRABY_END_REASON_ALL_TILES_PLACED
NO_FISHER_CAN_PLACE = pb.KRABY_END_REASON_NO_FISHER_CAN_PLACE


# ----- state -----


@dataclass
class KrabyState:
    """A position. Clones share the pieces a move replaces rather than changes in place (the
    hands, the bag, the ships and the figure supply are tuples), and copy only the board and its
    lines of sight: a clone is taken before every move."""

    num_players: int
    excluded_color: int
    first_player: int
    cells: bytearray  # KrabyCell values, row-major: as it is sent, and cheap to copy
    hands: list[tuple[int, ...]]  # per seat, tile counts indexed by colour - 1
    bag: tuple[int, ...]  # tile counts indexed by colour - 1
    ships: list[tuple[int, int, int]]  # per seat, the colour in holds x1, x2, x3 (0 = free)
    figure_supply: tuple[int, ...]  # indexed by colour - 1
    step: int
    turn_player: int
    turns_taken: int
    row_blocked: list[int] = field(default_factory=list)
    col_blocked: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.row_blocked:
            self.rebuild_lines()

    def rebuild_lines(self) -> None:
        self.row_blocked = [0] * SIZE
        self.col_blocked = [0] * SIZE
        for cell, value in enumerate(self.cells):
            if value != EMPTY and value != OFF_BOARD:
                self.block(cell)

    def block(self, cell: int) -> None:
        row, col = divmod(cell, SIZE)
        self.row_blocked[row] |= 1 << col
        self.col_blocked[col] |= 1 << row

    def copy(self) -> KrabyState:
        return KrabyState(
            self.num_players,
            self.excluded_color,
            self.first_player,
            self.cells[:],
            self.hands[:],
            self.bag,
            self.ships[:],
            self.figure_supply,
            self.step,
            self.turn_player,
            self.turns_taken,
            self.row_blocked[:],
            self.col_blocked[:],
        )


def counted(counts: tuple[int, ...], color: int, change: int) -> tuple[int, ...]:
    """`counts` (indexed by colour - 1) with `change` more of `color`, as a new tuple: the old
    one may be shared with a clone."""
    changed = list(counts)
    changed[color - 1] += change
    return tuple(changed)


def new_state(num_players: int, excluded_color: int, first_player: int) -> KrabyState:
    low, high = playing_area(num_players)
    cells = bytearray([OFF_BOARD] * CELLS)
    for row in range(low, high + 1):
        for col in range(low, high + 1):
            cells[row * SIZE + col] = EMPTY
    cells[ISLAND] = ISLAND_CELL
    in_play = colors_in_play(num_players, excluded_color)
    per_color = tuple(tiles_per_color(num_players) if c in in_play else 0 for c in COLORS)
    figures = tuple(figures_per_color(num_players) if c in in_play else 0 for c in COLORS)
    return KrabyState(
        num_players=num_players,
        excluded_color=excluded_color,
        first_player=first_player,
        cells=cells,
        hands=[(0,) * 5] * num_players,
        bag=per_color,
        ships=[(0, 0, 0)] * num_players,
        figure_supply=figures,
        step=DEAL,
        turn_player=0,
        turns_taken=0,
    )


# ----- sliding entry (K3) and the hole rule (K4) -----


def stop_table(low: int, high: int, from_low: bool) -> list[int]:
    """For each line's blocked bits (an int below 1 << SIZE), where along the line a tile entering
    at its low end (`from_low`) or its high end stops, or -1 when it cannot enter there: nothing
    on the line stops it, or the entry cell is taken (K3). Lines inside the playing area `low`
    .. `high`, where only cells inside it are ever blocked."""
    stops = []
    for ahead in range(1 << SIZE):
        if not ahead:
            stops.append(-1)
            continue
        stop = (ahead & -ahead).bit_length() - 2 if from_low else ahead.bit_length()
        stops.append(stop if low <= stop <= high else -1)
    return stops


# Each edge in order: (edge, whether its lanes are rows, whether it enters at a lane's low end).
EDGE_WAYS = ((NORTH, False, True), (EAST, True, False), (SOUTH, False, False), (WEST, True, True))

# Per number of fishers, each edge in order as (edge, whether its lanes are rows, its
# `stop_table`, and its entry points by lane and stop: (edge, lane, cell)), built once.
ENTRY_WAYS = {
    num_players: tuple(
        (
            edge,
            along_row,
            stop_table(*playing_area(num_players), from_low),
            [
                [
                    (edge, lane, lane * SIZE + stop if along_row else stop * SIZE + lane)
                    for stop in range(SIZE)
                ]
                for lane in range(SIZE)
            ],
        )
        for edge, along_row, from_low in EDGE_WAYS
    )
    for num_players in (2, 3, 4)
}


# Per number of fishers, per edge: (whether its lanes are rows, its `stop_table`).
SLIDE_WAYS = {
    num_players: {edge: (along_row, stops) for edge, along_row, stops, _ in ways}
    for num_players, ways in ENTRY_WAYS.items()
}


def slide_stop(state: KrabyState, edge: int, lane: int) -> int | None:
    """The cell where a tile slid in at `edge` along `lane` (a row or column 0 .. SIZE - 1)
    stops, or None if that entry is not allowed: the entry cell is taken, or nothing on the way
    stops the tile (K3). A lane outside the playing area has no blocked cell, so nothing stops
    a tile there."""
    along_row, stops = SLIDE_WAYS[state.num_players][edge]
    if along_row:
        stop = stops[state.row_blocked[lane]]
        return None if stop < 0 else lane * SIZE + stop
    stop = stops[state.col_blocked[lane]]
    return None if stop < 0 else stop * SIZE + lane


def leaves_no_hole(state: KrabyState, edge: int, lane: int, cell: int) -> bool:
    """Would a tile entering at (edge, lane) and stopping at `cell` keep every free cell
    fillable (K4)? See `no_new_hole`; this is its check for one entry."""
    if edge in (WEST, EAST):
        stop = cell % SIZE
        return no_new_hole(state.row_blocked, state.col_blocked[stop], lane, stop)
    stop = cell // SIZE
    return no_new_hole(state.col_blocked, state.row_blocked[stop], lane, stop)


def no_new_hole(lanes: list[int], across: int, lane: int, stop: int) -> bool:
    """The hole rule (K4) for a tile sliding along `lane` (one of `lanes`, the blocked bits of
    the lines parallel to it) and stopping at `stop` on the line `across` (its blocked bits, the
    lane's bit not yet set), from a board with no hole (decode_state checks that).

    Only the free cells of the tile's lane and of the line across can lose their line to the
    edge. Those of the lane keep theirs: the tile slid over the ones behind it, and stopped
    right against the cell ahead. On the line across, the free cells strictly between its first
    and last blocked cell have no line along it, so they have one along their own lane (no
    hole), and the tile takes that from none of them. The tile only puts newly between blocked
    cells the free cells from it to the span of `across`, when it stops outside that span and
    not right next to it; each of those then needs its own lane's line to the edge."""
    return bool(NOTHING_NEWLY_BETWEEN[across] >> lane & 1) or newly_between_keep_a_line(
        lanes, across, lane, stop
    )


def nothing_newly_between(across: int) -> int:
    """The positions on a line with blocked bits `across` where a tile puts no free cell of the
    line newly between two blocked cells: inside the line's span or right next to it, or
    anywhere on an empty line (see `no_new_hole`)."""
    if not across:
        return (1 << SIZE) - 1
    first, last = across & -across, 1 << (across.bit_length() - 1)
    return (last - 1) & -(first << 1) | first >> 1 | last << 1


# NOTHING_NEWLY_BETWEEN[across]: `nothing_newly_between`, for every line, built once.
NOTHING_NEWLY_BETWEEN = [nothing_newly_between(across) for across in range(1 << SIZE)]


def newly_between_keep_a_line(lanes: list[int], across: int, lane: int, stop: int) -> bool:
    """Whether the free cells between a tile stopping at `lane` on the line `across` and that
    line's span keep a line to the edge along their own lanes: none of those lanes is blocked
    on both sides of `across` (see `no_new_hole`)."""
    if across >> lane:  # the span is beyond the tile
        newly_between = lanes[lane + 1 : (across & -across).bit_length() - 1]
    else:
        newly_between = lanes[across.bit_length() : lane]
    at_stop = 1 << stop
    # Each is free at `stop` (its bit there never set): is it blocked both before and after?
    # A plain loop: a generator costs more than the check on these few lines.
    for line in newly_between:
        if line & -line < at_stop < line:
            break
    else:
        return True
    return False


def unfillable_cells(state: KrabyState) -> list[int]:
    """Free cells with no line to any edge (K4); a reachable state has none. Row by row with bit
    sets: only free cells strictly between a row's first and last blocked cell lack a line along
    the row, and only those are checked along their column."""
    cells, row_blocked, col_blocked = state.cells, state.row_blocked, state.col_blocked
    holes = []
    for row in range(SIZE):
        blocked = row_blocked[row]
        if not blocked:
            continue
        inner = ((1 << (blocked.bit_length() - 1)) - 1) & -((blocked & -blocked) << 1)
        inner &= ~blocked
        while inner:
            col = (inner & -inner).bit_length() - 1
            inner &= inner - 1
            along = col_blocked[col]
            if cells[row * SIZE + col] == EMPTY and along & ((1 << row) - 1) and along >> (row + 1):
                holes.append(row * SIZE + col)
    return holes


def entry_points(state: KrabyState) -> tuple[tuple[int, int, int], ...]:
    """Every (edge, lane, stop cell) where a tile of any colour may legally enter (K3, K4, K5).
    A pure function of the board (its rows determine its columns), kept for the boards seen
    lately: one position is asked about several times (its view, its legal moves, the move).
    Known by the cells' bytes: one object to hash and compare (a tuple of the rows' bit sets
    reads a dozen int objects, each likely a cache miss in the server), which also tell the
    playing area (K1) apart; 3 and 4 fishers share theirs."""
    key = bytes(state.cells)
    found = _ENTRY_POINTS.get(key)
    if found is None:
        if len(_ENTRY_POINTS) >= _ENTRY_POINTS_LIMIT:
            _ENTRY_POINTS.clear()
        found = _ENTRY_POINTS[key] = tuple(find_entry_points(state))
    return found


# Bounded in bytes by its count: a key is a board's 121 bytes and a value at most 44 entry points
# (4 edges x 11 lanes), each a shared tuple of `ENTRY_WAYS`: under 700 bytes an entry, under
# 3 MiB in all.
_ENTRY_POINTS: dict[bytes, tuple[tuple[int, int, int], ...]] = {}
_ENTRY_POINTS_LIMIT = 4096


def has_entry_point(state: KrabyState) -> bool:
    """Whether a tile may enter anywhere (K3, K4): the walk of `find_entry_points`, stopping at
    the first entry point (usually one of the first few)."""
    return bool(find_entry_points(state, first_only=True))


# Per number of fishers, the lanes of the playing area (K1).
LANES = {n: range(playing_area(n)[0], playing_area(n)[1] + 1) for n in (2, 3, 4)}
assert EDGES == (1, 2, 3, 4)  # ENTRY_WAYS[n][edge - 1] is the edge's


def find_entry_points(
    state: KrabyState, first_only: bool = False, only: PlaceTile | None = None
) -> list[tuple[int, int, int]]:
    """The entry points in order (only the first with `first_only`, and only at the edge and lane
    of the tile `only`, for is_legal): each edge's stops (K3) from its `stop_table`, checked by
    `no_new_hole` (K4), whose first test is inlined here as most entries need no other."""
    ways = ENTRY_WAYS[state.num_players]
    lanes = LANES[state.num_players]
    if only is not None:  # a lane outside the playing area has no blocked cell: no stop there
        ways = (ways[only.edge - 1],)
        lanes = (only.lane,)
    rows, cols = state.row_blocked, state.col_blocked
    found = []
    for _, along_row, stops, entries in ways:
        lines, across = (rows, cols) if along_row else (cols, rows)
        for lane in lanes:
            stop = stops[lines[lane]]
            if stop < 0:
                continue  # nothing stops the tile, or its entry cell is taken (K3)
            crossing = across[stop]
            if NOTHING_NEWLY_BETWEEN[crossing] >> lane & 1 or newly_between_keep_a_line(
                lines, crossing, lane, stop
            ):
                found.append(entries[lane][stop])
                if first_only:
                    return found
    return found


# ----- figures (K6) -----


# Per number of fishers, how many figures a ship may hold (K6).
FIGURES_PER_SHIP = {n: max_figures_per_ship(n) for n in (2, 3, 4)}


def figure_placements(state: KrabyState, player: int) -> list[PlaceFigure]:
    ship = state.ships[player]
    # Asked every turn, when most ships are full: the figures aboard counted without a generator
    # (a free hold is 0).
    if len(ship) - ship.count(0) >= FIGURES_PER_SHIP[state.num_players]:
        return []
    taken = {(hold, m) for other in state.ships for m, hold in zip(MULTIPLIERS, other, strict=True)}
    return [
        PlaceFigure(color, m)
        for color in COLORS
        if state.figure_supply[color - 1] and color not in ship
        for m in MULTIPLIERS
        if not ship[m - 1] and (color, m) not in taken
    ]


# ----- legal moves -----


def lane_of(edge: int, cell: int) -> int:
    """The row (EAST, WEST) or column (NORTH, SOUTH) a tile from `edge` slides along to `cell`."""
    row, col = divmod(cell, SIZE)
    return row if edge in (EAST, WEST) else col


# The tiles listed for a tile entering from `edge` and stopping at `cell`, for each set of
# colours in hand (a bit mask, bit c - 1 for colour c), by colour: LISTED_TILES[edge][cell][mask],
# built once (list lookups: read for every entry point of every listing).
LISTED_TILES: dict[int, list[list[tuple[PlaceTile, ...]]]] = {
    edge: [
        [
            tuple(
                PlaceTile(edge, lane_of(edge, cell), c, cell) for c in COLORS if mask >> (c - 1) & 1
            )
            for mask in range(1 << len(COLORS))
        ]
        for cell in range(CELLS)
    ]
    for edge in EDGES
}


def colors_in_hand(hand: list[int]) -> int:
    """The colours `hand` holds, as the bit mask HAND_TILES is indexed by."""
    return (
        (hand[0] > 0)
        | (hand[1] > 0) << 1
        | (hand[2] > 0) << 2
        | (hand[3] > 0) << 3
        | (hand[4] > 0) << 4
    )


def legal_moves(state: KrabyState) -> list:
    if state.step == PLACE_TILE:
        colors = colors_in_hand(state.hands[state.turn_player])
        moves: list = []
        for edge, _, stop in entry_points(state):
            moves += LISTED_TILES[edge][stop][colors]
        return moves
    if state.step == PLACE_FIGURE:
        return [*figure_placements(state, state.turn_player), SKIP_FIGURE]
    return []


def is_legal(state: KrabyState, move: object) -> bool:
    """Whether `move` is one of `legal_moves`: a tile by the same walk, narrowed to its own edge
    and lane (one check stays cheap)."""
    if isinstance(move, PlaceTile) and state.step == PLACE_TILE:
        return state.hands[state.turn_player][move.color - 1] > 0 and bool(
            find_entry_points(state, True, move)
        )
    return move in legal_moves(state)


# ----- turn flow -----


def deal(state: KrabyState, color: int) -> list:
    player = state.turn_player
    take_from_bag(state, player, color)
    hand_size = sum(state.hands[player])
    events: list = [TileDealt(player, color, hand_size, sum(state.bag))]
    if hand_size == HAND_SIZE:
        if player + 1 < state.num_players:
            state.turn_player = player + 1
        else:
            state.turn_player = state.first_player
            state.step = PLACE_TILE
            events.extend(begin_turn(state))
    return events


def take_from_bag(state: KrabyState, player: int, color: int) -> None:
    state.bag = counted(state.bag, color, -1)
    state.hands[player] = counted(state.hands[player], color, 1)


def chance_outcomes(state: KrabyState) -> list[tuple[int, int]]:
    """A draw from the bag: value = KrabyColor, weight = tiles of that colour left (G2)."""
    bag = state.bag
    return [(c, bag[c - 1]) for c in COLORS if bag[c - 1]]


def apply_chance(state: KrabyState, color: int) -> list:
    """A tile dealt, or drawn after placing one (K7): into the hand of the fisher to play."""
    if state.step == DEAL:
        return deal(state, color)
    player = state.turn_player
    take_from_bag(state, player, color)
    drawn = TileDrawn(player, color, sum(state.hands[player]), sum(state.bag))
    return [drawn, *offer_figure(state)]


def apply_move(state: KrabyState, move: object) -> list:
    """Play a fisher's move, checked legal before: a tile slides in (K3), else a figure is
    placed or not (K6)."""
    if not isinstance(move, PlaceTile):
        return place_figure(state, move)  # type: ignore[arg-type]
    player = state.turn_player
    stop = slide_stop(state, move.edge, move.lane)
    assert stop is not None  # checked legal before
    state.hands[player] = counted(state.hands[player], move.color, -1)
    state.cells[stop] = move.color + TILE_OFFSET
    row, col = divmod(stop, SIZE)  # as state.block(stop)
    state.row_blocked[row] |= 1 << col
    state.col_blocked[col] |= 1 << row
    state.turns_taken += 1
    hand_size = sum(state.hands[player])
    events: list = [TilePlaced(player, move.edge, move.lane, move.color, stop, hand_size)]
    if sum(state.bag):
        state.step = DRAW
    else:
        events.extend(offer_figure(state))
    return events


def offer_figure(state: KrabyState) -> list:
    if figure_placements(state, state.turn_player):
        state.step = PLACE_FIGURE
        return []
    # Nothing to place: the optional move is skipped (G6), and the turn ends.
    state.turn_player = (state.turn_player + 1) % state.num_players
    state.step = PLACE_TILE
    return begin_turn(state)


def place_figure(state: KrabyState, move: PlaceFigure | SkipFigure) -> list:
    player = state.turn_player
    if isinstance(move, SkipFigure):
        events: list = [FigureSkipped(player)]
    else:
        state.ships[player] = with_figure(state.ships[player], move)
        state.figure_supply = counted(state.figure_supply, move.color, -1)
        supply_left = state.figure_supply[move.color - 1]
        events = [FigurePlaced(player, move.color, move.multiplier, supply_left)]
    # The turn ends.
    state.turn_player = (player + 1) % state.num_players
    state.step = PLACE_TILE
    return events + begin_turn(state)


def with_figure(ship: tuple[int, int, int], move: PlaceFigure) -> tuple[int, int, int]:
    """`ship` with the figure in its hold, as a new tuple: the old one may be shared."""
    holds = list(ship)
    holds[move.multiplier - 1] = move.color
    return holds[0], holds[1], holds[2]


def begin_turn(state: KrabyState) -> list:
    """Start the turn of `turn_player`, passing for every fisher who cannot place (G6) and ending
    the game when the tiles run out or nobody can place (K8)."""
    if not sum(state.bag) and not any(map(sum, state.hands)):
        return finish(state, ALL_TILES_PLACED)
    events: list = []
    entries = find_entry_points(state, first_only=True)  # has_entry_point
    for _ in range(state.num_players):
        in_hand = sum(state.hands[state.turn_player])
        if entries and in_hand:
            events.append(TURN_BEGAN[state.turn_player])
            return events
        # G6, said with its cause: an empty hand, else no entry on the board.
        events.append(TurnPassed(state.turn_player, NO_ENTRY if in_hand else NO_TILES))
        state.turn_player = (state.turn_player + 1) % state.num_players
    return events + finish(state, NO_FISHER_CAN_PLACE)


# One TurnBegan per seat, built once: the event is a plain value, and every turn makes one.
TURN_BEGAN = tuple(TurnBegan(seat) for seat in range(MAX_PLAYERS))


def finish(state: KrabyState, reason: int) -> list:
    state.step = GAME_OVER
    return [GameEnded(reason)]


# ----- scoring (K9) -----


@dataclass(frozen=True)
class SpeciesScore:
    color: int
    group_sizes: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class FisherScore:
    player: int
    contributions: tuple[tuple[int, int, int], ...]  # (colour, multiplier, species points)
    total: int
    best_contribution: int


@dataclass(frozen=True)
class KrabyOutcome:
    species: tuple[SpeciesScore, ...]
    fishers: tuple[FisherScore, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


# Bit sets over the board's cells (bit i = cell i): a shift by one along a row must not carry a
# group from one row's end onto the next row's start.
NOT_FIRST_COLUMN = sum(1 << cell for cell in range(CELLS) if cell % SIZE)
NOT_LAST_COLUMN = sum(1 << cell for cell in range(CELLS) if cell % SIZE != SIZE - 1)


def species_cells(cells: bytearray, color: int) -> int:
    """The cells holding `color`'s tiles as a bit set: the board as bytes, each cell mapped to
    the digit '1' or '0', read as a binary number (last cell first, so that bit i is cell i)."""
    digits = bytes(cells).translate(SPECIES_DIGITS[color])
    return int(digits[::-1], 2)


# For each colour, bytes.translate's table mapping its tile's cell value to b"1", others to b"0".
SPECIES_DIGITS = {
    color: bytes(ord("1") if value == color + TILE_OFFSET else ord("0") for value in range(256))
    for color in COLORS
}


def group_sizes(cells: bytearray, color: int) -> list[int]:
    """Sizes of the groups of one species (tiles touching by sides), in reading order: each group
    grown from its first cell, over bit sets, until it takes in no more of the species' tiles."""
    left = species_cells(cells, color)
    sizes = []
    while left:
        group = left & -left
        while True:
            grown = left & (
                group
                | (group << 1 & NOT_FIRST_COLUMN)
                | (group >> 1 & NOT_LAST_COLUMN)
                | group << SIZE
                | group >> SIZE
            )
            if grown == group:
                break
            group = grown
        sizes.append(group.bit_count())
        left &= ~group
    return sizes


def score_species(cells: bytearray) -> tuple[SpeciesScore, ...]:
    scores = []
    for color in COLORS:
        sizes = tuple(group_sizes(cells, color))
        scores.append(SpeciesScore(color, sizes, sum(group_points(s) for s in sizes)))
    return tuple(scores)


def score_fishers(
    ships: list[tuple[int, int, int]], species: tuple[SpeciesScore, ...]
) -> tuple[FisherScore, ...]:
    points = {s.color: s.points for s in species}
    fishers = []
    for player, ship in enumerate(ships):
        contributions = tuple(
            (color, m, points[color]) for m, color in zip(MULTIPLIERS, ship, strict=True) if color
        )
        values = [m * p for _, m, p in contributions]
        # K9: with no figure at all the best single contribution counts as 0.
        fishers.append(FisherScore(player, contributions, sum(values), max(values, default=0)))
    return tuple(fishers)


def rank(fishers: tuple[FisherScore, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks by total, ties broken by the best single contribution (K9); a remaining tie shares
    the place (and the victory)."""
    keys = [(f.total, f.best_contribution) for f in fishers]
    ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return ranks, tuple(p for p, r in enumerate(ranks) if r == 1)


def outcome(state: KrabyState) -> KrabyOutcome | None:
    if state.step != GAME_OVER:
        return None
    species = score_species(state.cells)
    fishers = score_fishers(state.ships, species)
    ranks, winners = rank(fishers)
    return KrabyOutcome(species, fishers, ranks, winners)
