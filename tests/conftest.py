"""Shared fixtures: the in-process engine and a real server on loopback (port 0); the checks
every session makes: no skip under CI, and no process left behind."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from pathlib import Path

import grpc
import pytest

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.service.server import serve
from crabgames.v1 import rules_service_pb2_grpc


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine(all_games())


@pytest.fixture(scope="session")
def server_address():
    running = serve("127.0.0.1:0", threads=4)
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


@pytest.fixture(scope="session")
def channel(server_address):
    with grpc.insecure_channel(server_address) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield channel


@pytest.fixture(scope="session")
def stub(channel):
    return rules_service_pb2_grpc.RulesServiceStub(channel)


# Under CI (CI=true, as .ci/run is run) every test must run: a skip, such as the nginx tests'
# on a machine without nginx or a client test's require_* skip, fails instead, so a green CI
# never hides a test that did not run. Elsewhere skips stay skips.
SKIPS_FAIL = os.environ.get("CI", "").lower() in ("true", "1")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if SKIPS_FAIL and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where every test must run: {reason}"


# ----- no test leaves a process behind (issue 31) -----
# The session is made a child subreaper (Linux): a process whose parent dies (a server's worker
# when the server is killed) is then reparented to the session instead of to init, so every
# process any test started, directly or not, is a child of the session until it ends. At the
# end of the session any child still alive fails the run, named, and is killed.
PR_SET_CHILD_SUBREAPER = 36
LEFTOVER_GRACE_SECONDS = 10.0  # for processes told to stop by the last teardowns
LEFTOVERS: list[str] = []  # "pid: command line" of each, for the terminal summary


def pytest_configure(config) -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    forget_the_shells_server()


def forget_the_shells_server() -> None:
    """The tests start servers of their own: a CRABGAMES_ADDRESS the README had the shell
    export (or TLS settings for a server of one's own) would send their clients elsewhere."""
    for name in list(os.environ):
        if name in ("CRABGAMES_ADDRESS", "CRABGAMES_HTTP_ADDRESS") or name.startswith(
            "CRABGAMES_TLS"
        ):
            del os.environ[name]


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def live_children() -> list[int]:
    """This process's children that are still running: zombies are reaped (they are gone),
    and this process's own multiprocessing helpers (the resource tracker, the fork server),
    which end with it, are not counted."""
    from multiprocessing import forkserver, resource_tracker

    helpers = {
        getattr(resource_tracker._resource_tracker, "_pid", None),
        getattr(forkserver._forkserver, "_forkserver_pid", None),
    }
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(pid) for pid in (task / "children").read_text().split()]
    alive = []
    for pid in found:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state == "Z":
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        elif pid not in helpers:
            alive.append(pid)
    return alive


def leftover_processes() -> list[str]:
    """The children still alive after a grace period, each killed once it is named."""
    deadline = time.monotonic() + LEFTOVER_GRACE_SECONDS
    while (alive := live_children()) and time.monotonic() < deadline:
        time.sleep(0.2)
    named = [f"{pid}: {command_line(pid)}" for pid in alive]
    for pid in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return named


def pytest_sessionfinish(session, exitstatus) -> None:
    """Skips outside a test (a module skipped at collection) fail the run under CI too; so
    does any process a test left running."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if SKIPS_FAIL and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    # Under pytest-xdist the workers, which run the tests, check; the controller's children
    # are those workers, still stopping.
    controller = session.config.getoption("dist", "no") != "no"
    if Path("/proc/self/task").is_dir() and not controller:
        LEFTOVERS[:] = leftover_processes()
        if LEFTOVERS:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


# ----- tables printed after the run, not among pytest's dots -----
# A test adds lines with the `summary` fixture: they are printed in the terminal summary under
# the test's own heading (and at once, with -s).
SUMMARIES: dict[str, list[str]] = {}


@pytest.fixture
def summary(request):
    """`summary(line)` adds a line to this test's section of the terminal summary."""
    lines = SUMMARIES.setdefault(request.node.nodeid, [])
    capturing = request.config.getoption("capture") != "no"

    def add(line: str) -> None:
        lines.extend(str(line).splitlines())
        if not capturing:
            print(line)

    return add


def pytest_terminal_summary(terminalreporter) -> None:
    """How many fuzzed inputs each game got, by target, when the fuzz tests ran; the tables of
    the tests that report numbers; the processes a test left running."""
    fuzzing = sys.modules.get("tests.fuzzing")
    lines = fuzzing.fuzz_summary() if fuzzing else []
    if lines:
        terminalreporter.section("fuzzed inputs by game and target")
        for line in lines:
            terminalreporter.write_line(line)
    for nodeid, reported in SUMMARIES.items():
        if reported:
            terminalreporter.section(nodeid)
            for line in reported:
                terminalreporter.write_line(line)
    if LEFTOVERS:
        heading = "processes the tests left running: the run fails (killed now)"
        terminalreporter.section(heading, red=True)
        for line in LEFTOVERS:
            terminalreporter.write_line(line)
