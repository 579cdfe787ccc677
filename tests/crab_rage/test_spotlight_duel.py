"""The Spotlight Duel (R19) with three duelists. Issue 14: with two
duelists "the next one in turn order" and "the previous one" are the same seat, so only three
tell whether the duel goes round clockwise from the microphone holder."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.events import Cause
from crabgames.games.crab_rage.messages import event_fields
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.games.crab_rage.words import text
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    action_phase,
    chance,
    decision,
    run,
)


def set_fans(state, arena: int, fans: dict[int, int]) -> None:
    for seat, count in fans.items():
        state.arenas[arena].fans[seat] = count
        state.players[seat].supply -= count


def three_way_duel(microphone: int):
    """Blue, Yellow and Green each come first, second and third in one of arenas A-C (5 + 4 +
    3 = 12 glory each, R18); Black has the only fans in D (5 glory): a three-way tie."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=microphone)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, YELLOW: 2, GREEN: 1})
    set_fans(state, 1, {YELLOW: 3, GREEN: 2, BLUE: 1})
    set_fans(state, 2, {GREEN: 3, BLUE: 2, YELLOW: 1})
    set_fans(state, 3, {BLACK: 1})
    for player in state.players:
        player.rage = 0  # no re-rolls: every roll is kept at once (rules note 12)
    run(state, Task(Step.SCORING))
    return state


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


def test_each_duel_roll_and_keep_is_told_for_the_duelist_rolling_in_turn():
    """Green (seat 2) rolls its crab 0 first and, with no rage, keeps it at once (rules note
    12); then Blue (seat 0)."""
    state = three_way_duel(microphone=GREEN)
    events = chance(state, 4) + chance(state, 5)
    assert [text(e) for e in events] == [
        "Green crab 0 rolls 4 in the spotlight duel",
        "Green keeps 4 for crab 0",
        "Blue crab 0 rolls 5 in the spotlight duel",
        "Blue keeps 5 for crab 0",
    ]
    assert [e.kind for e in events] == [
        "die_rolled",
        "duel_kept",
        "die_rolled",
        "duel_kept",
    ]
    duel = Cause.SPOTLIGHT_DUEL
    assert [event_fields(e) for e in events] == [
        {"player": GREEN, "crab": (GREEN, 0), "amount": 4, "cause": duel},
        {"player": GREEN, "crab": (GREEN, 0), "amount": 4, "cause": duel},
        {"player": BLUE, "crab": (BLUE, 0), "amount": 5, "cause": duel},
        {"player": BLUE, "crab": (BLUE, 0), "amount": 5, "cause": duel},
    ]
