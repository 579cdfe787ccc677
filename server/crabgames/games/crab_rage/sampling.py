"""Hidden information redrawn (G4, G5): only other players' pending hardcore fan commitments are
hidden, so they are all there is to resample. The action deck has no stored order (G2)."""

from __future__ import annotations

import random
from typing import Any

from google.protobuf.message import DecodeError

from crabgames.core.errors import InvalidArgument, bad_request
from crabgames.games.crab_rage.codec import decode_state
from crabgames.games.crab_rage.state import State, writable_player
from crabgames.v1.crab_rage_pb2 import CrabRageState


def resample_hidden(state: State, player: int | None, rng: random.Random) -> State:
    """Other players' pending commitments redrawn within what each holds."""
    copy = state.clone()
    for seat, p in enumerate(copy.players):
        if p.committed and seat != player:
            writable_player(copy, seat).commitment = rng.randint(0, p.hardcore)
    return copy


def state_from_view(view: Any, player: int, num_players: int, rng: random.Random) -> State:
    """The view's continuation is the whole state but for other players' pending commitments
    (G4): those drawn at random within the hardcore fans each holds."""
    path = "view.crab_rage.continuation"
    try:  # the view's continuation is checked like any state (every count bounded)
        msg = CrabRageState.FromString(view.continuation)
        state = decode_state(msg, num_players, path)
    except DecodeError:
        raise bad_request(path, "is not the continuation of a CRAB RAGE! view") from None
    except InvalidArgument as error:
        raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None
    return resample_hidden(state, player, rng)
