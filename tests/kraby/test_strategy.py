"""The search bot's model of a Kraby fisher (games/kraby/strategy.py): strategy, not rules, but
its fast path must agree with playing each move and scoring the board anew, and its counts of
what is left must be what the rest of the game brings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crabgames.core.agents import Table
from crabgames.core.prng import Prng
from crabgames.games.kraby import strategy
from crabgames.games.kraby.data import NO_FIGURE
from crabgames.games.kraby.events import TilePlaced
from crabgames.games.kraby.state import PLACE_FIGURE


def random_game(engine, players: int, seed: int):
    """Each position of a game played at random, with the events of the move played there."""
    table = Table.new(engine, "kraby", players, seed=seed)
    rng = random.Random(seed)
    while not table.is_over():
        state = table.game.clone(table.match.state)
        events = table.play(rng.choice(table.legal_move_ids()))
        yield state, events


def lead_after_playing(game, state, move) -> float:
    """The slow way: play the move on a copy, score the whole board, compare the fishers."""
    after = game.clone(state)
    game.apply_move(after, move)
    return strategy.lead(strategy.fisher_values(after), state.turn_player)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_leads_after_each_move_are_those_of_playing_it(engine, players):
    game = engine.games["kraby"]
    checked = Counter()
    for seed in (1, 2):
        for state, _ in random_game(engine, players, seed):
            moves = game.legal_moves(state)
            fast = strategy.leads_after(state, moves)
            assert fast == [lead_after_playing(game, state, move) for move in moves]
            checked[state.step] += len(moves)
    assert checked[PLACE_FIGURE] > 0 and sum(checked.values()) > 5_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tiles_still_to_place_are_the_tiles_each_fisher_goes_on_to_place(engine, players):
    positions = []
    placed: list[int] = []  # the seat that placed each tile, in order
    for state, events in random_game(engine, players, seed=players):
        positions.append((state, len(placed)))
        placed += [event.player for event in events if isinstance(event, TilePlaced)]
    for state, tiles_before in positions[::7]:
        still = Counter(placed[tiles_before:])
        predicted = [strategy.tiles_still_to_place(state, seat) for seat in range(players)]
        assert predicted == [still[seat] for seat in range(players)]


def test_a_free_hold_counts_only_while_the_fisher_has_turns_left_to_fill_it(engine):
    """On a fisher's last turn, an empty ship's free holds are worth one figure, the best; once
    it is past, nothing."""
    last_turn = None
    for state, _ in random_game(engine, 3, seed=10):
        if strategy.figure_chances_left(state, state.turn_player) == 1:
            last_turn = state
    assert last_turn is not None
    seat = last_turn.turn_player
    last_turn.ships[seat] = (NO_FIGURE, NO_FIGURE, NO_FIGURE)
    last_turn.figure_supply = (3, 3, 3, 3, 3)
    standing = strategy.standing_of(last_turn)
    assert standing.chances[seat] == 1
    best, second = sorted(standing.points.values(), reverse=True)[:2]
    assert best > 0 and second > 0, "pick a seed whose board has two species above 0"
    one_figure = strategy.OPTION_DISCOUNT * 3 * best
    assert strategy.option_value(standing, seat) == one_figure
    with_turns = strategy.Standing(standing.points, standing.ships, standing.figure_supply, [3] * 3)
    assert strategy.option_value(with_turns, seat) > one_figure
    past = strategy.Standing(standing.points, standing.ships, standing.figure_supply, [0] * 3)
    assert strategy.option_value(past, seat) == 0


def test_the_model_plays_a_move_with_the_best_lead(engine):
    game = engine.games["kraby"]
    rng = Prng(5)
    for state, _ in random_game(engine, 3, seed=11):
        moves = game.legal_moves(state)
        chosen = strategy.greedy_move(state, moves, rng)
        assert lead_after_playing(game, state, chosen) == max(strategy.leads_after(state, moves))
