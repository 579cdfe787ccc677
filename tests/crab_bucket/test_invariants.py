"""The check that every card and mission is in exactly one place, with one Oxi! card a player (B1),
8 piles (B2) and at most 4 cards in a hand (the fourth only while drawing 1 to play 2, B6): each
broken count is named, so that a fuzzer or a decoded state says which rule a position breaks."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import OXI
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    card,
    position,
)


def test_every_card_and_mission_must_be_in_exactly_one_place():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert rules.invariant_violations(state) == []
    state.piles[1] += (card("red 1"),)  # red 1 also in the hand
    assert rules.invariant_violations(state) == ["the red 1 is in 2 places; each crab card is in 1"]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.draw_pile[OXI] += 1
    assert rules.invariant_violations(state) == [
        "there are 3 Oxi! cards; there must be one per player (B1)"
    ]


def test_each_broken_count_is_named():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.piles.append(())
    assert rules.invariant_violations(state) == ["piles: has 9 entries; there must be 8 piles (B2)"]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.discarded_missions.append(state.current)
    assert rules.invariant_violations(state) == [
        f"discarded_missions[0]: mission {state.current} is in two places"
    ]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.draw_pile[card("green 5")] -= 2
    state.draw_pile[card("green 6")] += 2
    assert rules.invariant_violations(state) == [
        "the green 5 is in -1 places; each crab card is in 1",
        "the green 6 is in 3 places; each crab card is in 1",
        "negative count in the draw pile",
    ]


def test_a_hand_holds_at_most_4_cards_the_fourth_only_while_drawing_1_to_play_2():
    # B6: "Draw 1 card and play 2" draws a fourth card before the plays; never a fifth.
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.hands[0] += (card("green 5"),)
    state.draw_pile[card("green 5")] -= 1
    assert rules.invariant_violations(state) == []
    state.hands[0] += (card("green 6"),)
    state.draw_pile[card("green 6")] -= 1
    assert rules.invariant_violations(state) == ["hands[0].cards: holds 5 cards; at most 4"]
