"""The style bonus (R12, rules note 4): the first use of an action in a round puts 1 fan from the
supply where it happened, the actor's pick among several arenas, or on the crab when it happened
backstage; a supply that runs short gives what it has (R15). Issue 14: each test fails when its
rule alone is broken."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Destination, Pass, StyleBonus
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    play,
    put,
)

PASS = Pass()


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def test_a_backstage_first_rage_with_an_empty_supply_puts_no_fan_on_the_crab():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE)
    state.players[BLUE].supply = 0  # all 32 fans placed elsewhere
    state.arenas[2].fans[BLUE] = 32
    events = act(state, Action.RAGE, 0, amount=1)
    assert state.players[BLUE].crabs[0].riding_fans == 0
    assert state.players[BLUE].supply == 0
    assert "fan_riding" not in kinds(events)


def test_a_backstage_first_rage_with_the_last_fan_of_the_supply_puts_it_on_the_crab():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE)
    state.players[BLUE].supply = 1
    state.arenas[2].fans[BLUE] = 31
    events = act(state, Action.RAGE, 0, amount=1)
    assert state.players[BLUE].crabs[0].riding_fans == 1
    assert state.players[BLUE].supply == 0
    assert kinds(events).count("fan_riding") == 1


def test_riding_fans_add_up_and_all_drop_onto_the_fans_already_in_the_first_arena_entered():
    """A crab carrying a fan from an earlier round's backstage Rage earns a second one: both
    ride, and both drop where it enters, on top of the 3 fans Blue has there already."""
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE, rage=10)
    blue = state.players[BLUE]
    blue.crabs[0].riding_fans = 1  # from an earlier round's style bonus
    state.arenas[0].fans[BLUE] = 3
    blue.supply = 32 - 1 - 3
    act(state, Action.RAGE, 0, amount=1)
    assert blue.crabs[0].riding_fans == 2 and blue.supply == 27
    for _ in (YELLOW, GREEN, BLACK):
        play(state, PASS)
    act(state, Action.MOVE, 0, arena=0)
    # 3 already there + the 2 riding + Attack of the Fans + the first Move's style bonus.
    assert state.arenas[0].fans[BLUE] == 3 + 2 + 1 + 1
    assert blue.crabs[0].riding_fans == 0
    assert blue.supply == 25


def test_the_style_bonus_arena_is_asked_when_a_fan_is_left_to_place():
    state = action_phase(4, (AOTF, PC, BB), rage=4)
    put(state, BLUE, 0, 2)
    state.players[BLUE].supply = 1
    state.arenas[2].fans[BLUE] = 31
    act(state, Action.MOVE, 0, arena=1)  # touches C and B: Blue picks (rules note 4)
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    play(state, StyleBonus(arena=2))
    assert state.arenas[2].fans[BLUE] == 32 and state.players[BLUE].supply == 0


def test_the_style_bonus_arena_is_not_asked_with_an_empty_supply():
    state = action_phase(4, (BB, PC, AOTF), rage=4)
    put(state, BLUE, 0, 2)
    state.players[BLUE].supply = 0
    state.arenas[2].fans[BLUE] = 32
    act(state, Action.MOVE, 0, arena=1)  # Pressure Cooker: no fan needed to enter
    assert decision(state) == (YELLOW, "choose_action")  # nothing to place, nothing to ask
    assert state.arenas[1].fans[BLUE] == 0 and state.arenas[2].fans[BLUE] == 32


def test_a_rush_earns_the_style_bonus_only_as_the_first_rush_of_the_round():
    state = action_phase(4, (PC, BB, AOTF), card=Action.RUSH, rage=10)
    put(state, BLUE, 2, 0, 3)
    put(state, YELLOW, 0, 0, 4)
    put(state, GREEN, 2, 1, 3)
    put(state, BLACK, 0, 1, 5)
    state.used_actions.append(Action.RUSH)  # Rush was used earlier this round
    act(state, Action.RUSH, 2)  # Yellow's crab 0 (4 muscle) must leave arena A
    assert decision(state) == (BLUE, "choose_destination")
    events = play(state, Destination(arena=2))
    # Yellow enters C alone (Attack of the Fans: Yellow's fan); no style bonus for Blue.
    assert state.arenas[0].fans[BLUE] == 0 and state.arenas[2].fans[BLUE] == 0
    assert state.players[BLUE].supply == 32
    assert "fans" in kinds(events)
    assert decision(state) == (YELLOW, "choose_action")


def test_charm_with_an_empty_supply_places_nothing_and_tells_no_fans():
    """Rules note 7: Charm is legal with an empty supply and places nothing."""
    state = action_phase(4, (PC, BB, AOTF), card=Action.CHARM)
    put(state, BLUE, 0, 0)
    state.players[BLUE].supply = 0
    state.arenas[1].fans[BLUE] = 32
    events = act(state, Action.CHARM, 0)
    assert state.arenas[0].fans[BLUE] == 0
    assert "fans" not in kinds(events)
    assert GAME.next_decision(state).name == "choose_action"
