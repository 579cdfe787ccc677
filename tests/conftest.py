"""Shared fixtures: the in-process engine and a real server on loopback (port 0)."""

from __future__ import annotations

import os
import sys

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


def pytest_sessionfinish(session, exitstatus) -> None:
    """Skips outside a test (a module skipped at collection) fail the run under CI too."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if SKIPS_FAIL and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    """How many fuzzed inputs each game got, by target, when the fuzz tests ran."""
    fuzzing = sys.modules.get("tests.fuzzing")
    lines = fuzzing.fuzz_summary() if fuzzing else []
    if lines:
        terminalreporter.section("fuzzed inputs by game and target")
        for line in lines:
            terminalreporter.write_line(line)
