"""Instructions per call, two versions of the code side by side, in one run (cachegrind).

    python -m bench.instructions --before REF [--after DIR] [--calls 1000] [--games ...]

For each game, at the bench's states (bench.bench.bench_states: a 3-player mid-game and the
state with the most legal moves), it counts the instructions one LegalMoves and one ApplyMove
take through the servicer, in-process, under valgrind's cachegrind: each count is the
difference between a run of 100 + N calls and a run of 100 calls, divided by N, so start-up and
imports cancel out. Then one native random game (what Playouts plays, from a 3-player game's
first decision): the difference between 2 + N/50 games and 2 games. Instruction counts do not
drift with the machine's load, unlike timings.

The states and requests are built once, here, and the same bytes are sent to both versions.
REF is a git revision, checked out into a temporary worktree (its generated protobuf code
copied from this tree); DIR defaults to this tree. docs/performance.md keeps the tables.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM_CALLS = 100
METHODS = ("LegalMoves", "ApplyMove")
WARM_GAMES = 2
GAMES_PER_CALLS = 50  # a random game costs about as much as 50 calls


def write_requests(out: Path, games: list[str]) -> list[tuple[str, str, str, Path]]:
    """Serialized requests for every game, bench state and method: (game, state, method, file)."""
    from bench.bench import bench_states
    from crabgames.core.engine import Engine
    from crabgames.games import all_games
    from crabgames.v1 import rules_service_pb2 as api

    engine = Engine(all_games())
    requests = []
    for game_id in games:
        for name, state in bench_states(engine, game_id).items():
            move = engine.legal_moves(state)[0][0]  # a chance outcome at a chance node
            bodies = {
                "LegalMoves": api.LegalMovesRequest(state=state),
                "ApplyMove": api.ApplyMoveRequest(state=state, move=move),
            }
            for method in METHODS:
                path = out / f"{game_id}.{name.replace(' ', '_')}.{method}.bin"
                path.write_bytes(bodies[method].SerializeToString())
                requests.append((game_id, name, method, path))
        start = engine.new_game(game_id, getattr(api.NewGameRequest(), game_id), 3, seed=1)[0]
        path = out / f"{game_id}.start.Playouts.bin"
        path.write_bytes(start.SerializeToString())
        requests.append((game_id, "random game 3p", "Playouts", path))
    return requests


def call_many(method: str, request_file: str, calls: int) -> None:
    """In the valgrind process: `calls` calls of one servicer method on one request, or for
    Playouts `calls` random games from one state."""
    from crabgames.core.engine import Engine
    from crabgames.games import all_games
    from crabgames.service.servicer import RulesServicer
    from crabgames.v1 import rules_service_pb2 as api

    if method == "Playouts":
        from crabgames.core.playouts import playouts
        from crabgames.v1 import game_pb2

        state = game_pb2.GameState.FromString(Path(request_file).read_bytes())
        playouts(Engine(all_games()), state, calls, seed=7)
        return
    servicer = RulesServicer(Engine(all_games()))
    request_type = {"LegalMoves": api.LegalMovesRequest, "ApplyMove": api.ApplyMoveRequest}
    request = request_type[method].FromString(Path(request_file).read_bytes())
    handler = getattr(servicer, method)
    for _ in range(calls):
        handler(request, None)


def instructions(tree: Path, method: str, request_file: Path, calls: int, scratch: Path) -> int:
    out = scratch / f"cachegrind.{os.getpid()}.{calls}"
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        f"--cachegrind-out-file={out}",
        sys.executable,
        __file__,  # this file, importing the engine from the tree measured
        "--call",
        method,
        str(request_file),
        str(calls),
    ]
    env = {**os.environ, "PYTHONPATH": str(tree / "server")}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{method} in {tree} failed:\n{done.stderr[-3000:]}")
    summary = re.search(r"^summary: (\d+)", out.read_text(), re.M)
    out.unlink()
    if summary is None:
        raise SystemExit(f"no summary in cachegrind's output for {tree}")
    return int(summary[1])


def per_call(tree: Path, method: str, request_file: Path, calls: int, scratch: Path) -> float:
    if method == "Playouts":
        warm, calls = WARM_GAMES, max(1, calls // GAMES_PER_CALLS)
    else:
        warm = WARM_CALLS
    base = instructions(tree, method, request_file, warm, scratch)
    more = instructions(tree, method, request_file, warm + calls, scratch)
    return (more - base) / calls


def checkout(ref: str, scratch: Path) -> Path:
    tree = scratch / "before"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(tree), ref],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    shutil.copytree(ROOT / "server" / "crabgames" / "v1", tree / "server" / "crabgames" / "v1")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--before", help="git revision to compare with")
    parser.add_argument("--after", type=Path, default=ROOT)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--games", nargs="*", default=["kraby", "crab_bucket", "crab_rage"])
    parser.add_argument("--call", nargs=3, help=argparse.SUPPRESS)  # inside valgrind
    args = parser.parse_args()
    if args.call:
        method, request_file, calls = args.call
        call_many(method, request_file, int(calls))
        return
    with tempfile.TemporaryDirectory(prefix="crabgames-instructions.") as name:
        scratch = Path(name)
        trees = {"after": args.after.resolve()}
        if args.before:
            trees = {"before": checkout(args.before, scratch), **trees}
        try:
            requests = write_requests(scratch, args.games)
            print(f"| game | state | call | {' | '.join(trees)} | change |")
            print(f"|---|---|---|{'---:|' * len(trees)}---:|")
            for game_id, state, method, request_file in requests:
                counts = [
                    per_call(tree, method, request_file, args.calls, scratch)
                    for tree in trees.values()
                ]
                change = f"{counts[-1] / counts[0] - 1:+.1%}" if len(counts) > 1 else ""
                cells = " | ".join(f"{count / 1000:,.0f}k" for count in counts)
                print(f"| {game_id} | {state} | {method} | {cells} | {change} |", flush=True)
        finally:
            if "before" in trees:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(trees["before"])],
                    cwd=ROOT,
                    check=False,
                    capture_output=True,
                )


if __name__ == "__main__":
    main()
