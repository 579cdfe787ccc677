"""Request bodies: read within a size and a time bound, their nesting bounded in the raw bytes,
and only then parsed as JSON; each field checked, in order, with the field named in the
refusal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import json_format
from starlette.requests import ClientDisconnect, Request

from crabclients.bots import BOTS
from crabclients.client import OPTIONS
from crabclients.host.errors import BAD_REQUEST, TIMEOUT, TOO_LARGE, HostError, bad_request
from crabclients.host.limits import BODY_BYTES, BODY_SECONDS, JSON_DEPTH, NAME_CHARS, OPTIONS_BYTES
from crabclients.host.tables import SeatRequest, TableRequest
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

MAX_VERSION = 2**63 - 1
OPEN, CLOSE, QUOTE, BACKSLASH = b"[{", b"]}", 0x22, 0x5C
# What protobuf's JSON parser raises on values it cannot take.
PARSE_ERRORS = (json_format.ParseError, ValueError, TypeError, AttributeError, KeyError)


def too_large() -> HostError:
    return HostError(TOO_LARGE, "body_too_large", f"a request body is at most {BODY_BYTES} bytes")


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object: at most BODY_BYTES (413, unread beyond), arriving within
    BODY_SECONDS (408), nested at most JSON_DEPTH deep (400, before parsing)."""
    length = request.headers.get("content-length", "")
    if length and not (length.isascii() and length.isdigit() and len(length) < 9):
        raise too_large()  # not a count uvicorn would have let through, or far too large
    if length and int(length) > BODY_BYTES:
        raise too_large()
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > BODY_BYTES:
                    raise too_large()
    except ClientDisconnect:
        raise HostError(BAD_REQUEST, "bad_request", "the body ended early") from None
    except TimeoutError:
        raise HostError(
            TIMEOUT, "body_timeout", f"the body did not arrive within {BODY_SECONDS:g} s"
        ) from None
    check_depth(bytes(body))
    try:
        value = json.loads(body)
    except ValueError as error:
        raise HostError(BAD_REQUEST, "bad_json", f"the body is not JSON: {error}"[:200]) from None
    if not isinstance(value, dict):
        raise HostError(BAD_REQUEST, "bad_json", "the body is not a JSON object")
    return value


def check_depth(raw: bytes) -> None:
    """Objects and arrays nested deeper than JSON_DEPTH are refused before json.loads (whose
    recursion they would exhaust), counted outside strings."""
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == BACKSLASH:
                escaped = True
            elif byte == QUOTE:
                in_string = False
        elif byte == QUOTE:
            in_string = True
        elif byte in OPEN:
            depth += 1
            if depth > JSON_DEPTH:
                raise HostError(BAD_REQUEST, "bad_json", f"JSON nested over {JSON_DEPTH} deep")
        elif byte in CLOSE:
            depth -= 1


def only(body: Mapping[str, Any], names: Sequence[str], where: str = "") -> None:
    for name in body:
        if name not in names:
            raise bad_request(f"{where}{name}", f"unknown field; expected {', '.join(names)}")


def integer(body: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request(name, f"{name} must be an integer")
    if not low <= value <= high:
        raise bad_request(name, f"{name} must be from {low} to {high}")
    return value


def table_request(
    body: Mapping[str, Any], games: Mapping[str, api.GameInfo], bot: str
) -> TableRequest:
    """POST /api/tables: {"game", "players", "options"?, "seats"?}."""
    only(body, ("game", "players", "options", "seats"))
    game = body.get("game")
    if not isinstance(game, str) or game not in games:
        raise bad_request("game", f"game must be one of {', '.join(sorted(games))}")
    info = games[game]
    players = integer(body, "players", info.min_players, info.max_players)
    chosen = options(game, body.get("options"))
    return TableRequest(game, players, chosen, seats(body, players, bot))


def options(game: str, value: Any) -> Any:
    """The game's options message from its protobuf JSON ({} or absent: the defaults)."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise bad_request("options", "options must be a JSON object")
    try:
        message = json_format.ParseDict(value, OPTIONS[game]())
    except PARSE_ERRORS as error:
        raise bad_request("options", f"options: {error}"[:300]) from None
    if message.ByteSize() > OPTIONS_BYTES:
        raise bad_request("options", f"options are at most {OPTIONS_BYTES} bytes as protobuf")
    return message


def seats(body: Mapping[str, Any], players: int, bot: str) -> tuple[SeatRequest, ...]:
    """Absent: every seat a person's. Given: a list of up to `players` entries, each
    {"name"?, "bot"?} or null; a chair without an entry, or null, is empty: `bot` sits there."""
    value = body.get("seats")
    if value is None:
        return tuple(SeatRequest("", "") for _ in range(players))
    if not isinstance(value, list) or len(value) > players:
        raise bad_request("seats", f"seats must be a list of at most {players} entries")
    chosen = [seat(entry, index, bot) for index, entry in enumerate(value)]
    return tuple(chosen + [SeatRequest("", bot)] * (players - len(chosen)))


def seat(entry: Any, index: int, bot: str) -> SeatRequest:
    where = f"seats[{index}]"
    if entry is None:
        return SeatRequest("", bot)
    if not isinstance(entry, dict):
        raise bad_request(where, 'a seat is {"name": ..., "bot": ...} or null')
    only(entry, ("name", "bot"), f"{where}.")
    name = entry.get("name") or ""
    if not isinstance(name, str) or len(name) > NAME_CHARS or not name.isprintable():
        raise bad_request(
            f"{where}.name", f"a name is printable text of at most {NAME_CHARS} characters"
        )
    kind = entry.get("bot") or ""
    if kind and kind not in BOTS:
        raise bad_request(f"{where}.bot", f"bot must be one of {', '.join(BOTS)} or null")
    return SeatRequest(name.strip(), kind)


def move_request(body: Mapping[str, Any]) -> tuple[int, game_pb2.Move]:
    """POST /api/seats/{key}/moves: {"version", "move"}, the move as protobuf JSON (one of
    the view's legalMoves)."""
    only(body, ("version", "move"))
    version = integer(body, "version", 0, MAX_VERSION)
    value = body.get("move")
    if not isinstance(value, dict):
        raise bad_request("move", "move must be a JSON object (one of view.legalMoves)")
    try:
        move = json_format.ParseDict(value, game_pb2.Move())
    except PARSE_ERRORS as error:
        raise bad_request("move", f"move: {error}"[:300]) from None
    return version, move
