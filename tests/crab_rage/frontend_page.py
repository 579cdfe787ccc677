"""The JSON examples of docs/frontends/crab_rage.md, from real calls to a real server on loopback.

`python -m tests.crab_rage.frontend_page` rewrites every block marked `<!-- example: NAME -->` on
the page with what the server answers now; tests/test_frontend_docs.py fails when a block
differs, so the page never shows JSON the service does not send.

Seeded three-player games played with seeded random moves give every example.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from google.protobuf.message import Message

from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests import frontend_pages

PAGE = Path(__file__).parent.parent.parent / "docs" / "frontends" / "crab_rage.md"
SEED = 5
PLAYERS = 3
K = pb.CrabRageEventKind


def as_json(message: Message) -> str:
    """`frontend_pages.as_json` with short lists of numbers on one line."""
    text = frontend_pages.as_json(message)
    return re.sub(r"\[\s+([-\d\s,]+?)\s+\]", lambda m: "[" + " ".join(m[1].split()) + "]", text)


class Game:
    """One seeded game through the stub, remembering every answer."""

    def __init__(self, stub: Any, seed: int = SEED) -> None:
        self.stub, self.rng = stub, random.Random(seed)
        request = new_game_request_for(seed)
        self.state = stub.NewGame(request).state

    def steps(self) -> Iterator[tuple[game_pb2.GameState, Any, Any]]:
        """(state before, move, ApplyMove answer) for every move to the end."""
        while self.state.next.kind != game_pb2.DECIDER_KIND_NONE:
            moves = self.stub.LegalMoves(api.LegalMovesRequest(state=self.state)).moves
            move = self.rng.choice(list(moves))
            answer = self.stub.ApplyMove(api.ApplyMoveRequest(state=self.state, move=move))
            yield self.state, move, answer
            self.state = answer.state


def new_game_request_for(seed: int) -> Any:
    request = api.NewGameRequest(num_players=PLAYERS, seed=seed)
    request.crab_rage.SetInParent()
    return request


def new_game_request(stub: Any) -> Message:
    request = new_game_request_for(SEED)
    stub.NewGame(request)  # a request the service takes
    return request


def first_event(stub: Any, kind: int, seat: int | None = None) -> Message:
    """The first event of `kind` in the seeded games, as the host sees it (or as `seat` does)."""
    for seed in range(SEED, SEED + 40):
        for _, _, answer in Game(stub, seed).steps():
            events = answer.events if seat is None else answer.seat_events[seat].events
            for event in events:
                if event.WhichOneof("event") == "crab_rage" and event.crab_rage.kind == kind:
                    return event
    raise AssertionError(f"no event of kind {kind}")


def view_at(stub: Any, decision: str, viewer: int | None, seeds: int = 40) -> Message:
    """The view of `viewer` (None: a spectator) at the first `decision` of the seeded games."""
    for seed in range(SEED, SEED + seeds):
        for state, _, _ in Game(stub, seed).steps():
            if state.next.decision == decision:
                request = api.GetViewRequest(state=state)
                if viewer is None:
                    request.spectator = True
                else:
                    request.player = viewer
                return stub.GetView(request).view
    raise AssertionError(f"no {decision}")


def spectator_view(stub: Any) -> Message:
    """A spectator's view at the first alliance choice: crabs in two arenas, one entering."""
    return view_at(stub, "choose_alliance", None)


def turn_move(stub: Any, action: int) -> Message:
    for state, _, _ in Game(stub).steps():
        if state.next.decision == "choose_action":
            for move in stub.LegalMoves(api.LegalMovesRequest(state=state)).moves:
                if move.crab_rage.action == action:
                    return move
    raise AssertionError(f"no action {action}")


def move_move(stub: Any) -> Message:
    return turn_move(stub, pb.CRAB_RAGE_ACTION_MOVE)


def smash_move(stub: Any) -> Message:
    return turn_move(stub, pb.CRAB_RAGE_ACTION_SMASH)


def pass_move(stub: Any) -> Message:
    game = Game(stub)
    moves = stub.LegalMoves(api.LegalMovesRequest(state=game.state)).moves
    return next(m for m in moves if m.crab_rage.kind == pb.CRAB_RAGE_MOVE_KIND_PASS)


def destination_decision(stub: Any) -> Message:
    view = view_at(stub, "choose_destination", None)
    return view.crab_rage.decision


def destination_moves(stub: Any) -> Message:
    for seed in range(SEED, SEED + 40):
        for state, _, _ in Game(stub, seed).steps():
            if state.next.decision == "choose_destination":
                answer = stub.LegalMoves(api.LegalMovesRequest(state=state))
                return answer.moves[0]
    raise AssertionError("no destination")


EXAMPLES: dict[str, Callable[[Any], Message]] = {
    "new_game_request": new_game_request,
    "spectator_view": spectator_view,
    "pass_move": pass_move,
    "move_move": move_move,
    "smash_move": smash_move,
    "destination_decision": destination_decision,
    "destination_move": destination_moves,
    "acted_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_ACTED),
    "crab_left_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_CRAB_LEFT),
    "crab_entered_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_CRAB_ENTERED),
    "muscle_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_MUSCLE),
    "fans_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_FANS),
    "rumble_won_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_RUMBLE_WON),
    "roll_off_event": lambda stub: first_event(stub, K.CRAB_RAGE_EVENT_KIND_ROLL_OFF_STARTED),
    "secret_commitment_event": lambda stub: first_event(
        stub, K.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS_COMMITTED, seat=0
    ),
    "outcome": lambda stub: outcome(stub),
}


def outcome(stub: Any) -> Message:
    last = None
    for _, _, answer in Game(stub).steps():
        last = answer
    assert last is not None
    return last.outcome


def rendered(page: str, stub: Any) -> str:
    return frontend_pages.fill(page, lambda name: EXAMPLES[name](stub), as_json)


if __name__ == "__main__":
    frontend_pages.rewrite(PAGE, rendered)
