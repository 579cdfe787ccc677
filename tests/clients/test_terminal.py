"""The terminal player: a whole game through a pseudo-terminal with scripted answers, the human
seeing only their own view; every game's board drawn with rich at many states, for each seat and
a spectator (rich's recording console gives the text a terminal would show)."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest
from rich.console import Console

from crabclients.bots import RandomBot, play_game
from crabclients.render import render_outcome, render_view, visible_text
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
    # A hand counts tiles as "2 G": "x2" is how a ship's holds are named.
    hands = re.findall(r"^your hand:.*$", plain, re.M)
    assert hands and not any(re.search(r"x\d", hand) for hand in hands), hands[:3]
    assert all(re.search(r"\d+ +[OGBYP]\b", hand) for hand in hands if "none" not in hand)
    assert "Game over." in plain and "winner" in plain
    # The log shows the human's own draws but never the opponent's tiles.
    assert re.search(rf"player 0 draws one {COLOURS} tile", plain)
    assert "player 1 draws a tile" in plain
    assert not re.search(rf"player 1 (draws|is dealt) (an?|one) {COLOURS}", plain)


def recording_console() -> Console:
    """What a terminal would show, as plain text (export_text), 100 columns wide."""
    return Console(record=True, width=100, color_system=None, file=io.StringIO())


def drawn(renderable) -> str:
    console = recording_console()
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("game", ["crab_bucket", "crab_rage"])
def test_the_terminal_player_draws_and_finishes_the_other_games(server_address, game_infos, game):
    require_served(game_infos, game)
    console = recording_console()
    args = parse_args(
        ["--game", game, "--players", "3", "--seed", "5", "--bots", "random", "--no-color"]
        + ["--address", server_address]
    )
    code = play(args, read=lambda prompt: "1", console=console)
    text = console.export_text()
    assert code == 0 and "Game over." in text
    if game == "crab_bucket":
        assert "the circle of piles" in text and "your hand:" in text and "mission:" in text
        assert "talking allowed: True" not in text and re.search(r"(you may talk|no talking)", text)
        assert not re.search(r"\([BKRG]\d+\)", text), "rule ids are for the docs, not the table"
    else:
        assert "Arena A" in text and "rage" in text and "fan supply" in text
        # Crabs are numbered as the moves name them, and the outcome names the teams.
        assert re.search(r"crab [1-4] \(\d\)", text)
        assert re.search(
            r"^(Blue|Yellow|Green) \(player 0, you\) +-?\d+ glory +rank \d", text, re.M
        )
    assert " {\n" not in text, "drawn by the game's renderer, not protobuf text"


def test_make_play_crab_rage_defaults_to_the_games_smallest_table(server_address):
    """`make play GAME=crab_rage` gave CRAB RAGE! 2 players; now the default is ListGames'."""
    console = recording_console()
    args = parse_args(["--game", "crab_rage", "--bots", "random", "--address", server_address])
    assert play(args, read=lambda prompt: "q", console=console) == 0
    # The title names the seat as the board does: its team.
    title = r"you are (Blue|Yellow|Green) \(player 0\) of 3 players"
    assert re.search(title, console.export_text())
    with pytest.raises(SystemExit, match="takes 3 to 5 players"):
        play(parse_args(["--game", "crab_rage", "--players", "2", "--address", server_address]))


def states_along(client, game: str, players: int, seed: int, every: int) -> list:
    """Every `every`-th state of a random game, and its final state."""
    states = []

    def keep(seat, move, response) -> None:
        if response.state.version % every == 0:
            states.append(response.state)

    bots = [RandomBot(seed + seat) for seat in range(players)]
    record = play_game(client, game, bots, seed, on_step=keep)
    return [*states, record.state]


@pytest.mark.parametrize(
    ("game", "players", "every"),
    [("kraby", 4, 15), ("crab_bucket", 5, 6), ("crab_bucket", 2, 6), ("crab_rage", 5, 12)],
)
def test_every_game_is_drawn_at_every_stage_for_each_seat_and_a_spectator(
    client, game_infos, game, players, every
):
    """No fallback hides a failing renderer any more, so draw many real views: start, along
    the game, the end; every seat and a spectator."""
    require_served(game_infos, game)
    start = client.new_game(game, players, seed=9).state
    for state in [start, *states_along(client, game, players, 9, every)]:
        for seat in [*range(players), None]:
            view = client.view(state, seat)
            text = drawn(render_view(view))
            assert " {\n" not in text and text.strip()
            assert ("your hand:" in text) == (seat is not None and game != "crab_rage")
            if game == "crab_bucket":  # piles never run together
                assert not re.search(r"h\d+\S*\[\d\]", text), text
            if game == "crab_rage":
                teams = [view.crab_rage.players[s].team for s in range(players)]
                assert len(set(teams)) == players and "backstage:" in text


def test_the_outcome_names_every_seat_as_the_board_does(client, game_infos):
    record = play_game(client, "kraby", [RandomBot(s) for s in range(2)], 4)
    text = drawn(render_outcome(record.outcome, client.view(record.state, 1)))
    assert re.search(r"^player 1 \(you\) +-?\d+ points +rank [12]", text, re.M)
    assert re.search(r"^player 0 +-?\d+ points", text, re.M)


def test_a_kraby_board_says_whose_turn_it_is_and_where_a_tile_can_stop(client, game_infos):
    require_served(game_infos, "kraby")
    view = client.view(client.new_game("kraby", 2, seed=7).state, None)
    text = drawn(render_view(view))
    decision = view.kraby.decision
    assert re.search(rf"^player {decision.player} .*<- turn", text, re.M)
    assert f"player {decision.player} slides a tile in; it can stop at" in text
    for entry in decision.entries:  # the board's own numbers (K1), as the labels say them
        assert f"({entry.stop.row}, {entry.stop.column})" in text


def test_a_renderer_bug_raises_instead_of_falling_back_to_protobuf_text():
    view = game_pb2.View(player=0)
    view.kraby.hand_sizes.append(6)  # a Kraby view without its 121 cells
    with pytest.raises(IndexError):
        drawn(render_view(view))


def test_the_log_hides_other_players_dealt_cards_in_crab_bucket():
    event = game_pb2.Event(text="player 2 is dealt red 5")
    event.crab_bucket.card_dealt.player = 2
    event.crab_bucket.card_dealt.card.number = 5
    assert visible_text(event, 2) == "player 2 is dealt red 5"
    assert visible_text(event, 0) == "player 2 is dealt a card"


def test_a_quit_at_the_prompt_ends_the_game_without_an_error(server_address):
    """`q` ends `make play` with exit code 0 (it was 1: make printed `*** Error 1`)."""
    args = parse_args(["--game", "kraby", "--bots", "random", "--address", server_address])
    console = recording_console()
    assert play(args, read=lambda prompt: "q", console=console) == 0
    assert "you left the game" in console.export_text()
