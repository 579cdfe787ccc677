"""The level 2 ability "Draw 1 card and play 2: draw a card from the deck and play 2 cards on your
turn", with one card left in the draw pile: that card is drawn (the ability is usable while the
draw pile has a card, rules notes), both plays follow, and the draw back to 3 then finds the draw
pile empty (B7). Checked to the end of the turn."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import DRAW_ONE_PLAY_TWO
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDrawn,
    CardPlayed,
    DrawPileEmpty,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import PlayCard, UseAbility
from crabgames.games.crab_bucket.state import EXTRA_DRAW, PLAY
from tests.crab_bucket.helpers import card, cards, mission_index, position

# Current mission 1-D needs two neighbouring green tops and two neighbouring blue ones: these
# circles never have them.
PILES = [
    ["blue 1", "red 8"],
    ["red 7"],
    ["green 1", "green 8"],
    ["red 6"],
    ["blue 2", "yellow 8"],
    ["red 5"],
    ["blue 8"],
    ["red 4"],
]


def test_draw_1_card_and_play_2_draws_the_last_card_of_the_draw_pile():
    """B7: the draw back to 3 after the two plays finds the draw pile empty: nobody draws again."""
    state = position(PILES, {0: ["red 1", "blue 3", "yellow 3"]}, current="Mission 1-D",
                     completed=("Mission 2-C",), draw_pile=["green 5"])  # fmt: skip
    ability = mission_index("Mission 2-C")
    assert rules.draw_total(state) == 1
    move = UseAbility(ability)
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    events = turn.apply_move(state, move)
    assert events == [AbilityUsed(0, ability, DRAW_ONE_PLAY_TWO, ())]
    # The one card left is drawn, by chance, into the player's hand.
    assert state.pending == [(EXTRA_DRAW, 0)] and state.plays_left == 2
    assert rules.decision_name(state) == "draw_card" and rules.card_receiver(state) == 0
    assert rules.chance_outcomes(state) == [(card("green 5"), 1)]
    events = turn.apply_chance(state, card("green 5"))
    assert events == [CardDrawn(0, card("green 5"), True)]
    assert words.text(events[0]) == "player 0 draws green 5 for Draw 1 card and play 2"
    assert state.hands[0] == tuple(sorted(cards("red 1", "blue 3", "yellow 3", "green 5")))
    assert rules.draw_total(state) == 0 and state.pending == []
    assert rules.decision_name(state) == "play" and not state.draws_over
    # Two plays: blue 3 on the red 8, then the card drawn, green 5, on the red 5.
    events = turn.apply_move(state, PlayCard(card("blue 3"), 0))
    assert events == [CardPlayed(0, card("blue 3"), 0, False)]
    assert state.step == PLAY and state.turn_player == 0 and state.plays_left == 1
    events = turn.apply_move(state, PlayCard(card("green 5"), 5))
    assert events == [
        CardPlayed(0, card("green 5"), 5, False),
        DrawPileEmpty(),
        TurnEnded(0, 0, 1),
    ]
    assert state.draws_over and state.hands[0] == cards("red 1", "yellow 3")
    assert state.current == mission_index("Mission 1-D") and state.spent == [True]
    assert state.turn_player == 1 and state.step == PLAY and state.plays_left == 1
    assert rules.invariant_violations(state) == []
