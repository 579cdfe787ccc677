"""R7: the Action Phase (docs/rules/crab_rage.md, "### R7: the Action Phase" and the rulebook's
"### Action Phase"): from the microphone holder clockwise each manager acts or passes, a pass is
final for the round, and the phase lasts until everyone has passed; "arena only" actions need
the crab in an arena (Move and Go Clam also work from backstage)."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Pass
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    GREEN,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    play,
)


def test_players_act_in_turn_until_all_have_passed_then_the_rumble_follows():
    state = action_phase(4, (MM, AOTF, BB), microphone=GREEN)
    assert decision(state) == (GREEN, "choose_action")
    play(state, Pass())
    act(state, Action.MOVE, 0, arena=0)  # Black
    play(state, Pass())  # Blue
    play(state, Pass())  # Yellow
    assert decision(state) == (BLACK, "choose_action")  # Black alone still acts
    play(state, Pass())
    assert state.phase.name in ("RUMBLE", "FAN", "RAGE", "REFEREE")


def test_arena_only_actions_need_the_crab_in_an_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    backstage = {m.action for m in GAME.legal_moves(state) if m.kind == "act"}
    assert backstage == {Action.MOVE, Action.GO_CLAM}


def test_the_last_manager_who_has_not_passed_acts_again_and_again_until_they_pass():
    state = action_phase(4, (MM, AOTF, BB), microphone=GREEN, rage=10)
    for _ in range(3):  # Green, Black and Blue pass
        play(state, Pass())
    assert decision(state) == (YELLOW, "choose_action")
    act(state, Action.MOVE, 0, arena=0)
    assert decision(state) == (YELLOW, "choose_action")
    act(state, Action.MOVE, 0, arena=2)
    assert decision(state) == (YELLOW, "choose_action")
    play(state, Pass())
    assert state.phase.name != "ACTION"
