"""The browser protocols (service/browser.py) answer as gRPC does: Connect JSON, Connect binary
and gRPC-Web against real servers on loopback, the same calls made over gRPC beside them. A
whole game of each title gives byte-identical answers; refusals give the same code, message
and google.rpc details; CORS, `buf curl` and a plain `curl` work; the edge's bounds hold."""

from __future__ import annotations

import base64
import contextlib
import http.client
import importlib
import json
import os
import random
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format
from google.rpc import error_details_pb2 as rich
from google.rpc import status_pb2

from crabgames.service import edge
from crabgames.service.browser import serve_http
from crabgames.service.server import serve
from crabgames.v1 import crab_rage_pb2, game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1.rules_service_connect import RulesServiceClientSync

ROOT = Path(__file__).resolve().parents[1]
BUF = ROOT / ".venv" / "bin" / "buf"
RULES = "/crabgames.v1.RulesService"
ALLOWED_ORIGIN = "http://play.example.test"
GAMES = [("kraby", 3, 11), ("crab_bucket", 3, 12), ("crab_rage", 3, 13)]
PROTOCOLS = ["connect-json", "connect-proto", "grpc-web"]


# ----- the callers: each answers with the response's wire bytes, or raises Refusal -----


class Refusal(Exception):
    """A refused call as any protocol tells it: code, message, google.rpc details."""

    def __init__(self, code: str, message: str, details: list[tuple[str, bytes]]) -> None:
        super().__init__(code, message)
        self.code, self.message, self.details = code, message, details

    def as_tuple(self) -> tuple:
        return (self.code, self.message, self.details)

    def detail(self, message_class):
        for type_name, value in self.details:
            if type_name == message_class.DESCRIPTOR.full_name:
                return message_class.FromString(value)
        raise AssertionError(f"no {message_class.DESCRIPTOR.full_name} in {self.details}")


class RawCodec:
    """Binary: requests as given (a message or bytes), answers as the bytes received."""

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message if isinstance(message, bytes) else message.SerializeToString()

    def decode(self, data, message_class) -> bytes:
        return bytes(data)


class JsonCodec:
    """JSON on the wire; answers as the JSON text received."""

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return json_format.MessageToJson(message).encode()

    def decode(self, data, message_class) -> bytes:
        return bytes(data)


def as_json(method: str, answer: bytes) -> bytes:
    """A gRPC answer as protobuf's canonical JSON (the text the JSON protocol must give)."""
    message = getattr(api, f"{method}Response").FromString(answer)
    return json_format.MessageToJson(message, indent=None).encode()


def snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class GrpcCaller:
    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel

    def __call__(self, method: str, request, timeout: float = 30) -> bytes:
        data = request if isinstance(request, bytes) else request.SerializeToString()
        call = self.channel.unary_unary(f"{RULES}/{method}")
        try:
            return call(data, timeout=timeout)
        except grpc.RpcError as error:
            raise refusal_of_grpc(error) from None

    def stream(self, requests: list) -> list[bytes]:
        call = self.channel.stream_stream(f"{RULES}/ApplyMoves")
        answers: list[bytes] = []
        try:
            for answer in call(iter([r.SerializeToString() for r in requests]), timeout=30):
                answers.append(answer)
        except grpc.RpcError as error:
            raise refusal_of_grpc(error, answers) from None
        return answers


def refusal_of_grpc(error: grpc.RpcError, answers=None) -> Refusal:
    details: list[tuple[str, bytes]] = []
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            details = [(d.type_url.rsplit("/", 1)[-1], d.value) for d in status.details]
    code = error.code().name
    refused = Refusal("CANCELED" if code == "CANCELLED" else code, error.details(), details)
    refused.answers = answers or []
    return refused


class HttpCaller:
    def __init__(self, url: str, protocol: str) -> None:
        kind = ProtocolType.GRPC_WEB if protocol == "grpc-web" else ProtocolType.CONNECT
        self.json = protocol == "connect-json"
        codec = JsonCodec() if self.json else RawCodec()
        self.client = RulesServiceClientSync(
            url, codec=codec, protocol=kind, send_compression=None, accept_compression=()
        )

    def __call__(self, method: str, request, timeout: float = 30) -> bytes:
        try:
            return getattr(self.client, snake(method))(request, timeout_ms=int(timeout * 1000))
        except ConnectError as error:
            raise refusal_of_connect(error) from None

    def stream(self, requests: list) -> list[bytes]:
        answers: list[bytes] = []
        try:
            for answer in self.client.apply_moves(iter(requests), timeout_ms=30_000):
                answers.append(answer)
        except ConnectError as error:
            refused = refusal_of_connect(error)
            refused.answers = answers
            raise refused from None
        return answers


def refusal_of_connect(error: ConnectError) -> Refusal:
    details = [(d.type_name, d.message_bytes) for d in error.details]
    return Refusal(error.code.name, error.message, details)


# ----- servers -----


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[str, str]]:
    running = serve("127.0.0.1:0", threads=2)
    http_server = serve_http(running, "127.0.0.1:0", [ALLOWED_ORIGIN])
    try:
        yield f"127.0.0.1:{running.port}", f"http://127.0.0.1:{http_server.port}"
    finally:
        running.stop(0)  # its HTTP side first


@pytest.fixture(scope="module")
def grpc_caller(servers) -> Iterator[GrpcCaller]:
    with grpc.insecure_channel(servers[0]) as channel:
        yield GrpcCaller(channel)


@pytest.fixture(scope="module", params=PROTOCOLS)
def caller(request, servers) -> HttpCaller:
    return HttpCaller(servers[1], request.param)


# ----- a whole game, the same on every protocol -----

_transcripts: dict[tuple, list[tuple[str, object, bytes]]] = {}


def transcript(
    grpc_caller: GrpcCaller, game_id: str, players: int, seed: int, options=None
) -> list:
    """A whole game played over gRPC with seeded random moves: every call made and its answer
    (NewGame, then LegalMoves, GetView of the seat deciding and ApplyMove at each decision)."""
    key = (game_id, players, seed, options.SerializeToString() if options else b"")
    if key in _transcripts:
        return _transcripts[key]
    calls: list[tuple[str, object, bytes]] = []

    def call(method: str, request):
        answer = grpc_caller(method, request)
        calls.append((method, request, answer))
        return answer

    pick = random.Random(seed)
    new_game = api.NewGameRequest(num_players=players, seed=seed, **{game_id: options or {}})
    state = api.NewGameResponse.FromString(call("NewGame", new_game)).state
    for _ in range(2000):
        if state.next.kind != game_pb2.DECIDER_KIND_PLAYER:
            break
        listed = api.LegalMovesResponse.FromString(
            call("LegalMoves", api.LegalMovesRequest(state=state, with_mask=True))
        )
        call("GetView", api.GetViewRequest(state=state, player=state.next.player))
        move = pick.choice(list(listed.moves))
        state = api.ApplyMoveResponse.FromString(
            call("ApplyMove", api.ApplyMoveRequest(state=state, move=move))
        ).state
    assert state.next.kind == game_pb2.DECIDER_KIND_NONE, "the game did not end"
    call("GetView", api.GetViewRequest(state=state))
    _transcripts[key] = calls
    return calls


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_a_whole_game_gives_the_answers_grpc_gives_byte_for_byte(
    grpc_caller, caller, game_id, players, seed
):
    """Binary answers are gRPC's wire bytes; JSON ones, their canonical JSON (the engine writes
    some fields in another order than protobuf would, so JSON's bytes would be protobuf's)."""
    calls = transcript(grpc_caller, game_id, players, seed)
    for index, (method, request, expected) in enumerate(calls):
        if caller.json:
            expected = as_json(method, expected)
        assert caller(method, request) == expected, f"call {index}: {method}"


CONFORMANCE_CASES = [
    (game_id, players, options, 20 + index)
    for game_id in ("kraby", "crab_bucket", "crab_rage")
    for index, (players, options) in enumerate(
        importlib.import_module(f"tests.cases.{game_id}").CASES
    )
]


@pytest.mark.parametrize("protocol", ["connect-proto", "grpc-web"])
@pytest.mark.parametrize(
    ("game_id", "players", "options", "seed"),
    CONFORMANCE_CASES,
    ids=[f"{c[0]}-{c[1]}p-{c[3]}" for c in CONFORMANCE_CASES],
)
def test_every_conformance_case_plays_as_on_grpc(
    grpc_caller, servers, protocol, game_id, players, options, seed
):
    """The conformance suite's cases (every game, player count and option it tries) played
    whole over the binary browser protocols: every answer is gRPC's, byte for byte. (Connect's
    JSON, slower, plays the three games above.)"""
    caller = HttpCaller(servers[1], protocol)
    calls = transcript(grpc_caller, game_id, players, seed, options)
    for index, (method, request, expected) in enumerate(calls):
        assert caller(method, request) == expected, f"call {index}: {method}"


def test_an_apply_moves_stream_answers_as_on_grpc_and_ends_at_the_first_refusal(
    grpc_caller, caller
):
    calls = transcript(grpc_caller, *GAMES[0])
    moves = [api.ApplyMovesRequest(request=r) for m, r, _ in calls if m == "ApplyMove"][:20]
    expected = grpc_caller.stream(moves)
    if caller.json:
        expected = [as_json("ApplyMoves", answer) for answer in expected]
    assert caller.stream(moves) == expected
    # The third request expects another version of its state.
    stale = api.ApplyMovesRequest()
    stale.CopyFrom(moves[2])
    stale.request.expected_version = stale.request.state.version + 1
    refused_stream = [*moves[:2], stale, *moves[3:5]]
    with pytest.raises(Refusal) as over_grpc:
        grpc_caller.stream(refused_stream)
    with pytest.raises(Refusal) as over_http:
        caller.stream(refused_stream)
    assert over_http.value.as_tuple() == over_grpc.value.as_tuple()
    assert len(over_http.value.answers) == len(over_grpc.value.answers) == 2


# ----- refusals: the same code, message and details -----


def refusal_cases(grpc_caller: GrpcCaller) -> dict[str, tuple[str, object]]:
    calls = transcript(grpc_caller, *GAMES[0])
    first = next(r for m, r, _ in calls if m == "ApplyMove")
    last = [r for m, r, _ in calls if m == "ApplyMove"][-1]
    final = api.ApplyMoveResponse.FromString(grpc_caller("ApplyMove", last)).state
    three_seats = api.NewGameRequest(num_players=3, seed=5, crab_rage={})
    malformed = api.ApplyMoveRequest()
    malformed.CopyFrom(first)
    del malformed.state.kraby.hands[1:]
    wrong_player = api.ApplyMoveRequest()
    wrong_player.CopyFrom(first)
    wrong_player.move.player = 1
    stale = api.ApplyMoveRequest()
    stale.CopyFrom(first)
    stale.expected_version = first.state.version + 5
    return {
        "too many players (bad field path)": (
            "NewGame",
            api.NewGameRequest(num_players=9, seed=7, kraby={}),
        ),
        "malformed state (field path in the state)": ("ApplyMove", malformed),
        "illegal move (with its rule)": ("ApplyMove", wrong_player),
        "a move after the end": ("ApplyMove", api.ApplyMoveRequest(state=final, move=first.move)),
        "stale state": ("ApplyMove", stale),
        "a seat that does not exist": (
            "GetView",
            api.GetViewRequest(state=first.state, player=7),
        ),
        "a season given two ways": (
            "ScoreCrabRageSeason",
            api.ScoreCrabRageSeasonRequest(
                outcomes=[game_pb2.Outcome()], games=[crab_rage_pb2.CrabRageSeasonGame()]
            ),
        ),
        "no game chosen": ("NewGame", api.NewGameRequest(num_players=2)),
        "a replay with another game's move": (
            "Replay",
            api.ReplayRequest(new_game=three_seats, moves=[first.move]),
        ),
    }


REFUSALS = [
    "too many players (bad field path)",
    "malformed state (field path in the state)",
    "illegal move (with its rule)",
    "a move after the end",
    "stale state",
    "a seat that does not exist",
    "a season given two ways",
    "no game chosen",
    "a replay with another game's move",
]


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refusal_has_the_code_message_and_details_grpc_gives(grpc_caller, caller, case):
    method, request = refusal_cases(grpc_caller)[case]
    answers = []
    for call in (grpc_caller, caller):
        try:
            answer = call(method, request)
            if call is grpc_caller and caller.json:
                answer = as_json(method, answer)
            answers.append(("answered", answer))
        except Refusal as refused:
            answers.append(("refused", refused.as_tuple()))
    assert answers[1] == answers[0]


def test_the_refusals_carry_reason_rule_and_field_paths(grpc_caller, caller):
    cases = refusal_cases(grpc_caller)
    with pytest.raises(Refusal) as caught:
        caller(*cases["too many players (bad field path)"])
    assert caught.value.code == "INVALID_ARGUMENT"
    assert caught.value.detail(rich.ErrorInfo).reason == "MALFORMED_REQUEST"
    violations = caught.value.detail(rich.BadRequest).field_violations
    assert [v.field for v in violations] == ["num_players"]
    with pytest.raises(Refusal) as caught:
        caller(*cases["malformed state (field path in the state)"])
    assert caught.value.detail(rich.ErrorInfo).reason == "MALFORMED_STATE"
    assert caught.value.detail(rich.BadRequest).field_violations[0].field.startswith("state.")
    with pytest.raises(Refusal) as caught:
        caller(*cases["illegal move (with its rule)"])
    assert caught.value.code == "FAILED_PRECONDITION"
    info = caught.value.detail(rich.ErrorInfo)
    assert info.reason == "ILLEGAL_MOVE" and info.metadata["rule"]
    assert (
        caught.value.detail(rich.PreconditionFailure).violations[0].subject
        == (info.metadata["rule"])
    )


@pytest.mark.parametrize("protocol", ["connect-proto", "grpc-web"])
def test_bytes_that_do_not_parse_are_refused_as_on_grpc(grpc_caller, servers, protocol):
    caller = HttpCaller(servers[1], protocol)
    for method in ("LegalMoves", "ApplyMove", "NewGame", "GetView"):
        for data in (b"\xff\xff\xff", b"\x0a\x05ab", b"\x0a\x03\x08\x80\x80"):
            with pytest.raises(Refusal) as over_grpc:
                grpc_caller(method, data)
            with pytest.raises(Refusal) as over_http:
                caller(method, data)
            assert over_http.value.as_tuple() == over_grpc.value.as_tuple()


def test_json_that_does_not_parse_is_malformed_request(servers):
    url = servers[1] + f"{RULES}/NewGame"
    for body in (b"{", b'{"numPlayers": "many"}', b'{"kraby": {}, "nonsense": 1}', b"\xff"):
        status, _, answer = post(url, body, "application/json")
        assert status == 400
        error = json.loads(answer)
        assert error["code"] == "invalid_argument"
        assert error["details"][0]["type"] == "google.rpc.ErrorInfo"


def test_no_input_gives_an_unknown_or_internal_error(servers):
    pick = random.Random(17)
    methods = ["ListGames", "NewGame", "LegalMoves", "ApplyMove", "GetView", "SampleState"]
    for protocol in ("connect-proto", "grpc-web"):
        caller = HttpCaller(servers[1], protocol)
        for _ in range(60):
            data = bytes(pick.randrange(256) for _ in range(pick.randrange(1, 40)))
            try:
                caller(pick.choice(methods), data)
            except Refusal as refused:
                assert refused.code not in ("UNKNOWN", "INTERNAL"), (data, refused.message)
    url = servers[1] + f"{RULES}/ApplyMove"
    for body in (b"[]", b"null", b'{"state": []}', b'{"state": {"version": -1}}', b"[" * 5000):
        status, _, answer = post(url, body, "application/json")
        assert json.loads(answer)["code"] not in ("unknown", "internal"), body[:20]


# ----- CORS -----


def preflight(url: str, origin: str) -> tuple[int, dict[str, str]]:
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,connect-protocol-version",
    }
    status, answer_headers, _ = request(url, "OPTIONS", None, headers)
    return status, answer_headers


def test_a_preflight_is_allowed_for_a_configured_origin_and_refused_otherwise(servers):
    url = servers[1] + f"{RULES}/NewGame"
    status, headers = preflight(url, ALLOWED_ORIGIN)
    assert status == 200
    assert headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "connect-protocol-version" in headers["access-control-allow-headers"].lower()
    status, headers = preflight(url, "http://evil.example.test")
    assert status == 400
    assert "access-control-allow-origin" not in headers
    status, headers, _ = request(
        url,
        "POST",
        b'{"numPlayers": 2, "kraby": {}}',
        {"Content-Type": "application/json", "Origin": ALLOWED_ORIGIN},
    )
    assert status == 200 and headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "grpc-status-details-bin" in headers["access-control-expose-headers"].lower()


def test_without_configured_origins_no_cross_origin_call_is_allowed():
    running = serve("127.0.0.1:0", threads=1)
    http_server = serve_http(running, "127.0.0.1:0")
    try:
        url = f"http://127.0.0.1:{http_server.port}{RULES}/NewGame"
        status, headers = preflight(url, ALLOWED_ORIGIN)
        assert status != 200 and "access-control-allow-origin" not in headers
    finally:
        running.stop(0)  # its HTTP side first


# ----- buf curl and a plain curl -----


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize("protocol", ["connect", "grpcweb"])
def test_buf_curl_calls_the_http_side(servers, protocol):
    assert BUF.exists(), "buf is installed by make setup-dev"
    url = servers[1] + f"{RULES}/NewGame"
    buf = [str(BUF), "curl", "--schema", "protos", "--protocol", protocol]
    done = run(*buf, "-d", '{"num_players": 2, "seed": 7, "kraby": {}}', url)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["numPlayers"] == 2
    refused = run(*buf, "-d", '{"num_players": 9, "kraby": {}}', url)
    assert refused.returncode != 0
    error = json.loads(refused.stderr)
    assert error["code"] == "invalid_argument"
    assert [d["type"] for d in error["details"]] == [
        "google.rpc.ErrorInfo",
        "google.rpc.BadRequest",
    ]
    bad = rich.BadRequest.FromString(base64.b64decode(error["details"][1]["value"] + "=="))
    assert bad.field_violations[0].field == "num_players"


def test_a_plain_curl_with_json_plays_a_move(servers):
    url = servers[1] + RULES
    curl = ["curl", "-sS", "--fail-with-body", "-H", "Content-Type: application/json"]
    started = run(*curl, "-d", '{"numPlayers": 2, "seed": "7", "kraby": {}}', f"{url}/NewGame")
    assert started.returncode == 0, started.stderr + started.stdout
    state = json.loads(started.stdout)["state"]
    listed = run(*curl, "-d", json.dumps({"state": state}), f"{url}/LegalMoves")
    move = json.loads(listed.stdout)["moves"][0]
    played = run(*curl, "-d", json.dumps({"state": state, "move": move}), f"{url}/ApplyMove")
    assert played.returncode == 0, played.stdout
    assert int(json.loads(played.stdout)["state"]["version"]) > int(state["version"])


# ----- the edge's bounds hold on the HTTP side -----


def request(url: str, method: str, body: bytes | None, headers: dict[str, str]):
    host, _, rest = url.removeprefix("http://").partition("/")
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        connection.request(method, "/" + rest, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def post(url: str, body: bytes, content_type: str):
    return request(url, "POST", body, {"Content-Type": content_type})


@contextlib.contextmanager
def own_servers(module: object = edge, **limits: float) -> Iterator[tuple[object, int]]:
    """A gRPC and an HTTP server of their own, with some of `module`'s limits lowered (edge.py's
    by default)."""
    saved = {name: getattr(module, name) for name in limits}
    for name, value in limits.items():
        setattr(module, name, value)
    running = serve("127.0.0.1:0", threads=1)
    http_server = serve_http(running, "127.0.0.1:0")
    try:
        yield running, http_server.port
    finally:
        running.stop(0)  # its HTTP side first
        for name, value in saved.items():
            setattr(module, name, value)


def test_a_body_that_never_comes_times_out_and_holds_nothing():
    with own_servers(REQUEST_SECONDS=0.5) as (running, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                b"POST /crabgames.v1.RulesService/ListGames HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            started = time.monotonic()
            answer = sock.recv(65536).decode()
        assert time.monotonic() - started < 5
        assert answer.startswith("HTTP/1.1 504")  # Connect's deadline_exceeded
        assert '"deadline_exceeded"' in answer and "did not arrive within 0.5 s" in answer
        assert running.edge.calls == 0


def test_a_stream_whose_next_request_never_comes_ends_deadline_exceeded_as_on_grpc():
    """Over HTTP too the edge times each request of an ApplyMoves stream: one answered, the
    next withheld, the stream ends with REQUEST_TIMEOUT and holds no call."""
    with own_servers(STREAM_IDLE_SECONDS=0.5) as (running, port):
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            new_game = api.NewGameRequest(num_players=2, seed=7, kraby={})
            state = api.NewGameResponse.FromString(GrpcCaller(channel)("NewGame", new_game)).state
        move = api.LegalMovesResponse.FromString(
            HttpCaller(f"http://127.0.0.1:{port}", "connect-proto")(
                "LegalMoves", api.LegalMovesRequest(state=state)
            )
        ).moves[0]
        message = api.ApplyMovesRequest(
            request=api.ApplyMoveRequest(state=state, move=move)
        ).SerializeToString()
        frame = b"\0" + len(message).to_bytes(4, "big") + message
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                b"POST /crabgames.v1.RulesService/ApplyMoves HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/connect+proto\r\nTransfer-Encoding: chunked\r\n\r\n"
                + f"{len(frame):x}\r\n".encode()
                + frame
                + b"\r\n"
            )
            started, answer = time.monotonic(), b""
            while b"did not arrive" not in answer and time.monotonic() - started < 5:
                answer += sock.recv(65536)
        assert b"HTTP/1.1 200" in answer and b'"deadline_exceeded"' in answer
        assert b"the next request on the stream did not arrive within 0.5 s" in answer
        assert settled_to_zero(running)


def settled_to_zero(running) -> bool:
    """Whether the server's calls at work and open go back to none within a few seconds."""
    deadline = time.monotonic() + 3
    while running.edge.calls or running.edge.open_calls:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_request_over_the_message_limit_is_refused(servers):
    status, _, answer = post(
        servers[1] + f"{RULES}/LegalMoves", b"\x0a" + b"\xff" * (5 << 20), "application/proto"
    )
    assert status == 429 and json.loads(answer)["code"] == "resource_exhausted"


def test_calls_over_the_process_limit_are_refused_busy_as_on_grpc():
    with own_servers(MAX_CALLS=0) as (running, port):
        caller = HttpCaller(f"http://127.0.0.1:{port}", "connect-proto")
        with pytest.raises(Refusal) as caught:
            caller("ListGames", api.ListGamesRequest())
        assert caught.value.code == "RESOURCE_EXHAUSTED"
        assert caught.value.detail(rich.ErrorInfo).reason == "BUSY"


def test_a_long_call_stops_at_the_callers_deadline(grpc_caller, caller):
    state = api.NewGameResponse.FromString(
        grpc_caller("NewGame", api.NewGameRequest(num_players=5, seed=3, crab_rage={}))
    ).state
    started = time.monotonic()
    try:
        answer = caller("Playouts", api.PlayoutsRequest(state=state, count=10_000), timeout=0.3)
        if caller.json:
            assert json.loads(answer)["truncated"]
        else:
            assert api.PlayoutsResponse.FromString(answer).truncated
    except Refusal as refused:
        assert refused.code == "DEADLINE_EXCEEDED"
    assert time.monotonic() - started < 3


def test_make_run_serves_http_on_its_own_port_and_stops_on_sigterm():
    """The command line: --http-address beside --address, a line saying where, SIGTERM."""
    process = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "python"),
            "-m",
            "crabgames.service",
            "--address",
            "127.0.0.1:0",
            "--http-address",
            "127.0.0.1:0",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "WARNING"},
    )
    try:
        assert "listening on" in process.stdout.readline()
        line = process.stdout.readline()
        assert "HTTP on http://127.0.0.1:" in line, line
        url = line.split()[-1]
        status, _, answer = post(f"{url}{RULES}/ListGames", b"{}", "application/json")
        assert status == 200 and json.loads(answer)["games"]
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0


def test_an_answer_over_the_message_limit_is_refused_as_on_grpc():
    with own_servers() as (running, port):
        running.edge.message_limit = 300  # a new game's answer is larger
        request = api.NewGameRequest(num_players=2, seed=7, kraby={})
        with (
            grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel,
            pytest.raises(Refusal) as over_grpc,
        ):
            GrpcCaller(channel)("NewGame", request)
        assert over_grpc.value.detail(rich.ErrorInfo).reason == "ANSWER_TOO_LARGE"
        for protocol in ("connect-proto", "grpc-web"):
            with pytest.raises(Refusal) as over_http:
                HttpCaller(f"http://127.0.0.1:{port}", protocol)("NewGame", request)
            assert over_http.value.as_tuple() == over_grpc.value.as_tuple()


def test_a_browser_asks_the_search_bot_for_a_move(grpc_caller, caller):
    """SuggestMove over Connect and gRPC-Web: the answer is the same as over gRPC."""
    state = api.NewGameResponse.FromString(
        grpc_caller("NewGame", api.NewGameRequest(num_players=2, seed=4, kraby={}))
    ).state
    request = api.SuggestMoveRequest(state=state, max_simulations=20, seed=6)
    over_grpc = api.SuggestMoveResponse.FromString(grpc_caller("SuggestMove", request))
    answer = caller("SuggestMove", request)
    if caller.json:
        parsed = api.SuggestMoveResponse()
        json_format.Parse(answer, parsed)
    else:
        parsed = api.SuggestMoveResponse.FromString(answer)
    assert parsed == over_grpc and parsed.simulations == 20
