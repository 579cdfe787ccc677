"""docs/frontends/crab_rage.md shows what the server answers now: every example block is a real
call's JSON (tests/crab_rage/frontend_page.py writes them)."""

from __future__ import annotations

from tests.crab_rage import frontend_page


def test_the_crab_rage_pages_examples_are_what_the_server_answers():
    page = frontend_page.PAGE.read_text()
    blocks = list(frontend_page.BLOCK.finditer(page))
    assert len(blocks) >= 10
    fresh = frontend_page.with_stub(lambda stub: frontend_page.rendered(page, stub))
    assert fresh == page, "run `python -m tests.crab_rage.frontend_page` and review the diff"
