"""What holds after every move, each checked by breaking it (`rules.invariants`, the plug-in's
invariant_violations): fan tokens are conserved, supply + fans in arenas + hardcore fans = 32 per
manager (R21, a style bonus fan riding on a crab counted too); rage is never negative (R3: a cost
can only be paid with rage the player has); muscle is a die face, always 1..6 (R3); every crab is
backstage or in one arena, and between arenas only while its destination is chosen or it enters
(R9); a style bonus fan rides only on a backstage crab until the first arena it enters (R12); an
alliance is exactly two colours, and when a manager's last crab leaves an arena their alliance
there ends (R10). Each problem names the team or the crab (by its team's colour, not its seat),
so that a fuzzer or a decoded state says which rule a position breaks."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Team
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, State, Step, Task
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
    ally,
    put,
)


def four_managers() -> State:
    """Round 1's Action Phase with 4 managers (3 arenas, 3 crabs each, all backstage): a turn
    is pending, no crab is entering an arena."""
    state = action_phase(4, (MM, AOTF, PC))
    assert len(state.arenas) == 3
    assert all(t.kind not in (Step.ENTER, Step.DESTINATIONS) for t in state.pending)
    return state


def problems(state: State) -> list[str]:
    return GAME.invariant_violations(state)


def test_a_position_of_legal_play_breaks_no_invariant():
    state = four_managers()
    assert problems(state) == []
    # Green's three crabs all in arena B, allied with Yellow's one there; Black with hardcore
    # fans, fans in an arena and a style bonus fan riding on a backstage crab.
    for crab in range(3):
        put(state, GREEN, crab, 1)
    put(state, YELLOW, 0, 1, muscle=6)
    ally(state, 1, YELLOW, GREEN)
    black = state.players[BLACK]
    black.supply, black.hardcore = 26, 3
    state.arenas[2].fans[BLACK] = 2
    black.crabs[1].riding_fans = 1
    black.rage = 0
    state.players[BLUE].crabs[2].muscle = 1
    assert problems(state) == []


def test_fan_tokens_are_conserved_supply_fans_in_arenas_and_hardcore_fans_make_32_r21():
    state = four_managers()
    state.players[GREEN].supply -= 1  # a token gone from the supply to nowhere
    assert problems(state) == ["Green: fans add up to 31, not 32 (R21)"]
    state = four_managers()
    state.arenas[2].fans[BLACK] = 1  # a fan in an arena, not taken from the supply
    assert problems(state) == ["Black: fans add up to 33, not 32 (R21)"]
    state = four_managers()
    state.players[YELLOW].hardcore = 2  # hardcore fans from nowhere
    assert problems(state) == ["Yellow: fans add up to 34, not 32 (R21)"]
    state.players[YELLOW].supply = 30
    assert problems(state) == []
    state.players[YELLOW].crabs[0].riding_fans = 1  # a riding fan is one of the 32 too
    assert problems(state) == ["Yellow: fans add up to 33, not 32 (R21)"]
    state.players[YELLOW].supply = 29
    assert problems(state) == []


def test_no_manager_holds_a_negative_number_of_fans_even_when_they_add_up_to_32_r21():
    state = four_managers()
    state.players[GREEN].supply, state.players[GREEN].hardcore = -1, 33
    assert problems(state) == ["Green: fans add up to 32, not 32 (R21)"]
    state = four_managers()
    state.players[BLACK].supply, state.players[BLACK].hardcore = 33, -1
    assert problems(state) == ["Black: fans add up to 32, not 32 (R21)"]


def test_rage_is_never_negative_a_cost_can_only_be_paid_with_rage_the_player_has_r3():
    state = four_managers()
    state.players[BLACK].rage = 0
    assert problems(state) == []
    state.players[BLACK].rage = -1
    assert problems(state) == ["Black: negative rage"]


def test_muscle_is_a_die_face_always_1_to_6_r3():
    state = four_managers()
    state.players[YELLOW].crabs[2].muscle = 6
    state.players[BLACK].crabs[1].muscle = 1
    assert problems(state) == []
    state.players[YELLOW].crabs[2].muscle = 7  # an increase that did not stop at 6
    assert problems(state) == ["Yellow crab 2: muscle 7 (R3)"]
    state.players[YELLOW].crabs[2].muscle = 6
    state.players[BLACK].crabs[1].muscle = 0  # a decrease that did not stop at 1
    assert problems(state) == ["Black crab 1: muscle 0 (R3)"]


def test_every_crab_is_backstage_or_in_exactly_one_arena():
    state = four_managers()
    put(state, GREEN, 1, 2)  # the last of the three arenas
    assert problems(state) == []
    put(state, GREEN, 1, 3)  # one past the last arena: no place
    assert problems(state) == ["Green crab 1: not in exactly one place"]
    put(state, GREEN, 1, BACKSTAGE)
    put(state, BLACK, 2, -3)
    assert problems(state) == ["Black crab 2: not in exactly one place"]


def test_a_crab_is_between_arenas_only_while_its_destination_is_chosen_or_it_enters_r9():
    state = four_managers()
    put(state, YELLOW, 0, IN_TRANSIT)  # left an arena, with no step to take it anywhere
    assert problems(state) == ["Yellow crab 0: not in exactly one place"]
    state.pending = []
    assert problems(state) == ["Yellow crab 0: not in exactly one place"]
    for kind in (Step.ENTER, Step.DESTINATIONS):
        state.pending = [Task(kind, player=YELLOW, arena=2, crabs=[(YELLOW, 0)])]
        assert problems(state) == [], kind
        state.pending = [Task(Step.ACTION_TURN, player=BLUE), Task(kind, player=YELLOW)]
        assert problems(state) == [], kind
    # While a crab enters, another one past the last arena is still in no place.
    put(state, BLACK, 1, 3)
    assert problems(state) == ["Black crab 1: not in exactly one place"]


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


def test_an_alliance_can_only_include_2_different_colour_crabs_r10():
    state = four_managers()
    put(state, YELLOW, 0, 1)
    put(state, GREEN, 0, 1)
    state.arenas[1].partner[YELLOW] = GREEN  # Green not allied back
    assert problems(state) == ["arena 1: alliance 1/2 is not a pair (R10)"]
    state.arenas[1].partner[YELLOW] = -1
    state.arenas[1].partner[GREEN] = GREEN  # an alliance of one colour
    assert problems(state) == ["arena 1: alliance 2/2 is not a pair (R10)"]
    state = four_managers()
    put(state, BLUE, 0, 2)
    put(state, BLACK, 0, 2)
    state.arenas[2].partner[BLACK] = BLUE  # with seat 0, Blue not allied back
    assert problems(state) == ["arena 2: alliance 3/0 is not a pair (R10)"]
    ally(state, 2, BLUE, BLACK)
    assert problems(state) == []
    # A third colour: Blue allied with Yellow, Yellow with Green.
    state = four_managers()
    for seat in (BLUE, YELLOW, GREEN):
        put(state, seat, 0, 0)
    ally(state, 0, YELLOW, GREEN)
    state.arenas[0].partner[BLUE] = YELLOW
    assert problems(state) == ["arena 0: alliance 0/1 is not a pair (R10)"]


def test_when_a_managers_last_crab_leaves_an_arena_their_alliance_there_ends_r10():
    state = four_managers()
    put(state, YELLOW, 0, 1)
    ally(state, 1, YELLOW, GREEN)  # Green's crabs are all backstage
    assert problems(state) == ["arena 1: Green is allied without crabs"]
    state = four_managers()
    put(state, BLUE, 1, 0)
    ally(state, 0, BLUE, BLACK)  # allied with seat 0, Black's crabs all backstage
    assert problems(state) == ["arena 0: Black is allied without crabs"]
    put(state, BLACK, 2, 2)  # a crab in another arena does not count
    assert problems(state) == ["arena 0: Black is allied without crabs"]
    for crab in range(3):  # all of Black's crabs there
        put(state, BLACK, crab, 0)
    assert problems(state) == []


def test_the_problems_name_teams_and_crabs_by_colour_not_by_seat_in_order():
    # Five managers in other colours (4 arenas): seat 0 Purple, 1 Black, 2 Green, 3 Yellow,
    # 4 Blue.
    teams = (Team.PURPLE, Team.BLACK, Team.GREEN, Team.YELLOW, Team.BLUE)
    state = action_phase(5, (MM, AOTF, PC, BB), teams=teams)
    assert len(state.arenas) == 4 and problems(state) == []
    state.players[0].supply = 30
    put(state, 1, 2, 4)  # one past the fourth arena
    state.players[2].rage = -2
    state.players[3].supply = 31
    state.players[3].crabs[1].riding_fans = 1
    put(state, 3, 1, 3)
    state.players[4].crabs[0].muscle = 7
    ally(state, 3, 0, 3)  # Purple has no crab in arena 3
    assert problems(state) == [
        "Purple: fans add up to 30, not 32 (R21)",
        "Black crab 2: not in exactly one place",
        "Green: negative rage",
        "Yellow crab 1: a riding fan in an arena",
        "Blue crab 0: muscle 7 (R3)",
        "arena 3: Purple is allied without crabs",
    ]
