"""Kraby's rules on the native state, in the rulebook's order (rulebooks/kraby.txt, with the
rulings K1-K9 of docs/rules/kraby.md): Setup; A Player's Turn; Crab Move, where a tile stops
before the first obstacle (K3); Forbidden Moves, the hole rule (K4); Groups and Scoring Values;
drawing back to six; Placing a Crab in the Ship's Hold (K6); End of the Game (K8); Scoring
(K9).

The tables built at import come from the rule functions beside them, in plain loops, for every
line of sight a board can have (a line's obstacles as a bit set, state.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, cast

from crabgames.core.game import Decision
from crabgames.games.kraby.data import (
    BIG_GROUP_POINTS,
    CELLS,
    COLOR_NAMES,
    COLORS,
    EAST,
    EDGES,
    EMPTY,
    FIGURES_PER_COLOR,
    FIGURES_PER_SHIP,
    GROUP_POINTS,
    HAND_SIZE,
    ISLAND,
    ISLAND_CELL,
    MAX_PLAYERS,
    MULTIPLIERS,
    NO_FIGURE,
    NORTH,
    OFF_BOARD,
    PLAYER_COUNTS,
    PLAYING_AREA,
    SIZE,
    SOUTH,
    TILE_OFFSET,
    TILES_PER_COLOR,
    WEST,
    Color,
    Edge,
)
from crabgames.games.kraby.events import (
    ALL_TILES_PLACED,
    NO_ENTRY,
    NO_FISHER_CAN_PLACE,
    NO_TILES,
    TURN_BEGAN,
    EndReason,
    Event,
    FigurePlaced,
    FigureSkipped,
    GameEnded,
    TileDealt,
    TurnPassed,
    tile_drawn,
    tile_placed,
)
from crabgames.games.kraby.moves import SKIP_FIGURE, Move, PlaceFigure, PlaceTile, SkipFigure
from crabgames.games.kraby.state import (
    DEAL,
    DRAW,
    GAME_OVER,
    PLACE_FIGURE,
    PLACE_TILE,
    STEP_NAMES,
    KrabyState,
    Ship,
    Step,
    counted,
    tiles_in,
)

# ----- Setup -----


def colors_in_play(num_players: int, excluded: Color) -> tuple[Color, ...]:
    """K2: two fishers play with four colours, `excluded` sitting out; more play with all five."""
    return tuple(color for color in COLORS if num_players != 2 or color != excluded)


def initial_state(num_players: int, options: tuple[Color, int]) -> KrabyState:
    """The board with its playing area (K1) and the sand bar, the bag holding the tiles of the
    colours in play, and their figures beside the board (K6); the deal comes next. `options`:
    the colour that sits out (K2) and the first player (K7)."""
    excluded_color, first_player = options
    low, high = PLAYING_AREA[num_players]
    cells = bytearray([OFF_BOARD] * CELLS)
    for row in range(low, high + 1):
        for col in range(low, high + 1):
            cells[row * SIZE + col] = EMPTY
    cells[ISLAND] = ISLAND_CELL
    in_play = colors_in_play(num_players, excluded_color)
    bag = tuple(TILES_PER_COLOR[num_players] if c in in_play else 0 for c in COLORS)
    supply = tuple(FIGURES_PER_COLOR[num_players] if c in in_play else 0 for c in COLORS)
    return KrabyState(
        num_players=num_players,
        excluded_color=excluded_color,
        first_player=first_player,
        cells=cells,
        hands=[(0,) * len(COLORS)] * num_players,
        bag=bag,
        ships=[(NO_FIGURE, NO_FIGURE, NO_FIGURE)] * num_players,
        figure_supply=supply,
        step=DEAL,
        turn_player=0,
        turns_taken=0,
    )


# ----- A Player's Turn -----


def decision_at(step: Step, turn_player: int) -> Decision:
    if step in (PLACE_TILE, PLACE_FIGURE):
        return Decision.player_decides(turn_player, STEP_NAMES[step])
    if step == GAME_OVER:
        return Decision.game_over()
    return Decision.chance(STEP_NAMES[step])


# DECISIONS[step][turn_player]: a Decision is immutable, so one per step and seat, built once.
DECISIONS: Final = {
    step: [decision_at(step, seat) for seat in range(MAX_PLAYERS)] for step in STEP_NAMES
}


def next_decision(state: KrabyState) -> Decision:
    """Tiles are dealt, then a fisher places a tile and a figure (or none) and draws back to
    six, seat after seat; the deal and each draw are chance's."""
    return DECISIONS[state.step][state.turn_player]


def apply_move(state: KrabyState, move: Move) -> list[Event]:
    """A fisher's move: a tile slid in (Crab Move), or a figure placed or not (K6)."""
    if isinstance(move, PlaceTile):
        return place_tile(state, move)
    return place_figure(state, move)


def apply_chance(state: KrabyState, value: int) -> list[Event]:
    """A tile of colour `value` dealt, or drawn after a tile is placed, into the hand of the
    fisher to play."""
    if state.step == DEAL:
        return deal(state, cast(Color, value))
    return draw_back_to_six(state, cast(Color, value))


def deal(state: KrabyState, color: Color) -> list[Event]:
    """The players each draw 6 tiles from the bag, seat after seat (docs/rules/kraby.md), and
    then the first player (K7) starts."""
    player = state.turn_player
    take_from_bag(state, player, color)
    hand_size = tiles_in(state.hands[player])
    events: list[Event] = [TileDealt(player, color, hand_size, tiles_in(state.bag))]
    if hand_size == HAND_SIZE:
        if player + 1 < state.num_players:
            state.turn_player = player + 1
        else:
            state.turn_player = state.first_player
            state.step = PLACE_TILE
            events += begin_turn(state)
    return events


def take_from_bag(state: KrabyState, player: int, color: Color) -> None:
    state.bag = counted(state.bag, color, -1)
    state.hands[player] = counted(state.hands[player], color, 1)


# ----- A Player's Turn -----


def begin_turn(state: KrabyState) -> list[Event]:
    """The turn of `turn_player`. A fisher who cannot place a tile passes (G6), saying why; the
    game ends when every tile is placed, or when no fisher can place one (K8)."""
    if all_tiles_placed(state):
        return end_the_game(state, ALL_TILES_PLACED)
    events: list[Event] = []
    a_tile_can_enter = has_entry_point(state)
    for _ in range(state.num_players):
        in_hand = tiles_in(state.hands[state.turn_player])
        if a_tile_can_enter and in_hand:
            events.append(TURN_BEGAN[state.turn_player])
            return events
        events.append(TurnPassed(state.turn_player, NO_ENTRY if in_hand else NO_TILES))
        state.turn_player = next_fisher(state)
    return events + end_the_game(state, NO_FISHER_CAN_PLACE)


def next_fisher(state: KrabyState) -> int:
    """Turns are played clockwise (G1)."""
    return (state.turn_player + 1) % state.num_players


def end_turn(state: KrabyState) -> list[Event]:
    state.turn_player = next_fisher(state)
    state.step = PLACE_TILE
    return begin_turn(state)


def legal_moves(state: KrabyState) -> Sequence[Move]:
    """The moves of the fisher to play: a tile (the crab move, mandatory), then a figure or none
    (optional)."""
    if state.step == PLACE_TILE:
        return tiles_offered(state)  # the shared tuple, not a copy: the moves never change
    if state.step == PLACE_FIGURE:
        return [*figure_placements(state), SKIP_FIGURE]
    return []


def is_legal(state: KrabyState, move: Move) -> bool:
    """Whether `move` is one of `legal_moves`; a tile by the same rules, for its own edge and lane
    only."""
    if isinstance(move, PlaceTile):
        return (
            state.step == PLACE_TILE
            and holds_a_tile(state, move.color)
            and may_enter(state, move.edge, move.lane)
        )
    return move in legal_moves(state)


def chance_outcomes(state: KrabyState) -> list[tuple[int, int]]:
    """A tile from the bag: value = its colour, weight = the tiles of that colour left (G2)."""
    return [(color, state.bag[color - 1]) for color in COLORS if state.bag[color - 1]]


# ----- Crab Move -----


def holds_a_tile(state: KrabyState, color: Color) -> bool:
    """The tile comes from those behind the fisher's ship-screen, of any colour they hold."""
    return state.hands[state.turn_player][color - 1] > 0


def stops_before_the_first_obstacle(path: Sequence[bool]) -> int | None:
    """K3: a tile slid in moves along a straight line over the cells of `path` (whether each is an
    obstacle, a tile or the sand bar, from the entry cell on) and stops on the cell before the
    first obstacle: its index in `path`. None when the tile cannot be slid in there: its entry
    cell is taken, or nothing stops it (it cannot go off the board)."""
    for index, obstacle in enumerate(path):
        if obstacle:
            return index - 1 if index > 0 else None
    return None


def is_blocked(line: int, position: int) -> bool:
    """Whether a line (its obstacles as a bit set) has an obstacle at `position`."""
    return bool(line >> position & 1)


def stop_on_line(line: int, path: range) -> int | None:
    """Where along a line a tile travelling its positions in the order of `path` stops (K3)."""
    index = stops_before_the_first_obstacle([is_blocked(line, p) for p in path])
    return None if index is None else path[index]


# Whether the lanes of an edge are rows (EAST, WEST) or columns, and whether tiles from it enter
# at a lane's first position (NORTH, WEST) or its last.
ALONG_ROWS: Final = {NORTH: False, EAST: True, SOUTH: False, WEST: True}
FROM_FIRST: Final = {NORTH: True, EAST: False, SOUTH: False, WEST: True}


def path_from(edge: Edge, num_players: int) -> range:
    """The positions of a lane of the playing area (K1) in the order a tile from `edge` passes
    them."""
    low, high = PLAYING_AREA[num_players]
    return range(low, high + 1) if FROM_FIRST[edge] else range(high, low - 1, -1)


@functools.cache  # 3 and 4 fishers share their playing area
def stop_table(path: range) -> list[int | None]:
    """`stop_on_line` for every line there is, travelled along `path`."""
    return [stop_on_line(line, path) for line in range(1 << SIZE)]


# STOPS[num_players][edge][line]: `stop_on_line` for a lane of that edge, by its obstacles.
STOPS: Final = {n: {edge: stop_table(path_from(edge, n)) for edge in EDGES} for n in PLAYER_COUNTS}
LANES: Final = {n: range(PLAYING_AREA[n][0], PLAYING_AREA[n][1] + 1) for n in PLAYER_COUNTS}


def cell_on(edge: Edge, lane: int, position: int) -> int:
    """The cell at `position` along a lane of `edge`."""
    return lane * SIZE + position if ALONG_ROWS[edge] else position * SIZE + lane


# CELLS_ALONG[edge][lane][position]: `cell_on` for every lane and position.
CELLS_ALONG: Final = {
    edge: [[cell_on(edge, lane, position) for position in range(SIZE)] for lane in range(SIZE)]
    for edge in EDGES
}


def where_the_tile_stops(state: KrabyState, edge: Edge, lane: int) -> int | None:
    """The cell where a tile slid in from `edge` along `lane` stops, or None if it cannot be slid
    in there (K3). A lane outside the playing area has no obstacle: nothing stops a tile there."""
    side = SIDES[state.num_players][edge]
    lanes = state.row_blocked if side.along_rows else state.col_blocked
    position = side.stops[lanes[lane]]
    return None if position is None else CELLS_ALONG[edge][lane][position]


def may_enter(state: KrabyState, edge: Edge, lane: int) -> bool:
    """Whether a tile may be slid in from `edge` along `lane`: something stops it (K3), and where
    it stops it leaves no hole (K4)."""
    side = SIDES[state.num_players][edge]
    rows, cols = state.row_blocked, state.col_blocked
    lanes, crossing = (rows, cols) if side.along_rows else (cols, rows)
    position = side.stops[lanes[lane]]
    return position is not None and not leaves_a_hole(lanes, lane, position, crossing[position])


def place_tile(state: KrabyState, move: PlaceTile) -> list[Event]:
    """The tile leaves the hand and stops before the first obstacle (K3); then the fisher draws,
    or, once the bag is empty, goes on to the figure."""
    player = state.turn_player
    stop = where_the_tile_stops(state, move.edge, move.lane)
    assert stop is not None  # checked legal before
    state.hands[player] = counted(state.hands[player], move.color, -1)
    state.cells[stop] = move.color + TILE_OFFSET
    state.block(stop)
    state.turns_taken += 1
    hand_size = tiles_in(state.hands[player])
    events: list[Event] = [tile_placed(player, move.edge, move.lane, move.color, stop, hand_size)]
    if tiles_in(state.bag):
        state.step = DRAW
    else:
        events += offer_figure(state)
    return events


# ----- Forbidden Moves -----


def has_a_line_to_an_edge(line: int, position: int) -> bool:
    """K4, along one line: whether the free cell at `position` sees an edge of the playing area,
    with no obstacle between it and one end of the line (its obstacles as a bit set)."""
    before = line & ((1 << position) - 1)
    after = line >> (position + 1)
    return not before or not after


def free_positions(line: int, with_a_line: bool) -> tuple[int, ...]:
    """The free positions of a line (its obstacles as a bit set) that see one of its ends, or
    (`with_a_line` false) that see neither, in order."""
    return tuple(
        p
        for p in range(SIZE)
        if not is_blocked(line, p) and has_a_line_to_an_edge(line, p) == with_a_line
    )


# WITH_A_LINE[line], NO_LINE_ALONG[line]: `free_positions` for every line.
WITH_A_LINE: Final = tuple(free_positions(line, with_a_line=True) for line in range(1 << SIZE))
NO_LINE_ALONG: Final = tuple(free_positions(line, with_a_line=False) for line in range(1 << SIZE))


def positions_losing_their_line(line: int, position: int) -> tuple[int, ...]:
    """The free positions of a line that see one of its ends, and no longer do once a tile
    stands at `position`, in order."""
    after = WITH_A_LINE[line | 1 << position]
    return tuple(p for p in WITH_A_LINE[line] if p != position and p not in after)


# LOSE_THEIR_LINE[line][position]: `positions_losing_their_line`, for every line and position.
LOSE_THEIR_LINE: Final = tuple(
    tuple(positions_losing_their_line(line, position) for position in range(SIZE))
    for line in range(1 << SIZE)
)


def leaves_a_hole(lanes: list[int], lane: int, stop: int, crossing: int) -> bool:
    """K4: whether a tile sliding along `lane` (one of `lanes`, the lines parallel to it) and
    stopping at position `stop` of it would leave a free cell that no tile could ever reach: one
    with no straight line of free cells to an edge, along its row or its column. `crossing` is
    the line across the lane where the tile stops, without the tile.

    Before the tile no cell is a hole (legal play, and decode_state, see to that), and the tile
    changes only its lane and the line crossing it. The free cells of the lane keep their line:
    the tile slid over those behind it and stopped right against the one ahead. So only free
    cells of the crossing line can lose theirs, those the tile cuts off from its ends
    (LOSE_THEIR_LINE); each of them is a hole unless it sees an edge along its own lane."""
    for other in LOSE_THEIR_LINE[crossing][lane]:
        if not has_a_line_to_an_edge(lanes[other], stop):
            return True
    return False


def unfillable_cells(state: KrabyState) -> list[int]:
    """Every hole of the board (K4), in order; a state legal play reaches has none. Only a free
    cell with no line along its row can be one, and it is one when it has none along its
    column either."""
    holes = []
    for row in range(SIZE):
        for col in NO_LINE_ALONG[state.row_blocked[row]]:
            if not has_a_line_to_an_edge(state.col_blocked[col], row):
                holes.append(row * SIZE + col)
    return holes


# ----- where a tile may enter: the Crab Move (K3) without a hole (K4) -----


@dataclass(frozen=True, eq=False, slots=True)
class Entry:
    """An entry point (K3, K4): a tile may be slid in from `edge` along `lane`, and stops at cell
    `stop`. `tiles` are the moves it offers by the colours in hand (K5: the colour does not
    matter for legality), indexed by `colors_held`. One object for each, built once: they are
    compared by identity."""

    edge: Edge
    lane: int
    stop: int
    tiles: tuple[tuple[PlaceTile, ...], ...]


def colors_held(hand: tuple[int, ...]) -> int:
    """The colours `hand` holds, as a bit set (bit c - 1 for colour c)."""
    return sum(1 << (color - 1) for color in COLORS if hand[color - 1])


def entry(edge: Edge, lane: int, position: int) -> Entry:
    """The entry point of a tile from `edge` along `lane` stopping at `position`."""
    stop = CELLS_ALONG[edge][lane][position]
    tiles = tuple(
        tuple(PlaceTile(edge, lane, c, stop) for c in COLORS if colors >> (c - 1) & 1)
        for colors in range(1 << len(COLORS))
    )
    return Entry(edge, lane, stop, tiles)


# ENTRIES[edge][lane][position]: the entry point of a tile from `edge` stopping there.
ENTRIES: Final = {
    edge: [[entry(edge, lane, position) for position in range(SIZE)] for lane in range(SIZE)]
    for edge in EDGES
}


@dataclass(frozen=True, eq=False, slots=True)
class Side:
    """The playing area (K1) of a number of fishers as tiles slid in from one edge meet it, its
    tables gathered: whether its lanes are rows, the lanes in order (LANES), where a tile stops
    along a lane by the lane's obstacles (STOPS, K3), and the entry point at each lane and
    position (ENTRIES). One object for each, built once, so that finding the entry points looks
    up no table by edge or number of fishers along the way."""

    edge: Edge
    along_rows: bool
    lanes: tuple[int, ...]
    stops: list[int | None]
    entries: list[list[Entry]]


def side_of(edge: Edge, num_players: int) -> Side:
    lanes = tuple(LANES[num_players])
    return Side(edge, ALONG_ROWS[edge], lanes, STOPS[num_players][edge], ENTRIES[edge])


# SIDES[num_players][edge], in the order of EDGES.
SIDES: Final = {n: {edge: side_of(edge, n) for edge in EDGES} for n in PLAYER_COUNTS}


def find_entry_points(state: KrabyState, first_only: bool = False) -> list[Entry]:
    """The entry points (edge by edge, lane by lane, in order; only the first with
    `first_only`): each lane's stop (K3) where the tile leaves no hole (K4)."""
    found = []
    rows, cols = state.row_blocked, state.col_blocked
    for side in SIDES[state.num_players].values():
        lanes, crossing = (rows, cols) if side.along_rows else (cols, rows)
        for lane in side.lanes:
            stop = side.stops[lanes[lane]]
            if stop is None or leaves_a_hole(lanes, lane, stop, crossing[stop]):
                continue
            found.append(side.entries[lane][stop])
            if first_only:
                return found
    return found


def entry_points(state: KrabyState) -> tuple[Entry, ...]:
    """Every entry point of the board. It depends on the board alone (the cells also tell the
    playing area, K1), and one position is asked about several times (its legal moves, its view,
    the engine's move keys), so the answers for the boards seen lately are kept."""
    key = bytes(state.cells)
    found = _ENTRY_POINTS.get(key)
    if found is None:
        if len(_ENTRY_POINTS) >= _ENTRY_POINTS_LIMIT:
            _ENTRY_POINTS.clear()
        found = _ENTRY_POINTS[key] = tuple(find_entry_points(state))
    return found


# A key is a board's 121 bytes and a value at most 44 shared entries (4 edges x 11 lanes): under
# 700 bytes an entry, under 3 MiB in all.
_ENTRY_POINTS: Final[dict[bytes, tuple[Entry, ...]]] = {}
_ENTRY_POINTS_LIMIT: Final = 4096


def tiles_offered(state: KrabyState) -> tuple[PlaceTile, ...]:
    """The tiles the fisher to play may slide in: at every entry point, one of each colour they
    hold. Kept, as the entry points are, by the board and the colours held: a position's moves
    are asked for more than once (the engine's check for a forced move, the fisher's legal
    moves, the moves' encodings)."""
    colors = colors_held(state.hands[state.turn_player])
    key = (bytes(state.cells), colors)
    found = _TILES_OFFERED.get(key)
    if found is None:
        moves: list[PlaceTile] = []
        for entry in entry_points(state):
            moves += entry.tiles[colors]
        if len(_TILES_OFFERED) >= _TILES_OFFERED_LIMIT:
            _TILES_OFFERED.clear()
        found = _TILES_OFFERED[key] = tuple(moves)
    return found


# A value holds at most 220 shared moves (44 entries, 5 colours): under 2 KiB an entry, under
# 2 MiB in all.
_TILES_OFFERED: Final[dict[tuple[bytes, int], tuple[PlaceTile, ...]]] = {}
_TILES_OFFERED_LIMIT: Final = 1024


def has_entry_point(state: KrabyState) -> bool:
    """Whether a tile may be slid in anywhere (K3, K4)."""
    return bool(find_entry_points(state, first_only=True))


# ----- Groups and Scoring Values -----


def group_points(size: int) -> int:
    """A group of one species scores by its size: -1, 0, 1, 3, and 5 for five or more."""
    return GROUP_POINTS.get(size, BIG_GROUP_POINTS)


def draw_back_to_six(state: KrabyState, color: Color) -> list[Event]:
    """After placing a crab, the player draws another tile, so that he has six behind the
    screen; then comes the figure."""
    player = state.turn_player
    take_from_bag(state, player, color)
    drawn = tile_drawn(player, color, tiles_in(state.hands[player]), tiles_in(state.bag))
    return [drawn, *offer_figure(state)]


# ----- Placing a Crab in the Ship's Hold (K6) -----


def ship_has_room(state: KrabyState, player: int) -> bool:
    """In a 4-player game a ship holds at most two figures (three holds otherwise)."""
    return room_on_ship(state.ships[player], state.num_players) > 0


def room_on_ship(ship: Ship, num_players: int) -> int:
    """How many more figures the ship may hold (`ship_has_room`)."""
    figures = sum(1 for hold in ship if hold != NO_FIGURE)  # a generator: a native loop
    return FIGURES_PER_SHIP[num_players] - figures


def figure_beside_the_board(figure_supply: tuple[int, ...], color: Color) -> bool:
    """The figure is one of those lying next to the board (`figure_supply`: how many of each
    colour lie there, indexed by colour - 1)."""
    return figure_supply[color - 1] > 0


def color_on_ship(ship: Ship, color: Color) -> bool:
    """On a ship there may be only one crab figure of a given colour."""
    return color in ship


def hold_is_free(ship: Ship, multiplier: int) -> bool:
    return ship[multiplier - 1] == NO_FIGURE


def figures_on(ship: Ship) -> list[tuple[int, Color]]:
    """The figures on a ship, as (multiplier, colour), from hold x1 to hold x3."""
    return [(m, ship[m - 1]) for m in MULTIPLIERS if not hold_is_free(ship, m)]


def holds_taken_on_other_ships(state: KrabyState, player: int) -> set[tuple[Color, int]]:
    """A figure may not be placed on a space the same as one at another player's ship: with pink
    at x3 on one ship, pink may go only at x2 or x1 on the others. The (colour, multiplier) of
    every figure on the other ships."""
    return {
        (color, multiplier)
        for seat, ship in enumerate(state.ships)
        if seat != player
        for multiplier, color in figures_on(ship)
    }


def figure_placements(state: KrabyState) -> list[PlaceFigure]:
    """The figures the fisher to play may place, right after their tile: each colour, each
    hold, as the rules above allow."""
    player = state.turn_player
    ship = state.ships[player]
    if not ship_has_room(state, player):
        return []
    taken = holds_taken_on_other_ships(state, player)
    return [
        PLACE_FIGURES[color - 1][multiplier - 1]
        for color in COLORS
        if figure_beside_the_board(state.figure_supply, color) and not color_on_ship(ship, color)
        for multiplier in MULTIPLIERS
        if hold_is_free(ship, multiplier) and (color, multiplier) not in taken
    ]


# PLACE_FIGURES[color - 1][multiplier - 1]: every figure placement, built once (a move is
# immutable).
PLACE_FIGURES: Final = tuple(tuple(PlaceFigure(c, m) for m in MULTIPLIERS) for c in COLORS)


def offer_figure(state: KrabyState) -> list[Event]:
    """After the tile and the draw, the figure decision; a fisher with no figure to place skips it
    (G6), and the turn ends."""
    if figure_placements(state):
        state.step = PLACE_FIGURE
        return []
    return end_turn(state)


def place_figure(state: KrabyState, move: PlaceFigure | SkipFigure) -> list[Event]:
    """One figure into a hold of the fisher's ship, or none; the turn ends."""
    player = state.turn_player
    events: list[Event]
    if isinstance(move, SkipFigure):
        events = [FigureSkipped(player)]
    else:
        state.ships[player] = with_figure(state.ships[player], move)
        state.figure_supply = counted(state.figure_supply, move.color, -1)
        supply_left = state.figure_supply[move.color - 1]
        events = [FigurePlaced(player, move.color, move.multiplier, supply_left)]
    return events + end_turn(state)


def with_figure(ship: Ship, move: PlaceFigure) -> Ship:
    """`ship` with the figure in its hold, as a new tuple: the old one may be shared."""
    holds = list(ship)
    holds[move.multiplier - 1] = move.color
    return tuple(holds)


# ----- End of the Game (K8) -----


def all_tiles_placed(state: KrabyState) -> bool:
    """The game ends when all the crabs have been laid out on the board."""
    return not tiles_in(state.bag) and not any(tiles_in(hand) for hand in state.hands)


def end_the_game(state: KrabyState, reason: EndReason) -> list[Event]:
    state.step = GAME_OVER
    return [GameEnded(reason)]


# ----- Scoring (K9) -----


@dataclass(frozen=True)
class SpeciesScore:
    color: Color
    group_sizes: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class FisherScore:
    player: int
    contributions: tuple[tuple[Color, int, int], ...]  # (colour, multiplier, species points)
    total: int
    best_contribution: int


@dataclass(frozen=True)
class KrabyOutcome:
    species: tuple[SpeciesScore, ...]
    fishers: tuple[FisherScore, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


def cells_beside(cell: int) -> tuple[int, ...]:
    """The cells sharing a side with `cell`, not a corner, in reading order."""
    row, col = divmod(cell, SIZE)
    around = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
    return tuple(r * SIZE + c for r, c in around if 0 <= r < SIZE and 0 <= c < SIZE)


# BESIDE[cell]: `cells_beside` for every cell of the board.
BESIDE: Final = tuple(cells_beside(cell) for cell in range(CELLS))
NO_GROUP: Final = -1  # in Groups.group_of: the cell holds no tile


@dataclass(slots=True)
class Groups:
    """The groups of the board: tiles of one species that touch with their sides, not corners,
    numbered in reading order of their first tile. `group_of[cell]` is the group of the tile on
    `cell` (NO_GROUP where there is none); `colors[g]` and `sizes[g]` are group g's species and
    number of tiles."""

    group_of: list[int]
    colors: list[Color]
    sizes: list[int]

    def sizes_of(self, color: Color) -> list[int]:
        """The sizes of the groups of one species, in reading order."""
        return [size for g, size in enumerate(self.sizes) if self.colors[g] == color]

    def beside(self, cell: int, color: Color) -> list[int]:
        """The groups of `color` sharing a side with `cell`, each once: the groups a tile of that
        colour placed there joins."""
        found: list[int] = []
        for other in BESIDE[cell]:
            group = self.group_of[other]
            if group != NO_GROUP and self.colors[group] == color and group not in found:
                found.append(group)
        return found


def find_groups(cells: bytearray) -> Groups:
    """Every group of the board, each grown from its first tile (in reading order) through the
    tiles of its species beside it."""
    board = bytes(cells)
    group_of = [NO_GROUP] * CELLS
    colors: list[Color] = []
    sizes: list[int] = []
    for first in range(CELLS):
        tile = board[first]
        if tile <= ISLAND_CELL or group_of[first] != NO_GROUP:
            continue  # no tile here, or one already in a group
        group = len(sizes)
        group_of[first] = group
        growing, size = [first], 0
        while growing:
            cell = growing.pop()
            size += 1
            for other in BESIDE[cell]:
                if board[other] == tile and group_of[other] == NO_GROUP:
                    group_of[other] = group
                    growing.append(other)
        colors.append(cast(Color, tile - TILE_OFFSET))
        sizes.append(size)
    return Groups(group_of, colors, sizes)


def score_species(cells: bytearray) -> tuple[SpeciesScore, ...]:
    """The points scored by each species, in order (`species_points`), with its groups' sizes."""
    groups = find_groups(cells)
    return tuple(
        SpeciesScore(color, tuple(groups.sizes_of(color)), species_points(groups, color))
        for color in COLORS
    )


def species_points(groups: Groups, color: Color) -> int:
    """The points a species scores: all the points of its groups, positive and negative,
    summed."""
    return sum(group_points(size) for size in groups.sizes_of(color))


def score_fishers(ships: list[Ship], species: tuple[SpeciesScore, ...]) -> tuple[FisherScore, ...]:
    """Each fisher scores, for each figure on their ship, its species' points times its hold."""
    points = {s.color: s.points for s in species}
    fishers = []
    for player, ship in enumerate(ships):
        contributions = tuple((color, m, points[color]) for m, color in figures_on(ship))
        values = figure_points(ship, points)
        # K9: with no figure at all the best single contribution counts as 0.
        fishers.append(FisherScore(player, contributions, sum(values), max(values, default=0)))
    return tuple(fishers)


def figure_points(ship: Ship, points: dict[Color, int]) -> list[int]:
    """What each figure on a ship scores: its species' points times its hold."""
    return [m * points[ship[m - 1]] for m in MULTIPLIERS if not hold_is_free(ship, m)]


def rank(fishers: tuple[FisherScore, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The player who scored the most points wins; on a tie, the one who scored the most points
    from one of the species (K9); a tie on both shares the place (and the victory)."""
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


# ----- what holds after every move -----


def laws_broken(state: KrabyState) -> Iterator[tuple[str, str]]:
    """What must hold in every position, each as the state's field that breaks it and why: no
    hand holds more than six tiles; every tile of the game is on the board, in a hand or in the
    bag (Setup, K2); the sand bar stays (K1); no free cell is a hole (K4). The codec refuses
    a state by the first; the conformance suite checks none after any move."""
    for seat, hand in enumerate(state.hands):
        if sum(hand) > HAND_SIZE:
            yield f"hands[{seat}]", f"holds {sum(hand)} tiles; at most {HAND_SIZE}"
    in_play = colors_in_play(state.num_players, state.excluded_color)
    for color in COLORS:
        on_board = state.cells.count(color + TILE_OFFSET)
        held = sum(hand[color - 1] for hand in state.hands)
        count = on_board + held + state.bag[color - 1]
        expected = TILES_PER_COLOR[state.num_players] if color in in_play else 0
        if count != expected:
            name = COLOR_NAMES[color]
            yield (
                f"bag.{name}",
                f"{count} {name} tiles in all (board, hands, bag); the game has {expected}",
            )
    if state.cells[ISLAND] != ISLAND_CELL:
        yield f"cells[{ISLAND}]", "must be the island (K1)"
    holes = unfillable_cells(state)
    if holes:
        yield (
            f"cells[{holes[0]}]",
            "is a free cell no tile could ever reach (K4); no legal play leads here",
        )


def invariant_violations(state: KrabyState) -> list[str]:
    """Every law broken (`laws_broken`), each as its field and why."""
    return [f"{field}: {why}" for field, why in laws_broken(state)]
