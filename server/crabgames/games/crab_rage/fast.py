"""The accelerator left (core.game.FastPaths): the legal moves' cache keys. States, events and
views are written by their messages' shapes (messages.py)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import repeat

from crabgames.core.game import FastPaths
from crabgames.games.crab_rage.events import Event
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.state import State, Step
from crabgames.games.crab_rage.words import label


def move_cache_keys(state: State, moves: Sequence[Move]) -> list[Hashable]:
    """Something that determines each legal move's label and id given the deciding seat (the
    engine keys its encoded moves by both, to skip building the labels; a move's id depends
    on the move alone, move_ids.py). A turn of the Action Phase lists up to ~130 moves: their
    labels read only the teams, the acting team's signature move and the billboards, so the key
    is the move with those as one bytes value (shared by the turn's keys, its hash is computed
    once; 3, 4 and 5 players give different lengths). Other decisions have a few moves: the
    label itself is the key. tests/crab_rage/test_labels.py checks that equal keys have equal
    labels and ids."""
    task = state.pending[-1]
    if task.kind != Step.ACTION_TURN:
        return [(move, label(state, move)) for move in moves]
    players = state.players
    teams = [p.team for p in players]
    billboards = [a.billboard for a in state.arenas]
    table = bytes([*teams, players[task.player].signature, *billboards])
    return list(zip(moves, repeat(table), strict=False))


FAST: FastPaths[State, Move, Event] = FastPaths(move_cache_keys=move_cache_keys)
