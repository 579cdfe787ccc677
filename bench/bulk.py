"""The rules for bulk callers, pure beside compiled (issue 29, docs/performance.md): for every
title at its smallest and largest table, native random games per second (Playouts' loop), IS-MCTS
simulations per second, the simulations SuggestMove's search makes in its 1 s, and PettingZoo
steps per second, all in process on one core, each measured once with the pure source
(CRABGAMES_PURE=1) and once with the compiled build, in turns, in one run.

    python -m bench.bulk [--seconds 2] [--game kraby]      (make bench runs it too)

Each measurement runs in its own process (which build a process runs is chosen when it imports
crabgames), the pure and the compiled one of a table back to back, so both see the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDS = {"pure": {"CRABGAMES_PURE": "1"}, "compiled": {}}
MEASURES = {
    "native_games_per_second": "native games/s",
    "search_simulations_per_second": "IS-MCTS simulations/s",
    "suggest_move_simulations_in_1s": "SuggestMove simulations in 1 s",
    "env_steps_in_process": "PettingZoo steps/s",
}


def measure(game_id: str, players: int, seconds: float) -> dict:
    """This process's build, one table: the four measures."""
    import crabgames
    from bench.bench import options_for, search_position, simulations_per_second
    from crabclients.agents.backends import InProcess
    from crabclients.agents.pettingzoo_env import steps_per_second
    from crabgames.core.engine import Engine
    from crabgames.core.playouts import run_playouts
    from crabgames.core.search import MAX_SIMULATIONS, suggest_move
    from crabgames.games import all_games

    engine = Engine(all_games())
    match = engine.decode(engine.new_game(game_id, options_for(game_id), players, seed=1)[0])
    games, seed, start = 0, 1, time.perf_counter()
    while time.perf_counter() - start < seconds or games < 3:
        run_playouts(match, 1, seed, 1_000_000)
        games, seed = games + 1, seed + 1
    native = games / (time.perf_counter() - start)
    table = search_position(engine, game_id, players, 4)
    ends = time.perf_counter() + 1.0
    suggested = suggest_move(
        engine, table.view(table.decision().player), MAX_SIMULATIONS, 1,
        lambda: time.perf_counter() >= ends,
    )  # fmt: skip
    return {
        "build": crabgames.BUILD,
        "native_games_per_second": native,
        "search_simulations_per_second": simulations_per_second(engine, game_id, players, seconds),
        "suggest_move_simulations_in_1s": suggested.result.simulations,
        "env_steps_in_process": steps_per_second(game_id, players, InProcess(), seconds),
    }


def measured_in(build: str, game_id: str, players: int, seconds: float) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "bench.bulk", "--measure", f"{game_id}:{players}"]
        + ["--seconds", str(seconds)],
        cwd=ROOT,
        env=os.environ | BUILDS[build],
        capture_output=True,
        text=True,
        check=True,
    )
    row = json.loads(done.stdout.splitlines()[-1])
    wanted = "pure" if build == "pure" else "compiled"
    if not row["build"].startswith(wanted):
        raise SystemExit(f"bench.bulk: asked for the {build} build, the process ran {row['build']}")
    return row


def side_by_side(seconds: float, only: str | None = None) -> list[dict]:
    """Every title at its smallest and largest table, pure then compiled."""
    from crabgames.games import all_games

    rows = []
    for game in all_games():
        if only not in (None, game.facts.id):
            continue
        for players in sorted({game.facts.min_players, game.facts.max_players}):
            row = {"game": game.facts.id, "players": players}
            for build in BUILDS:
                row[build] = measured_in(build, game.facts.id, players, seconds)
            rows.append(row)
            print(line(row), flush=True)
    return rows


def line(row: dict) -> str:
    parts = [f"{row['game']:<12} {row['players']}p"]
    for key, name in MEASURES.items():
        pure, built = row["pure"][key], row["compiled"][key]
        parts.append(f"{name} {pure:.0f} -> {built:.0f} ({built / pure:.2f}x)")
    return ", ".join(parts)


def markdown(rows: list[dict]) -> list[str]:
    out = [
        "| game | players | " + " | ".join(MEASURES.values()) + " |",
        "|---|---|" + "---|" * len(MEASURES),
    ]
    for row in rows:
        cells = []
        for key in MEASURES:
            pure, built = row["pure"][key], row["compiled"][key]
            cells.append(f"{pure:.0f} -> {built:.0f} ({built / pure:.2f}x)")
        out.append(f"| {row['game']} | {row['players']} | " + " | ".join(cells) + " |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--game", help="one title only")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # GAME:PLAYERS, in a child process
    args = parser.parse_args()
    if args.measure:
        game_id, players = args.measure.split(":")
        print(json.dumps(measure(game_id, int(players), args.seconds)))
        return
    print("\n".join(markdown(side_by_side(args.seconds, args.game))))


if __name__ == "__main__":
    main()
