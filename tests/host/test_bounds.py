"""Every door of the host is bounded like the rules service's (docs/security.md "Every caller
is hostile"): bad input of every kind is a 4xx with JSON {code, message, field}, never a 500;
bodies are bounded in size, time and nesting before they are parsed; new tables are limited per
address; event streams are bounded per address and in total; heads as on the service's HTTP
ports."""

from __future__ import annotations

import http.client
import json
import random
import socket
import time

import pytest

from crabclients.host.limits import BODY_BYTES, BODY_SECONDS, JSON_DEPTH
from tests.host.conftest import running_host
from tests.host.web import Stream, call, human_keys, new_table, ok, refused

KRABY = {"game": "kraby", "players": 2}


@pytest.fixture(scope="module")
def plain(server_address):
    """A host with the in-process store, for the bounds the store has no part in."""
    with running_host(server_address) as running:
        yield running


@pytest.fixture(scope="module")
def table(host):
    created = new_table(host.port, "kraby", 2)
    message = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))
    seat = message["view"]["next"]["player"]
    return created, human_keys(created), seat


def bad_tables() -> list[tuple[object, str, str]]:
    """(body, code, field) of table requests the host refuses."""
    return [
        ([], "bad_json", ""),
        ("kraby", "bad_json", ""),
        ({}, "bad_request", "game"),
        ({**KRABY, "game": "chess"}, "bad_request", "game"),
        ({**KRABY, "game": 7}, "bad_request", "game"),
        ({**KRABY, "players": 9}, "bad_request", "players"),
        ({**KRABY, "players": True}, "bad_request", "players"),
        ({**KRABY, "players": "2"}, "bad_request", "players"),
        (b'{"game": "kraby", "players": 1' + b"0" * 5000 + b"}", "bad_json", ""),
        ({**KRABY, "colour": "red"}, "bad_request", "colour"),
        ({**KRABY, "options": []}, "bad_request", "options"),
        ({**KRABY, "options": {"noSuchOption": 1}}, "bad_request", "options"),
        ({**KRABY, "options": {"firstPlayer": "x" * 100}}, "bad_request", "options"),
        ({**KRABY, "seats": {}}, "bad_request", "seats"),
        (
            {"game": "crab_bucket", "players": 2, "options": {"missions": [{"name": "x" * 9000}]}},
            "bad_request",
            "options",
        ),
        ({**KRABY, "seats": [{}, {}, {}]}, "bad_request", "seats"),
        ({**KRABY, "seats": [7]}, "bad_request", "seats[0]"),
        ({**KRABY, "seats": [{"name": "x" * 33}]}, "bad_request", "seats[0].name"),
        ({**KRABY, "seats": [{"name": "a\nb"}]}, "bad_request", "seats[0].name"),
        ({**KRABY, "seats": [{"name": 5}]}, "bad_request", "seats[0].name"),
        ({**KRABY, "seats": [None, {"bot": "deep-blue"}]}, "bad_request", "seats[1].bot"),
        ({**KRABY, "seats": [{"robot": True}]}, "bad_request", "seats[0].robot"),
    ]


@pytest.mark.parametrize(("body", "code", "field"), bad_tables())
def test_a_bad_table_request_is_a_400_naming_its_field(plain, body, code, field):
    answer = refused(call(plain.port, "POST", "/api/tables", raw=encode(body)), 400, code)
    assert answer["field"] == field


def encode(body: object) -> bytes:
    return json.dumps(body).encode() if not isinstance(body, bytes) else body


def test_options_the_service_refuses_are_a_400_with_its_reason(host):
    body = {"game": "crab_rage", "players": 3, "options": {"microphone": 7}}
    answer = refused(call(host.port, "POST", "/api/tables", body), 400, "malformed")
    assert answer["reason"].startswith("MALFORMED") and "microphone" in answer["field"]


def test_bad_moves_keys_and_addresses_are_4xx_json(host, table):
    created, keys, seat = table
    path = f"/api/seats/{keys[seat]}/moves"
    version = created["version"]
    cases = [
        (path, {"move": {}}, 400, "bad_request", "version"),
        (path, {"version": -1, "move": {}}, 400, "bad_request", "version"),
        (path, {"version": 2**70, "move": {}}, 400, "bad_request", "version"),
        (path, {"version": "1", "move": {}}, 400, "bad_request", "version"),
        (path, {"version": version}, 400, "bad_request", "move"),
        (path, {"version": version, "move": []}, 400, "bad_request", "move"),
        (path, {"version": version, "move": {"kraby": {"nope": 1}}}, 400, "bad_request", "move"),
        (path, {"version": version, "move": {"player": "x"}}, 400, "bad_request", "move"),
        (path, {"version": version, "move": {}}, 400, "malformed", "move.move"),
        (path, {"version": version, "move": {}, "x": 1}, 400, "bad_request", "x"),
        ("/api/seats/nonsense/moves", {"version": 1, "move": {}}, 403, "bad_key", "key"),
        (
            f"/api/seats/{created['table']}.0.wrong/moves",
            {"version": 1, "move": {}},
            403,
            "bad_key",
            "key",
        ),
        (
            f"/api/seats/{created['table']}.7.{keys[0].split('.')[2]}/moves",
            {"version": 1, "move": {}},
            403,
            "bad_key",
            "key",
        ),
        (
            "/api/seats/nosuchtable.0.secret/moves",
            {"version": 1, "move": {}},
            404,
            "no_table",
            "table",
        ),
    ]
    for where, body, status, code, field in cases:
        answer = refused(call(host.port, "POST", where, body), status, code)
        assert answer["field"] == field, (body, answer)
    for where, status, code in [
        ("/api/tables/nosuchtable", 404, "no_table"),
        ("/api/tables/nosuchtable/events", 404, "no_table"),
        ("/api/seats/x.0.y", 404, "no_table"),
        ("/api/seats/bad", 403, "bad_key"),
        ("/api/records/nosuchrecord", 404, "no_record"),
        ("/api/records/nosuchrecord/steps", 404, "no_record"),
        (f"/api/tables/{created['table']}?since=-1", 400, "bad_request"),
        (f"/api/tables/{created['table']}?since=" + "9" * 30, 400, "bad_request"),
        ("/api/nothing-here", 404, "not_found"),
        # Digits int() does not read (a superscript two), where a number is expected.
        (f"/api/seats/{created['table']}.%C2%B2.secret", 403, "bad_key"),
        (f"/api/tables/{created['table']}?since=%C2%B2", 400, "bad_request"),
    ]:
        refused(call(host.port, "GET", where), status, code)
    record = ok(call(host.port, "POST", f"/api/tables/{created['table']}/records"), 201)
    for viewer in ("%C2%B2", "9", "-1", "everyone"):
        steps = f"/api/records/{record['record']}/steps?as={viewer}"
        assert refused(call(host.port, "GET", steps), 400, "bad_request")["field"] == "as"
    refused(call(host.port, "DELETE", "/api/tables"), 405, "method_not_allowed")
    refused(call(host.port, "GET", "/api/tables"), 405, "method_not_allowed")


def test_random_bodies_are_refused_with_json_never_a_500(host, table):
    created, keys, seat = table
    rng = random.Random(17)
    valid = json.dumps({**KRABY, "seats": [{"name": "Ann"}], "options": {}}).encode()
    paths = ["/api/tables", f"/api/seats/{keys[seat]}/moves", f"/api/seats/{keys[seat]}/moves"]
    for index in range(300):
        body = bytearray(valid)
        for _ in range(rng.randint(1, 8)):
            body[rng.randrange(len(body))] = rng.randrange(256)
        if index % 3 == 2:
            body = bytearray(rng.randbytes(rng.randint(0, 200)))
        answer = call(host.port, "POST", paths[index % 3], raw=bytes(body))
        assert answer.status < 500, (bytes(body), answer.status, answer.raw[:300])
        assert answer.headers["content-type"].startswith("application/json")
        if answer.status >= 400:
            assert set(answer.body) >= {"code", "message", "field"}


def test_nesting_is_refused_before_json_parses_it(plain):
    deep = b'{"game": ' + b"[" * (JSON_DEPTH + 1) + b"]" * (JSON_DEPTH + 1) + b"}"
    refused(call(plain.port, "POST", "/api/tables", raw=deep), 400, "bad_json")
    huge = b'{"game": ' + b"[" * 8000 + b"]" * 8000 + b"}"  # RecursionError in json.loads
    refused(call(plain.port, "POST", "/api/tables", raw=huge), 400, "bad_json")
    # Brackets inside a string are no nesting.
    quoted = json.dumps({**KRABY, "seats": [{"name": "[{" * 16}]}).encode()
    ok(call(plain.port, "POST", "/api/tables", raw=quoted), 201)


def raw_request(port: int, head: bytes, body: bytes = b"", wait: float = 10.0) -> bytes:
    """Send `head` and `body` on a socket of its own; what comes back within `wait`."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(head + body)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
                if b"\r\n\r\n" in received and received.endswith(b"}"):
                    break
        except TimeoutError:
            pass
        return received


def test_an_oversized_body_is_refused_unread(plain):
    head = (
        b"POST /api/tables HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % (BODY_BYTES + 1)
    )
    started = time.monotonic()
    answer = raw_request(plain.port, head)  # the body never comes: it is not waited for
    assert answer.startswith(b"HTTP/1.1 413") and b'"body_too_large"' in answer
    assert time.monotonic() - started < BODY_SECONDS
    chunked = b"POST /api/tables HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n"
    piece = b"%x\r\n%s\r\n" % (4096, b" " * 4096)
    answer = raw_request(plain.port, chunked, piece * 5)
    assert answer.startswith(b"HTTP/1.1 413") and b'"body_too_large"' in answer
    for length in (b"9" * 5000, "\u00b2".encode("latin-1"), b"-1"):
        strange = b"POST /api/tables HTTP/1.1\r\nhost: x\r\ncontent-length: %s\r\n\r\n" % length
        assert raw_request(plain.port, strange).startswith(b"HTTP/1.1 4")


def test_a_body_that_does_not_arrive_in_time_is_refused(plain):
    head = (
        b"POST /api/tables HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\n\r\n"
    )
    started = time.monotonic()
    answer = raw_request(plain.port, head, b'{"game": ', wait=BODY_SECONDS + 5)
    assert answer.startswith(b"HTTP/1.1 408") and b'"body_timeout"' in answer
    assert BODY_SECONDS - 0.5 < time.monotonic() - started < BODY_SECONDS + 3


def test_a_head_is_bounded_as_on_the_services_http_ports(plain):
    """An endless header is 431 once past 16 KiB (crabgames.service.http)."""
    endless = b"GET /api/health HTTP/1.1\r\nhost: x\r\nx-long: " + b"a" * 20_000
    assert raw_request(plain.port, endless).startswith(b"HTTP/1.1 431")


def test_new_tables_are_limited_per_address(server_address):
    with running_host(server_address, tables_per_minute=2) as host:
        for _ in range(2):
            new_table(host.port, "kraby", 2)
        answer = call(host.port, "POST", "/api/tables", KRABY)
        refused(answer, 429, "rate_limited")
        assert int(answer.headers["retry-after"]) >= 1
        # A refused request spends nothing: a bad body is refused for what it is.
        refused(call(host.port, "POST", "/api/tables", {"game": "x"}), 400, "bad_request")
        other = from_address(host.port, "127.0.0.2", "POST", "/api/tables", KRABY)
        assert other.status == 201  # another address is not limited by this one


def from_address(port: int, source: str, method: str, path: str, body: object = None):
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body))
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


def test_streams_are_bounded_per_address_and_in_all(server_address):
    with running_host(server_address, streams=3, streams_per_address=2) as host:
        created = new_table(host.port, "kraby", 2)
        path = f"/api/tables/{created['table']}/events"
        held = [Stream(host.port, path) for _ in range(2)]
        assert all(stream.status == 200 for stream in held)
        extra = Stream(host.port, path)
        assert extra.status == 429 and extra.body["code"] == "too_many_streams"
        other = Stream(host.port, path, source="127.0.0.2")
        assert other.status == 200  # the third of all
        full = Stream(host.port, path, source="127.0.0.3")
        assert full.status == 429 and "no room" in full.body["message"]
        held[0].close()  # a closed page gives its stream back at once
        deadline = time.monotonic() + 5
        while ok(call(host.port, "GET", "/api/health"))["streams"] > 2:
            assert time.monotonic() < deadline, "a closed stream was not given back"
            time.sleep(0.05)
        again = Stream(host.port, path)
        assert again.status == 200 and again.next().kind == "table"
        for stream in [*held[1:], other, again]:
            stream.close()


def test_stream_opens_are_limited_per_address(server_address):
    with running_host(server_address, stream_opens_per_minute=3) as host:
        created = new_table(host.port, "kraby", 2)
        path = f"/api/tables/{created['table']}/events"
        for _ in range(3):
            Stream(host.port, path).close()
        refused_stream = Stream(host.port, path)
        assert refused_stream.status == 429 and refused_stream.body["code"] == "rate_limited"


def test_random_paths_and_queries_are_refused_with_json_never_a_500(host, table):
    created, keys, seat = table
    rng = random.Random(23)
    pieces = [
        created["table"],
        keys[seat],
        "0",
        "1",
        ".",
        "..",
        "%C2%B2",
        "%00",
        "%FF",
        "~",
        "9" * 30,
        "x.9.y",
        "%2E",
        "a" * 300,
        "%C3%A9",
        "-1",
        "%20",
    ]
    templates = [
        "/api/tables/{}",
        "/api/tables/{}/events",
        "/api/seats/{}",
        "/api/seats/{}/events",
        "/api/records/{}",
        "/api/records/{}/steps",
        "/api/{}",
    ]
    for _ in range(200):
        path = rng.choice(templates).format("".join(rng.choices(pieces, k=rng.randint(1, 3))))
        query = "&".join(
            f"{rng.choice(['since', 'as', 'key'])}={rng.choice(pieces)}"
            for _ in range(rng.randint(0, 2))
        )
        target = path + (f"?{query}" if query else "")
        if target.endswith("/events") or "/events?" in target:
            stream = Stream(host.port, target)
            assert stream.status < 500, (target, stream.status)
            stream.close()
            continue
        answer = call(host.port, "GET", target)
        assert answer.status < 500, (target, answer.status, answer.raw[:300])
        assert answer.headers["content-type"].startswith("application/json"), target
