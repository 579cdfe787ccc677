"""G6: nobody is ever stuck (docs/rules/general.md, "### G6: nobody is ever stuck"), for CRAB
RAGE!: a step with nothing legal to choose is passed over on its own. A signature move whose
follow-up has no target (Riptide or Frenzy with no rival crab in the arena) asks nobody, and the
game goes on to the next manager's turn."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import Signature
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    decision,
    play,
    put,
)


def signature_alone_in_arena_a(num_players: int, seat: int, billboards: tuple[int, ...]):
    state = action_phase(num_players, billboards, microphone=seat, rage=3)
    put(state, seat, 0, 0)
    play(state, Signature(arena=0))
    return state


def test_a_riptide_with_no_rival_in_the_arena_asks_nobody_and_the_next_manager_acts():
    state = signature_alone_in_arena_a(4, BLUE, (MM, AOTF, PC))  # Blue's move is Riptide
    assert decision(state) == (YELLOW, "choose_action")
    assert GAME.legal_moves(state)


def test_a_frenzy_with_no_rival_in_the_arena_asks_nobody_and_the_next_manager_acts():
    state = signature_alone_in_arena_a(5, PURPLE, (MM, AOTF, PC, BB))  # Purple's is Frenzy
    assert decision(state) == (BLUE, "choose_action")
    assert GAME.legal_moves(state)
