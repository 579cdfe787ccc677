"""R12: the style bonus (docs/rules/crab_rage.md, "### R12: the style bonus", the rulebook's
"### Style Bonus" and rules note 4): the first use of each action in a round puts 1 fan from the
supply where it happened, the actor's pick among several arenas, or on the crab when it happened
backstage, where it rides until the first arena the crab enters; a supply that runs short gives
what it has (R15)."""

from __future__ import annotations

from crabgames.core.game import CHANCE
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.events import Cause
from crabgames.games.crab_rage.moves import Destination, Pass, StyleBonus
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    four_managers,
    kinds,
    play,
    problems,
    put,
)

PASS = Pass()


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


def style_fans(events, player: int) -> list[tuple[int, int]]:
    """(arena, amount) of each style bonus fan event of `player`."""
    return [
        (e.arena, e.amount)
        for e in events
        if e.kind == "fans" and e.player == player and e.why[0] == Cause.STYLE_BONUS
    ]


def play_on_to_round_two(state) -> None:
    """Everyone passes; the Rumble, Fan and Rage Phases and round 2's Referee Phase run with
    the first choice of every decision and the first outcome of every chance, until round 2's
    first action is asked."""
    while decision(state)[1] == "choose_action" and state.round == 1:
        play(state, PASS)
    for _ in range(100):
        if state.round == 2 and decision(state)[1] == "choose_action":
            return
        if GAME.next_decision(state).kind == CHANCE:
            GAME.apply_chance(state, GAME.chance_outcomes(state)[0][0])
        else:
            GAME.apply_move(state, GAME.legal_moves(state)[0])
    raise AssertionError("round 2 did not start")


def test_the_style_bonus_is_earned_again_by_the_first_move_of_each_round():
    """R12: "the first player to use a given action in a round": the first Move of round 1
    earns a fan, the second does not, and the first Move of round 2 earns one again. No Attack
    of the Fans is in play, so every fan of the Action Phase is a style bonus."""
    state = action_phase(4, (PC, MM, BB), card=Action.RUSH)
    assert style_fans(act(state, Action.MOVE, 0, arena=0), BLUE) == [(0, 1)]
    assert decision(state) == (YELLOW, "choose_action")
    assert style_fans(act(state, Action.MOVE, 0, arena=1), YELLOW) == []  # the second Move
    play_on_to_round_two(state)
    mover = decision(state)[0]
    crab = [c.arena for c in state.players[mover].crabs].index(BACKSTAGE)
    occupied = {c.arena for p in state.players for c in p.crabs}
    # An empty arena without Pressure Cooker: entering asks nothing (no alliance, no mutation).
    arena = next(
        a for a in range(len(state.arenas)) if a not in occupied and state.arenas[a].billboard != PC
    )
    events = act(state, Action.MOVE, crab, arena=arena)
    assert [e.first_use for e in events if e.kind == "acted"] == [True]
    assert style_fans(events, mover) == [(arena, 1)]
    assert state.arenas[arena].fans[mover] == 1


def test_style_bonus_goes_only_to_the_first_user_of_each_action_each_round():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    put(state, BLUE, 0, 2)
    put(state, YELLOW, 0, 2)
    act(state, Action.CHARM, 0)
    act(state, Action.CHARM, 0)
    assert state.arenas[2].fans[:2] == [2, 1]


def test_a_style_bonus_fan_rides_only_on_a_backstage_crab_until_it_enters_an_arena_r12():
    state = four_managers()
    state.players[BLACK].supply = 31
    state.players[BLACK].crabs[2].riding_fans = 1
    assert problems(state) == []
    for arena in (0, 1, 2):  # it drops into the first arena the crab enters
        put(state, BLACK, 2, arena)
        assert problems(state) == ["Black crab 2: a riding fan in an arena"], arena
    put(state, BLACK, 2, IN_TRANSIT)  # on its way: it drops on entering
    state.pending.append(Task(Step.ENTER, player=BLACK, arena=1, crabs=[(BLACK, 2)]))
    assert problems(state) == []
