"""G3: one decision at a time (docs/rules/general.md, "G3: one decision at a time"), for Crab
Bucket: the state always says who decides what: a card is played only in the play decision (not
while a Wild Crab mission pile is to be chosen, B5) and only onto one of the 8 piles (B2); a state
waits for a decision at each turn and at its end, where nobody decides."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.moves import ChooseMissionPile, PlayCard
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    CHOOSE_MISSION_PILE,
    NO_MISSION,
    PLAY,
    STALLED,
)
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    WILD_CRAB,
    card,
    position,
)


def test_a_card_is_played_only_in_the_play_decision_and_only_onto_one_of_the_8_piles():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert not GAME.is_legal(state, PlayCard(card("red 1"), 8))
    assert not GAME.is_legal(state, PlayCard(card("red 1"), -1))
    # Wild Crab: a mission completed, the pile of the next one is chosen first (B5): no card
    # may be played while that choice is pending, though the step is still the turn's play.
    tops = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]
    state = position(tops, {0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB,
                     current="Mission 1-A")  # fmt: skip
    state.current = NO_MISSION
    state.pending.append((CHOOSE_MISSION_PILE, 0))
    assert state.step == PLAY and rules.decision_name(state) == "choose_mission_pile"
    assert not GAME.is_legal(state, PlayCard(card("blue 1"), 1))
    assert GAME.is_legal(state, ChooseMissionPile(1))


def test_nobody_decides_once_the_game_is_over():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    rules.game_over(state, CARDS_RAN_OUT, [])
    assert rules.decision_name(state) == "game_over"
    assert turn.legal_moves(state) == [] and rules.chance_outcomes(state) == []
    assert rules.card_receiver(state) is None and not rules.is_chance(state)


def test_a_state_waits_for_a_decision_at_its_end_and_at_each_turn():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert turn.waits_for_decision(state)
    rules.game_over(state, STALLED, [])
    assert turn.waits_for_decision(state)
