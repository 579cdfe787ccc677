"""What the front-end pages (docs/frontends.md, docs/frontends/<game>.md) share: their JSON
examples come from real calls to a real server on loopback. A page's module gives `rendered(page,
stub)`, the page with every block marked `<!-- example: NAME -->` written anew from the server's
answers; `python -m <module>` rewrites the page, and tests/test_frontend_docs.py fails when a page
differs from what the server answers now."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from crabgames.service.server import serve
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

DOCS = Path(__file__).parent.parent / "docs"
BLOCK = re.compile(
    r"(<!-- example: (?P<name>[a-z_]+) -->\n"
    r"<!-- message: (?P<message>[A-Za-z0-9.]+) -->\n```json\n)(?P<body>.*?)(\n```)",
    re.S,
)
MAP_FIELDS = {"args"}  # Event.args: protobuf keeps a map's entries in no set order


def proto_dict(message: Message) -> Any:
    """The proto3 JSON form with the proto field names, as the pages show it, maps sorted."""
    return sorted_maps(json_format.MessageToDict(message, preserving_proto_field_name=True))


def sorted_maps(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: dict(sorted(item.items())) if key in MAP_FIELDS else sorted_maps(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [sorted_maps(item) for item in value]
    return value


def as_json(message: Message) -> str:
    return json.dumps(proto_dict(message), indent=2, ensure_ascii=False)


def fill(
    page: str, example: Callable[[str], Message], to_json: Callable[[Message], str] = as_json
) -> str:
    """The page with each example block's JSON from `example(name)`, which must be the
    message the block names."""

    def block(match: re.Match[str]) -> str:
        message = example(match["name"])
        assert message.DESCRIPTOR.full_name == match["message"], match["name"]
        return match.group(1) + to_json(message) + match.group(5)

    return BLOCK.sub(block, page)


def with_stub(work: Callable[[Any], str]) -> str:
    """`work(stub)` against a server of its own on a loopback port."""
    running = serve("127.0.0.1:0", threads=2)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            return work(api_grpc.RulesServiceStub(channel))
    finally:
        running.stop(0)


def rewrite(page: Path, rendered: Callable[[str, Any], str]) -> None:
    page.write_text(with_stub(lambda stub: rendered(page.read_text(), stub)))
