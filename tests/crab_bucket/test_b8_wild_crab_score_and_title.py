"""B8: Wild Crab score and title (docs/rules/crab_bucket.md, "B8: Wild Crab score and title"): the
score is the sum of the completed missions' levels and the title that of the printed Levels Table
(test_levels_table_for_wild_crab_mode.py); 5 points has no title, and the outcome says so in a
note. The team always wins (the engine's "Wild Crab outcome", same file)."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    STALLED,
)
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    WILD_CRAB,
    position,
    ready,
    simple,
    text,
)


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


def test_wild_crab_ends_won_with_the_title_of_its_points_or_without_one_at_5():
    state = ready("Mission 3-A", mode=WILD_CRAB)
    events: list = []
    rules.game_over(state, CARDS_RAN_OUT, events)
    assert events[0].won and events[0].title == "Apprentice Crab Catcher"
    assert text(events[0]) == (
        "every hand is empty: the team wins with 3 points, title Apprentice Crab Catcher"
    )
    five = position(PILES, {0: HAND}, mode=WILD_CRAB, current="Mission 1-D",
                    completed=("Mission 3-A", "Mission 2-A"))  # fmt: skip
    events = []
    rules.game_over(five, STALLED, events)
    assert events[0].won and events[0].title == ""
    assert "no title" in text(events[0])
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(rules.outcome(five), outcome)
    assert outcome.crab_bucket.won and list(outcome.winners) == [0, 1]
