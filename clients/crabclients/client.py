"""A thin, typed client for crabgames.v1.RulesService that turns rich error details into
readable exceptions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc


@dataclass
class RulesServiceError(Exception):
    """A call the server refused, with its google.rpc details decoded."""

    code: grpc.StatusCode
    message: str
    reason: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[tuple[str, str]] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"{self.code.name}: {self.message}"
        if self.reason:
            text += f" [{self.reason}]"
        for path, why in self.field_violations:
            text += f"\n  {path}: {why}"
        return text


def decode_error(error: grpc.RpcError) -> RulesServiceError:
    result = RulesServiceError(error.code(), error.details() or "")
    status = rpc_status.from_call(error)
    for detail in status.details if status else []:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            result.reason, result.metadata = info.reason, dict(info.metadata)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            result.field_violations = [(v.field, v.description) for v in bad.field_violations]
    return result


class RulesClient:
    """Connect with `RulesClient.connect("127.0.0.1:50051")`; every call raises
    RulesServiceError on a refusal."""

    def __init__(self, channel: grpc.Channel, timeout: float = 10.0) -> None:
        self.channel = channel
        self.stub = api_grpc.RulesServiceStub(channel)
        self.timeout = timeout

    @classmethod
    def connect(cls, address: str, timeout: float = 10.0) -> RulesClient:
        channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(channel).result(timeout=timeout)
        return cls(channel, timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> RulesClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method, request):
        try:
            return method(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise decode_error(error) from None

    def list_games(self) -> list[api.GameInfo]:
        return list(self._call(self.stub.ListGames, api.ListGamesRequest()).games)

    def new_game(self, num_players: int, seed: int = 0, **options) -> api.NewGameResponse:
        """`options` is one keyword naming the game: kraby=KrabyOptions(), ..."""
        return self._call(
            self.stub.NewGame, api.NewGameRequest(num_players=num_players, seed=seed, **options)
        )

    def legal_moves(self, state: game_pb2.GameState) -> list[game_pb2.Move]:
        return list(self._call(self.stub.LegalMoves, api.LegalMovesRequest(state=state)).moves)

    def apply_move(
        self, state: game_pb2.GameState, move: game_pb2.Move, validate_only: bool = False
    ) -> api.ApplyMoveResponse:
        request = api.ApplyMoveRequest(state=state, move=move, validate_only=validate_only)
        return self._call(self.stub.ApplyMove, request)

    def view(self, state: game_pb2.GameState, player: int | None = None) -> game_pb2.View:
        request = api.GetViewRequest(state=state)
        if player is None:
            request.spectator = True
        else:
            request.player = player
        return self._call(self.stub.GetView, request).view

    def replay(
        self, new_game: api.NewGameRequest, moves: Iterable[game_pb2.Move]
    ) -> api.ReplayResponse:
        return self._call(self.stub.Replay, api.ReplayRequest(new_game=new_game, moves=moves))
