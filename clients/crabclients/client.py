"""A thin, typed client for crabgames.v1.RulesService that turns rich error details into
readable exceptions.

    with RulesClient.connect(timeout=5) as client:   # CRABGAMES_ADDRESS, or 127.0.0.1:50051
        state = client.new_game("kraby", num_players=3, seed=7).state
        moves = client.legal_moves(state)
        state = client.apply_move(state, moves[0]).state

Every client and tool here finds the server at CRABGAMES_ADDRESS (`default_address`), the same
variable the server listens on, so one setting moves both. A server that cannot be reached is
a ServiceUnavailableError saying why (reach.py: nothing listening, TLS expected or not spoken,
a certificate not trusted, an HTTP port).

Channels retry UNAVAILABLE with the service config (service_config.json, a copy of
deploy/service_config.json shipped with the package) and ping idle connections. Over TLS:
`RulesClient.connect(address, tls=Tls(ca_file="ca.pem"))`, with `cert_file` and `key_file` for
a server that asks for client certificates, or CRABGAMES_TLS_CA, CRABGAMES_TLS_CLIENT_CERT and
CRABGAMES_TLS_CLIENT_KEY in the environment (so every tool built on `connect`, the bots and the
terminal player among them, speaks TLS without a flag of its own).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from crabclients.reach import diagnose
from crabgames.service.addresses import ADDRESS_VAR, DEFAULT_ADDRESS
from crabgames.v1 import crab_bucket_pb2, crab_rage_pb2, game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

# The options message of each game, by game id (the name of the oneof fields selecting it).
OPTIONS: dict[str, type[Message]] = {
    "kraby": kraby_pb2.KrabyOptions,
    "crab_bucket": crab_bucket_pb2.CrabBucketOptions,
    "crab_rage": crab_rage_pb2.CrabRageOptions,
}

GAME_OVER = game_pb2.DECIDER_KIND_NONE
CHANCE = game_pb2.DECIDER_KIND_CHANCE
PLAYER = game_pb2.DECIDER_KIND_PLAYER

Response = TypeVar("Response")

# deploy/service_config.json (tests/test_client_channel.py keeps the copies identical).
SERVICE_CONFIG = resources.files("crabclients").joinpath("service_config.json").read_text()
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # the server's limit each way
# A ping every 60 s on an idle connection (answered within 20 s, or the connection is dropped
# and the next call reconnects) notices a connection a NAT or load balancer forgot; the server
# accepts pings every 30 s (crabgames.service.server.KEEPALIVE_OPTIONS).
KEEPALIVE_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.keepalive_time_ms", 60_000),
    ("grpc.keepalive_timeout_ms", 20_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),  # keep pinging an idle connection
]


def default_address(env: Mapping[str, str] = os.environ) -> str:
    """The server's address: CRABGAMES_ADDRESS (the server's own setting), else the server's
    default."""
    return env.get(ADDRESS_VAR, "").strip() or DEFAULT_ADDRESS


def channel_options(tls: Tls | None = None) -> list[tuple[str, Any]]:
    """The options of every channel `connect` opens: retries on UNAVAILABLE (the service
    config), keepalive, the message limit, and a TLS server name override."""
    options: list[tuple[str, Any]] = [
        ("grpc.service_config", SERVICE_CONFIG),
        ("grpc.enable_retries", 1),
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        *KEEPALIVE_OPTIONS,
    ]
    if tls is not None and tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return options


@dataclass(frozen=True)
class Tls:
    """How to reach a server over TLS: the CA that signed its certificate (None: the system's
    roots), this client's certificate and key when the server asks for one (mutual TLS), and
    the name to expect in the server's certificate when it differs from the address's host."""

    ca_file: str | Path | None = None
    cert_file: str | Path | None = None
    key_file: str | Path | None = None
    server_name: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Tls | None:
        """From CRABGAMES_TLS_CA, CRABGAMES_TLS_CLIENT_CERT, CRABGAMES_TLS_CLIENT_KEY and
        CRABGAMES_TLS_SERVER_NAME; CRABGAMES_TLS=1 alone means TLS with the system's roots.
        None (plain TCP) when none is set."""
        ca = env.get("CRABGAMES_TLS_CA") or None
        cert = env.get("CRABGAMES_TLS_CLIENT_CERT") or None
        key = env.get("CRABGAMES_TLS_CLIENT_KEY") or None
        name = env.get("CRABGAMES_TLS_SERVER_NAME") or None
        if not (ca or cert or key or name or env.get("CRABGAMES_TLS", "") in ("1", "true")):
            return None
        return cls(ca, cert, key, name)

    def credentials(self) -> grpc.ChannelCredentials:
        if (self.cert_file is None) != (self.key_file is None):
            raise ValueError("a client certificate needs its key, and a key its certificate")
        return grpc.ssl_channel_credentials(
            root_certificates=read_file(self.ca_file),
            private_key=read_file(self.key_file),
            certificate_chain=read_file(self.cert_file),
        )


def read_file(path: str | Path | None) -> bytes | None:
    return None if path is None else Path(path).read_bytes()


def open_channel(
    address: str, tls: Tls | bool | None = None, options: Sequence[tuple[str, Any]] = ()
) -> grpc.Channel:
    """A channel to `address` with `channel_options`: over TLS with `tls` (True: the system's
    roots), plain with False, and as the environment says (Tls.from_env) with None."""
    if tls is None:
        tls = Tls.from_env()
    elif tls is True:
        tls = Tls()
    if not tls:
        return grpc.insecure_channel(address, [*channel_options(), *options])
    return grpc.secure_channel(address, tls.credentials(), [*channel_options(tls), *options])


@dataclass
class RulesServiceError(Exception):
    """A call the server refused, with its google.rpc details decoded."""

    code: grpc.StatusCode
    message: str
    reason: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[tuple[str, str]] = field(default_factory=list)

    @property
    def rule(self) -> str:
        """For an illegal move: the rulebook section or ruling id it breaks."""
        return self.metadata.get("rule", "")

    def __str__(self) -> str:
        text = f"{self.code.name}: {self.message}"
        if self.reason:
            text += f" [{self.reason}]"
        if self.rule:
            text += f" (rule {self.rule})"
        for path, why in self.field_violations:
            text += f"\n  {path}: {why}"
        return text


class MalformedError(RulesServiceError):
    """INVALID_ARGUMENT: a request, state or move that does not decode (see field_violations)."""


class IllegalMoveError(RulesServiceError):
    """FAILED_PRECONDITION / ILLEGAL_MOVE: a well-formed move the rules forbid now (see rule)."""


class GameOverError(RulesServiceError):
    """FAILED_PRECONDITION / GAME_OVER: a move sent after the game ended."""


class StaleStateError(RulesServiceError):
    """ABORTED / STALE_STATE: the state moved on since the move was decided."""


class ServiceUnavailableError(RulesServiceError):
    """UNAVAILABLE or DEADLINE_EXCEEDED: the server could not be reached in time."""


_BY_REASON: dict[str, type[RulesServiceError]] = {
    "ILLEGAL_MOVE": IllegalMoveError,
    "GAME_OVER": GameOverError,
    "STALE_STATE": StaleStateError,
}
_BY_CODE: dict[grpc.StatusCode, type[RulesServiceError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: MalformedError,
    grpc.StatusCode.UNAVAILABLE: ServiceUnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: ServiceUnavailableError,
}


def decode_error(error: grpc.RpcError) -> RulesServiceError:
    """The most specific RulesServiceError for a failed call, rich details decoded."""
    code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
    message = (error.details() if isinstance(error, grpc.Call) else str(error)) or ""
    reason, metadata, violations = "", {}, []
    status = rpc_status.from_call(error) if isinstance(error, grpc.Call) else None
    details: list[Any] = list(status.details) if status else []
    for detail in details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason, metadata = info.reason, dict(info.metadata)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations = [(v.field, v.description) for v in bad.field_violations]
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            for v in failure.violations:
                metadata.setdefault("rule", v.subject)
                metadata.setdefault("reason", v.description)
    kind = _BY_REASON.get(reason) or _BY_CODE.get(code, RulesServiceError)
    return kind(code, message, reason, metadata, violations)


def options_for(game: str, options: Message | None = None) -> dict[str, Message]:
    """The `NewGameRequest` keyword selecting `game`, with default options if none are given."""
    if game not in OPTIONS:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(sorted(OPTIONS))}")
    return {game: options if options is not None else OPTIONS[game]()}


class RulesClient:
    """Connect with `RulesClient.connect()` (CRABGAMES_ADDRESS, or 127.0.0.1:50051) or
    `RulesClient.connect("host:port")`; every call raises a RulesServiceError (or one of its
    subclasses) on a refusal, and gives up after `timeout` seconds."""

    def __init__(self, channel: grpc.Channel, timeout: float = 10.0) -> None:
        self.channel = channel
        self.stub = api_grpc.RulesServiceStub(channel)
        self.timeout = timeout

    @classmethod
    def connect(
        cls,
        address: str | None = None,
        timeout: float = 10.0,
        tls: Tls | bool | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> RulesClient:
        """Open a channel to `address` (None: `default_address()`; `open_channel`: TLS as `tls`
        or the environment says, retries, keepalive; `options` added) and wait up to `timeout`
        seconds for the server to be reachable; if it is not, the error says why."""
        address = address or default_address()
        if tls is None:
            tls = Tls.from_env()
        elif tls is True:
            tls = Tls()
        channel = open_channel(address, tls, options)
        try:
            grpc.channel_ready_future(channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            channel.close()
            # gRPC does not say why (a TLS server called in plaintext looks like one that is
            # down): the address is asked directly.
            why = diagnose(address, tls or None)
            raise ServiceUnavailableError(
                grpc.StatusCode.UNAVAILABLE,
                f"no rules server answers at {address} after {timeout:g} s: {why}",
            ) from None
        return cls(channel, timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> RulesClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: Callable[..., Response], request: Any) -> Response:
        try:
            return method(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise decode_error(error) from None

    def list_games(self) -> list[api.GameInfo]:
        return list(self._call(self.stub.ListGames, api.ListGamesRequest()).games)

    def new_game(
        self,
        game: str,
        num_players: int,
        seed: int = 0,
        options: Message | None = None,
        chance_mode: game_pb2.ChanceMode.ValueType = game_pb2.CHANCE_MODE_AUTO,
    ) -> api.NewGameResponse:
        """Start `game` ("kraby", "crab_bucket", "crab_rage"); default options when none."""
        return self._call(
            self.stub.NewGame, new_game_request(game, num_players, seed, options, chance_mode)
        )

    def legal_moves(self, state: game_pb2.GameState, player_token: str = "") -> list[game_pb2.Move]:
        return self.legal_moves_response(state, player_token).moves[:]

    def legal_moves_response(
        self, state: game_pb2.GameState, player_token: str = "", with_mask: bool = False
    ) -> api.LegalMovesResponse:
        """The legal moves with the next decision, the move-id space size and, when asked for,
        the legal-move mask."""
        request = api.LegalMovesRequest(state=state, player_token=player_token, with_mask=with_mask)
        return self._call(self.stub.LegalMoves, request)

    def apply_move(
        self,
        state: game_pb2.GameState,
        move: game_pb2.Move,
        validate_only: bool = False,
        expected_version: int | None = None,
        player_token: str = "",
        events: api.EventSelection | None = None,
    ) -> api.ApplyMoveResponse:
        """`events`: which event lists to return (None: all; an empty selection: none)."""
        request = api.ApplyMoveRequest(
            state=state, move=move, validate_only=validate_only, player_token=player_token
        )
        if expected_version is not None:
            request.expected_version = expected_version
        if events is not None:
            request.events.CopyFrom(events)
        return self._call(self.stub.ApplyMove, request)

    def view(
        self, state: game_pb2.GameState, player: int | None = None, player_token: str = ""
    ) -> game_pb2.View:
        """`player`'s view, or a spectator's when `player` is None."""
        request = api.GetViewRequest(state=state, player_token=player_token)
        if player is None:
            request.spectator = True
        else:
            request.player = player
        return self._call(self.stub.GetView, request).view

    def observation(
        self, state: game_pb2.GameState, player: int, player_token: str = ""
    ) -> api.GetViewResponse:
        """`player`'s view with its observation tensor (GameInfo.observation_shape, flat)."""
        request = api.GetViewRequest(
            state=state, player=player, player_token=player_token, with_observation=True
        )
        return self._call(self.stub.GetView, request)

    def replay(
        self, new_game: api.NewGameRequest, moves: Iterable[game_pb2.Move]
    ) -> api.ReplayResponse:
        return self._call(self.stub.Replay, api.ReplayRequest(new_game=new_game, moves=moves))

    def playouts(
        self, state: game_pb2.GameState, count: int, seed: int = 0
    ) -> api.PlayoutsResponse:
        """`count` random games played to the end inside the server from `state` (a sampled
        state when the game has hidden information): each seat's mean score and win rate."""
        return self._call(
            self.stub.Playouts, api.PlayoutsRequest(state=state, count=count, seed=seed)
        )

    def sample_state(self, view: game_pb2.View, seed: int = 0) -> game_pb2.GameState:
        """A full state consistent with a player's view (hidden information drawn at random)."""
        return self._call(self.stub.SampleState, api.SampleStateRequest(view=view, seed=seed)).state

    def suggest_move(
        self,
        position: game_pb2.View | game_pb2.GameState,
        max_simulations: int = 0,
        max_milliseconds: int = 0,
        seed: int = 0,
        player_token: str = "",
    ) -> api.SuggestMoveResponse:
        """The server's search bot's move for the seat that decides: from that seat's view, or
        from a state (with its token on a sealing server). 0: the server's default budget
        (50000 simulations, 1000 ms); the call's timeout leaves the search time to answer."""
        request = api.SuggestMoveRequest(
            max_simulations=max_simulations,
            max_milliseconds=max_milliseconds,
            seed=seed,
            player_token=player_token,
        )
        if isinstance(position, game_pb2.View):
            request.view.CopyFrom(position)
        else:
            request.state.CopyFrom(position)
        return self._call(self.stub.SuggestMove, request)


def new_game_request(
    game: str,
    num_players: int,
    seed: int = 0,
    options: Message | None = None,
    chance_mode: game_pb2.ChanceMode.ValueType = game_pb2.CHANCE_MODE_AUTO,
) -> api.NewGameRequest:
    return api.NewGameRequest(
        num_players=num_players,
        seed=seed,
        chance_mode=chance_mode,
        **options_for(game, options),  # type: ignore[arg-type]
    )
