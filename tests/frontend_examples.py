"""The JSON examples of docs/frontends.md, from real calls to a real server on loopback.

`python -m tests.frontend_examples` rewrites every block marked `<!-- example: NAME -->` in
docs/frontends.md with what the server answers now; tests/test_frontend_docs.py fails when a
block differs from it, so the page never shows JSON the service does not send."""

from __future__ import annotations

import random
from collections.abc import Callable

from google.protobuf.message import Message

from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.frontend_pages import DOCS, fill, rewrite

PAGE = DOCS / "frontends.md"


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
    return fill(page, lambda name: EXAMPLES[name](stub))


if __name__ == "__main__":
    rewrite(PAGE, rendered)
