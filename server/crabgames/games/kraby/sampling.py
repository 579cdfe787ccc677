"""Kraby's hidden tiles redrawn (G5): a state with what a seat cannot see dealt again at random,
from a state or from the seat's view."""

from __future__ import annotations

import random

from crabgames.core.errors import InvalidArgument, bad_request
from crabgames.games.kraby import codec, rules
from crabgames.games.kraby.data import (
    CELLS,
    COLOR_NAMES,
    COLORS,
    DEFAULT_EXCLUDED_COLOR,
    HAND_SIZE,
    TILE_OFFSET,
    TILES_PER_COLOR,
    Color,
)
from crabgames.games.kraby.state import DEAL, KrabyState
from crabgames.v1 import kraby_pb2 as pb


def resample_hidden(state: KrabyState, player: int | None, rng: random.Random) -> KrabyState:
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


def state_from_view(
    view: pb.KrabyView, player: int, num_players: int, rng: random.Random
) -> KrabyState:
    """Deal the tiles the viewer cannot see (total minus board minus own hand) at random into
    the other hands, by their sizes, and the bag."""
    own = check_view_sizes(view, player, num_players)
    excluded = view.options.excluded_color or DEFAULT_EXCLUDED_COLOR
    in_play = rules.colors_in_play(num_players, excluded) if excluded in COLORS else ()
    cells: list[int] = list(view.cells)  # 121 cells, checked
    pool: list[Color] = []
    for color in COLORS:
        total = TILES_PER_COLOR[num_players] if color in in_play else 0
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
        hand = own if seat == player else [pool[:size].count(c) for c in COLORS]
        if seat != player:
            del pool[:size]
        msg.hands.append(codec.counts_msg(hand))
    if len(pool) != view.bag_size:
        raise bad_request("view.kraby.bag_size", "does not match the tiles left unseen")
    msg.bag.CopyFrom(codec.counts_msg([pool.count(c) for c in COLORS]))
    try:
        return codec.decode_state(msg, num_players, "view.kraby")
    except InvalidArgument as error:
        raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None


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
    own = [getattr(view.own_hand, name) for name in codec.COLOR_FIELDS]
    for name, count in zip(codec.COLOR_FIELDS, own, strict=True):
        if not 0 <= count <= HAND_SIZE:
            raise bad_request(f"{path}.own_hand.{name}", f"a hand holds 0 to {HAND_SIZE} tiles")
    if sum(own) != view.hand_sizes[player]:
        raise bad_request(f"{path}.own_hand", "does not match the viewer's hand size")
    tiles = len(COLORS) * TILES_PER_COLOR[num_players]
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
