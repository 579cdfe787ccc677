"""R13: signature moves (docs/rules/crab_rage.md, "### R13: signature moves", the rulebook's
"### Signature Moves" and rules note 5): once per game in place of an action, for 2 rage, in an
arena holding one of the team's crabs, always putting 2 fans there: Frenzy, Claw Snap, Shell Up,
Riptide, Hype Up. "A rival crab is a crab of another team, regardless of alliances": Frenzy and
Riptide hit only rivals, and with none in the arena they do nothing more."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import SignatureMove
from crabgames.games.crab_rage.moves import Pass, Signature, SignatureTarget
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    action_phase,
    decision,
    muscles,
    play,
    put,
    where,
)


def signature_state(signature: int):
    state = action_phase(4, (MM, AOTF, BB))
    state.players[BLUE].signature = signature
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 2)
    put(state, YELLOW, 0, 0, 5)
    put(state, GREEN, 0, 0, 4)
    return state


def test_frenzy_inflicts_minus_2_per_own_crab_in_the_arena_on_chosen_rivals():
    state = signature_state(SignatureMove.FRENZY)
    play(state, Signature(arena=0))
    for _ in range(2):
        assert decision(state) == (BLUE, "choose_frenzy_target")
        play(state, SignatureTarget(target=(YELLOW, 0)))
    assert muscles(state, YELLOW)[0] == 1
    assert state.arenas[0].fans[BLUE] == 2 and state.players[BLUE].rage == 4
    assert state.players[BLUE].signature_used


def test_claw_snap_hits_every_rival_crab_for_minus_1():
    state = signature_state(SignatureMove.CLAW_SNAP)
    play(state, Signature(arena=0))
    assert (muscles(state, YELLOW)[0], muscles(state, GREEN)[0]) == (4, 3)


def test_shell_up_gives_plus_2_to_one_own_crab():
    state = signature_state(SignatureMove.SHELL_UP)
    play(state, Signature(arena=0))
    play(state, SignatureTarget(crab=1))
    assert muscles(state, BLUE)[:2] == [2, 4]


def test_riptide_sends_a_rival_crab_to_an_arena_of_your_choice():
    state = signature_state(SignatureMove.RIPTIDE)
    play(state, Signature(arena=0))
    play(state, SignatureTarget(target=(GREEN, 0), arena=1))
    assert where(state, GREEN)[0] == 1 and state.arenas[1].fans[GREEN] == 1  # AotF


def test_hype_up_gives_plus_1_to_each_own_crab_and_the_move_is_once_per_game():
    state = signature_state(SignatureMove.HYPE_UP)
    play(state, Signature(arena=0))
    assert muscles(state, BLUE)[:2] == [3, 3]
    for _ in range(3):
        play(state, Pass())
    assert not [m for m in GAME.legal_moves(state) if m.kind == "signature"]
    violation = GAME.explain_illegal(state, Signature(arena=0))
    assert violation.rule == "R13"


def test_a_signature_move_needs_an_arena_holding_one_of_the_actors_crabs():
    state = action_phase(4, (AOTF, PC, BB))
    assert [m for m in GAME.legal_moves(state) if m.kind == "signature"] == []
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 2)
    arenas = [m.arena for m in GAME.legal_moves(state) if m.kind == "signature"]
    assert arenas == [1]


def signature_targets(state) -> list:
    return [m.target for m in GAME.legal_moves(state)]


def test_frenzy_hits_only_rival_crabs_never_the_actors_own():
    state = action_phase(4, (MM, AOTF, BB))
    state.players[BLUE].signature = SignatureMove.FRENZY
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 3)
    put(state, YELLOW, 0, 0, 5)
    put(state, GREEN, 0, 1, 4)  # another arena: not a target either
    play(state, Signature(arena=0))
    assert decision(state) == (BLUE, "choose_frenzy_target")
    assert signature_targets(state) == [(YELLOW, 0)]


def test_riptide_sends_only_a_rival_crab_never_the_actors_own():
    state = action_phase(4, (MM, AOTF, BB))
    state.players[BLUE].signature = SignatureMove.RIPTIDE
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 3)
    put(state, GREEN, 0, 0, 4)
    play(state, Signature(arena=0))
    assert decision(state) == (BLUE, "choose_riptide_target")
    assert sorted({(m.target, m.arena) for m in GAME.legal_moves(state)}) == [
        ((GREEN, 0), 1),
        ((GREEN, 0), 2),
    ]


def test_riptide_with_no_rival_crab_in_the_arena_does_nothing_more():
    """Rules note 5: the 2 fans are placed; with only the actor's crabs there nobody leaves."""
    state = action_phase(4, (MM, AOTF, BB))
    state.players[BLUE].signature = SignatureMove.RIPTIDE
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 3)
    put(state, GREEN, 0, 1, 4)
    play(state, Signature(arena=0))
    assert decision(state) == (YELLOW, "choose_action")
    assert [c.arena for c in state.players[BLUE].crabs] == [0, 0, -1]
    assert state.arenas[0].fans[BLUE] == 2
