"""`make demo` end to end, and the Node.js client playing Kraby from the .proto files alone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_CLIENT = ROOT / "clients" / "node"


def test_make_demo_plays_one_game_of_each_title_and_summarises_it():
    env = {**os.environ, "MAKEFLAGS": ""}
    done = subprocess.run(
        ["make", "--no-print-directory", "demo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    served = re.search(r"games: (.*)", out).group(1).split(", ")
    for game in ("kraby", "crab_bucket", "crab_rage"):
        if game not in served:
            continue
        assert re.search(rf"^  {game}: \d+ moves played", out, re.M), "a progress line"
        summary = re.search(rf"^{game}: (.+)\n((?:  .*\n)+)", out, re.M)
        assert summary, f"no summary for {game}:\n{out}"
        body = summary.group(2)
        assert "player 0 (lookahead)" in body and "(random)" in body
        assert re.search(r"\d+ moves in [\d.]+s", body)
    assert "rank 1" in out


def test_the_node_client_plays_a_full_kraby_game_from_the_protos(server_address):
    node = shutil.which("node")
    assert node, "Node.js is needed for the reference client in another language"
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("run `make test` (it runs `npm ci --prefix clients/node`) first")
    done = subprocess.run(
        [node, "play_kraby.js", server_address, "--players", "3", "--seed", "11"],
        cwd=NODE_CLIENT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"kraby: \d{2,} moves, replay ok", done.stdout)
    assert re.search(r"outcome: .*wins", done.stdout)
    assert len(re.findall(r"player \d: -?\d+ points, rank \d", done.stdout)) == 3
