"""Every action, billboard, alliance choice, the style bonus and the signature moves."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, SignatureMove
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.moves import (
    Act,
    Alliance,
    AllianceChoice,
    BillboardCrab,
    Destination,
    Move,
    MutationCrab,
    Pass,
    Signature,
    SignatureTarget,
    StyleBonus,
)
from crabgames.games.crab_rage.state import BACKSTAGE
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
    chance,
    decision,
    muscles,
    play,
    put,
)

INDEPENDENT = Alliance(alliance=AllianceChoice.INDEPENDENT)


def form(partner: int) -> Move:
    return Alliance(alliance=AllianceChoice.FORM, partner=partner)


def boost(partner: int) -> Move:
    return Alliance(alliance=AllianceChoice.BOOST, partner=partner)


def where(state, player):
    return [c.arena for c in state.players[player].crabs]


# ----- the board actions -----


def test_move_sends_a_backstage_crab_to_an_arena_for_2_rage_keeping_its_muscle():
    state = action_phase(4, (AOTF, PC, BB))
    act(state, Action.MOVE, 2, arena=0)
    assert where(state, BLUE) == [BACKSTAGE, BACKSTAGE, 0]
    assert muscles(state, BLUE) == [1, 2, 3]
    assert state.players[BLUE].rage == 4
    # Attack of the Fans (+1) and the style bonus for the first Move of the round (+1).
    assert state.arenas[0].fans[BLUE] == 2
    assert decision(state) == (YELLOW, "choose_action")


def test_move_goes_to_any_other_arena_only():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 1)
    moves = [
        m
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.MOVE and m.crab == 0
    ]
    assert sorted(m.arena for m in moves) == [0, 2]


def test_go_clam_sets_muscle_5_then_moves_and_the_style_bonus_arena_is_chosen():
    state = action_phase(4, (AOTF, PC, BB), rage=4)
    put(state, BLUE, 0, 2, 2)
    act(state, Action.GO_CLAM, 0, arena=1)
    assert state.players[BLUE].rage == 1 + 1  # 4 - 3, +1 from Pressure Cooker
    assert muscles(state, BLUE)[0] == 5
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    play(state, StyleBonus(arena=2))
    assert state.arenas[2].fans[BLUE] == 1


def test_go_clam_sets_muscle_6_down_to_5():
    """Go Clam: "Set the muscle of your chosen crab to 5" (R3 keeps muscle on a die face, 1..6):
    set, not raised to at least 5, so a crab at 6 goes down to 5, a change of -1. Arena A's
    Attack of the Fans leaves muscle alone."""
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 1, 6)
    events = act(state, Action.GO_CLAM, 0, arena=0)
    assert muscles(state, BLUE)[0] == 5
    set_to = [e for e in events if e.kind == "muscle"]
    assert [(e.crab, e.change, e.result) for e in set_to] == [((BLUE, 0), -1, 5)]


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


def test_smash_costs_1_plus_x_and_muscle_never_drops_below_1():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 2, 0, 3)
    xs = sorted(
        m.amount for m in GAME.legal_moves(state) if isinstance(m, Act) and m.action == Action.SMASH
    )
    assert xs == [1, 2, 3, 4, 5]  # X from 1 to what 6 rage can pay (R8)
    act(state, Action.SMASH, 0, target=(YELLOW, 2), amount=4)
    assert muscles(state, YELLOW)[2] == 1
    assert state.players[BLUE].rage == 1


def test_arena_only_actions_need_the_crab_in_an_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    backstage = {m.action for m in GAME.legal_moves(state) if m.kind == "act"}
    assert backstage == {Action.MOVE, Action.GO_CLAM}


# ----- the action cards -----


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


def test_psych_out_switches_muscle_with_a_rival_crab_in_the_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT)
    put(state, BLUE, 0, 0, 1)
    put(state, GREEN, 2, 0, 6)
    act(state, Action.PSYCH_OUT, 0, target=(GREEN, 2))
    assert muscles(state, BLUE)[0] == 6 and muscles(state, GREEN)[2] == 1


def test_swap_trades_places_across_arenas_and_both_crabs_follow_movement_rules():
    state = action_phase(4, (MM, AOTF, BB), card=Action.SWAP, rage=2)
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 3)
    put(state, BLACK, 1, 2, 4)
    put(state, GREEN, 1, 2, 5)
    ally(state, 2, BLACK, GREEN)
    act(state, Action.SWAP, 0, target=(BLACK, 1))
    # Blue's crab enters Barnacle Brawl first (active player), where Green is.
    assert decision(state) == (BLUE, "choose_alliance")
    assert GAME.legal_moves(state) == [INDEPENDENT, form(GREEN)]  # Black's leaving freed Green
    play(state, form(GREEN))
    assert muscles(state, BLUE)[0] == 1  # Barnacle Brawl -1
    assert decision(state) == (BLACK, "choose_alliance")  # then Black's crab enters Mega Muscle
    play(state, INDEPENDENT)
    assert muscles(state, BLACK)[1] == 5  # Mega Muscle +1
    assert where(state, BLUE)[0] == 2 and where(state, BLACK)[1] == 0
    assert decision(state) == (BLUE, "choose_style_bonus_arena")


def test_charm_adds_a_fan_from_the_supply_to_the_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    put(state, BLUE, 0, 1)
    state.used_actions.append(Action.CHARM)  # someone already took the style bonus
    act(state, Action.CHARM, 0)
    assert state.arenas[1].fans[BLUE] == 1 and state.players[BLUE].supply == 31


def test_rage_raises_muscle_by_x_up_to_6_and_a_backstage_style_fan_rides_on_the_crab():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE)
    xs = sorted(
        m.amount
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.RAGE and m.crab == 2
    )
    assert xs == [1, 2, 3]  # muscle 3 can rise to 6 at most (R8)
    act(state, Action.RAGE, 2, amount=2)
    assert muscles(state, BLUE)[2] == 5
    assert state.players[BLUE].crabs[2].riding_fans == 1
    assert state.players[BLUE].supply == 31
    for _ in range(3):
        play(state, Pass())
    act(state, Action.MOVE, 2, arena=2)  # the first arena it enters gets the riding fan
    assert state.arenas[2].fans[BLUE] == 2  # the riding fan + the first Move's style bonus


def test_style_bonus_goes_only_to_the_first_user_of_each_action_each_round():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    put(state, BLUE, 0, 2)
    put(state, YELLOW, 0, 2)
    act(state, Action.CHARM, 0)
    act(state, Action.CHARM, 0)
    assert state.arenas[2].fans[:2] == [2, 1]


# ----- billboards -----


def test_mega_muscle_gives_plus_1_to_one_crab_the_entering_manager_picks():
    state = action_phase(4, (MM, PC, BB), card=Action.RUSH, rage=3)
    put(state, BLUE, 0, 1, 3)
    put(state, BLUE, 2, 1, 3)
    act(state, Action.RUSH, 2)
    play(state, Destination(arena=0))
    play(state, Destination(arena=0))
    assert decision(state) == (BLUE, "choose_billboard_crab")
    play(state, BillboardCrab(crab=2))
    assert muscles(state, BLUE) == [3, 2, 4]


def test_barnacle_brawl_gives_minus_1_but_never_below_1():
    state = action_phase(4, (MM, PC, BB))
    act(state, Action.MOVE, 0, arena=2)
    assert muscles(state, BLUE)[0] == 1


def test_pressure_cooker_builds_1_rage_and_can_trigger_mutation():
    state = action_phase(4, (MM, PC, BB), rage=8)
    act(state, Action.MOVE, 0, arena=1)
    assert state.players[BLUE].rage == 7
    assert decision(state) == (BLUE, "choose_mutation_crab")
    play(state, MutationCrab(crab=1))
    chance(state, 6)
    assert muscles(state, BLUE) == [1, 6, 3]


def test_attack_of_the_fans_adds_a_fan_from_the_entering_managers_supply():
    state = action_phase(4, (MM, AOTF, BB))
    state.used_actions.append(Action.MOVE)
    act(state, Action.MOVE, 0, arena=1)
    assert state.arenas[1].fans[BLUE] == 1


# ----- alliances -----


def test_entering_offers_forming_an_alliance_with_each_independent_team_or_independence():
    state = action_phase(5, (MM, AOTF, PC, BB))
    put(state, YELLOW, 0, 1)
    put(state, GREEN, 0, 1)
    put(state, BLACK, 0, 1)
    put(state, PURPLE := 4, 0, 1)
    ally(state, 1, BLACK, PURPLE)
    act(state, Action.MOVE, 0, arena=1)
    assert GAME.legal_moves(state) == [INDEPENDENT, form(YELLOW), form(GREEN)]


def test_boosting_keeps_the_alliance_and_going_independent_frees_the_partner():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    ally(state, 1, BLUE, YELLOW)
    act(state, Action.MOVE, 1, arena=1)
    assert GAME.legal_moves(state) == [INDEPENDENT, boost(YELLOW)]
    play(state, boost(YELLOW))
    assert state.arenas[1].partner[:2] == [YELLOW, BLUE]
    play(state, Pass())  # Yellow
    play(state, Pass())
    play(state, Pass())
    act(state, Action.MOVE, 2, arena=1)
    play(state, INDEPENDENT)
    assert state.arenas[1].partner[:2] == [-1, -1]


def test_entering_an_arena_holding_only_your_own_crabs_needs_no_choice():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    act(state, Action.MOVE, 1, arena=1)
    assert decision(state) == (YELLOW, "choose_action")


def test_the_last_crab_leaving_an_arena_ends_its_alliance():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    ally(state, 1, BLUE, YELLOW)
    act(state, Action.MOVE, 0, arena=0)
    assert state.arenas[1].partner == [-1, -1, -1, -1]


# ----- signature moves (R13) -----


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


# ----- the action phase and the referee -----


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


def test_each_round_reveals_a_new_card_then_billboards_rotate_from_round_2():
    state = action_phase(4, (MM, AOTF, BB), card=Action.RUSH, rage=0)
    for seat in range(4):
        state.players[seat].rage = 0
        state.players[seat].passed = True
    state.pending[-1:] = []  # nobody acts: end the action phase now
    advance(state)
    chance(state, 1, 6, 2, 2)  # everyone has 3 rage: the microphone is rolled off
    assert state.microphone == YELLOW
    assert decision(state) == (-1, "flip_action_card")
    assert [a.billboard for a in state.arenas] == [MM, AOTF, BB]  # A. New Rules comes first
    events = chance(state, Action.SWAP)
    assert state.round == 2 and state.action_cards == [Action.RUSH, Action.SWAP]
    assert [a.billboard for a in state.arenas] == [BB, MM, AOTF]  # B. Billboard Rotation
    kinds = [e.kind for e in events]
    assert kinds.index("action_revealed") < kinds.index("billboards_rotated")


# ----- each printed cost, target and condition, pinned on its own -----


def offered(state, action: int) -> list[Move]:
    return [m for m in GAME.legal_moves(state) if m.kind == "act" and m.action == action]


def test_charm_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM, rage=1)
    put(state, BLUE, 0, 0)
    assert not offered(state, Action.CHARM)
    state.players[BLUE].rage = 2
    act(state, Action.CHARM, 0)
    assert state.players[BLUE].rage == 0


def test_psych_out_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT, rage=1)
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    assert not offered(state, Action.PSYCH_OUT)
    state.players[BLUE].rage = 2
    act(state, Action.PSYCH_OUT, 0, target=(YELLOW, 0))
    assert state.players[BLUE].rage == 0


def test_the_rage_card_costs_1_plus_x():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE, rage=1)
    assert not offered(state, Action.RAGE)  # X is at least 1 (R8)
    state.players[BLUE].rage = 2
    assert [m.amount for m in offered(state, Action.RAGE) if m.crab == 0] == [1]
    act(state, Action.RAGE, 0, amount=1)
    assert state.players[BLUE].rage == 0
    assert muscles(state, BLUE)[0] == 2


def test_scatter_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SCATTER, rage=1)
    put(state, BLUE, 0, 0, 6)
    put(state, YELLOW, 0, 0, 1)
    assert not offered(state, Action.SCATTER)
    state.players[BLUE].rage = 2
    act(state, Action.SCATTER, 0)
    assert state.players[BLUE].rage == 0


def test_split_breaks_up_an_alliance_the_actor_is_not_in():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    put(state, GREEN, 0, 0)
    ally(state, 0, YELLOW, GREEN)
    assert [m.partner for m in offered(state, Action.SPLIT)] == [YELLOW]
    act(state, Action.SPLIT, 0, partner=YELLOW)
    assert state.arenas[0].partner == [-1, -1, -1, -1]  # both go independent


def test_psych_out_targets_only_rival_crabs_in_the_crabs_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT)
    put(state, BLUE, 0, 0, 1)
    put(state, BLUE, 1, 0, 5)  # an own crab is never a rival
    put(state, YELLOW, 0, 0, 6)
    put(state, GREEN, 0, 1, 3)  # a rival in another arena
    targets = [m.target for m in offered(state, Action.PSYCH_OUT) if m.crab == 0]
    assert targets == [(YELLOW, 0)]
    act(state, Action.PSYCH_OUT, 0, target=(YELLOW, 0))
    assert (muscles(state, BLUE)[0], muscles(state, YELLOW)[0]) == (6, 1)


def test_swap_targets_only_rival_crabs_in_another_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SWAP)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 1)  # an own crab in another arena is no target
    put(state, YELLOW, 0, 0)  # a rival in the same arena is no target
    put(state, GREEN, 0, 1)
    put(state, BLACK, 0, 2)
    targets = [m.target for m in offered(state, Action.SWAP) if m.crab == 0]
    assert targets == [(GREEN, 0), (BLACK, 0)]


def test_a_signature_move_needs_an_arena_holding_one_of_the_actors_crabs():
    state = action_phase(4, (AOTF, PC, BB))
    assert [m for m in GAME.legal_moves(state) if m.kind == "signature"] == []
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 2)
    arenas = [m.arena for m in GAME.legal_moves(state) if m.kind == "signature"]
    assert arenas == [1]


def test_a_manager_already_allied_in_an_arena_cannot_form_a_second_alliance_there():
    # R10: they boost the alliance or go independent.
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    ally(state, 0, BLUE, YELLOW)
    put(state, GREEN, 0, 0)  # independent
    act(state, Action.MOVE, 1, arena=0)
    assert decision(state) == (BLUE, "choose_alliance")
    assert GAME.legal_moves(state) == [INDEPENDENT, boost(YELLOW)]
    assert not GAME.is_legal(state, form(GREEN))


def test_forced_moves_resolve_in_turn_order_starting_with_the_active_player():
    # Green (seat 2) scatters: Black's crab, then Blue's, then Yellow's (turn order from Green;
    # R9), for the destinations and for entering.
    state = action_phase(4, (AOTF, PC, BB), microphone=GREEN, card=Action.SCATTER, rage=3)
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 1)
    put(state, YELLOW, 0, 0, 1)
    put(state, BLACK, 0, 0, 1)
    put(state, GREEN, 1, 1, 3)
    act(state, Action.SCATTER, 0)
    asked = []
    for _ in range(3):
        asked.append(state.pending[-1].crabs[state.pending[-1].values.index(-1)])
        play(state, Destination(arena=1))
    assert asked == [(BLACK, 0), (BLUE, 0), (YELLOW, 0)]
    entering = []
    while decision(state)[1] == "choose_alliance":
        entering.append(decision(state)[0])
        play(state, INDEPENDENT)
    assert entering == [BLACK, BLUE, YELLOW]
