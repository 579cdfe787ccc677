"""The Oxi! card in each mode, missions in play (B5), turns, passing and the end (B6, B7, G6),
the Wild Crab score table (B8) and the talking flag (B9)."""

from __future__ import annotations

import pytest

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import BLUE, GREEN, OXI, RED, Gap, Mission, title_for
from crabgames.games.crab_bucket.events import TurnEnded
from crabgames.games.crab_bucket.moves import ChooseMissionPile, Pass, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import CARDS_RAN_OUT, GAME_OVER, PLAY, STALLED
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import QUICK, WILD_CRAB, card, cards, position

RESCUE_TOPS = pb.CRAB_BUCKET_ABILITY_RESCUE_TOPS

# One Gap each: "two red tops side by side" (level 1), green (2), blue (3); plus spares.
SIMPLE = (
    Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),
    Mission("Green pair", 2, RESCUE_TOPS, (Gap(GREEN, 0),)),
    Mission("Blue pair", 3, RESCUE_TOPS, (Gap(BLUE, 0),)),
    Mission("Spare 1", 1, RESCUE_TOPS, (Gap(RED, 1),)),
    Mission("Spare 3", 3, RESCUE_TOPS, (Gap(GREEN, 3),)),
)
TOPS = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]


def simple(hands, mode=QUICK, current="Red pair", **kw):
    return position(TOPS, hands, mode=mode, missions=SIMPLE, current=current, **kw)


# ----- the Oxi! card -----


def test_quick_oxi_may_be_played_onto_any_pile_and_anything_goes_on_it():
    state = simple({0: ["oxi", "blue 1", "blue 2"]})
    assert {m.pile for m in turn.legal_moves(state) if m == PlayCard(OXI, m.pile)} == set(range(8))
    turn.apply_move(state, PlayCard(OXI, 0))
    assert state.piles[0] == (card("red 8"), OXI)
    assert rules.can_place(card("red 8"), OXI)


def test_wild_crab_oxi_is_discarded_and_the_pile_keeps_only_its_top_card():
    piles = [["blue 1", "blue 2", "red 8"], *TOPS[1:]]
    state = position(piles, {0: ["oxi", "green 1", "green 2"]}, mode=WILD_CRAB, missions=SIMPLE,
                     current="Red pair")  # fmt: skip
    draw = rules.draw_total(state)
    turn.apply_move(state, PlayCard(OXI, 0))
    assert state.piles[0] == cards("red 8")
    assert state.oxi_discarded == 1
    assert rules.draw_total(state) == draw + 2  # blue 1 and blue 2 shuffled back in
    assert state.draw_pile[card("blue 1")] == state.draw_pile[card("blue 2")] == 1


# ----- missions in play (B5) -----


def test_quick_mode_completes_level_1_then_draws_level_2_at_once():
    state = simple({0: ["red 2", "blue 1", "blue 2"]})
    turn.apply_move(state, PlayCard(card("red 2"), 7))  # red 1 at 6, red 2 at 7: a red pair
    assert state.completed == [0] and state.spent == [False]
    assert rules.decision_name(state) == "draw_mission"
    assert rules.chance_outcomes(state) == [(1, 1)]


def test_quick_mode_wins_as_soon_as_the_level_3_mission_is_completed():
    state = simple({0: ["blue 7", "green 1", "green 2"]}, current="Blue pair",
                   completed=("Red pair", "Green pair"))  # fmt: skip
    turn.apply_move(state, PlayCard(card("blue 7"), 5))  # blue 8 at 4, blue 7 at 5
    assert state.step == GAME_OVER
    outcome = rules.outcome(state)
    assert outcome.won and outcome.end_reason == rules.LEVEL_3_COMPLETED and outcome.points == 6


def test_wild_crab_mode_lets_the_player_pick_the_next_missions_level():
    state = simple({0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB)
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert rules.decision_name(state) == "choose_mission_pile"
    assert turn.legal_moves(state) == [ChooseMissionPile(1), ChooseMissionPile(2),
                                        ChooseMissionPile(3)]  # fmt: skip
    turn.apply_move(state, ChooseMissionPile(3))
    assert {v for v, _ in rules.chance_outcomes(state)} == {2, 4}


def test_wild_crab_mode_cannot_pick_an_empty_mission_pile():
    state = simple({0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB,
                   completed=("Spare 1",))  # fmt: skip
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert ChooseMissionPile(1) not in turn.legal_moves(state)


def test_a_new_mission_already_met_by_the_circle_is_completed_at_once():
    state = simple({0: ["green 7", "blue 1", "blue 2"]}, current="Spare 3")
    state.piles[6] = (card("red 1"), card("green 1"))  # green 8 at 2, green 1 at 6: 3 between
    rules.check_mission(state, [])
    assert state.completed == [4]


# ----- turns, passing, the end (B6, B7, G6) -----


def test_after_the_main_action_the_player_draws_back_to_3_and_the_turn_passes_clockwise():
    state = simple({0: ["blue 1", "green 1", "green 2"]}, num_players=3)
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert rules.decision_name(state) == "draw_card"
    turn.apply_chance(state, card("blue 3"))
    assert len(state.hands[0]) == 3 and state.turn_player == 1


# Nothing of green 8 or yellow 8 fits on these tops (different colours, all lower than 8).
BLOCKING = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "red 7", "blue 7"]
BLOCKED = ["green 8", "yellow 8"]


def test_pass_is_offered_only_when_no_main_action_is_possible_but_an_ability_is():
    state = position(BLOCKING, {0: BLOCKED}, current="Mission 1-D", completed=("Mission 1-A",))
    moves = turn.legal_moves(state)
    assert Pass() in moves and not any(isinstance(m, PlayCard) for m in moves)
    normal = simple({0: ["blue 1", "green 1", "green 2"]})
    assert Pass() not in turn.legal_moves(normal)
    assert GAME.explain_illegal(normal, Pass()).rule == "B6"


def test_a_player_with_no_legal_decision_passes_automatically_and_draws_nothing():
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D")
    events: list = []
    turn.advance(state, events)
    assert [e.kind for e in events] == ["turn_passed", "turn_ended"]
    assert events[0].automatic and words.text(events[0]) == "player 0 cannot act and passes"
    assert events[1] == TurnEnded(0, passes=1, next_player=1)
    assert state.turn_player == 1 and len(state.hands[0]) == 2 and state.passes == 1


def test_when_a_draw_finds_the_pile_empty_nobody_draws_again():
    state = simple({0: ["blue 1", "green 1", "green 2"]}, draw_pile=[])
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert state.draws_over and len(state.hands[0]) == 2 and state.turn_player == 1


def test_players_with_empty_hands_are_skipped_and_the_game_ends_when_all_hands_are_empty():
    state = simple({0: ["blue 1"], 1: [], 2: ["green 1"]}, num_players=3, draw_pile=[])
    state.draws_over = True
    turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert state.turn_player == 2  # seat 1 has no cards
    turn.apply_move(state, PlayCard(card("green 1"), 3))
    assert state.step == GAME_OVER and state.end_reason == CARDS_RAN_OUT
    outcome = rules.outcome(state)
    assert not outcome.won  # Quick mode lost before the level 3 mission


def test_a_full_round_of_passes_ends_the_game():
    state = position(BLOCKING, {0: ["green 8"], 1: ["yellow 8"]}, current="Mission 1-D")
    events: list = []
    turn.advance(state, events)
    assert state.step == GAME_OVER and state.end_reason == STALLED
    kinds = ["turn_passed", "turn_ended", "turn_passed", "turn_ended", "game_ended"]
    assert [e.kind for e in events] == kinds
    assert events[3] == TurnEnded(1, passes=2)
    assert words.text(events[-1]) == (
        "a full round of passes before the final mission: the team loses with 0 points"
    )


def test_using_an_ability_then_having_no_main_action_is_not_a_pass():
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D",
                     completed=("Mission 1-B",))  # fmt: skip
    turn.apply_move(state, UseAbility(1, (0, 1)))  # Mission 1-B: swap two tops
    assert state.turn_player == 1 and state.passes == 0


# ----- score table (B8), talking (B9), outcome -----


@pytest.mark.parametrize(
    ("points", "title"),
    [
        (0, "Apprentice Crab Catcher"),
        (4, "Apprentice Crab Catcher"),
        (5, ""),
        (6, "Crab Shell Grabber"),
        (9, "Crab Shell Grabber"),
        (10, "Guardian of the Mangrove"),
        (15, "Guardian of the Mangrove"),
        (16, "King of the Mangrove Swamp"),
        (19, "King of the Mangrove Swamp"),
        (20, "Oxi!"),
        (36, "Oxi!"),
    ],
)
def test_wild_crab_titles_follow_the_printed_table(points, title):
    assert title_for(points) == title


def test_five_points_are_reported_with_no_title_and_a_note():
    state = simple({0: [], 1: []}, mode=WILD_CRAB, current=None,
                   completed=("Green pair", "Blue pair"))  # fmt: skip
    rules.game_over(state, CARDS_RAN_OUT, [])
    outcome = rules.outcome(state)
    assert outcome.points == 5  # levels 2 + 3 (B8)
    assert outcome.title == "" and "5 points" in outcome.note
    msg = game_pb2.Outcome()
    GAME.codec.encode_outcome(outcome, msg)
    assert msg.crab_bucket.title == "" and "B8" in msg.crab_bucket.note
    assert list(msg.winners) == [0, 1] and all(p.score == 5 and p.rank == 1 for p in msg.players)


def test_wild_crab_score_is_the_sum_of_completed_levels_with_its_title():
    state = simple({0: [], 1: []}, mode=WILD_CRAB, current=None,
                   completed=("Red pair", "Green pair", "Blue pair", "Spare 1"))  # fmt: skip
    rules.game_over(state, CARDS_RAN_OUT, [])
    outcome = rules.outcome(state)
    assert (outcome.points, outcome.title, outcome.note) == (7, "Crab Shell Grabber", "")


def test_quick_loss_has_no_winners_and_a_win_has_every_seat():
    state = simple({0: [], 1: []}, current=None, completed=("Red pair",))
    rules.game_over(state, CARDS_RAN_OUT, [])
    msg = game_pb2.Outcome()
    GAME.codec.encode_outcome(rules.outcome(state), msg)
    assert list(msg.winners) == [] and not msg.crab_bucket.won
    assert [p.score for p in msg.players] == [1, 1]


def test_talking_is_allowed_in_quick_mode_during_the_first_mission_only():
    state = simple({0: ["red 2", "blue 1", "blue 2"]})
    assert rules.talking_allowed(state)
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert not rules.talking_allowed(state)
    assert not rules.talking_allowed(simple({}, mode=WILD_CRAB))


def test_the_talking_flag_is_in_the_state_and_in_every_view():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 3, seed=5)
    assert state.crab_bucket.talking_allowed
    assert engine.view(state, 1).crab_bucket.talking_allowed
    wild = pb.CrabBucketOptions(mode=WILD_CRAB)
    state, _ = engine.new_game("crab_bucket", wild, 3, seed=5)
    assert not engine.view(state, None).crab_bucket.talking_allowed


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
