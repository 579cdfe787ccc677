"""The attacked server for bench/attack.py: a real `python -m crabgames.service` process on
loopback (gRPC, HTTP and, when asked, metrics), its address space capped, its
memory watched over its whole process tree; and, for the ledger, a real redis-server with a
small maxmemory so that a flood of new games makes it evict."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from bench.attack_wire import HOST, free_port

# The attacked server may map at most this much: a campaign that makes it allocate gigabytes
# gets MemoryError (a finding) instead of taking down this shared machine.
SERVER_MEMORY_CAP = 4 * 1024**3
START_SECONDS = 60.0
# The ledger's store: a few thousand games (about 210 bytes each) over Redis's own megabyte,
# evicting as deploy/kubernetes/crabgames.yaml says (the games idle longest first).
REDIS_MAXMEMORY = "2mb"
REDIS_POLICY = "volatile-ttl"


@dataclass
class Server:
    """A running server: its process, ports and the file its standard error goes to."""

    process: subprocess.Popen
    grpc_port: int
    http_port: int
    metrics_port: int | None
    stderr_path: str
    lines: queue.Queue = field(default_factory=queue.Queue)

    def stderr_tail(self, lines: int = 12) -> list[str]:
        try:
            with open(self.stderr_path, errors="replace") as file:
                return [line.rstrip()[:300] for line in file.readlines()[-lines:]]
        except OSError:
            return []


def capped_server_command(memory_cap: int, address: str, *args: str) -> list[str]:
    """`python -m crabgames.service --address ADDRESS ARGS...` with its address space capped
    at `memory_cap` bytes (what `prlimit --as` does), set by the new process itself: a
    preexec_fn would run Python in a child forked from a process whose gRPC threads are
    running, which can die before it starts. Its child processes inherit the cap."""
    program = (
        "import resource, runpy, sys\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
        f"cap = {memory_cap} if hard == resource.RLIM_INFINITY else min({memory_cap}, hard)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (cap, hard))\n"
        f"sys.argv = ['crabgames.service', '--address', {address!r}, *{list(args)!r}]\n"
        "runpy.run_module('crabgames.service', run_name='__main__', alter_sys=True)\n"
    )
    return [sys.executable, "-c", program]


def server_command(metrics_port: int | None) -> list[str]:
    args = ["--http-address", f"{HOST}:0"]
    if metrics_port is not None:
        args += ["--metrics-address", f"{HOST}:{metrics_port}"]
    return capped_server_command(SERVER_MEMORY_CAP, f"{HOST}:0", *args)


def start_server(env: dict[str, str], metrics: bool) -> Server:
    """The server with HTTP on (and metrics on a free port when asked), once it has said where
    it listens: "listening on HOST:PORT" and "HTTP on http://HOST:PORT"."""
    metrics_port = free_port() if metrics else None
    descriptor, stderr_path = tempfile.mkstemp(prefix="crabgames-attack-", suffix=".log")
    with os.fdopen(descriptor, "w") as stderr:
        process = subprocess.Popen(
            server_command(metrics_port),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env={**os.environ, "CRABGAMES_LOG_LEVEL": "WARNING", **env},
        )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=drain, args=(process, lines), daemon=True).start()
    ports = announced_ports(process, lines)
    if ports is None:
        process.kill()
        process.wait()
        with open(stderr_path, errors="replace") as file:
            raise SystemExit(f"the server did not start: {file.read()[-2000:]}")
    return Server(process, ports[0], ports[1], metrics_port, stderr_path, lines)


def drain(process: subprocess.Popen, lines: queue.Queue) -> None:
    """Read the server's standard output to its end, so it never blocks on a full pipe."""
    assert process.stdout is not None
    for line in process.stdout:
        lines.put(line)


def announced_ports(process: subprocess.Popen, lines: queue.Queue) -> tuple[int, int] | None:
    grpc_port = http_port = None
    deadline = time.monotonic() + START_SECONDS
    while (grpc_port is None or http_port is None) and time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if process.poll() is not None:
                return None
            continue
        if "listening on" in line:
            grpc_port = int(line.split()[-1].rsplit(":", 1)[1])
        elif "HTTP on" in line:
            http_port = int(line.split()[-1].rsplit(":", 1)[1].strip("/"))
    return None if grpc_port is None or http_port is None else (grpc_port, http_port)


def stop_server(process: subprocess.Popen) -> int | None:
    """Stop the server; its exit code, or None if it had to be killed."""
    if process.poll() is not None:
        return process.returncode
    process.terminate()
    try:
        return process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


# ----- memory of the server's process tree -----


def status_kib(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_tree(root: int) -> list[int]:
    """`root` and every process descended from it (the server may start workers)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def pss_kib(pid: int) -> int:
    """A process's proportional set size: its shared pages divided among their sharers, so
    that a tree's sum counts each page once (summed RSS counts shared libraries per process)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemoryWatch:
    """Samples the summed VmRSS of the server's process tree every 50 ms (the tree itself
    found again every second) on a thread; `peak_kib` adds what sampling can miss: the largest
    VmHWM (a process's own peak) of any process of the tree. The summed PSS, costlier to read,
    every half second, for information."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak_sum = 0
        self.peak_hwm = 0
        self.peak_pss = 0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def watch(self) -> None:
        tree, found_at = process_tree(self.root), time.monotonic()
        for sample in range(10**9):  # bounded by the stop event, checked every 50 ms
            if self.stop_event.is_set():
                return
            if time.monotonic() - found_at > 1.0:
                tree, found_at = process_tree(self.root), time.monotonic()
            self.peak_sum = max(self.peak_sum, sum(status_kib(p, "VmRSS") for p in tree))
            self.peak_hwm = max([self.peak_hwm, *(status_kib(p, "VmHWM") for p in tree)])
            if sample % 10 == 0:
                self.peak_pss = max(self.peak_pss, sum(pss_kib(p) for p in tree))
            self.stop_event.wait(0.05)

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join()

    def peak_kib(self) -> int:
        return max(self.peak_sum, self.peak_hwm)


def tree_kib(root: int) -> int:
    return sum(status_kib(pid, "VmRSS") for pid in process_tree(root))


def cpu_seconds_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    return round(sum(cpu_seconds_of(pid) for pid in process_tree(root)), 1)


# ----- the ledger's store -----


@dataclass
class Redis:
    process: subprocess.Popen
    url: str

    def stats(self) -> dict[str, int]:
        """Keys held and keys evicted so far."""
        import redis

        try:
            client = redis.Redis.from_url(self.url, socket_timeout=2)
            stats = client.info("stats")
            keys = client.dbsize()
            memory = client.info("memory")
            client.close()
        except redis.RedisError:
            return {}
        return {
            "keys": int(keys),
            "evicted_keys": int(stats.get("evicted_keys", 0)),
            "used_memory_kib": int(memory.get("used_memory", 0)) // 1024,
        }

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextlib.contextmanager
def ledger_store(wanted: bool) -> Iterator[Redis | None]:
    """A redis-server for the ledger while the block runs (None when not wanted)."""
    if not wanted:
        yield None
        return
    redis = start_redis()
    try:
        yield redis
    finally:
        redis.stop()


def start_redis() -> Redis:
    """Debian's redis-server on a free loopback port, no persistence, small maxmemory."""
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
        + ["--maxmemory", REDIS_MAXMEMORY, "--maxmemory-policy", REDIS_POLICY],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://{HOST}:{port}/0"
    client = redis.Redis.from_url(url, socket_timeout=1)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            client.close()
            return Redis(process, url)
        except redis.ConnectionError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("redis-server did not start") from None
            time.sleep(0.05)
