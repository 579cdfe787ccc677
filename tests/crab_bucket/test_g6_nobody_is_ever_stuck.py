"""G6: nobody is ever stuck (docs/rules/general.md, "G6: nobody is ever stuck"), for Crab Bucket
(docs/rules/crab_bucket.md, "Where the engine applies each ruling", G6): a player who can take no
main action and use no ability passes automatically and draws nothing (B6), also right after the
draw pile ran out (B7); a player can act exactly when some move is listed."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.events import (
    CardPlayed,
    DrawPileEmpty,
    TurnEnded,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import PLAY
from tests.crab_bucket.helpers import (
    BLOCKED,
    BLOCKING,
    HAND,
    LOW,
    PILES,
    STUCK,
    card,
    cards,
    position,
    text,
)


def test_a_player_with_no_legal_decision_passes_automatically_and_draws_nothing():
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D")
    events: list = []
    turn.advance(state, events)
    assert [e.kind for e in events] == ["turn_passed", "turn_ended"]
    assert events[0].automatic and text(events[0]) == "player 0 cannot act and passes"
    assert events[1] == TurnEnded(0, passes=1, next_player=1)
    assert state.turn_player == 1 and len(state.hands[0]) == 2 and state.passes == 1


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


def test_a_player_can_act_exactly_when_some_move_is_listed():
    blocking = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "red 7", "blue 7"]
    stuck = position(blocking, {0: ["green 8", "yellow 8"]}, current="Mission 1-D")
    assert not turn.can_act(stuck) and turn.play_moves(stuck) == []
    with_ability = position(blocking, {0: ["green 8", "yellow 8"]}, current="Mission 1-D",
                            completed=("Mission 1-A",))  # fmt: skip
    assert turn.can_act(with_ability) and not rules.has_main_action(with_ability)
    assert turn.can_act(position(PILES, {0: HAND}, current="Mission 1-D"))
