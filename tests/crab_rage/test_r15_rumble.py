"""R15: the rumble (docs/rules/crab_rage.md, "### R15: the rumble", the rulebook's "### Rumble
Phase" with its three examples, and rules note 9): the unit with the most muscle wins, a lone
unit without a fight; units tied for the most roll the rumble die, equal rolls again, and with
three or more tied the earliest tied manager in turn order picks whom to roll against, again
after each roll-off; the winner puts one fan per crab in the arena, an alliance sharing them
equally, the odd one going to the partner with more muscle (to nobody on equal muscle); every
loser builds 1 rage per own crab there. The order of the arenas:
test_r5_arenas_and_billboards.py."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import RumbleOpponent
from crabgames.games.crab_rage.state import Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    ally,
    chance,
    decision,
    play,
    put,
    run,
)


def test_blue_wins_with_10_muscle_places_5_fans_and_each_loser_builds_rage_per_crab():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 0, 6)
    put(state, BLUE, 1, 0, 4)
    put(state, YELLOW, 0, 0, 3)
    put(state, GREEN, 0, 0, 5)
    put(state, BLACK, 2, 0, 2)
    rage = [p.rage for p in state.players]
    run(state, Task(Step.RUMBLE, arena=0))
    assert state.arenas[0].fans == [5, 0, 0, 0]
    assert [p.rage - r for p, r in zip(state.players, rage, strict=True)] == [0, 1, 1, 1]


def test_blue_black_alliance_splits_5_fans_3_2_as_blue_adds_more_muscle():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 0, 6)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, BLUE, BLACK)
    put(state, GREEN, 0, 0, 4)
    put(state, YELLOW, 0, 0, 2)
    put(state, YELLOW, 1, 0, 2)
    rage = [p.rage for p in state.players]
    run(state, Task(Step.RUMBLE, arena=0))
    assert state.arenas[0].fans == [3, 0, 0, 2]
    assert [p.rage - r for p, r in zip(state.players, rage, strict=True)] == [0, 2, 1, 0]


def test_three_way_tie_green_picks_blue_wins_then_loses_to_purple_black_who_place_3_each():
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN, rage=0)
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 3)
    put(state, BLUE, 1, 0, 3)
    put(state, PURPLE, 0, 0, 3)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, PURPLE, BLACK)
    put(state, YELLOW, 0, 0, 1)
    put(state, YELLOW, 1, 0, 1)
    rage = [p.rage for p in state.players]
    run(state, Task(Step.RUMBLE, arena=0))
    assert decision(state) == (GREEN, "choose_rumble_opponent")
    opponents = [m.partner for m in GAME.legal_moves(state)]
    assert opponents == [BLUE, BLACK]  # the other tied units, each named by its lowest seat
    play(state, RumbleOpponent(partner=BLUE))
    chance(state, 5, 2)  # Green beats Blue
    chance(state, 2, 2, 1, 6)  # a tie is rolled again; Purple/Black win
    assert [state.arenas[0].fans[p] for p in (PURPLE, BLACK)] == [3, 3]
    assert sum(state.arenas[0].fans) == 6  # the odd seventh fan is not placed
    assert [p.rage - r for p, r in zip(state.players, rage, strict=True)] == [2, 2, 1, 0, 0]


def test_a_lone_unit_wins_its_arena_unopposed():
    state = action_phase(4, (MM, PC, BB))
    put(state, GREEN, 0, 1, 1)
    put(state, GREEN, 1, 1, 1)
    run(state, Task(Step.RUMBLE, arena=1))
    assert state.arenas[1].fans[GREEN] == 2


def test_blue_black_alliance_splits_5_fans_3_2_even_with_blue_in_the_higher_seat():
    # The odd fan goes to the partner with more muscle, whatever the seats: Black sits at seat 0
    # and Blue at seat 3 here.
    state = action_phase(4, (MM, PC, BB), rage=0, teams=(4, 2, 3, 1))  # Black, Yellow, Green, Blue
    black, yellow, green, blue = range(4)
    put(state, blue, 0, 0, 6)
    put(state, black, 0, 0, 3)
    ally(state, 0, blue, black)
    put(state, green, 0, 0, 4)
    put(state, yellow, 0, 0, 2)
    put(state, yellow, 1, 0, 2)
    rage = [p.rage for p in state.players]
    run(state, Task(Step.RUMBLE, arena=0))
    assert state.arenas[0].fans == [2, 0, 0, 3]
    assert [p.rage - r for p, r in zip(state.players, rage, strict=True)] == [0, 2, 1, 0]


def test_a_losing_alliance_builds_rage_for_each_partners_own_crabs():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 0, 6)
    put(state, BLUE, 1, 0, 6)
    put(state, YELLOW, 0, 0, 1)
    put(state, YELLOW, 1, 0, 1)
    put(state, GREEN, 0, 0, 1)
    ally(state, 0, YELLOW, GREEN)
    run(state, Task(Step.RUMBLE, arena=0))
    assert [p.rage for p in state.players] == [0, 2, 1, 0]
    assert state.arenas[0].fans == [5, 0, 0, 0]


def three_way_tie():
    """The rulebook's three-way tie: Green (6), Blue (3 + 3) and Purple/Black (3 + 3) tie for
    the most muscle in arena A, Yellow (1 + 1) is out of it; Green is first in turn order."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN, rage=0)
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 3)
    put(state, BLUE, 1, 0, 3)
    put(state, PURPLE, 0, 0, 3)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, PURPLE, BLACK)
    put(state, YELLOW, 0, 0, 1)
    put(state, YELLOW, 1, 0, 1)
    run(state, Task(Step.RUMBLE, arena=0))
    return state


def test_a_tie_in_the_picked_roll_off_is_rolled_again_by_the_same_two_without_a_new_pick():
    """R15: "ties roll again": Green and Blue both roll 4, so they roll again; Green does not
    pick anew."""
    state = three_way_tie()
    assert decision(state) == (GREEN, "choose_rumble_opponent")
    play(state, RumbleOpponent(partner=BLUE))
    chance(state, 4, 4)
    assert decision(state) == (-1, "rumble_die")
    chance(state, 5, 2)  # Green beats Blue: two units left, they roll off
    assert decision(state) == (-1, "rumble_die")
    chance(state, 1, 6)  # Purple/Black win
    assert [state.arenas[0].fans[p] for p in (PURPLE, BLACK)] == [3, 3]


def test_a_four_way_tie_the_earliest_tied_manager_still_standing_picks_again():
    """R15: with four units tied, after the first roll-off three still stand and the earliest
    of them in turn order picks the next opponent (the roll-off is not among all three)."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=YELLOW, rage=0)
    for seat in (BLUE, YELLOW, GREEN, BLACK):
        put(state, seat, 0, 0, 4)
    put(state, PURPLE, 0, 0, 2)
    run(state, Task(Step.RUMBLE, arena=0))
    assert decision(state) == (YELLOW, "choose_rumble_opponent")
    assert [m.partner for m in GAME.legal_moves(state)] == [BLUE, GREEN, BLACK]
    play(state, RumbleOpponent(partner=GREEN))
    chance(state, 2, 5)  # Yellow rolls 2, Green 5: Yellow is out
    # Green, Black and Blue stand; Green is the earliest in turn order from Yellow.
    assert decision(state) == (GREEN, "choose_rumble_opponent")
    assert [m.partner for m in GAME.legal_moves(state)] == [BLUE, BLACK]
    play(state, RumbleOpponent(partner=BLUE))
    chance(state, 6, 1)  # Green beats Blue; Green and Black roll off
    assert decision(state) == (-1, "rumble_die")
    chance(state, 3, 4)
    assert state.arenas[0].fans[BLACK] == 5


def test_a_tie_in_arena_a_is_rolled_with_the_rumble_die():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 0, 3)
    put(state, YELLOW, 0, 0, 3)
    run(state, Task(Step.RUMBLE, arena=0))
    assert decision(state) == (-1, "rumble_die")


def test_an_alliance_shares_an_even_number_of_fans_equally_whatever_its_muscle():
    """R15: only an odd fan goes to the partner with more muscle: Blue (6 + 5) and Black (1)
    win 4 fans (4 crabs) and place 2 each."""
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 0, 6)
    put(state, BLUE, 1, 0, 5)
    put(state, BLACK, 0, 0, 1)
    ally(state, 0, BLUE, BLACK)
    put(state, GREEN, 0, 0, 4)
    run(state, Task(Step.RUMBLE, arena=0))
    assert state.arenas[0].fans == [2, 0, 0, 2]


def test_an_alliance_winning_3_fans_gives_the_odd_one_to_the_partner_with_more_muscle():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 1, 2)
    put(state, BLACK, 0, 1, 5)
    ally(state, 1, BLUE, BLACK)
    put(state, GREEN, 0, 1, 4)
    run(state, Task(Step.RUMBLE, arena=1))
    assert state.arenas[1].fans == [1, 0, 0, 2]
