"""R10: units and alliances (docs/rules/crab_rage.md, "### R10: units and alliances", the
rulebook's "### Movement Rules" and rules note 1): in an arena a manager's crabs are one unit,
independent or in one alliance of exactly two colours; a manager whose crab arrives where
another team is forms an alliance with an independent team there, boosts their own alliance, or
goes independent (already allied, they cannot form a second one); arriving among only their own
crabs needs no choice; an alliance ends when a partner has no crab left in the arena."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Pass
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    INDEPENDENT,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    ally,
    boost,
    decision,
    form,
    four_managers,
    play,
    problems,
    put,
)


def test_entering_offers_forming_an_alliance_with_each_independent_team_or_independence():
    state = action_phase(5, (MM, AOTF, PC, BB))
    put(state, YELLOW, 0, 1)
    put(state, GREEN, 0, 1)
    put(state, BLACK, 0, 1)
    put(state, PURPLE := 4, 0, 1)
    ally(state, 1, BLACK, PURPLE)
    act(state, Action.MOVE, 0, arena=1)
    assert GAME.legal_moves(state) == [INDEPENDENT, form(YELLOW), form(GREEN)]


def test_boosting_keeps_the_alliance_and_going_independent_frees_the_partner():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    ally(state, 1, BLUE, YELLOW)
    act(state, Action.MOVE, 1, arena=1)
    assert GAME.legal_moves(state) == [INDEPENDENT, boost(YELLOW)]
    play(state, boost(YELLOW))
    assert state.arenas[1].partner[:2] == [YELLOW, BLUE]
    play(state, Pass())  # Yellow
    play(state, Pass())
    play(state, Pass())
    act(state, Action.MOVE, 2, arena=1)
    play(state, INDEPENDENT)
    assert state.arenas[1].partner[:2] == [-1, -1]


def test_a_manager_already_allied_in_an_arena_cannot_form_a_second_alliance_there():
    # R10: they boost the alliance or go independent.
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    ally(state, 0, BLUE, YELLOW)
    put(state, GREEN, 0, 0)  # independent
    act(state, Action.MOVE, 1, arena=0)
    assert decision(state) == (BLUE, "choose_alliance")
    assert GAME.legal_moves(state) == [INDEPENDENT, boost(YELLOW)]
    assert not GAME.is_legal(state, form(GREEN))


def test_entering_an_arena_holding_only_your_own_crabs_needs_no_choice():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    act(state, Action.MOVE, 1, arena=1)
    assert decision(state) == (YELLOW, "choose_action")


def test_the_last_crab_leaving_an_arena_ends_its_alliance():
    state = action_phase(4, (MM, AOTF, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    ally(state, 1, BLUE, YELLOW)
    act(state, Action.MOVE, 0, arena=0)
    assert state.arenas[1].partner == [-1, -1, -1, -1]


def test_a_manager_moving_one_of_two_crabs_out_keeps_the_alliance_of_the_other():
    """R10: an alliance ends only when a partner has no crab left in the arena."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 2)
    put(state, BLUE, 1, 0, 2)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, BLUE, BLACK)
    events = act(state, Action.MOVE, 0, arena=2)
    assert "alliance_ended" not in [e.kind for e in events]
    assert state.arenas[0].partner[BLUE] == BLACK and state.arenas[0].partner[BLACK] == BLUE


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
