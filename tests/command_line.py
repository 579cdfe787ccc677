"""The server as `python -m crabgames.service` runs it, for the tests of the command line."""

from __future__ import annotations

import os
import subprocess
import sys


def start_server(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """Start the server on a free loopback port with `args`, logging warnings only, and wait
    until it says where it listens. Returns the process and that address; the caller stops it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crabgames.service", "--address", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "WARNING", **(env or {})},
    )
    line = process.stdout.readline()
    if "listening on" not in line:
        process.kill()
        process.wait()
        raise AssertionError(f"the server did not start: {line!r}")
    return process, line.split()[-1]
