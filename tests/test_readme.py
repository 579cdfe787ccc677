"""The README's marked commands, run verbatim in a fresh clone (tests/readme_check.py, the same
as `make readme-check`): set up and serve with `make run`, play through it from Python and
Node.js, call it with `buf curl`. About half a minute with warm pip and npm caches."""

from __future__ import annotations

import io
import re

import pytest

from tests.readme_check import ROOT, CheckFailed, blocks, check


def test_the_readme_marks_the_first_commands_a_newcomer_types():
    marked = blocks((ROOT / "README.md").read_text())
    assert [b.body.strip() for b in marked if b.kind == "server"] == ["make run"]
    bodies = "\n".join(b.body for b in marked)
    assert ".venv/bin/python -m crabclients.play_random" in bodies
    assert "npm ci --prefix clients/node" in bodies and "buf curl" in bodies


def test_the_readme_commands_run_verbatim_from_a_fresh_clone(tmp_path):
    out = io.StringIO()
    try:
        check(tmp_path / "clone", out)
    except CheckFailed as failed:
        pytest.fail(
            f"{failed.what}\n{failed.output[-4000:]}\n--- so far:\n{out.getvalue()[-3000:]}"
        )
    text = out.getvalue()
    assert text.count("crabgames-server listening on") == 1
    assert re.search(r"^kraby: \d+ moves\. ", text, re.M), "play_random played a game"
    assert re.search(r"kraby: \d+ moves, replay ok", text), "the Node client played one"
    assert '"player 0 draws one ' in text, "the buf curl chain applied a move"
