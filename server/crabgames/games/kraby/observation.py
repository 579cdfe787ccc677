"""A seat's observation tensor (docs/agents.md, "Kraby"), from its view message alone.

Everything a fisher sees: the board as one-hot planes per cell, their own tiles, the counts of
the other hands and the bag, the ships, the figure supply, where the turn stands and the open
entries and figures of the decision. Per-seat features count seats from the viewer (seat_slot).
"""

from __future__ import annotations

from typing import Final

from crabgames.core.observation import Feature, Layout, Writer, put_to_decide, seat_slot
from crabgames.games.kraby.codec import COLOR_FIELDS
from crabgames.games.kraby.data import (
    CELLS,
    COLORS,
    EDGES,
    FIGURES_PER_COLOR,
    HAND_SIZE,
    MAX_PLAYERS,
    MULTIPLIERS,
    PLAYER_COUNTS,
    SIZE,
    TILES_PER_COLOR,
)
from crabgames.games.kraby.rules import colors_in_play
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

# A cell's kinds, in KrabyCell order from EMPTY: empty, off board, sand bar, the five species.
CELL_KINDS: Final = len(pb.KrabyCell.values()) - 1
HOLDS: Final = len(MULTIPLIERS)
STEPS: Final = len(pb.KrabyStep.values()) - 1  # DEAL .. GAME_OVER
# The largest counts, for scaling to [0, 1]: every tile of the largest game (5 x 24).
MAX_TILES: Final = len(COLORS) * max(TILES_PER_COLOR.values())
MAX_FIGURES: Final = max(FIGURES_PER_COLOR.values())
# Final scores are divided by this and clipped to [-1, 1]: no bound is printed, and real games
# score well inside it.
SCORE_SCALE: Final = 100.0

LAYOUT = Layout(
    [
        Feature(
            "cells",
            CELLS * CELL_KINDS,
            "cell i = r*11+c holds kind k: entry i*8+k is 1 (k: KrabyCell - 1)",
        ),
        Feature("own_hand", len(COLORS), "the viewer's tiles of each species / 6"),
        Feature("hand_sizes", MAX_PLAYERS, "tiles in each slot's hand / 6"),
        Feature("bag_size", 1, "tiles left in the bag / 120"),
        Feature(
            "ships",
            MAX_PLAYERS * HOLDS * len(COLORS),
            "slot s, hold x(h+1) holds species c: entry (s*3+h)*5+c is 1",
        ),
        Feature("figure_supply", len(COLORS), "figures of each species beside the board / 3"),
        Feature("step", STEPS, "one-hot: deal, place tile, draw, place figure, game over"),
        Feature(
            "turn_player",
            MAX_PLAYERS,
            "one-hot slot whose turn it is (none in the deal, at the end)",
        ),
        Feature("to_decide", 1, "1 when the viewer must decide now"),
        Feature("turns_taken", 1, "tiles placed so far / 120"),
        Feature("players", len(PLAYER_COUNTS), "one-hot number of fishers: 2, 3, 4"),
        Feature(
            "in_play", len(COLORS), "1 for each species in the game (one sits out with two, K2)"
        ),
        Feature(
            "entries",
            len(EDGES) * SIZE,
            "edge e (N, E, S, W), lane l open to a tile now: entry e*11+l is 1",
        ),
        Feature(
            "figure_choices",
            len(COLORS) * HOLDS,
            "species c may go in hold x(h+1) now: entry c*3+h is 1",
        ),
        Feature("winners", MAX_PLAYERS, "1 for each slot that won (once the game is over)"),
        Feature(
            "scores", MAX_PLAYERS, "final score / 100, clipped to [-1, 1], by slot (once over)"
        ),
    ]
)

# Where each feature starts, read once: the cells loop runs 121 times a call.
CELLS_AT: Final = LAYOUT.spans["cells"][0]


def observe(view: game_pb2.View, writer: Writer) -> None:
    """Fill the viewer's tensor from their view (docs/agents.md)."""
    part = view.kraby
    write_cells(part, writer)
    write_counts(view, part, writer)
    write_ships(view, part, writer)
    write_turn(view, part, writer)
    write_decision(part.decision, writer)
    write_outcome(view, writer)


def write_cells(part: pb.KrabyView, writer: Writer) -> None:
    values = writer.values
    for index, cell in enumerate(part.cells):
        if cell:  # UNSPECIFIED never appears in a view; skip it rather than misplace it
            values[CELLS_AT + index * CELL_KINDS + cell - 1] = 1.0


def write_counts(view: game_pb2.View, part: pb.KrabyView, writer: Writer) -> None:
    for index, name in enumerate(COLOR_FIELDS):
        writer.put("own_hand", index, getattr(part.own_hand, name) / HAND_SIZE)
        writer.put("figure_supply", index, getattr(part.figure_supply, name) / MAX_FIGURES)
    for seat, size in enumerate(part.hand_sizes):
        writer.put("hand_sizes", slot(view, seat), size / HAND_SIZE)
    writer.put("bag_size", 0, part.bag_size / MAX_TILES)
    writer.put("turns_taken", 0, min(part.turns_taken / MAX_TILES, 1.0))


def write_ships(view: game_pb2.View, part: pb.KrabyView, writer: Writer) -> None:
    for seat, ship in enumerate(part.ships):
        base = slot(view, seat) * HOLDS
        for hold, color in enumerate((ship.hold_x1, ship.hold_x2, ship.hold_x3)):
            if color:
                writer.put("ships", (base + hold) * len(COLORS) + color - 1)


def write_turn(view: game_pb2.View, part: pb.KrabyView, writer: Writer) -> None:
    if part.step:
        writer.put("step", part.step - 1)
    if part.HasField("turn_player"):
        writer.put("turn_player", slot(view, part.turn_player))
    put_to_decide(view, writer)
    writer.put("players", PLAYER_COUNTS.index(view.num_players))
    in_play = colors_in_play(view.num_players, part.options.excluded_color)  # K2
    writer.put_all("in_play", [1.0 if color in in_play else 0.0 for color in COLORS])


def write_decision(decision: pb.KrabyDecision, writer: Writer) -> None:
    for entry in decision.entries:
        writer.put("entries", (entry.edge - 1) * SIZE + entry.lane)
    for figure in decision.figures:
        writer.put("figure_choices", (figure.color - 1) * HOLDS + figure.multiplier - 1)


def write_outcome(view: game_pb2.View, writer: Writer) -> None:
    if not view.HasField("outcome"):
        return
    for result in view.outcome.players:
        at = slot(view, result.player)
        writer.put("scores", at, max(-1.0, min(1.0, result.score / SCORE_SCALE)))
        writer.put("winners", at, 1.0 if result.winner else 0.0)


def slot(view: game_pb2.View, seat: int) -> int:
    return seat_slot(seat, view.player, view.num_players)
