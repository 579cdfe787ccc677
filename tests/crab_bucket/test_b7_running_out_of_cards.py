"""B7: running out of cards (docs/rules/crab_bucket.md, "B7: running out of cards", and the
rulebook's "End of Game"): the first draw that finds the draw pile empty stops drawing for good
(said once; cards sent back later are never drawn); turns go on, skipping empty hands, until every
hand is empty and the game ends, as it does after a whole round of passes (manual ones too); a
Quick game ended so is lost."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import (
    RESCUE_TOPS,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardPlayed,
    TopsRescued,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import (
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    GAME_OVER,
    PLAY,
    STALLED,
)
from tests.crab_bucket.helpers import (
    BLOCKING,
    HAND,
    PILES,
    PILES_WITH_AN_OXI,
    WILD_CRAB,
    card,
    cards,
    mission_index,
    position,
    ready,
    simple,
    text,
    use,
)


def test_when_a_draw_finds_the_pile_empty_nobody_draws_again():
    state = simple({0: ["blue 1", "green 1", "green 2"]}, draw_pile=[])
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert state.draws_over and len(state.hands[0]) == 2 and state.turn_player == 1


def test_the_draw_pile_running_out_is_said_once_and_is_no_pass():
    # B7: the turn ends without a draw; passing is something else.
    state = position(PILES, {0: HAND}, current="Mission 1-D", draw_pile=[])
    events = turn.apply_move(state, PlayCard(card("red 1"), 3))
    said = [e for e in events if e.kind == "draw_pile_empty"]
    assert [text(e) for e in said] == ["the draw pile is empty: nobody draws again"]
    assert state.passes == 0 and state.turn_player == 1 and rules.decision_name(state) == "play"


def test_a_turn_with_a_full_hand_is_no_pass_either():
    # Draws are over (B7): the turn ends at once after the play, and nobody has passed.
    state = position(PILES, {0: HAND, 1: ["blue 4"]}, current="Mission 1-D", draw_pile=[])
    state.draws_over = True
    state.passes = 1
    turn.apply_move(state, PlayCard(card("red 1"), 3))
    assert state.passes == 0 and state.turn_player == 1


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


def test_players_with_empty_hands_are_skipped_and_the_game_ends_when_all_hands_are_empty():
    state = simple({0: ["blue 1"], 1: [], 2: ["green 1"]}, num_players=3, draw_pile=[])
    state.draws_over = True
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert state.turn_player == 2  # seat 1 has no cards
    turn.apply_move(state, PlayCard(card("green 1"), 3))
    assert state.step == GAME_OVER and state.end_reason == CARDS_RAN_OUT
    outcome = rules.outcome(state)
    assert not outcome.won  # Quick mode lost before the level 3 mission


def test_the_last_card_played_with_the_draw_pile_empty_ends_the_game():
    state = position(PILES, {0: ["red 1"], 1: []}, current="Mission 1-D", draw_pile=[])
    events = turn.apply_move(state, PlayCard(card("red 1"), 3))
    kinds = [e.kind for e in events][-3:]
    assert kinds == ["draw_pile_empty", "turn_ended", "game_ended"]
    assert events[-2] == TurnEnded(0, passes=0)  # no next player: the game ends
    assert events[-1].reason == CARDS_RAN_OUT and events[-1].points == 0
    assert events[-1].won is False
    assert state.end_reason == CARDS_RAN_OUT


def test_wild_crab_game_ends_when_every_hand_is_empty_with_points_and_title():
    done = ("Mission 2-A", "Mission 3-A", "Mission 1-A")
    state = position(PILES_WITH_AN_OXI, {0: ["red 1"], 1: []}, mode=WILD_CRAB, current=None,
                     completed=done, draw_pile=[])  # fmt: skip
    state.draws_over = True
    turn.apply_move(state, PlayCard(card("red 1"), 1))
    assert state.step == GAME_OVER
    outcome = rules.outcome(state)
    assert (outcome.points, outcome.title) == (6, "Crab Shell Grabber")
    assert outcome.end_reason == CARDS_RAN_OUT


def test_running_out_of_cards_in_quick_mode_ends_the_game_lost():
    state = ready("Mission 1-A")
    events: list = []
    rules.game_over(state, CARDS_RAN_OUT, events)
    assert events[0].won is False
    assert text(events[0]) == (
        "every hand is empty before the final mission: the team loses with 1 points"
    )
    assert not rules.outcome(state).won


def test_a_full_round_of_passes_ends_the_game():
    state = position(BLOCKING, {0: ["green 8"], 1: ["yellow 8"]}, current="Mission 1-D")
    events: list = []
    turn.advance(state, events)
    assert state.step == GAME_OVER and state.end_reason == STALLED
    kinds = ["turn_passed", "turn_ended", "turn_passed", "turn_ended", "game_ended"]
    assert [e.kind for e in events] == kinds
    assert events[3] == TurnEnded(1, passes=2)
    assert text(events[-1]) == (
        "a full round of passes before the final mission: the team loses with 0 points"
    )


def test_a_manual_pass_counts_toward_the_everyone_passed_end():
    # Both players hold only cards that fit nowhere, and an ability is ready (Mission 1-A,
    # Rescue up to 3 tops): each may use it or pass by choice (B6). Two passes in a row, one
    # per player with cards, end the game (B7, G6), just as automatic passes do.
    state = position(BLOCKING, {0: ["green 8"], 1: ["yellow 8"]}, current="Mission 1-D",
                     completed=("Mission 1-A",))  # fmt: skip
    assert Pass() in turn.legal_moves(state)
    events = turn.apply_move(state, Pass())
    assert events[0].kind == "turn_passed" and not events[0].automatic
    assert state.passes == 1 and state.turn_player == 1 and state.step == PLAY
    assert Pass() in turn.legal_moves(state)
    events = turn.apply_move(state, Pass())
    assert [e.kind for e in events] == ["turn_passed", "turn_ended", "game_ended"]
    assert state.step == GAME_OVER and state.end_reason == STALLED
