"""How to Play: after the main action the player draws "so that they again have 3 cards in
hand": nothing with 3 in hand already; and once a draw has found the draw pile empty, nobody
draws again (B7), even when cards go back into the draw pile later (rules notes). Each turn is
checked to its end, and so is the next player's turn when that player cannot act (G6)."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import DRAW_ONE_PLAY_TWO, RESCUE_TOPS
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDrawn,
    CardPlayed,
    DrawPileEmpty,
    NoMainAction,
    TopsRescued,
    TurnEnded,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import Pass, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import PLAY
from tests.crab_bucket.helpers import card, cards, mission_index, position


def use(state, move: UseAbility) -> list:
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


# Low red and blue tops: a green or yellow card above every top fits nowhere (another colour,
# higher), so green 7, green 8 and yellow 8 are stuck in the hand while the tops stay below 7.
# Current mission 1-D needs two neighbouring green tops: never met here.
LOW = ["red 1", "red 2", "red 3", "red 4", "red 5", "blue 1", "blue 2", "blue 3"]
STUCK = ["green 7", "green 8", "yellow 8"]


def test_drawing_back_to_3_draws_nothing_when_the_hand_already_holds_3():
    # "Draw 1 card and play 2" with no legal second play: the turn goes on to drawing back to 3
    # (rules notes), and the hand holds 3 cards then: no card is drawn and the turn ends.
    state = position(LOW, {0: STUCK, 1: ["blue 4", "blue 5", "blue 6"]}, current="Mission 1-D",
                     completed=("Mission 2-C",))  # fmt: skip
    ability = mission_index("Mission 2-C")
    assert turn.legal_moves(state) == [UseAbility(ability), Pass()]
    assert use(state, UseAbility(ability)) == [AbilityUsed(0, ability, DRAW_ONE_PLAY_TWO, ())]
    events = turn.apply_chance(state, card("red 6"))
    assert events == [CardDrawn(0, card("red 6"), True)] and len(state.hands[0]) == 4
    assert state.plays_left == 2
    draw = rules.draw_total(state)
    # Red 6 on the red 5 (higher, same colour); then nothing of the hand fits anywhere.
    events = turn.apply_move(state, PlayCard(card("red 6"), 4))
    assert events == [
        CardPlayed(0, card("red 6"), 4, False),
        NoMainAction(0, True),
        TurnEnded(0, 0, 1),
    ]
    assert state.hands[0] == cards(*STUCK) and rules.draw_total(state) == draw
    assert not state.draws_over and state.passes == 0
    assert state.turn_player == 1 and state.step == PLAY and rules.decision_name(state) == "play"
    assert state.plays_left == 1 and state.played == 0 and not state.ability_used
    assert rules.invariant_violations(state) == []


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


def test_cards_rescued_into_the_draw_pile_after_it_ran_out_are_never_drawn():
    """B7: when a draw is needed and the draw pile is empty, nobody draws again; the cards
    "Rescue up to 3 cards from the top" sends back stay in the draw pile."""
    state = position(PILES, {0: ["red 1", "blue 3", "yellow 3"], 1: ["blue 4"]},
                     current="Mission 1-D", completed=("Mission 1-A",), draw_pile=[])  # fmt: skip
    state.draws_over = True  # an earlier draw found the draw pile empty
    ability = mission_index("Mission 1-A")
    events = use(state, UseAbility(ability, (0,)))
    assert events == [
        AbilityUsed(0, ability, RESCUE_TOPS, (0,)),
        TopsRescued(0, ((0, card("red 8")),)),
    ]
    assert rules.draw_total(state) == 1 and state.draw_pile[card("red 8")] == 1
    # Blue 3 on the blue 1 the rescue uncovered (higher, same colour): the main action; the
    # hand holds 2 cards, and the turn ends without a draw (and without saying the pile is
    # empty again: it is not, and it was said once already).
    events = turn.apply_move(state, PlayCard(card("blue 3"), 0))
    assert events == [CardPlayed(0, card("blue 3"), 0, False), TurnEnded(0, 0, 1)]
    assert state.hands[0] == cards("red 1", "yellow 3") and rules.draw_total(state) == 1
    assert state.draws_over and state.turn_player == 1 and state.step == PLAY
    assert rules.decision_name(state) == "play" and rules.chance_outcomes(state) == []
    assert rules.invariant_violations(state) == []


# ----- then the next player: one who cannot act passes at once (G6) -----


def test_after_a_turn_ends_without_a_draw_the_next_player_who_cannot_act_passes_automatically():
    """G6, B7: draws are over, so the turn ends after the play without a draw; player 1 has no
    legal decision and passes at once, and player 0 plays again."""
    state = position(LOW, {0: ["blue 4", "blue 5", "blue 6"], 1: STUCK}, current="Mission 1-D",
                     draw_pile=[])  # fmt: skip
    state.draws_over = True
    # Blue 4 on the red 4 (lower or equal, another colour): green 7 and green 8 still fit nowhere.
    events = turn.apply_move(state, PlayCard(card("blue 4"), 3))
    assert events == [
        CardPlayed(0, card("blue 4"), 3, False),
        TurnEnded(0, 0, 1),
        TurnPassed(1, True),
        TurnEnded(1, 1, 0),
    ]
    assert state.hands == [cards("blue 5", "blue 6"), cards(*STUCK)]
    assert state.turn_player == 0 and state.passes == 1 and state.step == PLAY
    assert rules.decision_name(state) == "play" and turn.legal_moves(state)
    assert rules.invariant_violations(state) == []


def test_after_the_draw_pile_is_found_empty_the_next_player_who_cannot_act_passes_automatically():
    """B7, G6: the draw back to 3 finds the draw pile empty, nobody draws again and the turn
    ends; player 1 has no legal decision and passes at once, and player 0 plays again."""
    state = position(LOW, {0: ["blue 4", "blue 5", "blue 6"], 1: STUCK}, current="Mission 1-D",
                     draw_pile=[])  # fmt: skip
    events = turn.apply_move(state, PlayCard(card("blue 4"), 3))
    assert events == [
        CardPlayed(0, card("blue 4"), 3, False),
        DrawPileEmpty(),
        TurnEnded(0, 0, 1),
        TurnPassed(1, True),
        TurnEnded(1, 1, 0),
    ]
    assert state.draws_over and state.hands == [cards("blue 5", "blue 6"), cards(*STUCK)]
    assert state.turn_player == 0 and state.passes == 1 and state.step == PLAY
    assert rules.decision_name(state) == "play" and turn.legal_moves(state)
    assert rules.invariant_violations(state) == []
