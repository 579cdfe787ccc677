"""The JSON examples of docs/frontends.md, from real calls to a real server on loopback.

`python -m tests.frontend_examples` rewrites every block marked `<!-- example: NAME -->` in
docs/frontends.md with what the server answers now; tests/test_frontend_docs.py fails when a
block differs from it, so the page never shows JSON the service does not send."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from crabgames.service.server import serve
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

PAGE = Path(__file__).parent.parent / "docs" / "frontends.md"
BLOCK = re.compile(
    r"(<!-- example: (?P<name>[a-z_]+) -->\n"
    r"<!-- message: (?P<message>[A-Za-z0-9.]+) -->\n```json\n)"
    r"(?P<body>.*?)(\n```)",
    re.S,
)


def as_json(message: Message) -> str:
    """The proto3 JSON form with the proto field names, as the docs show it (a map's entries,
    which protobuf keeps in no set order, sorted)."""
    return json.dumps(
        sorted_maps(json_format.MessageToDict(message, preserving_proto_field_name=True)),
        indent=2,
    )


def sorted_maps(value):
    if isinstance(value, dict):
        return {
            k: dict(sorted(v.items())) if k in MAP_FIELDS else sorted_maps(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [sorted_maps(v) for v in value]
    return value


MAP_FIELDS = {"args"}  # Event.args


def list_games(stub) -> Message:
    (kraby,) = [g for g in stub.ListGames(api.ListGamesRequest()).games if g.id == "kraby"]
    return kraby


def new_game_request(stub) -> Message:
    request = api.NewGameRequest(
        num_players=3, seed=42, events=api.EventSelection(seats=[0], spectator=True)
    )
    request.crab_rage.SetInParent()
    stub.NewGame(request)  # a request the service takes
    return request


def forced_move_event(stub) -> Message:
    """The first ForcedMove event of a seeded CRAB RAGE! game played at random, as its seat
    sees it."""
    rng = random.Random(1)
    request = api.NewGameRequest(num_players=3, seed=1)
    request.crab_rage.SetInParent()
    state = stub.NewGame(request).state
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        moves = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves
        answer = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=rng.choice(moves)))
        for seat in answer.seat_events:
            for event in seat.events:
                if event.HasField("forced_move"):
                    return event
        state = answer.state
    raise AssertionError("no forced move in the game")


def next_decision(stub) -> Message:
    request = api.NewGameRequest(num_players=2, seed=3)
    request.kraby.SetInParent()
    return stub.NewGame(request).state.next


EXAMPLES: dict[str, Callable] = {
    "list_games": list_games,
    "new_game_request": new_game_request,
    "forced_move_event": forced_move_event,
    "next_decision": next_decision,
}


def rendered(page: str, stub) -> str:
    def fill(match: re.Match) -> str:
        body = as_json(EXAMPLES[match["name"]](stub))
        return match.group(1) + body + match.group(5)

    return BLOCK.sub(fill, page)


def with_stub(use: Callable):
    running = serve("127.0.0.1:0", threads=2)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            return use(api_grpc.RulesServiceStub(channel))
    finally:
        running.stop(0)


if __name__ == "__main__":
    PAGE.write_text(with_stub(lambda stub: rendered(PAGE.read_text(), stub)))
    sys.exit(0)
