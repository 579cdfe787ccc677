"""Kraby plugged into the engine: facts, rule hooks and the protobuf codec."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from crabgames.core.errors import InvalidArgument, bad_move, bad_request, bad_state
from crabgames.core.game import Decision, Game, GameFacts, OptionInfo, Violation
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

RULES_VERSION = "kraby-1"
COLOR_FIELDS = ("orange", "green", "blue", "yellow", "pink")
EDGE_NAMES = {rules.NORTH: "north", rules.EAST: "east", rules.SOUTH: "south", rules.WEST: "west"}
STEP_NAMES = {
    DEAL: "deal_tile",
    PLACE_TILE: "place_tile",
    DRAW: "draw_tile",
    PLACE_FIGURE: "place_figure",
    GAME_OVER: "game_over",
}


TILE_IDS = 4 * SIZE * len(COLORS)  # edge x lane x colour
FIGURE_IDS = len(COLORS) * len(MULTIPLIERS)


def counts_msg(counts: list[int]) -> pb.KrabyTileCounts:
    return pb.KrabyTileCounts(**dict(zip(COLOR_FIELDS, counts, strict=True)))


def a_tile(color: int, thing: str = "tile") -> str:
    """'an orange tile'; just 'a tile' when the colour is hidden (unspecified)."""
    if color not in COLOR_NAMES:
        return f"a {thing}"
    name = COLOR_NAMES[color]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} {thing}"


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"row {row}, column {col}"


@functools.lru_cache(maxsize=4096)  # every (entry, stop) there is: built once
def tile_label(move: PlaceTile, stop: int | None) -> str:
    where = f" to {cell_name(stop)}" if stop is not None else ""
    lane = "column" if move.edge in (rules.NORTH, rules.SOUTH) else "row"
    return (
        f"slide {COLOR_NAMES[move.color]} in from the {EDGE_NAMES[move.edge]} along "
        f"{lane} {move.lane}{where}"
    )


class KrabyGame(Game[KrabyState, object]):
    facts = GameFacts(
        id="kraby",
        title="Kraby",
        min_players=2,
        max_players=4,
        rules_version=RULES_VERSION,
        has_chance=True,
        has_hidden_information=True,
        has_simultaneous_choices=False,
        options=(
            OptionInfo("excluded_color", "With two players, the colour that sits out (K2)", "pink"),
            OptionInfo("first_player", "The seat that starts (K7)", "0"),
        ),
    )

    # ----- rules -----

    def decode_options(self, options, num_players: int, path: str) -> tuple[int, int]:
        excluded = options.excluded_color or pb.KRABY_COLOR_PINK
        if excluded not in COLORS:
            raise bad_request(f"{path}.excluded_color", f"unknown colour {excluded}")
        first = options.first_player if options.HasField("first_player") else 0
        if not 0 <= first < num_players:
            raise bad_request(f"{path}.first_player", f"must be a seat from 0 to {num_players - 1}")
        return excluded, first

    def initial_state(self, num_players: int, options: tuple[int, int]) -> KrabyState:
        return rules.new_state(num_players, *options)

    def next_decision(self, state: KrabyState) -> Decision:
        step = state.step
        if step in (PLACE_TILE, PLACE_FIGURE):
            return Decision.player_decides(state.turn_player, STEP_NAMES[step])
        if step == GAME_OVER:
            return Decision.game_over()
        return Decision.chance(STEP_NAMES[step])

    def legal_moves(self, state: KrabyState) -> Sequence[object]:
        return rules.legal_moves(state)

    def is_legal(self, state: KrabyState, move: object) -> bool:
        # Same generator, narrowed to the move's entry so one check stays cheap.
        if isinstance(move, PlaceTile) and state.step == PLACE_TILE:
            stop = rules.slide_stop(state, move.edge, move.lane)
            return (
                stop is not None
                and state.hands[state.turn_player][move.color - 1] > 0
                and rules.leaves_no_hole(state, stop)  # what entry_points checks
            )
        return move in rules.legal_moves(state)

    def explain_illegal(self, state: KrabyState, move: object) -> Violation:
        if isinstance(move, PlaceTile):
            return self.explain_tile(state, move)
        if state.step != PLACE_FIGURE:
            return Violation(
                "Placing a Crab in the Ship's Hold",
                "a figure may only be placed right after placing a tile",
            )
        assert isinstance(move, PlaceFigure)
        return self.explain_figure(state, move)

    def explain_tile(self, state: KrabyState, move: PlaceTile) -> Violation:
        if state.step != PLACE_TILE:
            return Violation("A Player's Turn", "a tile may be placed only once per turn")
        name = COLOR_NAMES[move.color]
        if not state.hands[state.turn_player][move.color - 1]:
            return Violation("Crab Move", f"there is no {name} tile in your hand")
        low, high = playing_area(state.num_players)
        if not low <= move.lane <= high:
            return Violation("K1", f"lane {move.lane} is outside the playing area ({low}..{high})")
        stop = rules.slide_stop(state, move.edge, move.lane)
        if stop is None:
            return Violation(
                "K3",
                "nothing stops the tile on that line (or its entry cell is "
                "taken), so it cannot enter there",
            )
        return Violation(
            "K4",
            f"stopping at {cell_name(stop)} would leave a free cell that no tile could ever reach",
        )

    def explain_figure(self, state: KrabyState, move: PlaceFigure) -> Violation:
        ship, name = state.ships[state.turn_player], COLOR_NAMES[move.color]
        if sum(1 for h in ship if h) >= max_figures_per_ship(state.num_players):
            return Violation("K6", "your ship already holds as many figures as allowed")
        if not state.figure_supply[move.color - 1]:
            return Violation("K6", f"no {name} figure is left next to the board")
        if move.color in ship:
            return Violation("K6", f"your ship already has a {name} figure")
        if ship[move.multiplier - 1]:
            return Violation("K6", f"hold x{move.multiplier} of your ship is taken")
        return Violation("K6", f"another ship already has {name} in hold x{move.multiplier}")

    def apply_move(self, state: KrabyState, move: object) -> list:
        if isinstance(move, PlaceTile):
            return rules.place_tile(state, move)
        return rules.place_figure(state, move)  # type: ignore[arg-type]

    def chance_outcomes(self, state: KrabyState) -> Sequence[tuple[int, int]]:
        # A draw from the bag: value = KrabyColor, weight = tiles of that colour left (G2).
        return [(c, state.bag[c - 1]) for c in COLORS if state.bag[c - 1]]

    def apply_chance(self, state: KrabyState, value: int) -> list:
        if state.step == DEAL:
            return rules.deal(state, value)
        return rules.draw(state, value)

    def outcome(self, state: KrabyState) -> rules.KrabyOutcome | None:
        return rules.outcome(state)

    def clone(self, state: KrabyState) -> KrabyState:
        return state.copy()

    def resample_hidden(
        self, state: KrabyState, player: int | None, rng: random.Random
    ) -> KrabyState:
        """Pool the bag with every hand `player` cannot see, and deal the hands back out."""
        new = state.copy()
        others = [p for p in range(state.num_players) if p != player]
        pool = [c for c in COLORS for _ in range(state.bag[c - 1])]
        for p in others:
            pool += [c for c in COLORS for _ in range(state.hands[p][c - 1])]
        rng.shuffle(pool)
        for p in others:
            size = sum(state.hands[p])
            new.hands[p] = [0] * 5
            for color in pool[:size]:
                new.hands[p][color - 1] += 1
            del pool[:size]
        new.bag = [pool.count(c) for c in COLORS]
        return new

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return TILE_IDS + FIGURE_IDS + 1

    def move_id(self, state: KrabyState, move: object) -> int:
        # Tiles: (edge, lane, colour); then figures: (colour, multiplier); then "no figure".
        if isinstance(move, PlaceTile):
            return ((move.edge - 1) * SIZE + move.lane) * len(COLORS) + move.color - 1
        if isinstance(move, PlaceFigure):
            return TILE_IDS + (move.color - 1) * len(MULTIPLIERS) + move.multiplier - 1
        return TILE_IDS + FIGURE_IDS

    def state_from_view(
        self, view: pb.KrabyView, player: int, num_players: int, rng: random.Random
    ) -> KrabyState:
        """Deal the tiles the viewer cannot see (total minus board minus own hand) at random
        into the other hands, by their sizes, and the bag."""
        if len(view.hand_sizes) != num_players:
            raise bad_request("view.kraby.hand_sizes", f"needs {num_players} entries")
        excluded = view.options.excluded_color or pb.KRABY_COLOR_PINK
        own = decode_counts(view.own_hand, "view.kraby.own_hand")
        in_play = colors_in_play(num_players, excluded) if excluded in COLORS else ()
        pool = []
        for color in COLORS:
            total = tiles_per_color(num_players) if color in in_play else 0
            unseen = total - list(view.cells).count(color + TILE_OFFSET) - own[color - 1]
            if unseen < 0:
                raise bad_request("view.kraby.cells", f"too many {COLOR_NAMES[color]} tiles seen")
            pool += [color] * unseen
        rng.shuffle(pool)
        msg = pb.KrabyState(
            options=view.options,
            cells=view.cells,
            ships=view.ships,
            figure_supply=view.figure_supply,
            step=view.step,
            turn_player=view.turn_player,
            turns_taken=view.turns_taken,
        )
        for seat, size in enumerate(view.hand_sizes):
            hand = own if seat == player else [0] * 5
            if seat != player:
                for color in pool[:size]:
                    hand[color - 1] += 1
                del pool[:size]
            msg.hands.append(counts_msg(hand))
        if len(pool) != view.bag_size:
            raise bad_request("view.kraby.bag_size", "does not match the tiles left unseen")
        msg.bag.CopyFrom(counts_msg([pool.count(c) for c in COLORS]))
        try:
            return decode_kraby_state(msg, num_players, "view.kraby")
        except InvalidArgument as error:
            raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None

    def invariant_violations(self, state: KrabyState) -> list[str]:
        problems = []
        total = tiles_per_color(state.num_players)
        in_play = colors_in_play(state.num_players, state.excluded_color)
        for color in COLORS:
            on_board = state.cells.count(color + TILE_OFFSET)
            held = sum(hand[color - 1] for hand in state.hands)
            count = on_board + held + state.bag[color - 1]
            expected = total if color in in_play else 0
            if count != expected:
                problems.append(f"{COLOR_NAMES[color]}: {count} tiles, expected {expected}")
        if state.cells[ISLAND] != ISLAND_CELL:
            problems.append("the island has moved")
        if rules.unfillable_cells(state):
            problems.append(f"unfillable cells {rules.unfillable_cells(state)} (K4)")
        if any(sum(hand) > HAND_SIZE for hand in state.hands):
            problems.append("a hand holds more than 6 tiles")
        return problems

    # ----- codec -----

    def decode_state(self, msg: pb.KrabyState, num_players: int, path: str) -> KrabyState:
        return decode_kraby_state(msg, num_players, path)

    def encode_state(self, state: KrabyState, msg: pb.KrabyState) -> None:
        msg.options.excluded_color = state.excluded_color
        msg.options.first_player = state.first_player
        msg.cells.extend(state.cells)
        msg.hands.extend(counts_msg(hand) for hand in state.hands)
        msg.bag.CopyFrom(counts_msg(state.bag))
        msg.ships.extend(pb.KrabyShip(hold_x1=a, hold_x2=b, hold_x3=c) for a, b, c in state.ships)
        msg.figure_supply.CopyFrom(counts_msg(state.figure_supply))
        msg.step = state.step
        msg.turn_player = state.turn_player
        msg.turns_taken = state.turns_taken

    def decode_move(self, msg: pb.KrabyMove, path: str) -> object:
        which = msg.WhichOneof("move")
        if which == "place_tile":
            tile = msg.place_tile
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

    def encode_move(self, move: object, msg: pb.KrabyMove) -> None:
        if isinstance(move, PlaceTile):
            msg.place_tile.edge, msg.place_tile.lane, msg.place_tile.color = move
        elif isinstance(move, PlaceFigure):
            msg.place_figure.color, msg.place_figure.multiplier = move
        else:
            msg.skip_figure.SetInParent()

    def move_label(self, state: KrabyState, move: object) -> str:
        if isinstance(move, PlaceTile):
            return tile_label(move, rules.slide_stop(state, move.edge, move.lane))
        if isinstance(move, PlaceFigure):
            return f"put {a_tile(move.color, 'figure')} in hold x{move.multiplier}"
        return "place no figure"

    def chance_label(self, state: KrabyState, value: int) -> str:
        verb = "deal" if state.step == DEAL else "draw"
        return f"{verb} {a_tile(value)} to player {state.turn_player}"

    def encode_event(self, event: object, msg: game_pb2.Event) -> None:
        ev = msg.kraby
        match event:
            case rules.TileDealt(player, color):
                ev.tile_dealt.player, ev.tile_dealt.color = player, color
                msg.text = f"player {player} is dealt {a_tile(color)}"
            case rules.TilePlaced(player, edge, lane, color, cell):
                p = ev.tile_placed
                p.player, p.edge, p.lane, p.color, p.cell = player, edge, lane, color, cell
                msg.text = (
                    f"player {player} slides {a_tile(color, 'crab')} in from the "
                    f"{EDGE_NAMES[edge]}; it stops at {cell_name(cell)}"
                )
            case rules.TileDrawn(player, color):
                ev.tile_drawn.player, ev.tile_drawn.color = player, color
                msg.text = f"player {player} draws {a_tile(color)}"
            case rules.FigurePlaced(player, color, m):
                f = ev.figure_placed
                f.player, f.color, f.multiplier = player, color, m
                msg.text = f"player {player} puts {a_tile(color, 'figure')} in hold x{m}"
            case rules.FigureSkipped(player):
                ev.figure_skipped.player = player
                msg.text = f"player {player} places no figure"
            case rules.TurnPassed(player):
                ev.turn_passed.player = player
                msg.text = f"player {player} cannot place a tile and passes"
            case rules.GameEnded(reason):
                ev.game_ended.reason = reason
                msg.text = f"the game ends: {reason}"

    def chance_hidden_from(self, state: KrabyState) -> list[int]:
        # Every Kraby chance event is a tile into a hand: only its fisher sees it.
        return [p for p in range(state.num_players) if p != state.turn_player]

    def redact_event(self, event: object, viewer: int | None) -> object | None:
        # A dealt or drawn tile is seen by its fisher only; the others see that a tile moved.
        if isinstance(event, rules.TileDealt | rules.TileDrawn) and event.player != viewer:
            return event._replace(color=pb.KRABY_COLOR_UNSPECIFIED)
        return event

    def encode_view(self, state: KrabyState, player: int | None, msg: pb.KrabyView) -> None:
        msg.options.excluded_color = state.excluded_color
        msg.options.first_player = state.first_player
        msg.cells.extend(state.cells)
        if player is not None:
            msg.own_hand.CopyFrom(counts_msg(state.hands[player]))
        msg.hand_sizes.extend(sum(hand) for hand in state.hands)
        msg.bag_size = sum(state.bag)
        msg.ships.extend(pb.KrabyShip(hold_x1=a, hold_x2=b, hold_x3=c) for a, b, c in state.ships)
        msg.figure_supply.CopyFrom(counts_msg(state.figure_supply))
        msg.step = state.step
        msg.turn_player = state.turn_player
        msg.turns_taken = state.turns_taken

    def encode_outcome(self, outcome: rules.KrabyOutcome, msg: game_pb2.Outcome) -> None:
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
                f.contributions.add(
                    color=color, multiplier=m, species_points=points, points=m * points
                )


def decode_counts(msg: pb.KrabyTileCounts, path: str) -> list[int]:
    counts = [getattr(msg, name) for name in COLOR_FIELDS]
    for name, count in zip(COLOR_FIELDS, counts, strict=True):
        if count < 0:
            raise bad_state(f"{path}.{name}", "cannot be negative")
    return counts


def decode_kraby_state(msg: pb.KrabyState, n: int, path: str) -> KrabyState:
    """Build the native state, checking that it is one legal play could reach."""
    excluded = msg.options.excluded_color or pb.KRABY_COLOR_PINK
    if excluded not in COLORS:
        raise bad_state(f"{path}.options.excluded_color", f"unknown colour {excluded}")
    first = msg.options.first_player
    if not 0 <= first < n:
        raise bad_state(f"{path}.options.first_player", f"must be a seat from 0 to {n - 1}")
    cells = list(msg.cells)
    check_cells(cells, n, excluded, f"{path}.cells")
    if len(msg.hands) != n:
        raise bad_state(f"{path}.hands", f"needs one hand per player ({n}), has {len(msg.hands)}")
    hands = [decode_counts(h, f"{path}.hands[{i}]") for i, h in enumerate(msg.hands)]
    for i, hand in enumerate(hands):
        if sum(hand) > HAND_SIZE:
            raise bad_state(f"{path}.hands[{i}]", f"holds {sum(hand)} tiles; at most {HAND_SIZE}")
    bag = decode_counts(msg.bag, f"{path}.bag")
    check_tile_totals(cells, hands, bag, n, excluded, path)
    if len(msg.ships) != n:
        raise bad_state(f"{path}.ships", f"needs one ship per player ({n}), has {len(msg.ships)}")
    ships = [[s.hold_x1, s.hold_x2, s.hold_x3] for s in msg.ships]
    supply = decode_counts(msg.figure_supply, f"{path}.figure_supply")
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
