"""`--workers N`: N server processes sharing one port, as gRPC's multiprocessing example does.

Python runs one thread of rules at a time per process (the GIL), so a machine with several cores
serves more calls with several processes. The parent reserves the port with a plain socket (so
port 0 picks one port for all), forks the workers before it creates any gRPC object (gRPC's
threads do not survive a fork), and each worker starts its own server on that port with
SO_REUSEPORT; the kernel spreads incoming connections across them, and every worker serves every
game. SIGTERM or SIGINT to the parent is forwarded to every worker, which stops gracefully;
SIGHUP too, and each worker reads its TLS certificate files again (tls.py). A worker that dies
on its own (the kernel's OOM killer, a crash) is started again in its place while the others
keep serving; only a worker that keeps dying right after it starts
(MAX_QUICK_DEATHS times in a row) stops the set with a failure, for a supervisor (systemd,
Kubernetes) to see. A worker never outlives the parent: killed outright (SIGKILL, which it
cannot forward), the parent's death sends each worker SIGTERM (Linux's parent-death signal).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.context import ForkProcess
from multiprocessing.queues import Queue
from types import FrameType

import grpc

from crabgames.service import http
from crabgames.service.long_calls import die_with_parent
from crabgames.service.metrics import observed_address
from crabgames.service.server import START_TIMEOUT_SECONDS, Observing, serve

log = logging.getLogger(__name__)
# A worker that dies within QUICK_DEATH_SECONDS of its start, MAX_QUICK_DEATHS times in a row,
# cannot serve (a bad configuration, no memory at all): restarting it again would only spin.
QUICK_DEATH_SECONDS = 5.0
MAX_QUICK_DEATHS = 3


def _worker(
    address: str,
    threads: int,
    grace: float,
    ready: Queue[int],
    handlers: Sequence[grpc.GenericRpcHandler] = (),
    observing: Observing | None = None,
    index: int = 0,
    parent: int = 0,
) -> None:
    # Ctrl-C reaches the whole process group: the parent forwards it as SIGTERM, once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    stop_with_parent(parent, stop)
    # SIGHUP's default would end the worker: one arriving while it starts is kept for later.
    hangups: list[int] = []
    signal.signal(signal.SIGHUP, lambda signum, _frame: hangups.append(signum))
    observing = observing or Observing()
    if observing.metrics_address:  # worker `index` on the given port + index
        metrics = observed_address(observing.metrics_address, index)
        observing = dataclasses.replace(observing, metrics_address=metrics)
    running = serve(address, threads, reuse_port=True, handlers=handlers, observing=observing)
    # The parent forwards SIGHUP: each worker reads its certificate files again.
    signal.signal(signal.SIGHUP, lambda _signum, _frame: running.reload_tls())
    if hangups:
        running.reload_tls()
    if running.metrics_port is not None:
        log.info("worker %d: metrics on port %d", index, running.metrics_port)
    ready.put(os.getpid())
    stop.wait()
    log.info("worker %d: shutting down gracefully", os.getpid())
    running.stop(grace)


def stop_with_parent(parent: int, stop: threading.Event) -> None:
    """Have the kernel send this worker SIGTERM (a graceful stop) when the parent dies, and
    stop now if it died before that was asked (Linux; elsewhere a no-op)."""
    die_with_parent(signal.SIGTERM)
    if parent and os.getppid() != parent:
        stop.set()


class Workers:
    """The worker processes of one port, each started again when it dies."""

    def __init__(
        self,
        address: str,
        threads: int,
        grace: float,
        handlers: Sequence[grpc.GenericRpcHandler] = (),
        observing: Observing | None = None,
    ) -> None:
        self.address, self.threads, self.grace, self.handlers = address, threads, grace, handlers
        self.observing = observing  # server.Observing: TLS, metrics (port + index), access log
        self.context = multiprocessing.get_context("fork")
        self.ready: Queue[int] = self.context.Queue()  # each worker's pid, once it listens
        self.processes: list[ForkProcess] = []
        self.started_at: dict[int, float] = {}  # by pid

    def spawn(self, index: int) -> ForkProcess:
        process = self.context.Process(
            target=_worker,
            args=(
                self.address,
                self.threads,
                self.grace,
                self.ready,
                self.handlers,
                self.observing,
                index,
                os.getpid(),
            ),
            name=f"worker-{index}",
        )
        process.start()
        assert process.pid is not None  # set by start()
        self.started_at[process.pid] = time.monotonic()
        return process

    def restart(self, index: int) -> ForkProcess:
        """Start worker `index` again in place of the dead one."""
        self.processes[index] = self.spawn(index)
        return self.processes[index]


def start_workers(
    address: str,
    workers: int,
    threads: int,
    grace: float,
    handlers: Sequence[grpc.GenericRpcHandler] = (),
    observing: Observing | None = None,
) -> tuple[Workers, int, socket.socket]:
    """Fork the workers and wait until every one is listening. Returns (Workers, port, socket).
    `handlers` (extra generic RPC handlers) are for the benchmark only; `observing`
    (server.Observing) is handed to every worker."""
    # Bound (not listening) with SO_REUSEPORT: the port stays ours, and port 0 resolves to one
    # port for every worker.
    sock = http.bind(address, socket.SO_REUSEPORT)
    port = sock.getsockname()[1]
    host = address.rpartition(":")[0].strip("[]")
    bound = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    pool = Workers(bound, threads, grace, handlers, observing)
    pool.processes = [pool.spawn(i) for i in range(workers)]
    processes = pool.processes
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    started = 0
    while started < workers:
        if time.monotonic() > deadline or any(p.exitcode is not None for p in processes):
            signal_all(processes)
            raise OSError(f"the workers could not start on {bound}")
        with contextlib.suppress(queue.Empty):
            pool.ready.get(timeout=0.2)
            started += 1
    return pool, port, sock


def signal_all(processes: Iterable[ForkProcess], signum: int = signal.SIGTERM) -> None:
    """Send every live worker `signum` (SIGTERM: a graceful stop)."""
    for process in processes:
        if process.exitcode is None and process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signum)


def supervise(pool: Workers, ready: Callable[[], None] = lambda: None) -> int:
    """Forward SIGTERM/SIGINT to the workers, start again any worker that dies meanwhile, and
    wait for all of them once stopping. Returns the exit code. `ready` runs once the signals
    are forwarded (announce the server there, not before)."""
    stopping = False
    quick_deaths = 0

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        log.info("signal %s: stopping %d workers", signum, len(pool.processes))
        stopping = True
        signal_all(pool.processes)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    # Each worker reads its TLS files again.
    signal.signal(signal.SIGHUP, lambda signum, _frame: signal_all(pool.processes, signum))
    ready()
    failed = False
    while any(p.exitcode is None for p in pool.processes) or not stopping:
        for index, process in enumerate(pool.processes):
            process.join(timeout=0.2)
            if process.exitcode is None or stopping:
                continue
            assert process.pid is not None  # every process of the pool was started
            lived = time.monotonic() - pool.started_at.pop(process.pid, 0.0)
            quick_deaths = quick_deaths + 1 if lived < QUICK_DEATH_SECONDS else 0
            if quick_deaths >= MAX_QUICK_DEATHS:
                log.error("%s keeps dying as it starts: stopping the others", process.name)
                failed = stopping = True
                signal_all(pool.processes)
                break
            log.error("%s exited with %s: starting it again", process.name, process.exitcode)
            pool.restart(index)
    return 1 if failed or any(p.exitcode != 0 for p in pool.processes) else 0
