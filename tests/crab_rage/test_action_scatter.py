"""Scatter (docs/rules/crab_rage.md, "#### Scatter", with R9): action card; arena only, cost 2;
as Rush, for every crab with the least muscle."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Destination
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    GREEN,
    INDEPENDENT,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    offered,
    play,
    put,
    where,
)


def test_scatter_moves_every_crab_tied_for_least_muscle():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SCATTER, rage=3)
    put(state, BLUE, 2, 0, 4)
    put(state, YELLOW, 1, 0, 2)
    put(state, GREEN, 1, 0, 2)
    act(state, Action.SCATTER, 2)
    play(state, Destination(arena=2))  # Yellow first: turn order after Blue
    play(state, Destination(arena=2))  # Green
    assert decision(state) == (GREEN, "choose_alliance")  # Yellow entered alone
    play(state, INDEPENDENT)
    assert where(state, YELLOW)[1] == where(state, GREEN)[1] == 2
    assert where(state, BLUE)[2] == 0


def test_scatter_with_all_crabs_tied_moves_them_all():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SCATTER, rage=3)
    put(state, BLUE, 1, 0, 2)
    put(state, YELLOW, 1, 0, 2)
    act(state, Action.SCATTER, 1)
    assert [m.arena for m in GAME.legal_moves(state)] == [1, 2]
    play(state, Destination(arena=1))
    play(state, Destination(arena=1))
    assert decision(state) == (YELLOW, "choose_alliance")


def test_scatter_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SCATTER, rage=1)
    put(state, BLUE, 0, 0, 6)
    put(state, YELLOW, 0, 0, 1)
    assert not offered(state, Action.SCATTER)
    state.players[BLUE].rage = 2
    act(state, Action.SCATTER, 0)
    assert state.players[BLUE].rage == 0
