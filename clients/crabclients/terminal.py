"""Play a crab game in the terminal against bots: you see only your own view.

crabgames-play --game kraby --bots lookahead                 (starts its own server)
crabgames-play --address 127.0.0.1:50051 --game crab_rage    (uses a running one; so does
                                                              CRABGAMES_ADDRESS)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from crabclients.bots import BOTS, Bot, play_game
from crabclients.client import OPTIONS, RulesClient, ServiceUnavailableError
from crabclients.render import render_outcome, render_view, seat_title, visible_text
from crabclients.server_process import ADDRESS_HELP, server_address
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

PROMPT = "Your move"


class Quit(Exception):
    """The human left the game."""


class HumanPlayer:
    """A bot whose decisions are typed in: it draws its view and numbers the legal moves."""

    name = "you"

    def __init__(self, console: Console, read: Callable[[str], str] | None = None) -> None:
        self.console = console
        self.read = read or console.input

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        self.console.print()
        self.console.print(render_view(view))
        decision = view.next.decision.replace("_", " ")
        self.console.print(Text(f"\nYou decide: {decision}", style="bold"))
        moves = list(view.legal_moves)
        for number, move in enumerate(moves, start=1):
            self.console.print(Text(f" {number:>3}. {move.label}"))
        return moves[self.ask(len(moves)) - 1]

    def ask(self, count: int) -> int:
        while True:
            try:
                answer = self.read(f"{PROMPT} [1-{count}, q to quit]: ").strip().lower()
            except EOFError:
                raise Quit from None
            if answer in ("q", "quit"):
                raise Quit
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)
            self.console.print(f" please type a number from 1 to {count}")


def game_log(
    human: int, console: Console
) -> Callable[[int, game_pb2.Move, api.ApplyMoveResponse], None]:
    """After each move: the human's own choice, then every event as the human may see it."""

    def on_step(seat: int, move: game_pb2.Move, response: api.ApplyMoveResponse) -> None:
        if seat == human:
            console.print(Text(f" you: {move.label}", style="bold"))
        for event in response.events:
            console.print(Text(f"   {visible_text(event, human)}"))

    return on_step


def set_up_log(
    client: RulesClient, human: int, console: Console, title: str
) -> Callable[[api.NewGameResponse], None]:
    """Once the game is started: who the human is, as the board will name them (their team
    in CRAB RAGE!), then the set-up events (deals) as the human may see them."""

    def on_start(started: api.NewGameResponse) -> None:
        tokens = list(started.player_tokens)
        view = client.view(started.state, human, tokens[human] if tokens else "")
        players = started.state.num_players
        line = Text.assemble("you are ", seat_title(view, human), f" of {players} {title}")
        console.print(line, style="bold")
        for event in started.events:
            console.print(Text(f"   {visible_text(event, human)}"))

    return on_start


def seats_for(client: RulesClient, game: str, players: int | None, seat: int) -> int:
    """The number of players: as asked, or the game's smallest (ListGames), checked against
    the game's range so a wrong number is one clear line, not a refusal from the server."""
    info = next((g for g in client.list_games() if g.id == game), None)
    if info is None:
        raise SystemExit(f"this server does not serve {game}")
    count = players or info.min_players
    if not info.min_players <= count <= info.max_players:
        raise SystemExit(f"{game} takes {info.min_players} to {info.max_players} players")
    if not 0 <= seat < count:
        raise SystemExit(f"--seat must be 0 to {count - 1}")
    return count


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] | None = None,
    console: Console | None = None,
) -> int:
    """Play one game; 0 when it ends or the human quits (leaving is not an error)."""
    console = console or Console(color_system=None if args.no_color else "auto", highlight=False)
    human = HumanPlayer(console, read)
    with (
        server_address(args.address) as address,
        RulesClient.connect(address, timeout=args.connect_timeout) as client,
    ):
        players = seats_for(client, args.game, args.players, args.seat)
        bots: list[Bot] = [BOTS[args.bots](args.seed * 7 + seat) for seat in range(players)]
        bots[args.seat] = human
        console.print(Text(args.game, style="bold"))
        try:
            record = play_game(
                client,
                args.game,
                bots,
                args.seed,
                on_step=game_log(args.seat, console),
                on_start=set_up_log(client, args.seat, console, f"players; bots: {args.bots}"),
            )
        except Quit:
            console.print("\n you left the game")
            return 0
        final = client.view(record.state, args.seat, record.tokens[args.seat])
        console.print()
        console.print(render_view(final))
        console.print(Text("\nGame over.", style="bold"))
        console.print(render_outcome(record.outcome, final))
        console.print(f" moves played: {len(record.moves)}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kraby", choices=sorted(OPTIONS))
    parser.add_argument(
        "--players", type=int, default=None, help="default: the game's smallest number"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--bots", default="lookahead", choices=sorted(BOTS))
    parser.add_argument("--seed", type=int, default=0, help="0: a new game every time")
    parser.add_argument("--address", help=ADDRESS_HELP)
    parser.add_argument(
        "--connect-timeout", type=float, default=10.0, help="seconds to wait for the server"
    )
    parser.add_argument("--no-color", action="store_true", help="plain text (also NO_COLOR)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    try:
        sys.exit(play(parse_args(argv)))
    except KeyboardInterrupt:
        sys.exit(130)
    except ServiceUnavailableError as error:  # what is wrong with the address, in one line
        sys.exit(f"crabgames-play: {error.message}")


if __name__ == "__main__":
    main()
