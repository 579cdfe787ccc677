"""B5 in Wild Crab mode: the player who completed a mission picks the pile of the next one, "if
all are empty there is no current mission"; play goes on until the cards run out (B7) and the
score cannot change (rules notes). Checked to the end of the turn."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import RED, RESCUE_TOPS, Gap, Mission
from crabgames.games.crab_bucket.events import (
    CardDrawn,
    CardPlayed,
    MissionCompleted,
    NoMissionDrawn,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import NO_MISSION, PLAY, REFILL
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import WILD_CRAB, card, cards, position

# A deck of one mission, current: once it is completed every mission pile is empty.
ONLY = (Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),)
TOPS = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]


def test_wild_crab_with_every_mission_pile_empty_there_is_no_current_mission():
    """B5: with every pile empty nothing is offered to choose and no mission is drawn."""
    state = position(TOPS, {0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB, missions=ONLY,
                     current="Red pair")  # fmt: skip
    assert state.mission_piles == [(), (), ()]
    # Red 2 on the yellow 4 (lower, another colour): red 1 and red 2 side by side, a red pair.
    events = turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert events == [
        CardPlayed(0, card("red 2"), 7, False),
        MissionCompleted(0, 1),
        NoMissionDrawn(False),
    ]
    assert words.text(events[2]) == "every mission pile is empty: no mission is drawn"
    msg = game_pb2.Event()
    GAME.codec.encode_event(events[2], msg)
    none_drawn = msg.crab_bucket.no_mission_drawn
    assert not none_drawn.offer and not none_drawn.HasField("level")
    assert state.current == NO_MISSION and state.completed == [0] and state.spent == [False]
    assert state.pending == [] and state.mission_piles == [(), (), ()]
    # No pile to choose: the turn goes straight on to drawing back to 3 (B6).
    assert state.step == REFILL and rules.decision_name(state) == "draw_card"
    assert turn.legal_moves(state) == []
    assert rules.points(state) == 1
    events = turn.apply_chance(state, card("green 1"))
    assert events == [CardDrawn(0, card("green 1")), TurnEnded(0, 0, 1)]
    assert state.hands[0] == tuple(sorted(cards("green 1", "blue 1", "blue 2")))
    assert state.current == NO_MISSION and state.turn_player == 1 and state.step == PLAY
    assert rules.decision_name(state) == "play" and rules.points(state) == 1
    assert rules.invariant_violations(state) == []


def test_with_no_current_mission_a_play_completes_nothing():
    """B5: "if all are empty there is no current mission", so no play completes a mission any
    more, even one that leaves the completed mission's red pair side by side on the circle."""
    red_pair = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "red 2"]
    state = position(red_pair, {0: ["blue 1", "green 1", "green 2"]}, mode=WILD_CRAB,
                     missions=ONLY, current=None, completed=("Red pair",))  # fmt: skip
    assert state.current == NO_MISSION and state.mission_piles == [(), (), ()]
    # Blue 1 on the yellow 1 (another colour, equal): the red pair stays side by side.
    events = turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert events == [CardPlayed(0, card("blue 1"), 1, False)]
    assert state.current == NO_MISSION and state.completed == [0] and state.pending == []
    assert state.step == REFILL and rules.points(state) == 1
