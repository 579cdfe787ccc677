"""OpenSpiel's IS-MCTS against uniformly random players, on one of the three games:

    python -m crabclients.agents.ismcts_vs_random --game kraby --players 2 --games 20 \
        --simulations 100

One seat plays IS-MCTS (random rollouts), every other seat a uniform random bot; the IS-MCTS
seat moves round the table from game to game, and every game has its own seeds. Prints the
IS-MCTS seat's wins (a shared victory counts) with a Wilson interval and its mean return with a
normal-approximation interval, both 95%, beside what a random player gets in its place.

The IS-MCTS is OpenSpiel's Python one (open_spiel.python.algorithms.ismcts): the C++ ISMCTSBot
releases the GIL while it searches, so it cannot call back into a Python game.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from crabclients.agents import openspiel_games
from crabclients.intervals import mean_interval, wilson


def ismcts_bot(game: Any, simulations: int, seed: int, uct_c: float) -> ismcts.ISMCTSBot:
    """IS-MCTS with one random rollout per simulation, its worlds drawn from seeded samplers."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=random_state)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def play(game: Any, bots: Sequence[Any], seed: int) -> list[float]:
    """One game, chance drawn from its probabilities; the returns."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def seat_returns(game: Any, games: int, simulations: int, seed: int, uct_c: float) -> list[float]:
    """The returns of the seat IS-MCTS plays (None: a random bot there) over `games` games."""
    players = game.num_players()
    values = []
    for index in range(games):
        seat, game_seed = index % players, seed + 1000 * index
        bots = [pyspiel.make_uniform_random_bot(p, game_seed + p) for p in range(players)]
        if simulations:
            bots[seat] = ismcts_bot(game, simulations, game_seed + players, uct_c)
        values.append(play(game, bots, game_seed)[seat])
    return values


def report(label: str, values: Sequence[float], constant_sum: bool) -> str:
    wins = sum(1 for value in values if value > 0)
    won = (
        f"wins {wins}/{len(values)} = {wilson(wins, len(values)).text(3)}, " if constant_sum else ""
    )
    return f"{label}: {won}mean return {mean_interval(values, 0.0, 1.0).text(3)}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(openspiel_games.TITLES), default="kraby")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    title = openspiel_games.TITLES[args.game]
    players = args.players or title.default_players
    game = pyspiel.load_game(title.short_name, {"players": players})
    constant_sum = title.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    started = time.monotonic()
    searched = seat_returns(game, args.games, args.simulations, args.seed, args.uct_c)
    elapsed = time.monotonic() - started
    baseline = seat_returns(game, args.games, 0, args.seed, args.uct_c)
    print(
        f"{game.get_type().long_name}, {players} players, {args.games} games, "
        f"IS-MCTS {args.simulations} simulations (uct_c {args.uct_c}), seed {args.seed}, "
        f"{elapsed:.0f} s"
    )
    print(report("IS-MCTS seat", searched, constant_sum))
    print(report("random seat ", baseline, constant_sum))


if __name__ == "__main__":
    main()
