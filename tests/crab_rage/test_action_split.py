"""Split (docs/rules/crab_rage.md, "#### Split", with rules note 6): arena only, cost 2; an
alliance in the crab's arena, named by its lowest seat, breaks up and both its teams are
independent again."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Act
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    PC,
    YELLOW,
    act,
    action_phase,
    ally,
    offered,
    put,
)


def test_split_makes_both_teams_of_an_alliance_independent():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, BLACK, 0, 0)
    ally(state, 0, BLUE, BLACK)
    put(state, GREEN, 0, 1)
    assert not [
        m
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.SPLIT and m.crab == 1
    ]
    act(state, Action.SPLIT, 0, partner=BLUE)
    assert state.arenas[0].partner == [-1, -1, -1, -1]
    assert state.players[BLUE].rage == 4


def test_split_breaks_up_an_alliance_the_actor_is_not_in():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    put(state, GREEN, 0, 0)
    ally(state, 0, YELLOW, GREEN)
    assert [m.partner for m in offered(state, Action.SPLIT)] == [YELLOW]
    act(state, Action.SPLIT, 0, partner=YELLOW)
    assert state.arenas[0].partner == [-1, -1, -1, -1]  # both go independent
