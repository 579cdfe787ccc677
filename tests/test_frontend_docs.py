"""docs/frontends.md and docs/frontends/*.md show real JSON: every JSON block names the message
it is and parses as that message with no unknown field, and every page's examples are what the
server answers now (tests/frontend_pages.py)."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from google.protobuf import json_format, symbol_database

from crabgames.v1 import rules_service_pb2  # noqa: F401  (registers every message)
from tests import frontend_pages

DOCS = Path(__file__).parent.parent / "docs"
PAGES = [DOCS / "frontends.md", *sorted((DOCS / "frontends").glob("*.md"))]
JSON_BLOCK = re.compile(
    r"(?:<!-- message: (?P<message>[A-Za-z0-9.]+) -->\n)?```json\n(?P<body>.*?)\n```", re.S
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_json_block_parses_as_the_message_it_names(page):
    blocks = list(JSON_BLOCK.finditer(page.read_text()))
    assert blocks, f"{page.name} shows no JSON"
    for block in blocks:
        assert block["message"], f"{page.name}: a JSON block without <!-- message: ... -->"
        message = symbol_database.Default().GetSymbol(block["message"])()
        json_format.Parse(block["body"], message)  # raises on an unknown field or a bad value
        assert json.loads(block["body"]), "an empty example"


def test_a_page_for_every_game_and_links_to_them():
    overview = (DOCS / "frontends.md").read_text()
    for game in ("kraby", "crab_bucket", "crab_rage"):
        assert (DOCS / "frontends" / f"{game}.md").exists()
        assert f"frontends/{game}.md" in overview


GENERATED = {  # each page, and the module that writes its examples from a real server
    "frontends.md": "tests.frontend_examples",
    "kraby.md": "tests.kraby.frontend_page",
    "crab_bucket.md": "tests.crab_bucket.frontend_page",
    "crab_rage.md": "tests.crab_rage.frontend_page",
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_pages_examples_are_what_the_server_answers(page):
    module = importlib.import_module(GENERATED[page.name])
    text = page.read_text()
    assert len(frontend_pages.BLOCK.findall(text)) >= 4, "a page shows real calls"
    fresh = frontend_pages.with_stub(lambda stub: module.rendered(text, stub))
    assert fresh == text, f"run `python -m {module.__name__}` and review the diff"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_points_outside_the_repository_or_at_server_internals(page):
    text = page.read_text()
    assert "../shared" not in text and "rulebooks/" not in text
    assert "decision_hidden_from" not in text and "move_ids.py" not in text
