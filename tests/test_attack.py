"""`make attack` in small (bench/attack.py): every attack of issues 13 and 27 for a few seconds,
a tenth of the attackers, in four groups run at once against a real server process each
(sealing, the ledger's real redis-server and the metrics port on where a group needs them),
beside the well-behaved gRPC and Connect clients. The campaign's goals are the test: the
server alive, peak RSS under 256 MiB, no failed well-behaved call (2 s deadline each), no UNKNOWN
or INTERNAL. The gRPC client's p99 is printed, not asserted: in 3 s it rests on a few hundred
calls beside the test's other processes, so its goal is `make attack`'s (60 s a run).

CRABGAMES_ATTACK_TEST_SECONDS changes the time (default 3 s per group)."""

from __future__ import annotations

import json
import os

import pytest

from bench.attack import ATTACKS, markdown, run_attacks

SECONDS = float(os.environ.get("CRABGAMES_ATTACK_TEST_SECONDS", "3"))
SCALE = 0.1  # 210 slow-header connections, 26 endless ones, 35 idle metrics connections, ...
GROUPS = {
    "HTTP port": [
        "endless-url",
        "endless-header",
        "endless-256",
        "slow-headers",
        "json-replay",
        "compressed-unannounced",
    ],
    "gRPC port": ["free-calls", "gzip-held", "gzip-loop", "idle-metrics"],
    "long calls": ["long-calls", "issue-13"],
    "sealed, ledger": ["ledger-flood", "issue-13-sealed"],
}


def test_the_groups_hold_every_attack():
    grouped = [name for names in GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(set(ATTACKS) - {"baseline"})


@pytest.mark.parametrize("group", list(GROUPS))
def test_a_short_attack_meets_every_goal(group, summary):
    run = run_attacks(GROUPS[group], SECONDS, SCALE)
    summary(markdown([run]))
    missed = [goal for goal, met in run["goals"].items() if not met and "p99" not in goal]
    keys = ("client", "connect", "attacks", "unknown_or_internal", "errors", "server_stderr")
    details = {k: run[k] for k in keys}
    assert not missed, f"missed {missed}: {json.dumps(details)[:3000]}"
