"""Kraby plugged into the engine: facts, rule hooks, labels and events (codec.py translates
states, moves, views and outcomes)."""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from typing import Any

from crabgames.core.errors import InvalidArgument, bad_request
from crabgames.core.game import Decision, Game, GameFacts, OptionInfo, Violation
from crabgames.games.kraby import codec, rules
from crabgames.games.kraby.codec import COLOR_FIELDS, EDGE_NAMES, STEP_NAMES, counts_msg
from crabgames.games.kraby.data import (
    CELLS,
    COLOR_NAMES,
    COLORS,
    HAND_SIZE,
    ISLAND,
    ISLAND_CELL,
    MAX_PLAYERS,
    SIZE,
    TILE_OFFSET,
    colors_in_play,
    max_figures_per_ship,
    playing_area,
    tiles_per_color,
)
from crabgames.games.kraby.move_ids import FIGURE_IDS, TILE_IDS, move_id_of
from crabgames.games.kraby.rules import (
    DEAL,
    GAME_OVER,
    PLACE_FIGURE,
    PLACE_TILE,
    KrabyState,
    PlaceFigure,
    PlaceTile,
)
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

RULES_VERSION = "kraby/1"


def a_tile(color: int, thing: str = "tile") -> str:
    """'an orange tile'; just 'a tile' when the colour is hidden (unspecified)."""
    if color not in COLOR_NAMES:
        return f"a {thing}"
    name = COLOR_NAMES[color]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} {thing}"


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"row {row}, column {col}"


def lane_kind(edge: int) -> str:
    return "column" if edge in (rules.NORTH, rules.SOUTH) else "row"


@functools.lru_cache(maxsize=4096)  # every (entry, stop) there is: built once
def tile_label(move: PlaceTile, stop: int | None) -> str:
    """The tile's label: its colour, where it enters and where it stops. Rows and columns are
    the board's (0 to 10 for every player count, K1), as the move's fields carry them."""
    where = f" to {cell_name(stop)}" if stop is not None else ""
    return (
        f"slide {COLOR_NAMES[move.color]} in from the {EDGE_NAMES[move.edge]} along "
        f"{lane_kind(move.edge)} {move.lane}{where}"
    )


def tile_key(tile: PlaceTile, stop: int | None) -> Hashable:
    """What a tile's encoding depends on (its id, label and stop cell), as one small int; the
    tile itself when it cannot enter."""
    return tile if stop is None else stop * TILE_IDS + move_id_of(tile)


def entry_keys(entry: tuple[int, int, int]) -> list[tuple[Hashable, ...]]:
    """rules.LISTED_TILES[edge][stop] with each tile as its `tile_key`, by the colours in hand:
    built once per entry point (edge, lane, stop), of which there are at most 4 x 11 x 11."""
    edge, _, stop = entry
    keys = ENTRY_KEYS[entry] = [
        tuple(tile_key(tile, stop) for tile in tiles) for tiles in rules.LISTED_TILES[edge][stop]
    ]
    return keys


ENTRY_KEYS: dict[tuple[int, int, int], list[tuple[Hashable, ...]]] = {}


# ----- event sentences: a template per kind (and per variant), its placeholders from the event


def seat(player: int) -> dict[str, str]:
    return {"player": str(player)}


def dealt_sentence(event: rules.TileDealt) -> tuple[str, dict[str, str]]:
    if not event.color:  # as the other seats see it
        return "player {player} is dealt a tile", seat(event.player)
    args = seat(event.player) | {"color": COLOR_NAMES[event.color]}
    return "player {player} is dealt one {color} tile", args


def drawn_sentence(event: rules.TileDrawn) -> tuple[str, dict[str, str]]:
    if not event.color:
        return "player {player} draws a tile", seat(event.player)
    return "player {player} draws one {color} tile", seat(event.player) | {
        "color": COLOR_NAMES[event.color]
    }


def placed_sentence(event: rules.TilePlaced) -> tuple[str, dict[str, str]]:
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


def figure_sentence(event: rules.FigurePlaced) -> tuple[str, dict[str, str]]:
    args = seat(event.player) | {
        "color": COLOR_NAMES[event.color],
        "multiplier": str(event.multiplier),
    }
    return "player {player} puts one {color} figure in hold x{multiplier}", args


PASS_TEMPLATES: dict[int, str] = {
    rules.NO_TILES: "player {player} has no tile left and passes",
    rules.NO_ENTRY: "player {player} cannot slide a tile in anywhere and passes",
}
END_TEMPLATES: dict[int, str] = {
    rules.ALL_TILES_PLACED: "the game ends: all tiles are placed",
    rules.NO_FISHER_CAN_PLACE: "the game ends: no fisher can place a tile",
}


def event_sentence(event: object) -> tuple[str, dict[str, str]]:
    """The event's template and the text of each of its placeholders."""
    match event:
        case rules.TileDealt():
            return dealt_sentence(event)
        case rules.TileDrawn():
            return drawn_sentence(event)
        case rules.TilePlaced():
            return placed_sentence(event)
        case rules.FigurePlaced():
            return figure_sentence(event)
        case rules.FigureSkipped(player):
            return "player {player} places no figure", seat(player)
        case rules.TurnBegan(player):
            return "it is player {player}'s turn", seat(player)
        case rules.TurnPassed(player, reason):
            return PASS_TEMPLATES[reason], seat(player)
        case rules.GameEnded(reason):
            return END_TEMPLATES[reason], {}
    raise TypeError(f"not a Kraby event: {event!r}")


def check_view_sizes(view: pb.KrabyView, player: int, num_players: int) -> list[int]:
    """Every count of a view the sampler builds from, bounded by the game's (the board's 121
    cells, hands of at most 6 tiles, 120 tiles in all), before anything is built; the viewer's
    own hand, counted by colour."""
    path = "view.kraby"
    if len(view.cells) != CELLS:
        raise bad_request(f"{path}.cells", f"must hold {CELLS} cells (11x11, row-major)")
    if len(view.hand_sizes) != num_players:
        raise bad_request(f"{path}.hand_sizes", f"needs {num_players} entries")
    for seat, size in enumerate(view.hand_sizes):
        if not 0 <= size <= HAND_SIZE:
            raise bad_request(f"{path}.hand_sizes[{seat}]", f"a hand holds 0 to {HAND_SIZE} tiles")
    own = [getattr(view.own_hand, name) for name in COLOR_FIELDS]
    for name, count in zip(COLOR_FIELDS, own, strict=True):
        if not 0 <= count <= HAND_SIZE:
            raise bad_request(f"{path}.own_hand.{name}", f"a hand holds 0 to {HAND_SIZE} tiles")
    if sum(own) != view.hand_sizes[player]:
        raise bad_request(f"{path}.own_hand", "does not match the viewer's hand size")
    tiles = len(COLORS) * tiles_per_color(num_players)
    if not 0 <= view.bag_size <= tiles:
        raise bad_request(f"{path}.bag_size", f"must be 0 to {tiles} tiles")
    return own


def turn_player_of(view: pb.KrabyView) -> int:
    """The state's turn player behind a view: the view's, or during the deal the first seat
    still short of six tiles (seats are dealt in order); after the end any seat will do."""
    if view.HasField("turn_player"):
        return view.turn_player
    if view.step == DEAL:
        return next((p for p, size in enumerate(view.hand_sizes) if size < HAND_SIZE), 0)
    return 0


def decision_at(step: int, turn_player: int) -> Decision:
    if step in (PLACE_TILE, PLACE_FIGURE):
        return Decision.player_decides(turn_player, STEP_NAMES[step])
    if step == GAME_OVER:
        return Decision.game_over()
    return Decision.chance(STEP_NAMES[step])


# DECISIONS[step][turn_player]: a Decision is immutable, so one per step and seat, built once
# (asked several times a move).
DECISIONS = {step: [decision_at(step, seat) for seat in range(MAX_PLAYERS)] for step in STEP_NAMES}


# Events are small values (a game has a few thousand at most), kept by kind too (`typed`): they
# are tuples, and TileDealt(0, 1) == TileDrawn(0, 1).
@functools.lru_cache(maxsize=4096, typed=True)
def event_bytes(event: object) -> bytes:
    """An event's message, serialized: the same event always encodes the same."""
    msg = game_pb2.Event()
    KrabyGame.fill_event(event, msg)
    return msg.SerializeToString(deterministic=True)  # the args map sorted by key


def fill_kraby_event(event: object, ev: pb.KrabyEvent) -> None:
    """The event as data: who, which tile or figure, from where to where, the result."""
    match event:
        case rules.TileDealt():
            dealt = ev.tile_dealt
            dealt.player, dealt.color, dealt.hand_size, dealt.bag_size = event
        case rules.TileDrawn():
            drawn = ev.tile_drawn
            drawn.player, drawn.color, drawn.hand_size, drawn.bag_size = event
        case rules.TilePlaced(player, edge, lane, color, stop, hand_size):
            placed = ev.tile_placed
            placed.player, placed.edge, placed.lane, placed.color = player, edge, lane, color
            codec.set_position(placed.stop, stop)
            placed.hand_size = hand_size
        case rules.FigurePlaced():
            figure = ev.figure_placed
            figure.player, figure.color, figure.multiplier, figure.supply_left = event
        case rules.FigureSkipped(player):
            ev.figure_skipped.player = player
        case rules.TurnBegan(player):
            ev.turn_began.player = player
        case rules.TurnPassed(player, reason):
            ev.turn_passed.player, ev.turn_passed.reason = player, reason
        case rules.GameEnded(reason):
            ev.game_ended.reason = reason


class KrabyGame(Game[KrabyState, object, Any, Any]):
    facts = GameFacts(
        id="kraby",
        title="Kraby",
        min_players=2,
        max_players=MAX_PLAYERS,
        rules_version=RULES_VERSION,
        former_rules_versions=("kraby-1",),
        has_chance=True,
        has_hidden_information=True,
        has_simultaneous_choices=False,
        options=(
            # Any of the five colours may sit out; unset is pink (K2).
            OptionInfo("excluded_color", "With two players, the colour that sits out (K2)", "pink"),
            OptionInfo(
                "first_player",
                "The seat that starts, below the number of players (K7)",
                "0",
                minimum=0,
                maximum=MAX_PLAYERS - 1,
                seat=True,
            ),
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
        return DECISIONS[state.step][state.turn_player]

    # The rules' own functions, bound without a wrapper: each call runs one function less (on
    # every call of the server, whose CPU caches its other work keeps cold).
    legal_moves = staticmethod(rules.legal_moves)
    is_legal = staticmethod(rules.is_legal)
    apply_move = staticmethod(rules.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(rules.apply_chance)
    outcome = staticmethod(rules.outcome)
    clone = staticmethod(KrabyState.copy)

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
            new.hands[p] = tuple(pool[:size].count(c) for c in COLORS)
            del pool[:size]
        new.bag = tuple(pool.count(c) for c in COLORS)
        return new

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return TILE_IDS + FIGURE_IDS + 1

    def move_id(self, state: KrabyState, move: object) -> int:
        return move_id_of(move)

    def state_from_view(
        self, view: pb.KrabyView, player: int, num_players: int, rng: random.Random
    ) -> KrabyState:
        """Deal the tiles the viewer cannot see (total minus board minus own hand) at random
        into the other hands, by their sizes, and the bag."""
        own = check_view_sizes(view, player, num_players)
        excluded = view.options.excluded_color or pb.KRABY_COLOR_PINK
        in_play = colors_in_play(num_players, excluded) if excluded in COLORS else ()
        cells, pool = list(view.cells), []  # 121 cells, checked
        for color in COLORS:
            total = tiles_per_color(num_players) if color in in_play else 0
            unseen = total - cells.count(color + TILE_OFFSET) - own[color - 1]
            if unseen < 0:
                raise bad_request("view.kraby.cells", f"too many {COLOR_NAMES[color]} tiles seen")
            pool += [color] * unseen
        hidden = sum(view.hand_sizes) - view.hand_sizes[player] + view.bag_size
        if hidden != len(pool):
            raise bad_request("view.kraby.bag_size", "does not match the tiles left unseen")
        rng.shuffle(pool)
        msg = pb.KrabyState(
            options=view.options,
            cells=view.cells,
            ships=view.ships,
            figure_supply=view.figure_supply,
            step=view.step,
            turn_player=turn_player_of(view),
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
            return codec.decode_state(msg, num_players, "view.kraby")
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
        return codec.decode_state(msg, num_players, path)

    encode_state_bytes = staticmethod(codec.encode_state_bytes)
    decode_move = staticmethod(codec.decode_move)

    def encode_move(self, move: object, msg: pb.KrabyMove) -> None:
        codec.encode_move(move, msg)

    def encode_view(self, state: KrabyState, player: int | None, msg: pb.KrabyView) -> None:
        codec.encode_view(state, player, msg)

    def encode_outcome(self, outcome: rules.KrabyOutcome, msg: game_pb2.Outcome) -> None:
        codec.encode_outcome(outcome, msg)

    def move_label(self, state: KrabyState, move: object) -> str:
        if isinstance(move, PlaceTile):
            stop = move.stop if move.stop is not None else rules.slide_stop(state, *move[:2])
            return tile_label(move, stop)
        if isinstance(move, PlaceFigure):
            return f"put {a_tile(move.color, 'figure')} in hold x{move.multiplier}"
        return "place no figure"

    def move_cache_key(self, state: KrabyState, move: object) -> Hashable:
        if isinstance(move, PlaceTile):
            return tile_key(move, rules.slide_stop(state, move.edge, move.lane))
        return move  # a figure's label and id depend on the move alone

    def move_cache_keys(self, state: KrabyState, moves: Sequence[object]) -> list[Hashable]:
        """The legal tiles' keys come from the table walk of rules.legal_moves (the same entry
        points, each entry's tiles by the colours in hand), with each entry's keys built once."""
        if state.step != PLACE_TILE:
            return list(moves)
        colors = rules.colors_in_hand(state.hands[state.turn_player])
        keys: list[Hashable] = []
        known = ENTRY_KEYS.get
        for entry in rules.entry_points(state):
            keys += (known(entry) or entry_keys(entry))[colors]
        if len(keys) != len(moves):  # not this state's legal moves: key them one by one
            return [self.move_cache_key(state, move) for move in moves]
        return keys

    def chance_label(self, state: KrabyState, value: int) -> str:
        verb = "deal" if state.step == DEAL else "draw"
        return f"{verb} {a_tile(value)} to player {state.turn_player}"

    def encode_event(self, event: object, msg: game_pb2.Event) -> None:
        msg.MergeFromString(event_bytes(event))

    # Each event's bytes are kept (event_bytes): no message is built for one seen before.
    encode_event_bytes = staticmethod(event_bytes)

    @staticmethod
    def fill_event(event: object, msg: game_pb2.Event) -> None:
        """The event's data (`fill_kraby_event`) and its sentence: the template, the text of each
        placeholder, and the text they make."""
        fill_kraby_event(event, msg.kraby)
        template, args = event_sentence(event)
        msg.template = template
        msg.args.update(args)
        msg.text = template.format_map(args)

    def chance_hidden_from(self, state: KrabyState) -> list[int]:
        # Every Kraby chance event is a tile into a hand: only its fisher sees it.
        return [p for p in range(state.num_players) if p != state.turn_player]

    def redact_event(self, event: object, viewer: int | None) -> object | None:
        # A dealt or drawn tile is seen by its fisher only; the others see that a tile moved.
        if isinstance(event, TILES_INTO_A_HAND) and event.player != viewer:
            # The hand's size and the bag's are seen by all: only the colour is taken out.
            return event._replace(color=pb.KRABY_COLOR_UNSPECIFIED)
        return event


TILES_INTO_A_HAND = (rules.TileDealt, rules.TileDrawn)
