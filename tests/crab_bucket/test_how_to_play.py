"""The rulebook's "How to Play" (docs/rules/crab_bucket.md, "How to Play"): after the main action
the player draws "so that they again have 3 cards in hand" (none with 3 in hand already), and the
turn passes clockwise."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import (
    DRAW_ONE_PLAY_TWO,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDrawn,
    CardPlayed,
    NoMainAction,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import Pass, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import PLAY
from tests.crab_bucket.helpers import (
    LOW,
    STUCK,
    card,
    cards,
    mission_index,
    position,
    simple,
    use,
)


def test_after_the_main_action_the_player_draws_back_to_3_and_the_turn_passes_clockwise():
    state = simple({0: ["blue 1", "green 1", "green 2"]}, num_players=3)
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert rules.decision_name(state) == "draw_card"
    turn.apply_chance(state, card("blue 3"))
    assert len(state.hands[0]) == 3 and state.turn_player == 1


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
