"""A plain HTTP client for the game host's API (http.client, nothing else), as a page or a
script would use it: JSON calls, and Server-Sent Events read line by line."""

from __future__ import annotations

import http.client
import json
import random
from dataclasses import dataclass, field
from typing import Any

TIMEOUT = 30.0


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]
    raw: bytes


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request: `body` sent as JSON (or `raw` bytes as they are); the answer's JSON."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        sent = {"content-type": "application/json", **(headers or {})}
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        content = response.read()
        kinds = response.headers.get("content-type", "")
        parsed = json.loads(content) if "json" in kinds and content else None
        return Answer(
            response.status, parsed, {k.lower(): v for k, v in response.headers.items()}, content
        )
    finally:
        connection.close()


def ok(answer: Answer, status: int = 200) -> Any:
    assert answer.status == status, (answer.status, answer.raw[:500])
    return answer.body


def refused(answer: Answer, status: int, code: str) -> dict[str, Any]:
    """A refusal: `status`, JSON {code, message, field}."""
    assert answer.status == status, (answer.status, answer.raw[:500])
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.body["code"] == code, answer.body
    assert isinstance(answer.body["message"], str) and answer.body["message"]
    assert isinstance(answer.body["field"], str)
    return answer.body


@dataclass
class Event:
    kind: str
    ident: str | None
    data: dict[str, Any]
    raw: bytes  # the event's bytes as sent, its lines and the blank line ending it


@dataclass
class Stream:
    """An event stream (SSE) held open, read event by event."""

    port: int
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    source: str = ""  # another loopback address to call from (127.0.0.2, ...)
    comments: int = 0

    def __post_init__(self) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1",
            self.port,
            timeout=TIMEOUT,
            source_address=(self.source, 0) if self.source else None,
        )
        self.connection.request("GET", self.path, headers=self.headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        if self.status != 200:
            self.body = json.loads(self.response.read())

    def next(self) -> Event:
        """The next event (comment lines and `retry:` skipped)."""
        lines: list[bytes] = []
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            if line == b"\n":
                if any(not item.startswith((b":", b"retry:")) for item in lines):
                    return parse(lines)
                self.comments += any(item.startswith(b":") for item in lines)
                lines = []
                continue
            lines.append(line)

    def until(self, version: int) -> Event:
        """The first `table` event at `version` or later."""
        while True:
            event = self.next()
            assert event.kind == "table", event
            if event.data["version"] >= version:
                return event

    def close(self) -> None:
        self.connection.close()


def parse(lines: list[bytes]) -> Event:
    fields: dict[str, str] = {}
    for line in lines:
        name, _, value = line.decode().rstrip("\n").partition(": ")
        fields[name] = value
    data = json.loads(fields.get("data", "null"))
    return Event(fields.get("event", "message"), fields.get("id"), data, b"".join(lines) + b"\n")


def new_table(port: int, game: str, players: int, **extra: Any) -> dict[str, Any]:
    return ok(call(port, "POST", "/api/tables", {"game": game, "players": players, **extra}), 201)


def seat_message(port: int, key: str) -> dict[str, Any]:
    return ok(call(port, "GET", f"/api/seats/{key}"))


def play_one(port: int, keys: dict[int, str], rng: random.Random) -> dict[str, Any] | None:
    """The deciding seat plays a random legal move; its answer, or None once the game is over
    (or a bot decides)."""
    table = ok(call(port, "GET", f"/api/tables/{keys_table(keys)}?since=999999999"))
    seat = table["view"]["next"].get("player", 0)
    if table["status"] == "finished" or seat not in keys:
        return None
    message = seat_message(port, keys[seat])
    move = rng.choice(message["view"]["legalMoves"])
    body = {"version": message["version"], "move": move}
    return ok(call(port, "POST", f"/api/seats/{keys[seat]}/moves", body))


def keys_table(keys: dict[int, str]) -> str:
    return next(iter(keys.values())).split(".")[0]


def human_keys(created: dict[str, Any]) -> dict[int, str]:
    return {seat["seat"]: seat["key"] for seat in created["seats"] if seat["key"]}
