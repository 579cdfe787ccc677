"""Action Phase turn moves: `is_legal` checks one by generating only its own action and crab's
moves (or the signature moves), so it must agree with membership in the full list; and the
generator's faster helpers must answer as the general queries do."""

from __future__ import annotations

import random

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME, actions
from crabgames.games.crab_rage.moves import Act, Destination, Move, Pass, Signature
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import NO_CRAB, Step, managers_in, seats_of, units_in


def odd_moves(rng: random.Random) -> list[Move]:
    """Moves no generator lists, or only sometimes: unknown actions, crabs out of range."""
    return [
        Act(rng.randint(-1, 12), rng.randint(-1, 5), rng.randint(0, 4),
             (rng.randint(-1, 5), rng.randint(-1, 4)), rng.randint(0, 9), rng.randint(0, 5))
        for _ in range(40)
    ] + [
        Pass(),
        Signature(arena=rng.randint(-1, 4)),
        Destination(arena=1),
        Act(1, 0, 0, NO_CRAB),
    ]  # fmt: skip


def test_is_legal_agrees_with_the_full_list_of_turn_moves():
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        players = 3 + seed % 3
        state = initial_state(players, default_options(players))
        seen: set[Move] = set()
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
                continue
            moves = GAME.legal_moves(state)
            if state.pending[-1].kind == Step.ACTION_TURN:
                seen.update(moves)
                pool = sorted(seen, key=lambda m: (m.kind, m))  # kinds of moves do not compare
                candidates = rng.sample(pool, min(150, len(pool))) + odd_moves(rng)
                for move in candidates:
                    assert GAME.is_legal(state, move) == (move in moves), move
                    checked += 1
            GAME.apply_move(state, rng.choice(moves))
    assert checked > 10_000


def test_split_names_each_alliance_in_the_arena_by_its_lowest_seat_in_units_in_order():
    seen_two = 0
    for seed in range(10):
        rng = random.Random(seed)
        players = 4 + seed % 2
        state = initial_state(players, default_options(players))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            for arena in range(len(state.arenas)):
                pairs = [u for u in units_in(state, arena) if bin(u).count("1") == 2]
                expected = [min(seats_of(u)) for u in pairs]
                present = managers_in(state, arena)
                assert actions.alliances_among(state.arenas[arena].partner, present) == expected
                seen_two += len(pairs) > 1
            if decision.kind == CHANCE:
                GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
            else:
                GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
    assert seen_two > 0  # two alliances in one arena: the order matters


def test_the_action_turn_step_lists_the_turn_moves_the_game_offers():
    """`legal_moves` answers an Action Phase turn without the step's handler; the handler must
    list the same moves (the step machinery asks it)."""
    from crabgames.games.crab_rage.flow import HANDLERS
    from tests.crab_rage.helpers import AOTF, BLUE, MM, PC, action_phase, put

    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 3)
    task = state.pending[-1]
    assert task.kind == Step.ACTION_TURN
    listed = list(HANDLERS[task.kind].moves(state, task))
    assert listed == list(GAME.legal_moves(state)) and len(listed) > 10


def test_an_automatic_step_takes_no_move_and_no_chance_outcome():
    import pytest

    from crabgames.games.crab_rage.flow import HANDLERS
    from crabgames.games.crab_rage.state import Task
    from tests.crab_rage.helpers import AOTF, MM, PC, action_phase

    state = action_phase(4, (MM, AOTF, PC))
    handler = HANDLERS[Step.ROUND_START]
    with pytest.raises(AssertionError, match="^not a player decision$"):
        handler.play(state, Task(Step.ROUND_START), Pass())
    with pytest.raises(AssertionError, match="^not a chance event$"):
        handler.resolve(state, Task(Step.ROUND_START), 1)
