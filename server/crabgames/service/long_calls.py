"""Long calls (edge.LONG_CALLS: Playouts, Replay, SuggestMove) in processes of their own.

A long call is a Python loop of up to WORK_SECONDS. On a thread of the server's process it would
hold the GIL against the event loop that serves every other caller (measured: 24 long callers on
two threads pushed a well-behaved client's median to 244 ms and its p99 to 548 ms). In a process
of its own it holds only a core, which the kernel shares fairly.

The processes are started afresh (multiprocessing's spawn: none is forked from a process running
gRPC's threads), with the first long calls; each builds its own servicer from the
server's settings (keys, ledger) and answers with the response's wire bytes or a status. The
caller's deadline (time.monotonic() is the same clock in every process) and the edge's work
budget bound the work; a caller that goes away sets its slot's flag, read by the loop's time
checks. A process that dies (the OOM killer) is replaced with the pool, and its call answers
UNAVAILABLE.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf.message import Message

from crabgames.service.calls import Aborted, CallContext, Refused, run_call
from crabgames.v1 import rules_service_pb2 as api

if TYPE_CHECKING:
    from crabgames.service.servicer import RulesServicer

PR_SET_PDEATHSIG = 1  # prctl(2), Linux; elsewhere a no-op


@dataclass(frozen=True)
class Status(grpc.Status):
    """A call's status as a long-call process sends it back."""

    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


def die_with_parent(signum: int = signal.SIGKILL) -> None:
    """Have the kernel send this process `signum` (by default, end it) when its parent ends
    (Linux; elsewhere a no-op)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)


# ----- in a long-call process -----

_servicer: RulesServicer | None = None
_flags: Any = None  # the shared cancel flags, one per slot


def start_process(settings: Mapping[str, str], flags: Any) -> None:
    """A long-call process's start: the server's settings (CRABGAMES_*), then its servicer."""
    global _servicer, _flags
    from crabgames.core.engine import Engine
    from crabgames.games import all_games
    from crabgames.service.ledger import Ledger
    from crabgames.service.sealing import Sealer
    from crabgames.service.servicer import RulesServicer

    # A process whose server died (even by SIGKILL) ends too: its queue would never close,
    # and it would wait on it for ever.
    die_with_parent()
    for name in [name for name in os.environ if name.startswith("CRABGAMES_")]:
        del os.environ[name]
    os.environ.update(settings)
    sealer = Sealer.from_env()
    _servicer = RulesServicer(Engine(all_games()), sealer, Ledger.from_env(sealer is not None))
    _flags = flags


class SlotContext(CallContext):
    """A CallContext whose caller's going away is its slot's flag, set by the server."""

    __slots__ = ("slot",)

    def __init__(self, deadline: float | None, peer: str, slot: int) -> None:
        super().__init__(deadline, peer)
        self.slot = slot

    def is_active(self) -> bool:
        return not _flags[self.slot]


def run_long_call(
    method: str,
    request: bytes,
    deadline: float | None,
    budget: float,
    slot: int,
    peer: str,
    limit: int,
) -> bytes | Status:
    """One long call, in a long-call process: its answer's wire bytes, or its status. It works
    at most `budget` seconds from now, and not past the caller's deadline."""
    assert _servicer is not None
    request_class = getattr(api, f"{method}Request")
    work_ends = time.monotonic() + budget
    call = SlotContext(work_ends if deadline is None else min(deadline, work_ends), peer, slot)
    try:
        return run_call(getattr(_servicer, method), request_class.FromString(request), call, limit)
    except Aborted as error:  # run_call ends every refusal so
        status = error.status
        return Status(status.code, status.details, tuple(status.trailing_metadata or ()))


# ----- in the server's process -----


class LongCallPool:
    """`processes` long-call processes and `slots` calls running or waiting for one."""

    def __init__(self, processes: int, slots: int) -> None:
        self.processes = processes
        # Started afresh (spawn), never forked from a process running gRPC's threads, and each
        # a child of the server's event loop thread, so that it ends with the server.
        self.context = multiprocessing.get_context("spawn")
        self.slots = slots
        self.flags: Any = None  # the cancel flags, shared with the processes, made with the pool
        self.free = list(range(slots))
        self.settings = {k: v for k, v in os.environ.items() if k.startswith("CRABGAMES_")}
        # Made with the first long call: a server that never gets one (a worker of many, most
        # tests) keeps no queues, semaphores or resource tracker for them.
        self.pool: ProcessPoolExecutor | None = None
        self.lock = threading.Lock()

    def new_pool(self) -> ProcessPoolExecutor:
        if self.flags is None:
            self.flags = self.context.RawArray("b", self.slots)
        # Processes start with the first long calls (about a second each), whose work budget
        # counts from when the work starts.
        return ProcessPoolExecutor(
            self.processes,
            mp_context=self.context,
            initializer=start_process,
            initargs=(self.settings, self.flags),
        )

    async def run(
        self,
        method: str,
        request: Message,
        deadline: float | None,
        budget: float,
        peer: str,
        limit: int,
    ) -> bytes | Status:
        """The call's answer or status from a long-call process; a caller that goes away
        (cancelled) stops the work at its next time check."""
        if self.pool is None:
            self.pool = self.new_pool()
        pool = self.pool
        slot = self.free.pop()
        self.flags[slot] = 0
        data = request.SerializeToString()
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                pool, run_long_call, method, data, deadline, budget, slot, peer, limit
            )
        except RuntimeError:  # the pool broke since (a process died): a new one
            self.free.append(slot)
            self.replace(pool)
            raise Refused(grpc.StatusCode.UNAVAILABLE, "BUSY", "long calls restarting") from None
        future.add_done_callback(lambda _done: self.free.append(slot))
        try:
            return await future
        except asyncio.CancelledError:
            self.flags[slot] = 1
            raise
        except BrokenProcessPool:
            self.replace(pool)
            why = "the process running this call ended (out of memory?): retry"
            raise Refused(grpc.StatusCode.UNAVAILABLE, "WORKER_LOST", why) from None

    def replace(self, broken: ProcessPoolExecutor) -> None:
        with self.lock:
            if self.pool is broken:
                self.pool = self.new_pool()
                broken.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The process ids of the pool's processes now."""
        processes = getattr(self.pool, "_processes", None) or {}  # none before the first call
        return [process.pid for process in processes.values() if process.pid is not None]

    def close(self) -> None:
        """Stop the processes now: the calls in flight had the server's grace already. (Left
        to the pool's own shutdown, a process of a --workers worker can wait on its queue for
        ever, and the worker with it.)"""
        pids = self.pids()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
