"""The mission ability "Draw 1 card and play 2" (docs/rules/crab_bucket.md, "Mission
Abilities"): one card drawn, then two plays; usable only while the draw pile has a card (the
engine's reading, same file), the last one included, after which the draw back to 3 finds it
empty (B7); with no legal second play the turn goes on to the draw, and says so."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import (
    DRAW_ONE_PLAY_TWO,
    RED,
    Gap,
    Mission,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDrawn,
    CardPlayed,
    DrawPileEmpty,
    NoMainAction,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import (
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    EXTRA_DRAW,
    PLAY,
    REFILL,
)
from tests.crab_bucket.helpers import (
    APART_HAND,
    APART_MISSIONS,
    APART_PILES,
    PILES,
    card,
    cards,
    kinds,
    mission_index,
    position,
    ready,
    text,
    use,
    use_mission,
    uses,
)


def test_draw_1_card_and_play_2():
    state = ready("Mission 2-C")
    use(state, UseAbility(mission_index("Mission 2-C"), ()))
    assert rules.decision_name(state) == "draw_card" and rules.is_chance(state)
    turn.apply_chance(state, card("yellow 1"))
    assert len(state.hands[0]) == 4
    turn.apply_move(state, PlayCard(card("yellow 1"), 1))
    assert rules.decision_name(state) == "play"  # the second play
    turn.apply_move(state, PlayCard(card("yellow 3"), 3))
    assert len(state.hands[0]) == 2 and rules.decision_name(state) == "draw_card"
    turn.apply_chance(state, card("yellow 2"))
    assert len(state.hands[0]) == 3 and state.turn_player == 1


def test_draw_1_and_play_2_waits_for_one_card_drawn():
    swap = Mission("Draw 2", 2, DRAW_ONE_PLAY_TWO, (Gap(RED, 5),))
    state = position(APART_PILES, {0: APART_HAND}, missions=(*APART_MISSIONS, swap),
                     current="Apart", completed=("Draw 2",))  # fmt: skip
    turn.apply_move(state, UseAbility(len(APART_MISSIONS)))
    assert state.pending == [(EXTRA_DRAW, 0)] and state.plays_left == 2


def test_draw_1_and_play_2_needs_a_card_to_draw():
    assert uses(ready("Mission 2-C", draw_pile=[])) == []


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
    assert text(events[0]) == "player 0 draws green 5 for Draw 1 card and play 2"
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


def test_no_legal_second_play_after_draw_1_and_play_2_is_said_and_the_turn_draws():
    # Green 7 fits only on the yellow 7 (every red top is lower, green 8 is the same colour and
    # higher); blue 1 played there first leaves it nowhere to go.
    piles = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "yellow 7", "green 8"]
    state = position(piles, {0: ["blue 1"]}, current="Mission 1-D", completed=("Mission 2-C",))
    use_mission(state, "Mission 2-C")
    turn.apply_chance(state, card("green 7"))
    assert state.plays_left == 2 and PlayCard(card("green 7"), 6) in turn.legal_moves(state)
    events = turn.apply_move(state, PlayCard(card("blue 1"), 6))
    assert kinds(events) == ["card_played", "no_main_action"]
    assert events[1] == NoMainAction(0, True)
    assert text(events[1]) == "player 0 has no legal second play"
    assert state.step == REFILL and state.plays_left == 0 and state.played == 1
