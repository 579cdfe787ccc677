"""Play a full game with random legal moves through the server and print the scores.

.venv/bin/python -m crabclients.play_random --game kraby --players 3
(start the server first: make run; the address is --address, or CRABGAMES_ADDRESS)
"""

from __future__ import annotations

import argparse
import sys

from crabclients.bots import RandomBot, play_game
from crabclients.client import OPTIONS, RulesClient, ServiceUnavailableError, default_address
from crabgames.v1 import game_pb2


def play(
    client: RulesClient, game: str, players: int, seed: int, verbose: bool = False
) -> tuple[game_pb2.GameState, game_pb2.Outcome, int]:
    """Returns (final state, outcome, number of moves played)."""
    bots = [RandomBot(seed * 31 + seat) for seat in range(players)]

    def show(seat, move, response) -> None:
        for event in response.events:
            print(event.text)

    record = play_game(client, game, bots, seed, on_step=show if verbose else None)
    return record.state, record.outcome, len(record.moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--address",
        default=default_address(),
        help="the server (env CRABGAMES_ADDRESS, as the server's; default 127.0.0.1:50051)",
    )
    parser.add_argument("--game", default="kraby", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--connect-timeout", type=float, default=2.0, help="seconds to wait for the server"
    )
    args = parser.parse_args()
    try:
        client = RulesClient.connect(args.address, timeout=args.connect_timeout)
    except ServiceUnavailableError as error:
        # A newcomer's most likely mistake: what is wrong and what to do in one line, not a
        # traceback.
        sys.exit(error.message)
    client.timeout = 10.0  # each call's deadline, once connected
    with client:
        _, outcome, moves = play(client, args.game, args.players, args.seed, args.verbose)
    print(f"{args.game}: {moves} moves. {outcome.summary}")
    for result in outcome.players:
        print(f"  player {result.player}: {result.score} points, rank {result.rank}")


if __name__ == "__main__":
    main()
