"""The rules for bulk callers, pure beside compiled (issue 29, docs/performance.md): for every
title at its smallest and largest table, native random games per second (Playouts' loop), IS-MCTS
simulations per second, the simulations SuggestMove's search makes in 1 s, and PettingZoo
steps per second, all in process on one core (seconds of the process's CPU), each measured once
with the pure source (CRABGAMES_PURE=1) and once with the compiled build, in turns, in one run.

    python -m bench.bulk [--seconds 2] [--game kraby]      (make bench runs it too)
    python -m bench.bulk --baseline DIR    (a third column: the code of another checkout, such
                                            as issue 29's d6d484c, with its generated v1/)

Each measurement runs in its own process (which build a process runs is chosen when it imports
crabgames), the builds of a table back to back, so all see the same machine.
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
    """This process's build, one table: the four measures, in this process's CPU seconds (the
    measures time themselves with time.perf_counter, here the process's CPU clock: steady on a
    shared machine, where wall time counts the other processes' turns too)."""
    time.perf_counter = time.process_time
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
        "build": getattr(crabgames, "BUILD", "pure Python (before the compiled build)"),
        "native_games_per_second": native,
        "search_simulations_per_second": simulations_per_second(engine, game_id, players, seconds),
        "suggest_move_simulations_in_1s": suggested.result.simulations,
        "env_steps_in_process": steps_per_second(game_id, players, InProcess(), seconds),
    }


def measured_in(
    build: str, game_id: str, players: int, seconds: float, baseline: Path | None = None
) -> dict:
    measure_args = ["--measure", f"{game_id}:{players}", "--seconds", str(seconds)]
    if build == "baseline":  # this file's measure, on the other checkout's code and bench
        assert baseline is not None
        this_file = str(ROOT / "bench" / "bulk.py")
        run = (
            f"import runpy, sys; sys.argv[1:] = {measure_args!r};"
            f" runpy.run_path({this_file!r}, run_name='__main__')"
        )
        command, cwd = [sys.executable, "-c", run], baseline
        paths = [baseline / "server", baseline / "clients", baseline]
        environ = {"PYTHONPATH": os.pathsep.join(map(str, paths))} | BUILDS["pure"]
    else:
        command, cwd, environ = (
            [sys.executable, "-m", "bench.bulk", *measure_args],
            ROOT,
            BUILDS[build],
        )
    done = subprocess.run(
        command, cwd=cwd, env=os.environ | environ, capture_output=True, text=True, check=True
    )
    row = json.loads(done.stdout.splitlines()[-1])
    wanted = "compiled" if build == "compiled" else "pure"
    if not row["build"].startswith(wanted):
        raise SystemExit(f"bench.bulk: asked for the {build} build, the process ran {row['build']}")
    return row


def side_by_side(
    seconds: float, only: str | None = None, baseline: Path | None = None
) -> list[dict]:
    """Every title at its smallest and largest table: the baseline's code if given, then the
    pure source, then the compiled build."""
    from crabgames.games import all_games

    rows = []
    for game in all_games():
        if only not in (None, game.facts.id):
            continue
        for players in sorted({game.facts.min_players, game.facts.max_players}):
            row = {"game": game.facts.id, "players": players}
            for build in (["baseline"] if baseline else []) + list(BUILDS):
                row[build] = measured_in(build, game.facts.id, players, seconds, baseline)
            rows.append(row)
            print(line(row), flush=True)
    return rows


def cell(row: dict, key: str) -> str:
    """`pure -> compiled (ratio)`, with `baseline -> ` in front (and its ratio) when measured."""
    pure, built = row["pure"][key], row["compiled"][key]
    text = f"{pure:.0f} -> {built:.0f} ({built / pure:.2f}x)"
    if "baseline" in row:
        base = row["baseline"][key]
        text = f"{base:.0f} -> {text[:-1]}; {built / base:.2f}x the baseline)"
    return text


def line(row: dict) -> str:
    cells = [f"{name} {cell(row, key)}" for key, name in MEASURES.items()]
    return ", ".join([f"{row['game']:<12} {row['players']}p", *cells])


def markdown(rows: list[dict]) -> list[str]:
    out = [
        "| game | players | " + " | ".join(MEASURES.values()) + " |",
        "|---|---|" + "---|" * len(MEASURES),
    ]
    for row in rows:
        cells = [cell(row, key) for key in MEASURES]
        out.append(f"| {row['game']} | {row['players']} | " + " | ".join(cells) + " |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--game", help="one title only")
    parser.add_argument("--baseline", type=Path, help="a checkout whose code to measure too")
    parser.add_argument("--json", type=Path, help="write the rows here too")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # GAME:PLAYERS, in a child process
    args = parser.parse_args()
    if args.measure:
        game_id, players = args.measure.split(":")
        print(json.dumps(measure(game_id, int(players), args.seconds)))
        return
    rows = side_by_side(args.seconds, args.game, args.baseline)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    print("\n".join(markdown(rows)))


if __name__ == "__main__":
    main()
