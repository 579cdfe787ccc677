"""The server's command line (issue 31): every setting is a flag whose help names its
environment variable, a port that is taken names the exact knob that moves it, `make run`
moves its HTTP side to a free port and says where, the start-up lines say where metrics are
served, and SIGHUP says what it did. Real server processes on loopback."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from crabclients.client import RulesClient
from crabgames.service import main

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "server" / "crabgames"
# Read from the environment but not a flag (none today).
NOT_FLAGS: set[str] = set()


def settings_read_by_the_server() -> set[str]:
    names = set()
    for source in SERVER.rglob("*.py"):
        names |= set(re.findall(r"CRABGAMES_[A-Z_]*[A-Z]", source.read_text()))
    return names - NOT_FLAGS


def test_every_setting_the_server_reads_is_a_flag_whose_help_names_its_variable():
    shown = subprocess.run(
        [sys.executable, "-m", "crabgames.service", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    flat = " ".join(shown.split())
    settings = settings_read_by_the_server()
    assert len(settings) >= 20, settings  # the search found them
    missing = sorted(name for name in settings if f"env {name}" not in flat)
    assert not missing, f"--help does not name {missing}"


def test_the_flags_of_settings_read_elsewhere_set_the_variable_their_reader_reads(monkeypatch):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CRABGAMES_")}
    monkeypatch.setattr(os, "environ", environ)  # this test's own, given back after it
    argv = [part for s in main.PASSED for part in (s.flag, f"value of {s.flag}")]
    main.pass_settings(main.parse_args(argv))
    for setting in main.PASSED:
        assert environ[setting.env] == f"value of {setting.flag}"


@contextlib.contextmanager
def taken_port() -> Iterator[str]:
    """An address another process would find taken: a socket listening on it."""
    with socket.create_server(("127.0.0.1", 0)) as holder:
        yield f"127.0.0.1:{holder.getsockname()[1]}"


@contextlib.contextmanager
def server(
    *args: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen, list[str]]]:
    """A server process with `args`, logging at INFO; its stdout lines as they come, and its
    stderr in `process.stderr_lines`. Stopped with SIGTERM (and waited for) at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crabgames.service", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "INFO", **(env or {})},
    )
    lines: list[str] = []
    errors: list[str] = []
    readers = [
        threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True),
        threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    process.stderr_lines = errors  # type: ignore[attr-defined]
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for reader in readers:
            reader.join(timeout=5)


def wait_for(lines: list[str], text: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [line for line in list(lines) if text in line]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"no line with {text!r} in {lines}")


def refused(*args: str) -> str:
    """What the server says when it stops at start."""
    done = subprocess.run(
        [sys.executable, "-m", "crabgames.service", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0, done.stdout
    return done.stderr


def test_a_taken_grpc_port_names_the_address_flag_its_variable_and_make_runs_name():
    with taken_port() as address:
        said = refused("--address", address)
    assert f"cannot listen on {address}" in said
    assert "--address (env CRABGAMES_ADDRESS; make run ADDRESS=host:port)" in said


def test_a_taken_http_port_names_the_http_flag_not_the_grpc_one():
    with taken_port() as address:
        said = refused("--address", "127.0.0.1:0", "--http-address", address)
    assert f"cannot listen on {address}" in said
    assert "--http-address (env CRABGAMES_HTTP_ADDRESS; make run HTTP_ADDRESS=host:port)" in said
    assert "--address (env" not in said


def test_with_the_fallback_a_taken_http_port_moves_to_a_free_one_and_says_where():
    with (
        taken_port() as address,
        server("--address", "127.0.0.1:0", "--http-address", address, "--http-fallback") as (
            process,
            lines,
        ),
    ):
        http = wait_for(lines, "crabgames-server HTTP on http://127.0.0.1:").split()[-1]
        assert not http.endswith(address), "served elsewhere"
        call = urllib.request.Request(
            f"{http}/crabgames.v1.RulesService/ListGames",
            b"{}",
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(call, timeout=10) as answer:
            assert b"kraby" in answer.read()
        warning = wait_for(process.stderr_lines, "is taken")  # type: ignore[attr-defined]
        assert address in warning and "--http-address" in warning


def test_make_run_serves_http_elsewhere_when_its_port_is_taken():
    """`make run` with its HTTP port taken still serves, and prints where (the web page's
    build, web-if-npm, is left out: this is about the port)."""
    with taken_port() as address:
        process = subprocess.Popen(
            ["make", "--no-print-directory", "-o", "web-if-npm", "run"]
            + ["ADDRESS=127.0.0.1:0", f"HTTP_ADDRESS={address}", "HOST_ADDRESS=off"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # make and the server stop together
        )
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
        reader.start()
        try:
            grpc_line = wait_for(lines, "crabgames-server listening on", seconds=120)
            http = wait_for(lines, "crabgames-server HTTP on").split()[-1]
            assert not http.endswith(address)
            wait_for(lines, f"{address} is taken")
            with RulesClient.connect(grpc_line.split()[-1], timeout=10) as client:
                assert client.list_games()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
            reader.join(timeout=5)


def scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def test_the_start_up_lines_say_where_metrics_are_served():
    with server("--address", "127.0.0.1:0", "--metrics-address", "127.0.0.1:0") as (_, lines):
        assert "listening on" in wait_for(lines, "crabgames-server")
        url = wait_for(lines, "crabgames-server metrics on http://127.0.0.1:").split()[-1]
        assert "crabgames_cache_bytes" in scrape(url)


def test_sighup_without_tls_says_there_is_nothing_to_reload():
    with server("--address", "127.0.0.1:0") as (process, lines):
        wait_for(lines, "listening on")
        process.send_signal(signal.SIGHUP)
        wait_for(process.stderr_lines, "SIGHUP: no TLS certificate")  # type: ignore[attr-defined]
        assert process.poll() is None, "SIGHUP does not stop the server"


@pytest.mark.parametrize("flag", ["--seal-keys"])
def test_a_setting_given_as_a_flag_takes_effect(flag):
    """Sealing on by its flag alone: NewGame hands out player tokens."""
    key = "k1:" + "A" * 43 + "="
    env = {"CRABGAMES_SEAL_KEYS": ""}
    with server("--address", "127.0.0.1:0", flag, key, env=env) as (_, lines):
        address = wait_for(lines, "listening on").split()[-1]
        with RulesClient.connect(address, timeout=10) as client:
            assert client.new_game("kraby", 2, seed=1).player_tokens
