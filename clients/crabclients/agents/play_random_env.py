"""Play one game of random masked actions through the PettingZoo environment; print the returns.

.venv/bin/python -m crabclients.agents.play_random_env --game kraby --players 2
    [--seed 7] [--address 127.0.0.1:50051]   (with an address, or CRABGAMES_ADDRESS: on that
                                               server, over gRPC; otherwise in process)
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

import numpy as np

from crabclients.agents.backends import Backend, InProcess, OverGrpc
from crabclients.agents.pettingzoo_env import env
from crabgames.service.addresses import ADDRESS_VAR


def play(game: str, players: int, seed: int, backend: Backend) -> dict[str, float]:
    """Each agent's total reward once the game is over."""
    playing, rng = env(game, players, backend), np.random.default_rng(seed)
    playing.reset(seed=seed)
    totals = dict.fromkeys(playing.possible_agents, 0.0)
    for agent in playing.agent_iter():
        observation, reward, termination, truncation, _ = playing.last()
        totals[agent] += float(reward)
        done = termination or truncation
        action = None if done else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        playing.step(action)
    playing.close()
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kraby", choices=["kraby", "crab_bucket", "crab_rage"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--address",
        default=os.environ.get(ADDRESS_VAR, "").strip() or None,
        help=f"a rules server's host:port (env {ADDRESS_VAR}; without either: in process)",
    )
    args = parser.parse_args(argv)
    backend = OverGrpc(args.address) if args.address else InProcess()
    for agent, total in play(args.game, args.players, args.seed, backend).items():
        print(f"{agent}: {total:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
