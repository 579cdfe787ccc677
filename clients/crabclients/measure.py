"""Measure the look-ahead bot against random bots over seeded games through a server.

python -m crabclients.measure --game kraby --players 2 --games 40   (starts its own server)

The look-ahead bot takes seat (game number mod players), so it plays every seat equally; game
k uses seed `--seed + k`. Prints wins, shared wins and the mean score margin."""

from __future__ import annotations

import argparse
import time

from crabclients.bots import Bot, LookaheadBot, RandomBot, play_game
from crabclients.client import OPTIONS, RulesClient
from crabclients.server_process import ADDRESS_HELP, server_address


def measure(client: RulesClient, game: str, players: int, games: int, seed: int, samples: int):
    wins = shared = 0
    margins = []
    for k in range(games):
        seat = k % players
        bots: list[Bot] = [RandomBot(seed * 1000 + k * 10 + s) for s in range(players)]
        bots[seat] = LookaheadBot(seed + k, samples=samples)
        outcome = play_game(client, game, bots, seed + k).outcome
        if seat in outcome.winners:
            wins += 1
            shared += len(outcome.winners) > 1
        scores = {r.player: r.score for r in outcome.players}
        margins.append(scores[seat] - max(s for p, s in scores.items() if p != seat))
    return wins, shared, sum(margins) / len(margins)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help=ADDRESS_HELP)
    parser.add_argument("--game", default="kraby", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1)
    args = parser.parse_args(argv)
    with server_address(args.address) as where, RulesClient.connect(where) as client:
        start = time.monotonic()
        wins, shared, margin = measure(
            client, args.game, args.players, args.games, args.seed, args.samples
        )
        seconds = time.monotonic() - start
    print(
        f"{args.game}, {args.players} players, {args.games} games (seeds {args.seed}.."
        f"{args.seed + args.games - 1}), samples={args.samples}: look-ahead won {wins} "
        f"({shared} shared), mean margin over the best random bot {margin:+.1f}, {seconds:.0f}s"
    )


if __name__ == "__main__":
    main()
