"""The terminal player: a whole game through a pseudo-terminal with scripted answers, the human
seeing only their own view; the other games' boards drawn (not the text fallback)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from crabclients.render import visible_text
from crabclients.terminal import PROMPT, parse_args, play
from crabgames.v1 import game_pb2

from .conftest import require_served

ANSI = re.compile(r"\x1b\[[0-9;]*m")
COLOURS = "(orange|green|blue|yellow|pink)"
TIME_LIMIT = 120  # seconds for the whole pseudo-terminal game


def run_in_pty(argv: list[str], answer: str = "1") -> tuple[int, str]:
    """Run `argv` on a pseudo-terminal, typing `answer` at every prompt; (exit code, output)."""
    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    process = subprocess.Popen(
        argv, stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True
    )
    os.close(secondary)
    output, pending = b"", b""
    deadline = time.monotonic() + TIME_LIMIT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 1.0)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
            pending += chunk
            if PROMPT.encode() in pending and pending.rstrip().endswith(b":"):
                os.write(primary, answer.encode() + b"\n")
                pending = b""
        code = process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(primary)
    return code, output.decode(errors="replace")


def test_a_human_plays_a_whole_kraby_game_in_a_pseudo_terminal(server_address):
    argv = [sys.executable, "-m", "crabclients.terminal", "--game", "kraby", "--players", "2"]
    argv += ["--seed", "3", "--bots", "random", "--address", server_address]
    code, output = run_in_pty(argv)
    plain = ANSI.sub("", output)
    assert code == 0, plain[-2000:]
    assert "\x1b[" in output, "the board is drawn in colour on a terminal"
    assert plain.count(PROMPT) >= 30, "every decision of the human was asked for"
    assert re.search(r"^\s+1\. slide \w+ in from the", plain, re.M), "moves are numbered"
    assert "your hand:" in plain and "player 0 (you)" in plain
    assert "Game over." in plain and "winner" in plain
    # The log shows the human's own draws but never the opponent's tiles.
    assert re.search(rf"player 0 draws an? {COLOURS} tile", plain)
    assert "player 1 draws a tile" in plain
    assert not re.search(rf"player 1 (draws|is dealt) an? {COLOURS}", plain)


@pytest.mark.parametrize("game", ["crab_bucket", "crab_rage"])
def test_the_terminal_player_draws_and_finishes_the_other_games(server_address, game_infos, game):
    require_served(game_infos, game)
    lines: list[str] = []
    args = parse_args(
        ["--game", game, "--players", "3", "--seed", "5", "--bots", "random", "--no-color"]
        + ["--address", server_address]
    )
    code = play(args, read=lambda prompt: "1", write=lines.append)
    text = "\n".join(lines)
    assert code == 0 and "Game over." in text
    if game == "crab_bucket":
        assert "the circle of piles" in text and "your hand:" in text and "mission:" in text
    else:
        assert "Arena A" in text and "rage" in text and "fan supply" in text
    assert " {\n" not in text, "drawn by the game's renderer, not the protobuf text fallback"


def test_the_log_hides_other_players_dealt_cards_in_crab_bucket():
    event = game_pb2.Event(text="player 2 is dealt red 5")
    event.crab_bucket.card_dealt.player = 2
    event.crab_bucket.card_dealt.card.number = 5
    assert visible_text(event, 2) == "player 2 is dealt red 5"
    assert visible_text(event, 0) == "player 2 is dealt a card"


def test_a_quit_at_the_prompt_ends_the_game(server_address):
    args = parse_args(["--game", "kraby", "--bots", "random", "--address", server_address])
    assert play(args, read=lambda prompt: "q", write=lambda line: None) == 1
