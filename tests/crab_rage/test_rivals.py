"""Who a rival is and who is named (issue 14): "a rival crab is a crab of another team,
regardless of alliances" for the signature moves that hit one (Frenzy, Riptide, R13), a crab
of seat 0 named by its colour when another seat targets it, and an alliance that lasts while
one of the manager's crabs is still in the arena (R10)."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, SignatureMove
from crabgames.games.crab_rage.moves import Act, Signature
from crabgames.games.crab_rage.words import text
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    ally,
    decision,
    play,
    put,
)


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


def test_a_smash_on_a_crab_of_seat_0_names_it_by_its_colour():
    state = action_phase(4, (MM, AOTF, BB), microphone=YELLOW)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 2)
    events = act(state, Action.SMASH, 0, target=(BLUE, 0), amount=1)
    assert events[0].kind == "acted"
    assert text(events[0]) == "Yellow: Smash with crab 0 on Blue crab 0, X=1 (pays 2 rage, 4 left)"


def test_the_label_of_a_psych_out_on_seat_0_names_the_target_by_its_colour():
    state = action_phase(4, (MM, AOTF, BB), microphone=GREEN, card=Action.PSYCH_OUT)
    put(state, BLUE, 1, 2, 2)
    put(state, GREEN, 2, 2, 3)
    labels = {
        GAME.codec.move_label(state, m)
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.PSYCH_OUT
    }
    assert labels == {"Green: Psych Out with crab 2 on Blue crab 1"}


def test_a_manager_moving_one_of_two_crabs_out_keeps_the_alliance_of_the_other():
    """R10: an alliance ends only when a partner has no crab left in the arena."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 2)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, BLUE, BLACK)
    events = act(state, Action.MOVE, 0, arena=2)
    assert "alliance_ended" not in [e.kind for e in events]
    assert state.arenas[0].partner[BLUE] == BLACK and state.arenas[0].partner[BLACK] == BLUE
