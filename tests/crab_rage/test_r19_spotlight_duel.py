"""R19: the spotlight duel (docs/rules/crab_rage.md, "### R19: the spotlight duel", the
rulebook's "### Spotlight Duel" and rules note 12): the managers tied for the most glory roll
their crabs one at a time, in turn order from the microphone holder, until all their crabs are
rolled; right after a roll the roller may pay 1 rage to roll that crab again, as long as they
have rage (without rage the roll is kept at once); the largest total wins, and an equal total
shares the victory."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import DuelKeep, DuelReroll
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.games.crab_rage.words import text
from crabgames.v1 import game_pb2
from tests.crab_rage.helpers import (
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    both_duelists_keep_threes_to_the_last_roll,
    chance,
    decision,
    duel_state,
    play,
    run,
    set_fans,
    three_way_duel,
)


def test_a_three_way_spotlight_duel_goes_round_clockwise_from_the_microphone_holder():
    state = three_way_duel(microphone=GREEN)
    assert state.duel.duelists == [GREEN, BLUE, YELLOW]  # turn order from Green
    assert decision(state) == (-1, "spotlight_roll")
    chance(state, 4)
    assert state.duel.rolls == [[4], [], []]
    chance(state, 5)  # Blue, next clockwise after Green
    assert state.duel.rolls == [[4], [5], []]
    chance(state, 6, 1)  # Yellow, then Green again
    assert state.duel.rolls == [[4, 1], [5], [6]]
    chance(state, 2, 2, 2, 3, 2)
    assert state.duel.rolls == [[4, 1, 2], [5, 2, 3], [6, 2, 2]]
    result = GAME.outcome(state)
    assert result.winners == [BLUE, YELLOW]  # 10 each; Green has 7 (R19: a shared victory)
    assert (result.ranks[BLUE], result.ranks[YELLOW], result.ranks[GREEN]) == (1, 1, 3)


def test_spotlight_duel_black_rerolls_the_third_crab_and_wins_with_10():
    state = duel_state()
    assert state.duel.duelists == [BLACK, PURPLE]
    chance(state, 3)
    assert decision(state) == (BLACK, "spotlight_reroll")
    play(state, DuelKeep())
    chance(state, 4, 2)  # Purple has no rage: no re-roll to decide
    play(state, DuelKeep())
    chance(state, 3, 1)
    play(state, DuelReroll())  # Black unleashes 1 rage
    chance(state, 5, 2)
    assert state.duel.rolls == [[3, 2, 5], [4, 3, 2]]
    assert state.players[BLACK].rage == 0
    result = GAME.outcome(state)
    assert result.glory[BLACK] == result.glory[PURPLE] == 12
    assert result.winners == [BLACK]
    assert (result.ranks[BLACK], result.ranks[PURPLE]) == (1, 2)
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert list(outcome.winners) == [BLACK] and outcome.crab_rage.duel.winners == [BLACK]


def test_the_spotlight_duel_rolls_in_turn_order_from_the_microphone_holder():
    state = duel_state(microphone=PURPLE)
    assert state.duel.duelists == [PURPLE, BLACK]
    chance(state, 3)
    assert state.duel.rolls == [[3], []]  # Purple rolls first
    assert decision(state) == (-1, "spotlight_roll")  # Purple has no rage: the roll is kept
    chance(state, 4)
    assert decision(state) == (BLACK, "spotlight_reroll")


def test_a_duelist_may_reroll_the_current_crab_as_often_as_they_have_rage():
    state = duel_state()
    state.players[BLACK].rage = 2
    chance(state, 1)
    play(state, DuelReroll())
    chance(state, 1)
    play(state, DuelReroll())
    chance(state, 2)
    assert state.players[BLACK].rage == 0
    assert state.duel.rolls[0] == [2] and state.duel.rerolls[0] == 2
    assert decision(state) == (-1, "spotlight_roll")  # no rage left: no re-roll is offered


def test_a_three_player_spotlight_duel_rolls_all_four_crabs():
    state = action_phase(3, (MM, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 2, YELLOW: 1})
    set_fans(state, 1, {YELLOW: 2, BLUE: 1})
    for player in state.players:
        player.rage = 0
    run(state, Task(Step.SCORING))
    assert state.duel.duelists == [BLUE, YELLOW]
    chance(state, 1, 1, 1, 1, 1, 1)
    assert GAME.outcome(state) is None  # three crabs each are not the whole duel
    chance(state, 2, 1)
    assert state.duel.rolls == [[1, 1, 1, 2], [1, 1, 1, 1]]
    assert GAME.outcome(state).winners == [BLUE]


def test_a_tied_spotlight_duel_shares_the_victory():
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    chance(state, 3)
    assert GAME.outcome(state).winners == [BLACK, PURPLE]


def test_a_shared_spotlight_victory_names_every_tied_duelist_as_a_winner():
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    events = chance(state, 3)
    assert state.duel.winners == [BLACK, PURPLE]
    assert "Black and Purple win(s) the spotlight duel with 9" in [text(e) for e in events]
    result = GAME.outcome(state)
    assert result.winners == [BLACK, PURPLE] and result.ranks[BLACK] == result.ranks[PURPLE] == 1
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert list(outcome.winners) == [BLACK, PURPLE]
    assert list(outcome.crab_rage.duel.winners) == [BLACK, PURPLE]
    assert outcome.summary == "Black and Purple win(s) with 12 glory after a spotlight duel"
