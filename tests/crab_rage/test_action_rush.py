"""Rush (docs/rules/crab_rage.md, "#### Rush", with R9): action card; arena only, cost 3; every
crab with the most muscle in the arena must leave it, the actor's own included, for arenas the
actor picks, each under the Movement Rules (their order: test_r9_rush_scatter_and_swap.py)."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Destination, StyleBonus
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
    decision,
    form,
    muscles,
    play,
    put,
)


def test_rush_moves_every_crab_tied_for_most_muscle_including_the_actors_own():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RUSH, rage=3)
    put(state, BLUE, 2, 0, 4)
    put(state, YELLOW, 1, 0, 4)
    put(state, GREEN, 0, 0, 2)
    put(state, BLACK, 0, 1, 1)
    act(state, Action.RUSH, 2)
    assert state.players[BLUE].rage == 0
    assert decision(state) == (BLUE, "choose_destination")  # Blue's crab first
    play(state, Destination(arena=2))
    play(state, Destination(arena=1))  # Yellow's crab
    # Blue enters Barnacle Brawl alone; Yellow enters Pressure Cooker with Black there.
    assert muscles(state, BLUE)[2] == 3
    assert decision(state) == (YELLOW, "choose_alliance")  # the entering manager decides
    play(state, form(BLACK))
    assert state.arenas[1].partner[YELLOW] == BLACK
    assert state.players[YELLOW].rage == 4  # 3 + Pressure Cooker
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    assert {m.arena for m in GAME.legal_moves(state)} == {0, 1, 2}
    play(state, StyleBonus(arena=0))
    assert [c.arena for c in state.players[GREEN].crabs][0] == 0
