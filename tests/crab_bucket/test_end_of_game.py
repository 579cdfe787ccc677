"""The rulebook's "End of Game" and "Quick Mode" (docs/rules/crab_bucket.md): a Quick game ends,
won, the moment the level 3 mission is completed; the outcome gives every seat the team's score,
and every seat wins on a win, none on a loss (the engine's "Quick-mode outcome", same file). The
end by running out of cards is B7's (test_b7_running_out_of_cards.py)."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.moves import (
    PlayCard,
)
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    GAME_OVER,
)
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import (
    card,
    ready,
    simple,
    text,
)


def test_quick_mode_wins_as_soon_as_the_level_3_mission_is_completed():
    state = simple({0: ["blue 7", "green 1", "green 2"]}, current="Blue pair",
                   completed=("Red pair", "Green pair"))  # fmt: skip
    turn.apply_move(state, PlayCard(card("blue 7"), 5))  # blue 8 at 4, blue 7 at 5
    assert state.step == GAME_OVER
    outcome = rules.outcome(state)
    assert outcome.won and outcome.end_reason == rules.LEVEL_3_COMPLETED and outcome.points == 6


def test_completing_the_level_3_mission_in_quick_mode_ends_the_game_won():
    state = ready("Mission 1-A")
    events: list = []
    rules.game_over(state, rules.LEVEL_3_COMPLETED, events)
    assert events[0].won and events[0].reason == rules.LEVEL_3_COMPLETED
    assert text(events[0]) == "the final mission is completed: the team wins with 1 points"
    assert rules.outcome(state).won


def test_quick_loss_has_no_winners_and_a_win_has_every_seat():
    state = simple({0: [], 1: []}, current=None, completed=("Red pair",))
    rules.game_over(state, CARDS_RAN_OUT, [])
    msg = game_pb2.Outcome()
    GAME.codec.encode_outcome(rules.outcome(state), msg)
    assert list(msg.winners) == [] and not msg.crab_bucket.won
    assert [p.score for p in msg.players] == [1, 1]
