"""Issue 27's bounds, each on its own (the whole campaign is tests/test_attack.py): every HTTP
port bounds a request's head in size, in time and in connections per address
(service/http.py); Connect JSON is bounded before it is parsed; a framed message flagged
compressed without an announced compression is INVALID_ARGUMENT; calls that send nothing fill
only their own peer's share; long calls run in processes of their own, and one that dies is
replaced."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
import time

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from crabgames.service import browser, http
from crabgames.service.edge import OPEN_CALLS_PER_PEER, REFUSED_BURST, REFUSED_PER_MINUTE, Edge
from crabgames.service.limits import REQUEST_BYTES, WIRE_BYTES_PER_JSON_CONTAINER
from crabgames.service.server import serve
from crabgames.v1 import crab_rage_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.test_browser_protocols import own_servers

RULES = "/crabgames.v1.RulesService"


def servers(**http_limits: float) -> contextlib.AbstractContextManager[tuple[object, int]]:
    """A gRPC server and its HTTP side, with some of http.py's limits lowered."""
    return own_servers(http, **http_limits)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return sock


def answer_of(sock: socket.socket) -> bytes:
    """What the server sent before it closed the connection (b"" when it said nothing)."""
    data = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def lives(port: int) -> bool:
    """Whether a plain GET of the page's path is answered (any status)."""
    with connect(port) as sock:
        sock.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return answer_of(sock).startswith(b"HTTP/1.1 ")


@pytest.mark.parametrize("where", ["request line", "header value"])
def test_a_head_that_never_ends_is_refused_431_after_16_kib(where):
    with servers() as (_, port), connect(port) as sock:
        sock.sendall(b"GET /" if where == "request line" else b"GET / HTTP/1.1\r\nX-Long: ")
        with contextlib.suppress(OSError):  # the server closes while we still send
            for _ in range(64):  # 4 MiB at most
                sock.sendall(b"a" * 65536)
        assert answer_of(sock).startswith(b"HTTP/1.1 431 ")
        assert lives(port)


def test_a_whole_head_over_16_kib_in_one_read_is_refused_431():
    head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (20 * 1024) + b"\r\n\r\n"
    with servers() as (_, port), connect(port) as sock:
        sock.sendall(head)
        assert answer_of(sock).startswith(b"HTTP/1.1 431 ")


def test_a_head_that_is_not_finished_in_time_is_closed():
    with servers(HEAD_SECONDS=0.5) as (_, port), connect(port) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nX-Slow: a")
        started = time.monotonic()
        assert answer_of(sock) == b""
        assert time.monotonic() - started < 5


def test_one_address_holds_at_most_its_share_of_connections():
    with servers() as (_, port):
        held = [connect(port, "127.0.0.2") for _ in range(browser.CONNECTIONS_PER_PEER)]
        try:
            with connect(port, "127.0.0.2") as extra:
                assert answer_of(extra) == b""  # closed at once, unanswered
            assert lives(port)  # another address is served
        finally:
            for sock in held:
                sock.close()


def post(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes, dict]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def test_connect_json_of_empty_objects_is_refused_before_it_is_parsed():
    """A Replay of empty moves: far more objects than a Replay's bound allows, refused unread
    (parsing 1.4 million of them held the event loop 9 s)."""
    budget = REQUEST_BYTES["Replay"] // WIRE_BYTES_PER_JSON_CONTAINER
    body = b'{"moves": [' + b",".join([b"{}"] * (budget + 1)) + b"]}"
    with servers() as (_, port):
        started = time.monotonic()
        status, data, _ = post(port, f"{RULES}/Replay", body, {"Content-Type": "application/json"})
        assert time.monotonic() - started < 2
    error = json.loads(data)
    assert status == 429 and error["code"] == "resource_exhausted"
    assert "objects and arrays" in error["message"]


def test_connect_json_over_its_methods_bound_is_refused():
    body = b'{"outcomes": [], "x": "' + b"a" * (8 * REQUEST_BYTES["ScoreCrabRageSeason"]) + b'"}'
    with servers() as (_, port):
        status, data, _ = post(
            port, f"{RULES}/ScoreCrabRageSeason", body, {"Content-Type": "application/json"}
        )
    assert status == 429 and json.loads(data)["code"] == "resource_exhausted"


def grpc_web_frame(flags: int, payload: bytes) -> bytes:
    return bytes([flags]) + len(payload).to_bytes(4, "big") + payload


def grpc_web_trailers(body: bytes) -> dict[str, str]:
    """The trailers frame (flags 0x80) of a gRPC-Web answer."""
    at = 0
    while at < len(body):
        flags, length = body[at], int.from_bytes(body[at + 1 : at + 5], "big")
        if flags & 0x80:
            lines = body[at + 5 : at + 5 + length].decode().strip().split("\r\n")
            return dict(line.split(": ", 1) for line in lines)
        at += 5 + length
    return {}


def test_a_compressed_frame_without_an_announced_compression_is_invalid_argument():
    body = grpc_web_frame(1, b"\x1f\x8b not really gzip")
    headers = {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"}
    with servers() as (_, port):
        status, data, _ = post(port, f"{RULES}/ListGames", body, headers)
        trailers = grpc_web_trailers(data)
        assert status == 200
        assert trailers["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
        details = status_pb2.Status.FromString(
            base64.b64decode(trailers["grpc-status-details-bin"] + "==")
        )
        bad = error_details_pb2.BadRequest()
        assert any(d.Unpack(bad) for d in details.details)
        assert bad.field_violations[0].field == "request"
        # the same call, not flagged, is answered
        status, data, _ = post(port, f"{RULES}/ListGames", grpc_web_frame(0, b""), headers)
        assert grpc_web_trailers(data)["grpc-status"] == "0"


def test_calls_open_beyond_a_peers_share_are_refused_and_another_peer_is_not():
    class Servicer:
        ledger = None
        sealer = None

        def admit(self, method: str, peer: str) -> None:
            pass

    gate = Edge(Servicer(), 1, 1024)  # type: ignore[arg-type]
    try:
        for _ in range(OPEN_CALLS_PER_PEER):
            assert gate.opened("ipv4:127.0.0.2") is None
        refused = gate.opened("ipv4:127.0.0.2")
        assert refused is not None and refused.reason == "BUSY"
        assert gate.opened("ipv4:127.0.0.1") is None
        gate.closed("ipv4:127.0.0.2")
        assert gate.opened("ipv4:127.0.0.2") is None  # a closed call gives its place back
    finally:
        gate.close()


def raging_state(stub: api_grpc.RulesServiceStub) -> object:
    request = api.NewGameRequest(num_players=5, seed=3, crab_rage=crab_rage_pb2.CrabRageOptions())
    state = stub.NewGame(request, timeout=10).state
    for player in state.crab_rage.players:
        player.rage = 100_000
    return state


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def working(pids: list[int]) -> list[int]:
    """The processes that have used more CPU than starting takes (about a second): at work."""
    return [pid for pid in pids if cpu_seconds(pid) > 1.5]


def test_a_long_call_runs_in_a_process_of_its_own_and_one_that_dies_is_replaced():
    running = serve("127.0.0.1:0", threads=1)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = api_grpc.RulesServiceStub(channel)
            state = raging_state(stub)
            request = api.SuggestMoveRequest(state=state, max_milliseconds=5000, seed=1)
            future = stub.SuggestMove.future(request, timeout=30)  # 5 s of search
            deadline = time.monotonic() + 30
            while not (busy := working(running.edge.long_pool.pids())):
                assert time.monotonic() < deadline, "no long-call process at work"
                assert not future.done(), future.result()
                time.sleep(0.05)
            os.kill(busy[0], signal.SIGKILL)  # as the kernel's OOM killer would
            with pytest.raises(grpc.RpcError) as caught:
                future.result()
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "retry" in caught.value.details()
            answer = stub.Playouts(api.PlayoutsRequest(state=state, count=2, seed=1), timeout=30)
            assert answer.games == 2  # a new process took its place
    finally:
        running.stop(0)


def test_a_compressed_grpc_request_inflates_no_further_than_grpcs_limit():
    """A gzip bomb (4 MiB of empty sub-messages in about 4 KB): refused for its size by gRPC,
    which stops inflating at its receive limit; the server's memory does not grow by it."""
    running = serve("127.0.0.1:0", threads=1)
    bomb = b"\x0a\x00" * (2 * 1024 * 1024)
    try:
        before = peak_kib()
        with grpc.insecure_channel(
            f"127.0.0.1:{running.port}",
            options=[("grpc.max_send_message_length", 8 << 20)],
            compression=grpc.Compression.Gzip,
        ) as channel:
            for _ in range(8):
                with pytest.raises(grpc.RpcError) as caught:
                    channel.unary_unary(f"{RULES}/Replay")(bomb, timeout=10)
                assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            stub = api_grpc.RulesServiceStub(channel)
            assert stub.ListGames(api.ListGamesRequest(), timeout=10).games  # compressed, small
        # Parsed, each bomb would be 2 million messages, hundreds of MiB.
        assert peak_kib() - before < 64 * 1024
    finally:
        running.stop(0)


def peak_kib() -> int:
    """This process's peak resident memory (the in-process server's too)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))


def test_a_peer_whose_requests_keep_being_refused_unread_is_held_then_refused_unread():
    """Bombs gRPC refuses before our code sees them cost a core each: after REFUSED_BURST of
    them a peer's calls wait and are refused without being read, until its budget refills
    (one a second); a peer sending what may be read is never counted."""
    running = serve("127.0.0.1:0", threads=1)
    bomb = b"\x0a\x00" * (2 * 1024 * 1024)
    try:
        with grpc.insecure_channel(
            f"127.0.0.1:{running.port}",
            options=[("grpc.max_send_message_length", 8 << 20)],
            compression=grpc.Compression.Gzip,
        ) as channel:
            stub = api_grpc.RulesServiceStub(channel)
            for _ in range(20):  # well-formed calls never count
                stub.ListGames(api.ListGamesRequest(), timeout=10)
            # A bomb, then a well-formed call, until that call is held and refused unread. The
            # budget refills while the bombs are sent (a loaded machine may take a second for a
            # burst of them), so the count of bombs it takes is at least the burst, not exactly.
            bombs = 0
            while True:
                with pytest.raises(grpc.RpcError) as caught:
                    channel.unary_unary(f"{RULES}/Replay")(bomb, timeout=10)
                assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                bombs += 1
                started = time.monotonic()
                try:
                    stub.ListGames(api.ListGamesRequest(), timeout=10)
                except grpc.RpcError as refused:
                    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    assert "refused unread" in (refused.details() or "")
                    assert time.monotonic() - started > 0.3  # held before it was refused
                    break
                assert bombs < 4 * REFUSED_BURST, "the bombs never used the budget up"
            assert bombs >= REFUSED_BURST  # a burst of them is allowed
            time.sleep(60 / REFUSED_PER_MINUTE)  # a token earned back
            assert stub.ListGames(api.ListGamesRequest(), timeout=10).games
    finally:
        running.stop(0)
