"""The Referee Phase (docs/rules/crab_rage.md, "### Referee Phase", with R5): first the top card
of the action deck is turned up, and only turned-up cards can be used; then, from round 2 on,
every billboard moves one arena clockwise."""

from __future__ import annotations

from crabgames.games.crab_rage.data import ACTION_CARDS, Action
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.setup import default_options, initial_state
from tests.crab_rage.helpers import AOTF, BB, MM, YELLOW, action_phase, chance, decision


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


def test_the_action_deck_flip_draws_only_from_unrevealed_cards():
    state = initial_state(4, default_options(4))
    chance(state, 1, 2, 3, 0, ACTION_CARDS[0])
    state.round = 1
    state.action_cards.append(ACTION_CARDS[1])
    from crabgames.games.crab_rage.phases import unrevealed_cards

    assert unrevealed_cards(state) == sorted(ACTION_CARDS[2:])
