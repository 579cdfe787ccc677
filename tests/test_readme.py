"""Every code block of README.md and docs/*.md, run verbatim in a fresh clone
(tests/readme_check.py, the same as `make readme-check`) or marked with what it needs: set up
and serve with `make run`, play through it from Python and Node.js, call it with `buf curl` and
`curl`, run the agents' examples after `make setup-agents`, make a test certificate. A few
minutes with warm pip and npm caches."""

from __future__ import annotations

import io
import re

import pytest

from tests.readme_check import (
    ROOT,
    Block,
    CheckFailed,
    all_blocks,
    blocks_of,
    check,
    problems,
)


def test_every_code_block_of_the_docs_is_run_or_says_what_it_needs():
    assert problems(all_blocks(ROOT)) == []


def test_the_check_refuses_unmarked_blocks_reasonless_skips_and_hard_coded_addresses():
    text = (
        "```sh\nmake run\n```\n\n"
        "<!-- readme-check: not run: x -->\n```sh\nmake bench\n```\n\n"
        "<!-- readme-check -->\n```sh\ncurl http://127.0.0.1:8080/x\n```\n\n"
        "<!-- readme-check -->\n```python\nconnect('127.0.0.1:50051')\n```\n\n"
        "<!-- readme-check -->\n```sh\ncurl http://${CRABGAMES_HTTP_ADDRESS:-127.0.0.1:8080}/x\n```\n"
        "<!-- readme-check: output -->\n```\nok\n```\n"
    )
    said = problems(blocks_of("docs/example.md", text))
    assert said[0].startswith("docs/example.md line 1: no <!-- readme-check --> marker")
    assert "line 6: 'not run' must say what the block needs" in said[1]
    assert "line 11: names 127.0.0.1:8080 itself" in said[2]
    assert "line 16: names 127.0.0.1:50051 itself" in said[3]
    assert len(said) == 4, said  # the block reading the variable, and its output, are fine


def test_an_indented_block_is_found_and_read_without_its_indent():
    text = "- a list item:\n\n  <!-- readme-check -->\n  ```sh\n  echo one\n    two\n  ```\n"
    [block] = blocks_of("docs/x.md", text)
    assert (block.kind, block.body) == ("run", "echo one\n  two\n")


def test_the_first_commands_a_newcomer_types_are_marked_to_run():
    found = all_blocks(ROOT)
    ran = [b for b in found if b.kind in ("run", "server")]
    assert [b.body.strip() for b in ran if b.kind == "server"] == ["make run"]
    bodies = "\n".join(b.body for b in ran)
    assert ".venv/bin/python -m crabclients.play_random" in bodies
    assert "npm ci --prefix clients/node" in bodies and "buf curl" in bodies
    agents: list[Block] = [b for b in found if b.file == "docs/agents.md"]
    assert agents[0].kind == "run" and agents[0].body.strip() == "make setup-agents"
    assert all(b.kind == "run" for b in agents if b.lang == "python")


def test_every_code_block_runs_verbatim_from_a_fresh_clone(tmp_path):
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
    assert re.search(r"^player [01] wins", text, re.M), "the search bot's example played"
    assert "server.pem: OK" in text, "the test certificate's recipe made one"
