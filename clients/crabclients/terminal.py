"""Play a crab game in the terminal against bots: you see only your own view.

crabgames-play --game kraby --players 3 --bots lookahead     (starts its own server)
crabgames-play --address 127.0.0.1:50051 --game crab_rage    (uses a running one)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from crabclients.bots import BOTS, Bot, play_game
from crabclients.client import OPTIONS, RulesClient
from crabclients.render import BOLD, Paint, render_outcome, render_view, visible_text
from crabclients.server_process import server_address
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

PROMPT = "Your move"


class Quit(Exception):
    """The human left the game."""


class HumanPlayer:
    """A bot whose decisions are typed in: it draws its view and numbers the legal moves."""

    name = "you"

    def __init__(
        self,
        paint: Paint,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.paint, self.read, self.write = paint, read, write

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        self.write("")
        self.write(render_view(view, self.paint))
        self.write(self.paint(f"\n You decide: {view.next.decision.replace('_', ' ')}", BOLD))
        moves = list(view.legal_moves)
        for number, move in enumerate(moves, start=1):
            self.write(f" {number:>3}. {move.label}")
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
            self.write(f" please type a number from 1 to {count}")


def game_log(
    human: int, bots: list[Bot], paint: Paint, write: Callable[[str], None]
) -> Callable[[int, game_pb2.Move, api.ApplyMoveResponse], None]:
    """After each move: the human's own choice, then every event as the human may see it."""

    def on_step(seat: int, move: game_pb2.Move, response: api.ApplyMoveResponse) -> None:
        if seat == human:
            write(paint(f" you: {move.label}", BOLD))
        for event in response.events:
            write(f"   {visible_text(event, human)}")

    return on_step


def set_up_log(human: int, write: Callable[[str], None]) -> Callable[[list[game_pb2.Event]], None]:
    """The set-up events (deals), as the human may see them."""

    def on_start(events: list[game_pb2.Event]) -> None:
        for event in events:
            write(f"   {visible_text(event, human)}")

    return on_start


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    paint = Paint(False if args.no_color else None)
    human = HumanPlayer(paint, read, write)
    bots: list[Bot] = [BOTS[args.bots](args.seed * 7 + seat) for seat in range(args.players)]
    bots[args.seat] = human
    with server_address(args.address) as address, RulesClient.connect(address) as client:
        write(paint(f"{args.game}: you are player {args.seat}; bots: {args.bots}", BOLD))
        try:
            on_step = game_log(args.seat, bots, paint, write)
            record = play_game(
                client,
                args.game,
                bots,
                args.seed,
                on_step=on_step,
                on_start=set_up_log(args.seat, write),
            )
        except Quit:
            write("\n you left the game")
            return 1
        write("\n" + render_view(client.view(record.state, args.seat), paint))
        write("\nGame over. " + render_outcome(record.outcome, paint))
        write(f" moves played: {len(record.moves)}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kraby", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--bots", default="lookahead", choices=sorted(BOTS))
    parser.add_argument("--seed", type=int, default=0, help="0: a new game every time")
    parser.add_argument("--address", help="a running server (default: start one here)")
    parser.add_argument("--no-color", action="store_true", help="plain text (also NO_COLOR)")
    args = parser.parse_args(argv)
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be 0 to {args.players - 1}")
    return args


def main(argv: list[str] | None = None) -> None:
    try:
        sys.exit(play(parse_args(argv)))
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
