"""`make attack` in small (bench/attack.py): a few seconds of every attack at once, a quarter
of the attackers, against a real server process without and with sealing, while a
well-behaved client plays. The campaign's goals are the test: no failed well-behaved call
(2 s deadline each), no UNKNOWN or INTERNAL, server peak RSS under 256 MiB, the server alive.

CRABGAMES_ATTACK_TEST_SECONDS changes the time (default 3 s per run)."""

from __future__ import annotations

import json
import os

import pytest

from bench.attack import markdown, run_campaign

SECONDS = float(os.environ.get("CRABGAMES_ATTACK_TEST_SECONDS", "3"))
SCALE = 0.25  # 16 idle streams, 2 withheld bodies, 2 Playouts, the other attackers once


@pytest.mark.parametrize("sealed", [False, True], ids=["no sealing", "sealing"])
def test_a_short_attack_campaign_meets_every_goal(sealed, capsys):
    run = run_campaign(sealed, SECONDS, SCALE)
    with capsys.disabled():
        print("\n" + markdown([run]).split("\n\n")[0])
    missed = [goal for goal, met in run["goals"].items() if not met]
    details = {k: run[k] for k in ("client", "attacks", "unknown_or_internal", "errors")}
    assert not missed, f"missed {missed}: {json.dumps(details)[:3000]}"
