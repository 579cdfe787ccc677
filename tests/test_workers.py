"""`--workers N`: N processes share the port (SO_REUSEPORT), every one serves every game, and
SIGTERM to the parent stops them all gracefully. Loopback only, a few seconds."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest

from crabgames.v1 import kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
CONNECTIONS = 16


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def established_on_port(port: int) -> set[str]:
    """Inodes of the server side of established TCP connections to `port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                inodes.add(fields[9])
    return inodes


def stop_server(process) -> None:
    """SIGTERM, which the parent forwards to every worker it has now (a restarted one too),
    waiting for them; whatever is still there after that (workers of a parent that hung) is
    killed, so that no process outlives the test (tests/conftest.py checks)."""
    workers = children(process.pid) if process.poll() is None else []
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
    if process.poll() is None:
        workers += children(process.pid)
        process.kill()
    process.wait(timeout=10)
    for pid in workers:
        with contextlib.suppress(OSError):
            if b"crabgames.service" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def two_workers():
    process, address = start_server("--workers", "2", "--grace", "1")
    try:
        yield process, address
    finally:
        stop_server(process)


def test_two_workers_share_the_port_and_both_serve_every_game(two_workers):
    process, address = two_workers
    workers = children(process.pid)
    assert len(workers) == 2
    # A local subchannel pool: otherwise channels to the same target share one connection.
    options = [("grpc.use_local_subchannel_pool", 1)]
    channels = [grpc.insecure_channel(address, options) for _ in range(CONNECTIONS)]
    try:
        for channel in channels:  # one TCP connection per channel: the kernel picks a worker
            games = api_grpc.RulesServiceStub(channel).ListGames(api.ListGamesRequest(), timeout=10)
            assert "kraby" in {game.id for game in games.games}
            request = api.NewGameRequest(num_players=2, seed=1, kraby=kraby_pb2.KrabyOptions())
            assert api_grpc.RulesServiceStub(channel).NewGame(request, timeout=10).state.kraby
        server_side = established_on_port(int(address.rsplit(":", 1)[1]))
        per_worker = [len(socket_inodes(pid) & server_side) for pid in workers]
        # 16 connections all hashed to one worker would happen once in 2**15 runs.
        assert sum(per_worker) == CONNECTIONS and min(per_worker) > 0, per_worker
    finally:
        for channel in channels:
            channel.close()


def test_sigterm_to_the_parent_stops_every_worker_gracefully(two_workers):
    process, _ = two_workers
    workers = children(process.pid)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0  # generous: a loaded 2-core machine is slow to stop
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()


def serves(address: str) -> bool:
    with grpc.insecure_channel(address, [("grpc.use_local_subchannel_pool", 1)]) as channel:
        games = api_grpc.RulesServiceStub(channel).ListGames(api.ListGamesRequest(), timeout=10)
        return "kraby" in {game.id for game in games.games}


def test_a_worker_that_dies_is_started_again_and_the_others_keep_serving(two_workers):
    process, address = two_workers
    first, second = children(process.pid)
    os.kill(first, signal.SIGKILL)  # as the kernel's OOM killer would
    deadline = time.monotonic() + 30
    while len(set(children(process.pid)) - {first}) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = set(children(process.pid))
    assert second in workers and first not in workers and len(workers) == 2
    assert process.poll() is None  # the set goes on
    assert all(serves(address) for _ in range(CONNECTIONS))


def gone(pid: int) -> bool:
    """No such process, or only its exit status left (a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def test_workers_stop_when_their_parent_is_killed_outright(two_workers):
    """SIGKILL cannot be forwarded: the kernel's parent-death signal stops each worker, so none
    is left serving (and holding the port) without its supervisor."""
    process, _ = two_workers
    workers = children(process.pid)
    process.kill()
    process.wait(timeout=10)
    deadline = time.monotonic() + 30
    while not all(gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(gone(pid) for pid in workers), [pid for pid in workers if not gone(pid)]


def test_a_worker_that_keeps_dying_as_it_starts_stops_the_set_with_a_failure(monkeypatch):
    from crabgames.service import workers

    monkeypatch.setattr(workers, "_worker", lambda *_args: os._exit(3))
    pool = workers.Workers("127.0.0.1:0", 1, 0.1)
    pool.processes = [pool.spawn(0), pool.spawn(1)]
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        assert workers.supervise(pool) == 1  # supervise sets its own signal handlers
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def test_max_connection_age_comes_from_the_environment(monkeypatch):
    from crabgames.service.server import connection_age_options

    monkeypatch.delenv("CRABGAMES_MAX_CONNECTION_AGE_SECONDS", raising=False)
    assert connection_age_options() == []
    monkeypatch.setenv("CRABGAMES_MAX_CONNECTION_AGE_SECONDS", "300")
    assert ("grpc.max_connection_age_ms", 300_000) in connection_age_options()
