"""G2: chance events (docs/rules/general.md, "### G2: chance events", with R5 and R6): at a chance
event chance decides, not a player, so no player move is listed; each chance event lists its
outcomes in the documented order, each kind weighted by how many of it are left: a die has six
faces, each once; the first microphone holder is drawn among the seats, each once (R6); each
billboard is dealt from those left (R5) and each action card turned from those not yet revealed,
every outcome weighing 1. The weights matter: the engine's own draws pick by them (a seat
weighted 2 of 8 draws differently from 1 of 4 under the same seed)."""

from __future__ import annotations

from dataclasses import replace

from crabgames.core.game import CHANCE
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import MutationCrab
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    chance,
    decision,
    play,
    put,
    random_game,
    run,
    three_way_duel,
)


def test_a_spotlight_duel_roll_is_a_die_each_face_1_to_6_once():
    state = three_way_duel(microphone=BLUE)
    assert decision(state) == (-1, "spotlight_roll")
    assert list(GAME.chance_outcomes(state)) == [(face, 1) for face in range(1, 7)]


def test_the_first_microphone_holder_is_drawn_with_every_seat_once():
    """R6, G2: without the `microphone` option the first holder is a chance event over the
    seats, each seat once."""
    state = initial_state(4, default_options(4))
    chance(state, MM, AOTF, PC)
    assert decision(state) == (-1, "microphone")
    assert list(GAME.chance_outcomes(state)) == [(seat, 1) for seat in range(4)]


def test_at_every_chance_event_of_a_game_no_player_move_is_listed():
    seen = []

    def check(state):
        if GAME.next_decision(state).kind == CHANCE:
            seen.append(state.pending[-1].kind)
            assert list(GAME.legal_moves(state)) == [], state.pending[-1]

    for players, seed in ((3, 2), (4, 3), (5, 4)):
        random_game(players, seed, check=check)
    assert len(set(seen)) >= 4  # deals, the action cards, rolls of several kinds


def test_billboards_and_action_cards_are_drawn_each_with_weight_1():
    for players in (3, 4, 5):
        state = initial_state(players, replace(default_options(players), microphone=0))
        kinds = []
        while GAME.next_decision(state).kind == CHANCE:
            kind = state.pending[-1].kind
            outcomes = list(GAME.chance_outcomes(state))
            if kind in (Step.DEAL_BILLBOARD, Step.FLIP_ACTION):
                kinds.append(kind)
                assert outcomes and all(weight == 1 for _, weight in outcomes), (kind, outcomes)
                assert len({value for value, _ in outcomes}) == len(outcomes)
            GAME.apply_chance(state, outcomes[-1][0])
        assert Step.DEAL_BILLBOARD in kinds and Step.FLIP_ACTION in kinds, players


def test_a_mutation_roll_and_a_rumble_tie_roll_are_a_die_each_face_1_to_6_once():
    faces = [(face, 1) for face in range(1, 7)]
    state = action_phase(4, (MM, PC, BB), rage=8)
    act(state, Action.MOVE, 0, arena=1)  # Pressure Cooker: Blue builds to 7 and mutates (R4)
    play(state, MutationCrab(crab=1))
    assert decision(state) == (-1, "mutation_roll")
    assert list(GAME.chance_outcomes(state)) == faces
    state = action_phase(4, (MM, PC, BB))
    put(state, YELLOW, 2, 0)
    put(state, GREEN, 2, 0)  # two units of 3 muscle: a rumble die each (R15)
    run(state, Task(Step.RUMBLE, arena=0))
    assert decision(state) == (-1, "rumble_die")
    assert list(GAME.chance_outcomes(state)) == faces
