"""`--workers N`: N server processes sharing one port, as gRPC's multiprocessing example does.

Python runs one thread of rules at a time per process (the GIL), so a machine with several cores
serves more calls with several processes. The parent reserves the port with a plain socket (so
port 0 picks one port for all), forks the workers before it creates any gRPC object (gRPC's
threads do not survive a fork), and each worker starts its own server on that port with
SO_REUSEPORT; the kernel spreads incoming connections across them, and every worker serves every
game. SIGTERM or SIGINT to the parent is forwarded to every worker, which stops gracefully. If a
worker dies on its own, the parent stops the others and exits non-zero, so a supervisor (systemd,
Kubernetes) restarts the whole set.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable

from crabgames.service.server import serve

log = logging.getLogger(__name__)
START_TIMEOUT_SECONDS = 30.0


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


def reserve_port(address: str) -> tuple[socket.socket, int]:
    """Bind (without listening) a SO_REUSEPORT socket, so that the port stays ours and port 0
    resolves to one port for every worker."""
    host, port = split_address(address)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock, sock.getsockname()[1]


def _worker(address: str, threads: int, grace: float, ready, handlers=()) -> None:
    # Ctrl-C reaches the whole process group: the parent forwards it as SIGTERM, once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    running = serve(address, threads, reuse_port=True, handlers=handlers)
    ready.put(os.getpid())
    stop.wait()
    log.info("worker %d: shutting down gracefully", os.getpid())
    running.stop(grace)


def start_workers(address: str, workers: int, threads: int, grace: float, handlers=()):
    """Fork the workers and wait until every one is listening. Returns (processes, port, socket).
    `handlers` (extra generic RPC handlers) are for the benchmark only."""
    sock, port = reserve_port(address)
    host, _ = split_address(address)
    bound = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    context = multiprocessing.get_context("fork")
    ready = context.Queue()
    processes = [
        context.Process(
            target=_worker, args=(bound, threads, grace, ready, handlers), name=f"worker-{i}"
        )
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    started = 0
    while started < workers:
        if time.monotonic() > deadline or any(p.exitcode is not None for p in processes):
            stop_all(processes)
            raise OSError(f"the workers could not start on {bound}")
        with contextlib.suppress(queue.Empty):
            ready.get(timeout=0.2)
            started += 1
    return processes, port, sock


def stop_all(processes) -> None:
    for process in processes:
        if process.exitcode is None and process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)


def supervise(processes, ready: Callable[[], None] = lambda: None) -> int:
    """Forward SIGTERM/SIGINT to the workers and wait for all of them. Returns the exit code.
    `ready` runs once the signals are forwarded (announce the server there, not before)."""
    stopping = False

    def on_signal(signum, _frame):
        nonlocal stopping
        log.info("signal %s: stopping %d workers", signum, len(processes))
        stopping = True
        stop_all(processes)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    ready()
    failed = False
    while any(p.exitcode is None for p in processes):
        for process in processes:
            process.join(timeout=0.2)
            if process.exitcode is not None and not stopping:
                log.error("%s exited with %s: stopping the others", process.name, process.exitcode)
                failed = stopping = True
                stop_all(processes)
    return 1 if failed or any(p.exitcode != 0 for p in processes) else 0
