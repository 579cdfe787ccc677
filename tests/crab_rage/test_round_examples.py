"""The rulebook's worked examples for the Rumble, Fan and Rage phases and Mutation."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.messages import event_fields
from crabgames.games.crab_rage.moves import MutationCrab, RumbleOpponent
from crabgames.games.crab_rage.state import Phase, Step, Task, rumble_order
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
    muscles,
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


def test_rumble_checks_arenas_from_the_first_billboard_alphabetically_then_clockwise():
    state = action_phase(4, (PC, BB, MM))
    assert rumble_order(state) == [1, 2, 0]  # Barnacle Brawl, then clockwise


def test_blue_fan_phase_gains_4_rage_and_1_hardcore_fan_without_attack_of_the_fans():
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 2)
    put(state, BLUE, 2, 3)
    state.players[BLUE].rage = 0
    run(state, Task(Step.FAN_PHASE))
    assert state.players[BLUE].rage == 4
    assert state.players[BLUE].hardcore == 1
    assert state.players[BLUE].supply == 31


def test_yellow_rage_builds_to_7_and_mutates_the_chosen_crab_with_a_roll_of_3():
    state = action_phase(4, (MM, PC, BB))
    state.players[YELLOW].rage = 6
    events = run(state, Task(Step.BUILD_RAGE, YELLOW, 1, values=[1]))  # Pressure Cooker in B
    assert [text(e) for e in events] == ["Yellow builds 1 rage (Pressure Cooker), now 7"]
    assert decision(state) == (YELLOW, "choose_mutation_crab")
    play(state, MutationCrab(crab=0))  # the lowest die (muscle 1)
    assert [text(e) for e in chance(state, 3)] == ["Yellow crab 0 mutates: rolls 3 (+2 muscle)"]
    assert muscles(state, YELLOW) == [3, 2, 3]
    assert state.players[YELLOW].rage == 7  # rage remains on the ladder


def test_spending_rage_and_building_to_exactly_6_never_mutate():
    state = action_phase(4, (MM, PC, BB))
    state.players[YELLOW].rage = 4
    run(state, Task(Step.BUILD_RAGE, YELLOW, values=[2]))
    assert state.pending == []


def test_rage_phase_builds_3_each_and_4_with_3_players_and_gives_the_microphone_to_most_rage():
    for n, build in ((3, 4), (4, 3)):
        billboards = (MM, PC, BB)
        state = action_phase(n, billboards)
        for seat, player in enumerate(state.players):
            player.rage = seat  # at most 2 + 4: no mutation
        run(state, Task(Step.RAGE_PHASE))
        assert [p.rage for p in state.players] == [s + build for s in range(n)]
        assert state.microphone == n - 1


def test_microphone_tie_is_rolled_off_among_the_tied_and_ties_roll_again():
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (0, 2, 2, 1), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 4, 4, 2, 5)
    assert state.microphone == GREEN


# ----- each rule of the Rumble, Fan and Rage phases, pinned on its own -----


def test_rumble_order_starts_at_the_first_billboard_alphabetically_then_goes_clockwise():
    # A Attack of the Fans, B Pressure Cooker, C Barnacle Brawl: clockwise A, B, C, while plain
    # alphabetical order would be A, C, B (R5).
    state = action_phase(4, (AOTF, PC, BB), rage=0)
    for arena in range(3):
        put(state, BLUE, arena, arena, 1)
    events = run(state, Task(Step.RUMBLE_PHASE))
    won = [event_fields(e)["arena"] for e in events if e.kind == "rumble_won"]
    assert won == [0, 1, 2]
    state = action_phase(4, (PC, AOTF, BB))
    assert rumble_order(state) == [1, 2, 0]  # from Attack of the Fans, clockwise


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


def test_the_fan_phase_rewards_each_arena_a_manager_is_present_in_not_each_crab():
    # The rulebook's Blue, present in Mega Muscle (here with two crabs: 3 players have 4),
    # Pressure Cooker and Barnacle Brawl: 4 rage and 1 hardcore fan.
    state = action_phase(3, (MM, PC, BB), microphone=BLUE, rage=0)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 0)
    put(state, BLUE, 2, 1)
    put(state, BLUE, 3, 2)
    run(state, Task(Step.FAN_PHASE))
    assert state.players[BLUE].rage == 4
    assert state.players[BLUE].hardcore == 1
    assert state.players[BLUE].supply == 31


def test_a_three_way_tie_for_the_microphone_is_rolled_off_among_all_three():
    # R16: every tied player rolls; the tied highest roll again.
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (2, 2, 2, 1), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 4, 6, 6)  # Blue, Yellow, Green: Yellow and Green tie on 6
    assert decision(state) == (-1, "microphone_die")
    chance(state, 2, 5)  # Yellow, Green
    assert state.microphone == GREEN
    assert GAME.next_decision(state).name != "microphone_die"


def test_the_three_way_tie_is_told_pick_rolls_roll_off_and_rewards_in_order():
    """The rulebook's three-way tie (the test above), in the Rumble Phase, told event by event:
    Green picks Blue, beats it 5 to 2, ties Purple/Black at 2, loses 1 to 6; Purple/Black take
    the arena, 3 fans each; the losers build a rage per crab (Green 1, Blue 2, Yellow 2)."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN, rage=0)
    state.phase = Phase.RUMBLE
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 3)
    put(state, BLUE, 1, 0, 3)
    put(state, PURPLE, 0, 0, 3)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, PURPLE, BLACK)
    put(state, YELLOW, 0, 0, 1)
    put(state, YELLOW, 1, 0, 1)
    events = run(state, Task(Step.RUMBLE, arena=0))
    events += play(state, RumbleOpponent(partner=BLUE))
    events += chance(state, 5, 2, 2, 2, 1, 6)
    a = "arena A (Mega Muscle)"
    assert [text(e) for e in events] == [
        f"Blue, Green, Black/Purple tie for the rumble in {a}: Green picks an opponent",
        f"Green picks Blue to roll against in {a}",
        f"Green rolls 5 for the rumble in {a}",
        f"Blue rolls 2 for the rumble in {a}",
        f"the highest roll is 5: Green, Black/Purple still stand for the rumble in {a},"
        " Green, Black/Purple roll next",
        f"Green rolls 2 for the rumble in {a}",
        f"Black/Purple rolls 2 for the rumble in {a}",
        f"the highest roll is 2: Green, Black/Purple still stand for the rumble in {a},"
        " Green, Black/Purple roll next",
        f"Green rolls 1 for the rumble in {a}",
        f"Black/Purple rolls 6 for the rumble in {a}",
        f"Black/Purple wins the roll-off for the rumble in {a} with 6",
        f"Black/Purple wins the rumble in {a} with 6 muscle",
        f"Black places 3 fan(s) in {a} (rumble)",
        f"Purple places 3 fan(s) in {a} (rumble)",
        "Green builds 1 rage (rumble), now 1",
        "Blue builds 2 rage (rumble), now 2",
        "Yellow builds 2 rage (rumble), now 2",
    ]
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["roll_off_started", "opponent_picked"]
    assert kinds.count("die_rolled") == 6 and kinds.count("roll_off_rolled") == 3
