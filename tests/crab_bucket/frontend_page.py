"""The JSON examples of docs/frontends/crab_bucket.md, from real calls to a real server on
loopback.

`python -m tests.crab_bucket.frontend_page` rewrites every block marked `<!-- example: NAME -->`
on the page with what the server answers now; tests/test_frontend_docs.py fails when a block
differs, so the page never shows JSON the service does not send.

One seeded three-player Quick game with a small deck of three missions (one per level, each
easy to meet, so random moves complete missions and use abilities) gives every example.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from google.protobuf.message import Message

from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.frontend_pages import fill, rewrite

PAGE = Path(__file__).parent.parent.parent / "docs" / "frontends" / "crab_bucket.md"
SEED = 7


def deck() -> list[pb.CrabBucketMission]:
    """Three missions, levels 1 to 3: a Chain and two neighbouring tops of a colour each."""
    colors = (
        pb.CRAB_BUCKET_COLOR_RED,
        pb.CRAB_BUCKET_COLOR_GREEN,
        pb.CRAB_BUCKET_COLOR_BLUE,
        pb.CRAB_BUCKET_COLOR_YELLOW,
    )
    abilities = (
        pb.CRAB_BUCKET_ABILITY_RESCUE_TOPS,
        pb.CRAB_BUCKET_ABILITY_SWAP_HAND_TOP,
        pb.CRAB_BUCKET_ABILITY_DISCARD_PILE,
    )
    return [
        pb.CrabBucketMission(
            name=f"Tide {level}",
            level=level,
            ability=ability,
            requirements=[
                pb.CrabBucketRequirement(
                    adjacent=pb.CrabBucketColorPair(first=colors[level - 1], second=colors[level])
                ),
                pb.CrabBucketRequirement(gap=pb.CrabBucketGap(color=colors[3 - level], between=0)),
            ],
        )
        for level, ability in zip((1, 2, 3), abilities, strict=True)
    ]


def seat_events(answer: Any, seat: int) -> api.SeatEvents:
    (seen,) = [s for s in answer.seat_events if s.player == seat]
    return seen


def kinds(events: Any) -> list[str | None]:
    return [
        e.crab_bucket.WhichOneof("event") if e.WhichOneof("event") == "crab_bucket" else None
        for e in events
    ]


def examples(stub: Any) -> dict[str, Message]:
    """Every example of the page, from one game: the start, the first turn with few moves (the
    view and the moves), the first card played and drawn (as its player and as another seat see
    it), the first ability used (its events), the end."""
    request = api.NewGameRequest(
        num_players=3, seed=SEED, crab_bucket=pb.CrabBucketOptions(missions=deck())
    )
    state = stub.NewGame(request).state
    found: dict[str, Message] = {"new_game_request": request}
    rng = random.Random(SEED)
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        listed = stub.LegalMoves(api.LegalMovesRequest(state=state))
        player = state.next.player
        if "view" not in found and state.next.decision == "play" and len(listed.moves) <= 6:
            found["next"] = state.next
            found["view"] = stub.GetView(api.GetViewRequest(state=state, player=player)).view
            found["legal_moves"] = listed
        uses = [m for m in listed.moves if m.crab_bucket.HasField("use_ability")]
        move = uses[0] if uses and "ability_move" not in found else rng.choice(listed.moves)
        answer = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=move))
        drew = "card_drawn" in kinds(answer.events)
        if "played_move" not in found and move.crab_bucket.HasField("play_card") and drew:
            found["played_move"] = move
            found["player_events"] = seat_events(answer, player)
            found["other_events"] = seat_events(answer, (player + 1) % 3)
        if "ability_move" not in found and uses:
            found["ability_move"] = move
            found["ability_events"] = seat_events(answer, (player + 1) % 3)
        state = answer.state
    found["end_events"] = seat_events(answer, 0)
    found["outcome"] = answer.outcome
    return found


def rendered(page: str, stub: Any) -> str:
    found = examples(stub)
    return fill(page, found.__getitem__)


if __name__ == "__main__":
    rewrite(PAGE, rendered)
