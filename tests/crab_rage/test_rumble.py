"""The Rumble Phase's tie-breaks and rewards beyond the rulebook's examples (R15, R16, rules note
9). Issue 14: each test fails when its rule alone is broken."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.messages import event_fields
from crabgames.games.crab_rage.moves import RumbleOpponent
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


def test_the_losers_rage_names_the_rumbles_arena():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 2, 6)
    put(state, YELLOW, 0, 2, 2)
    put(state, YELLOW, 1, 2, 2)
    state.phase = Phase.RUMBLE
    events = run(state, Task(Step.RUMBLE, arena=2))
    (rage,) = [e for e in events if e.kind == "rage"]
    assert event_fields(rage)["arena"] == 2
    assert event_fields(rage)["change"] == 2
    assert text(rage) == "Yellow builds 2 rage (rumble), now 2"


def test_a_three_way_tie_for_the_microphone_rolled_equal_by_all_three_is_rolled_again():
    """R16: all the tied roll; when all three roll the same, all three roll again."""
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (0, 2, 2, 2), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 3, 3, 3)
    assert decision(state) == (-1, "microphone_die")
    chance(state, 1, 5, 2)
    assert state.microphone == GREEN


def test_a_four_way_tie_in_arena_a_is_told_with_its_arena_up_to_the_next_pick():
    """The four-way tie of the test above, told: every roll-off event names arena A (index 0),
    and after Yellow is out the three left wait for a pick, not a roll."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=YELLOW, rage=0)
    for seat in (BLUE, YELLOW, GREEN, BLACK):
        put(state, seat, 0, 0, 4)
    put(state, PURPLE, 0, 0, 2)
    events = run(state, Task(Step.RUMBLE, arena=0))
    events += play(state, RumbleOpponent(partner=GREEN))
    events += chance(state, 2, 5)
    arena_a = "arena A (Mega Muscle)"
    assert [text(e) for e in events] == [
        f"Blue, Yellow, Green, Black tie for the rumble in {arena_a}: Yellow picks an opponent",
        f"Yellow picks Green to roll against in {arena_a}",
        f"Yellow rolls 2 for the rumble in {arena_a}",
        f"Green rolls 5 for the rumble in {arena_a}",
        f"the highest roll is 5: Blue, Green, Black still stand for the rumble in {arena_a}, an "
        "opponent is picked",
    ]
    assert [e.kind for e in events] == [
        "roll_off_started",
        "opponent_picked",
        "die_rolled",
        "die_rolled",
        "roll_off_rolled",
    ]
    assert all(event_fields(e)["arena"] == 0 for e in events)
    assert event_fields(events[0])["units"] == ((BLUE,), (YELLOW,), (GREEN,), (BLACK,))
    assert event_fields(events[0])["rolling"] == ()
    assert event_fields(events[2])["seats"] == (YELLOW,)
    assert event_fields(events[4])["units"] == ((BLUE,), (GREEN,), (BLACK,))
    assert event_fields(events[4])["rolling"] == ()
    assert event_fields(events[4])["amount"] == 5
