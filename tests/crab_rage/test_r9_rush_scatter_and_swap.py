"""R9: Rush, Scatter and Swap (docs/rules/crab_rage.md, "### R9: Rush, Scatter and Swap", with
rules notes 2 and 3): the crabs an action forces out are placed, then arrive, one after another
in turn order from the active player, each arriving crab's own manager choosing its alliance;
between leaving and entering a crab is in transit, and otherwise every crab is backstage or in
exactly one arena. Each action's own targets and cost: test_action_rush.py,
test_action_scatter.py, test_action_swap.py."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Destination
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    INDEPENDENT,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    four_managers,
    play,
    problems,
    put,
)


def test_forced_moves_resolve_in_turn_order_starting_with_the_active_player():
    # Green (seat 2) scatters: Black's crab, then Blue's, then Yellow's (turn order from Green;
    # R9), for the destinations and for entering.
    state = action_phase(4, (AOTF, PC, BB), microphone=GREEN, card=Action.SCATTER, rage=3)
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 1)
    put(state, YELLOW, 0, 0, 1)
    put(state, BLACK, 0, 0, 1)
    put(state, GREEN, 1, 1, 3)
    act(state, Action.SCATTER, 0)
    asked = []
    for _ in range(3):
        asked.append(state.pending[-1].crabs[state.pending[-1].values.index(-1)])
        play(state, Destination(arena=1))
    assert asked == [(BLACK, 0), (BLUE, 0), (YELLOW, 0)]
    entering = []
    while decision(state)[1] == "choose_alliance":
        entering.append(decision(state)[0])
        play(state, INDEPENDENT)
    assert entering == [BLACK, BLUE, YELLOW]


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


def test_the_actor_sends_a_leaving_crab_to_any_arena_but_the_one_it_leaves():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RUSH, rage=3)
    put(state, BLUE, 0, 1, 6)
    put(state, YELLOW, 0, 1, 2)
    act(state, Action.RUSH, 0)  # Blue's own crab has the most muscle in arena 1
    assert decision(state) == (BLUE, "choose_destination")
    assert GAME.legal_moves(state) == [Destination(arena=0), Destination(arena=2)]
