"""Start a server, play one full game of each title with bots through it, and print a summary.

crabgames-demo                      (starts its own server on a free loopback port)
crabgames-demo --address HOST:PORT  (uses a running one)
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from crabclients.bots import Bot, GameRecord, LookaheadBot, RandomBot, play_game
from crabclients.client import GAME_OVER, RulesClient, ServiceUnavailableError
from crabclients.server_process import ADDRESS_HELP, server_address

# The games of the demo: (game id, number of players).
TITLES = (("kraby", 3), ("crab_bucket", 3), ("crab_rage", 3))
# Without a terminal, a progress line every this many moves (and at the end).
PROGRESS_EVERY = 25


def demo_bots(num_players: int, seed: int) -> list[Bot]:
    """Seat 0 looks ahead (kept cheap: few candidates, one sample); the others play at random."""
    bots: list[Bot] = [RandomBot(seed + seat) for seat in range(num_players)]
    bots[0] = LookaheadBot(seed, samples=1, max_candidates=6)
    return bots


def play_title(
    client: RulesClient, game: str, players: int, seed: int, out: TextIO
) -> tuple[GameRecord, list[Bot], float]:
    bots = demo_bots(players, seed)
    start = time.monotonic()
    moves = 0

    live = out.isatty()

    def progress(seat, move, response) -> None:
        nonlocal moves
        moves += 1
        line = f"  {game}: {moves} moves played ({time.monotonic() - start:.1f}s)"
        if live:
            out.write("\r" + line)
        elif moves % PROGRESS_EVERY == 0 or response.state.next.kind == GAME_OVER:
            out.write(line + "\n")
        out.flush()

    record = play_game(client, game, bots, seed, on_step=progress)
    if live:
        out.write("\n")
    return record, bots, time.monotonic() - start


def summary(record: GameRecord, bots: list[Bot], seconds: float) -> str:
    lines = [f"{record.game}: {record.outcome.summary}"]
    for result in record.outcome.players:
        bot = bots[result.player]
        note = (
            " (random moves: this game cannot sample states yet)"
            if getattr(bot, "fallbacks", 0)
            else ""
        )
        crown = ", winner" if result.winner else ""
        rank = f"rank {result.rank}{crown}"
        lines.append(f"  player {result.player} ({bot.name}{note}): {result.score}, {rank}")
    lines.append(f"  {len(record.moves)} moves in {seconds:.1f}s")
    return "\n".join(lines)


def run(address: str | None, seed: int, out: TextIO = sys.stdout) -> int:
    with server_address(address) as where, RulesClient.connect(where) as client:
        served = {g.id for g in client.list_games()}
        out.write(f"rules server at {where}; games: {', '.join(sorted(served))}\n")
        summaries = []
        for game, players in TITLES:
            if game not in served:
                summaries.append(f"{game}: not served by this server")
                continue
            record, bots, seconds = play_title(client, game, players, seed, out)
            summaries.append(summary(record, bots, seconds))
    out.write("\n" + "\n\n".join(summaries) + "\n")
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help=ADDRESS_HELP)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        sys.exit(run(args.address, args.seed))
    except ServiceUnavailableError as error:  # what is wrong with the address, in one line
        sys.exit(f"crabgames-demo: {error.message}")


if __name__ == "__main__":
    main()
