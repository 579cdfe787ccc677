"""Play a full game with random legal moves through the server and print the scores.

python -m crabclients.play_random --address 127.0.0.1:50051 --game kraby --players 3
"""

from __future__ import annotations

import argparse
import random

from crabclients.client import RulesClient
from crabgames.v1 import crab_bucket_pb2, crab_rage_pb2, game_pb2, kraby_pb2

OPTIONS = {
    "kraby": kraby_pb2.KrabyOptions,
    "crab_bucket": crab_bucket_pb2.CrabBucketOptions,
    "crab_rage": crab_rage_pb2.CrabRageOptions,
}


def play(client: RulesClient, game: str, players: int, seed: int, verbose: bool = False):
    """Returns (final state, outcome, number of moves played)."""
    rng = random.Random(seed)
    state = client.new_game(players, seed=seed, **{game: OPTIONS[game]()}).state
    moves_played = 0
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        move = rng.choice(client.legal_moves(state))
        response = client.apply_move(state, move)
        state, moves_played = response.state, moves_played + 1
        if verbose:
            for event in response.events:
                print(event.text)
    return state, response.outcome, moves_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("--game", default="kraby", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    with RulesClient.connect(args.address) as client:
        _, outcome, moves = play(client, args.game, args.players, args.seed, args.verbose)
    print(f"{args.game}: {moves} moves. {outcome.summary}")
    for result in outcome.players:
        print(f"  player {result.player}: {result.score} points, rank {result.rank}")


if __name__ == "__main__":
    main()
