"""The JSON examples of docs/frontends/kraby.md, from real calls to a real server on loopback.

`python -m tests.kraby.frontend_page` rewrites every block marked `<!-- example: NAME -->` on the
page with what the server answers now; tests/test_frontend_docs.py fails when a block differs,
so the page never shows JSON the service does not send.

One seeded two-player game, played with seeded random moves, gives every example: two fishers
show the central 9x9 and its numbering (K1).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.protobuf.message import Message

from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.frontend_pages import fill, proto_dict, rewrite

PAGE = Path(__file__).parent.parent.parent / "docs" / "frontends" / "kraby.md"
SEED = 7
WIDTH = 100
ROW = 11  # cells in a row of the board


def as_json(message: Message) -> str:
    """The proto3 JSON form with the proto field names, lists of plain values wrapped to the
    page's width (the 121 cells would take a line each)."""
    return "\n".join(lines(proto_dict(message), 0))


def lines(value: Any, depth: int, head: str = "") -> Iterator[str]:
    pad = "  " * depth
    flat = f"{pad}{head}{json.dumps(value)}"
    if isinstance(value, dict) and value and len(flat) <= WIDTH and not nested(value):
        yield flat  # a small message on one line: {"row": 3, "column": 1}
    elif isinstance(value, dict) and value:
        yield f"{pad}{head}{{"
        items = list(value.items())
        for i, (key, item) in enumerate(items):
            body = list(lines(item, depth + 1, f"{json.dumps(key)}: "))
            if i < len(items) - 1:
                body[-1] += ","
            yield from body
        yield f"{pad}}}"
    elif isinstance(value, list) and value and any(isinstance(v, dict | list) for v in value):
        yield f"{pad}{head}["
        for i, item in enumerate(value):
            body = list(lines(item, depth + 1))
            if i < len(value) - 1:
                body[-1] += ","
            yield from body
        yield f"{pad}]"
    elif isinstance(value, list) and value and head == '"cells": ':
        yield f"{pad}{head}["  # a row of the board a line
        for row in range(0, len(value), ROW):
            last = row + ROW >= len(value)
            yield (
                pad
                + "  "
                + ", ".join(json.dumps(v) for v in value[row : row + ROW])
                + ("" if last else ",")
            )
        yield f"{pad}]"
    elif isinstance(value, list) and value:
        yield from wrapped([json.dumps(v) for v in value], pad, head)
    else:
        yield f"{pad}{head}{json.dumps(value)}"


def nested(value: dict[str, Any]) -> bool:
    return any(isinstance(item, dict | list) for item in value.values())


def wrapped(words: list[str], pad: str, head: str) -> Iterator[str]:
    one_line = f"{pad}{head}[{', '.join(words)}]"
    if len(one_line) <= WIDTH:
        yield one_line
        return
    yield f"{pad}{head}["
    line = pad + "  "
    for i, word in enumerate(words):
        word += "," if i < len(words) - 1 else ""
        if len(line) + len(word) + 1 > WIDTH and line.strip():
            yield line.rstrip()
            line = pad + "  "
        line += word + " "
    yield line.rstrip()
    yield f"{pad}]"


@dataclass
class Game:
    """The seeded game, call by call, with what each example needs kept on the way."""

    stub: Any
    new_game: api.NewGameRequest
    state: game_pb2.GameState
    answers: list[tuple[game_pb2.Move, api.ApplyMoveResponse]] = field(default_factory=list)

    def play(self, until: Callable[[game_pb2.Move, api.ApplyMoveResponse], bool]) -> None:
        """Seeded random moves until `until` holds for an answer (or the game ends)."""
        rng = random.Random(SEED + len(self.answers))
        while self.state.next.kind != game_pb2.DECIDER_KIND_NONE:
            moves = self.stub.LegalMoves(api.LegalMovesRequest(state=self.state)).moves
            move = rng.choice(moves)
            answer = self.stub.ApplyMove(api.ApplyMoveRequest(state=self.state, move=move))
            self.answers.append((move, answer))
            self.state = answer.state
            if until(move, answer):
                return

    def view(self, player: int | None) -> game_pb2.View:
        request = api.GetViewRequest(state=self.state)
        if player is None:
            request.spectator = True
        else:
            request.player = player
        return self.stub.GetView(request).view


def kraby_events(answer: api.ApplyMoveResponse, seat: int) -> list[game_pb2.Event]:
    (seen,) = [s for s in answer.seat_events if s.player == seat]
    return list(seen.events)


def first_event(game: Game, kind: str, seat: int) -> game_pb2.Event:
    for _, answer in game.answers:
        for event in kraby_events(answer, seat):
            if event.kraby.WhichOneof("event") == kind:
                return event
    raise AssertionError(f"no {kind} event in the game")


def examples(stub: Any) -> dict[str, Message]:
    """Every example of the page, from one game."""
    request = api.NewGameRequest(num_players=2, seed=SEED)
    request.kraby.SetInParent()
    started = stub.NewGame(request)
    game = Game(stub, request, started.state)
    found: dict[str, Message] = {"new_game_request": request, "next": game.state.next}
    found["dealt_own"] = started.seat_events[0].events[0]
    found["dealt_as_seen"] = started.seat_events[1].events[0]
    found["start_view"] = game.view(0).kraby
    found["listed_move"] = game.view(0).legal_moves[0]
    # The first tile, as its fisher and as the other fisher see it; then the figure decision.
    game.play(lambda _, __: True)
    move, answer = game.answers[-1]
    found["applied_move"] = move
    mine, other = kraby_events(answer, 0), kraby_events(answer, 1)
    found["tile_placed"] = mine[0]
    found["tile_drawn_own"] = next(e for e in mine if e.kraby.HasField("tile_drawn"))
    found["tile_drawn_as_seen"] = next(e for e in other if e.kraby.HasField("tile_drawn"))
    found["figure_decision"] = game.view(1).kraby.decision
    # A dozen turns in: a board with tiles on it, seen by a spectator.
    game.play(lambda _, __: game.state.kraby.turns_taken >= 12 and waits_for_a_tile(game))
    found["spectator_view"] = game.view(None)
    # The rest of the game.
    game.play(lambda _, answer: answer.HasField("outcome"))
    found["figure_placed"] = first_event(game, "figure_placed", 0)
    found["turn_began"] = first_event(game, "turn_began", 0)
    found["game_ended"] = first_event(game, "game_ended", 0)
    found["outcome"] = game.answers[-1][1].outcome
    return found


def waits_for_a_tile(game: Game) -> bool:
    return game.state.next.decision == "place_tile"


def rendered(page: str, stub: Any) -> str:
    found = examples(stub)
    return fill(page, found.__getitem__, as_json)


if __name__ == "__main__":
    rewrite(PAGE, rendered)
