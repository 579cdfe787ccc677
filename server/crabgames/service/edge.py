"""The rules service on an asyncio gRPC server (grpc.aio): how each call is read, run and
answered, so that no caller can hold the server by being slow, idle or greedy
(docs/security.md).

- A unary method is registered as client-streaming, so the edge reads the request itself: it
  must arrive within REQUEST_SECONDS (a withheld body holds a timer, never a thread). The call
  is answered once its first message is read, as gRPC's own unary calls are.
- A call of bounded work (one decode, at most one move and its chance events) runs on the event
  loop, between reads and writes; with a freshness ledger (ledger.py), whose calls wait on the
  network, it runs on a pool of LEDGER_THREADS threads instead. A long one (LONG_CALLS: loops
  over many games or moves) runs on a small thread pool and stops at the caller's deadline,
  when the caller goes away, and at WORK_SECONDS whatever the deadline; beyond
  QUEUED_LONG_CALLS waiting, one is refused at once.
- An ApplyMoves stream must send its next request within STREAM_IDLE_SECONDS.
- At most MAX_CALLS rules calls per process are in flight; more are refused at once
  (RESOURCE_EXHAUSTED). Health and reflection are not counted, so they always answer.
- A peer address whose calls keep ending with no request message (gRPC refused it as too large
  once inflated, or none came) has its next calls held a while and refused unread.
- An answer larger than the message limit is refused (RESOURCE_EXHAUSTED) before it is sent.
- With an observer (metrics.py: --metrics-address, --access-log), every rules call, refused or
  not, is reported as it ends with its method, request, status and duration; without one the
  handlers are the bare ones and pay nothing.

The servicer (servicer.py) stays synchronous: it sees a `CallContext` with the parts of gRPC's
servicer context it uses, and its abort becomes the asyncio call's abort here.
"""

from __future__ import annotations

import asyncio
import functools
import math
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

import grpc
from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.errors import RulesError, bad_request
from crabgames.service.calls import Aborted, CallContext, Refused, run_call
from crabgames.service.limits import (
    REQUEST_BYTES,
    Deferred,
    TooLarge,
    Undecodable,
    safe_deserializer,
    short_of,
    state_left_as_bytes,
)
from crabgames.service.long_calls import LongCallPool, Status
from crabgames.service.peers import PeerRate, peer_address
from crabgames.service.status import status_for
from crabgames.v1 import rules_service_pb2 as api

if TYPE_CHECKING:
    from crabgames.service.servicer import RulesServicer

SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]

# A call's first request message (a unary call's only one) must arrive this soon after the call
# opens; until it has, the call holds no slot of MAX_CALLS, only one of its peer's OPEN_CALLS.
REQUEST_SECONDS = 5.0
STREAM_IDLE_SECONDS = 30.0
# The longest a long call may work, whatever the caller's deadline (Playouts' count and Replay's
# record length bound them too; this bounds them on any state).
WORK_SECONDS = 5.0
# Rules calls at work (their request arrived) per process.
MAX_CALLS = 1024
# Rules calls open per process, at work or waiting for their request, and per peer address (any
# port): a caller opening calls that never send anything fills its own share, never the
# server's. Behind a proxy every caller is the proxy's address: let the proxy bound its callers.
OPEN_CALLS = 4096
OPEN_CALLS_PER_PEER = 256
# Threads for the bounded calls of a server with a ledger: each waits at most twice the ledger's
# timeout, and a thread waiting on the network holds no CPU.
LEDGER_THREADS = 16
QUEUED_LONG_CALLS = 8
# Of those running or waiting, one peer address may hold at most half.
LONG_CALL_SHARE_PER_PEER = 0.5
# Calls of one peer address that end without a request message: none sent, or one gRPC itself
# refused as larger than its receive limit once inflated (a 4 KB gzip bomb of 4 MiB, which
# gRPC inflates whole first: about 3 ms of a core each; the two look alike to us). Beyond
# a burst of REFUSED_BURST, REFUSED_PER_MINUTE; then the peer's calls are refused unread (no
# message of theirs inflated) until it has earned another. A well-behaved caller has none.
REFUSED_PER_MINUTE = 60
REFUSED_BURST = 10
# Calls whose work is a loop over many games or moves: they run on the pool, never the loop.
LONG_CALLS = ("Playouts", "Replay", "SuggestMove")
# The calls a game makes most, whose requests lead with the state. A sealing server opens and
# checks every state, so it parses them whole.
STATE_AS_BYTES = ("LegalMoves", "ApplyMove")


# A call's trailing metadata, as grpc.Status carries it.
Metadata = tuple[tuple[str, str | bytes], ...]


class AsyncCall(Protocol):
    """What the edge uses of an asyncio call: a grpc.aio servicer context, or for Connect and
    gRPC-Web browser.HttpCall. `read` gives what the method's deserializer made of a request
    (limits.py), or grpc.aio.EOF."""

    async def read(self) -> object: ...

    async def write(self, message: bytes) -> None: ...

    def time_remaining(self) -> float | None: ...

    async def abort(
        self, code: grpc.StatusCode, details: str, trailing_metadata: Metadata
    ) -> NoReturn: ...

    def peer(self) -> str: ...

    def code(self) -> grpc.StatusCode | None: ...

    def done(self) -> bool: ...


class CallObserver(Protocol):
    """What the edge tells of every call as it ends (metrics.Observer)."""

    def finish(
        self,
        method: str,
        request: Any,
        started: float,
        error: BaseException | None,
        context: AsyncCall,
        messages: int,
    ) -> None: ...


# A handler as grpc.aio calls it: the request iterator (unused: the edge reads the requests
# itself) and the call.
Handler = Callable[[Any, AsyncCall], Awaitable[Any]]


def deadline_of(context: AsyncCall, budget: float | None) -> float | None:
    """The caller's deadline, cut to `budget` seconds from now when one is given."""
    now = time.monotonic()
    remaining = context.time_remaining()
    deadline = None if remaining is None else now + remaining
    if budget is not None:
        deadline = now + budget if deadline is None else min(deadline, now + budget)
    return deadline


async def abort(context: AsyncCall, status: grpc.Status) -> NoReturn:
    if context.done():  # gRPC ended the call itself (a message over its limit): nobody to tell
        raise asyncio.CancelledError
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("abort returns only by raising")  # pragma: no cover


async def refuse(context: AsyncCall, error: RulesError) -> NoReturn:
    await abort(context, status_for(error))


async def next_message(context: AsyncCall, seconds: float, what: str) -> Any:
    """The next request message (grpc.aio.EOF once the caller has sent all), as the method's
    deserializer made it (a request message, limits.Received or limits.Undecodable; Any, as
    each method's differs), waiting at most `seconds` for it (a timer that cancels the wait:
    cheaper than asyncio.wait_for's task)."""
    task = asyncio.current_task()
    assert task is not None
    fired: list[bool] = []

    def time_out() -> None:
        fired.append(True)
        task.cancel()

    timer = asyncio.get_running_loop().call_later(seconds, time_out)
    try:
        return await context.read()
    except asyncio.CancelledError:
        if not fired:
            raise  # cancelled by gRPC (the caller went away), not by the timer
        task.uncancel()
    finally:
        timer.cancel()
    await refuse(
        context,
        Refused(
            grpc.StatusCode.DEADLINE_EXCEEDED,
            "REQUEST_TIMEOUT",
            f"{what} did not arrive within {seconds:g} s",
        ),
    )


async def refuse_unreadable(context: AsyncCall, request: object) -> None:
    """Refuse a request that does not parse, or that is larger than its method needs."""
    if isinstance(request, Undecodable):
        why = f"does not parse as {request.type_name}: {request.error}"
        await refuse(context, bad_request("request", why))
    if isinstance(request, TooLarge):
        await refuse(context, too_large(request.why))


def too_large(why: str) -> Refused:
    return Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE", why)


class Seen:
    """What an observed call read: its first request (the one a unary call has), and how many
    (a stream's; only the first is kept, so a long stream holds no states)."""

    __slots__ = ("request", "count")

    def __init__(self) -> None:
        self.request: Any = None
        self.count = 0

    def add(self, request: Any) -> None:
        if not self.count:
            self.request = request
        self.count += 1


def one_less(counts: dict[str, int], peer: str) -> None:
    """A peer's count down by one, and the peer forgotten at zero (the dict stays as small as
    the peers with calls in it)."""
    left = counts[peer] - 1
    if left:
        counts[peer] = left
    else:
        del counts[peer]


def started_pool(threads: int, name: str) -> ThreadPoolExecutor:
    """A pool whose threads exist from the start: a process short of threads later (thousands
    of idle connections elsewhere) still has its pools."""
    pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
    ready = threading.Barrier(threads + 1)
    for _ in range(threads):
        pool.submit(ready.wait)
    ready.wait()
    return pool


class Edge:
    """Runs the servicer's methods as asyncio calls, with the limits above."""

    def __init__(
        self,
        servicer: RulesServicer,
        long_threads: int,
        message_limit: int,
        observer: CallObserver | None = None,
    ) -> None:
        self.servicer = servicer
        # metrics.Observer, told of every call as it ends (None: nothing observed, nothing paid)
        self.observer = observer
        self.message_limit = message_limit
        self.long_threads = long_threads
        self.long_pool = LongCallPool(long_threads, long_threads + QUEUED_LONG_CALLS)
        # Connect's JSON requests are parsed here, after their call is admitted, so that a large
        # one never holds the event loop.
        self.parse_pool = started_pool(1, "json")
        # Bounded calls wait on the ledger's store, when there is one: on threads, so that
        # the event loop (and every other caller) never waits on the network.
        self.waiting_pool: ThreadPoolExecutor | None = None
        if getattr(servicer, "ledger", None) is not None:
            self.waiting_pool = started_pool(LEDGER_THREADS, "ledger")
        self.calls = 0  # at work
        self.long_calls = 0
        self.open_calls = 0  # at work or waiting for a request
        self.open_by_peer: dict[str, int] = {}
        self.long_by_peer: dict[str, int] = {}
        self.refused = PeerRate(REFUSED_PER_MINUTE, burst=REFUSED_BURST)
        self.stopping = False  # set by a graceful stop: new calls are refused

    def close(self) -> None:
        self.long_pool.close()
        for pool in (self.parse_pool, self.waiting_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        ledger = getattr(self.servicer, "ledger", None)
        if ledger is not None:
            ledger.close()  # its connections to the store

    def opened(self, peer: str) -> RulesError | None:
        """Why a new call cannot even wait for its request now, or None (and it is counted)."""
        if self.stopping:
            return Refused(
                grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", "the server is shutting down"
            )
        if self.open_calls >= OPEN_CALLS:
            return busy(f"{OPEN_CALLS} calls are open on this server process")
        if self.open_by_peer.get(peer, 0) >= OPEN_CALLS_PER_PEER:
            return busy(f"{OPEN_CALLS_PER_PEER} calls from {peer} are open on this process")
        self.open_calls += 1
        self.open_by_peer[peer] = self.open_by_peer.get(peer, 0) + 1
        return None

    def closed(self, peer: str) -> None:
        self.open_calls -= 1
        one_less(self.open_by_peer, peer)

    async def first_request(self, context: AsyncCall, peer: str) -> Any:
        """The call's first request message, refused unless it parsed (or will, for JSON)."""
        request = await next_message(context, REQUEST_SECONDS, "the request")
        if request is grpc.aio.EOF:
            self.refused.take(peer)
            await refuse(context, bad_request("request", "no request message: a call sends one"))
        await refuse_unreadable(context, request)
        return request

    def admitted(self, long: bool, peer: str) -> RulesError | None:
        """Why a call whose request arrived cannot start its work now, or None (and the call
        is counted)."""
        if self.calls >= MAX_CALLS:
            return busy(f"{MAX_CALLS} calls are in flight on this server process")
        if long:
            room = self.long_threads + QUEUED_LONG_CALLS
            if self.long_calls >= room:
                return busy("too many long calls (Playouts, Replay) are running or waiting")
            share = max(1, int(room * LONG_CALL_SHARE_PER_PEER))
            if self.long_by_peer.get(peer, 0) >= share:
                return busy(f"{peer} has {share} long calls running or waiting")
            self.long_by_peer[peer] = self.long_by_peer.get(peer, 0) + 1
        self.calls += 1
        self.long_calls += long
        return None

    def finished(self, long: bool, peer: str) -> None:
        self.calls -= 1
        if long:
            self.long_calls -= 1
            one_less(self.long_by_peer, peer)

    def admit(self, method: str, peer: str) -> None:
        """The servicer's own admission of a call (new games per caller), as a status."""
        try:
            self.servicer.admit(method, peer)
        except RulesError as error:
            raise Aborted(status_for(error)) from None

    async def readable(self, context: AsyncCall, request: Any) -> Any:
        """The request, a Connect JSON one parsed now, on the parse pool (refused when it does
        not parse)."""
        if type(request) is not Deferred:
            return request
        loop = asyncio.get_running_loop()
        request = await loop.run_in_executor(self.parse_pool, request.parse)
        await refuse_unreadable(context, request)
        return request

    def unary(self, name: str) -> Handler:
        behavior = getattr(self.servicer, name)
        long = name in LONG_CALLS

        async def handle(_requests: Any, context: AsyncCall, seen: Seen | None = None) -> bytes:
            async with Open(self, context) as peer:
                request = await self.first_request(context, peer)
                if seen is not None:
                    seen.add(request)
                async with Admitted(self, context, long, peer):
                    self.admit(name, peer)
                    request = await self.readable(context, request)
                    call = CallContext(deadline_of(context, None), peer)
                    if long:
                        response = await self.run_long(name, request, call)
                    else:
                        response = await self.run_bounded(behavior, request, call)
                # Answered without waiting for the end of the request stream, as gRPC's own
                # unary calls are: a second message is never read (waiting for the end would
                # cost every call a read of its own, about a sixth of a small call's CPU).
                return response

        handle.__name__ = name
        return handle if self.observer is None else self.observed(name, handle)

    def observed(
        self, name: str, handle: Callable[[Any, AsyncCall, Seen], Awaitable[Any]]
    ) -> Handler:
        """`handle`, reporting each call to the observer as it ends (refused ones too)."""
        observer = self.observer
        assert observer is not None  # called only when there is one

        async def observed_handle(requests: Any, context: AsyncCall) -> Any:
            started = time.perf_counter()
            seen = Seen()
            try:
                response = await handle(requests, context, seen)
            except BaseException as error:
                observer.finish(name, seen.request, started, error, context, seen.count)
                raise
            observer.finish(name, seen.request, started, None, context, seen.count)
            return response

        observed_handle.__name__ = name
        return observed_handle

    def run(
        self, behavior: Callable[..., Message | bytes], request: Any, call: CallContext
    ) -> bytes:
        return run_call(behavior, request, call, self.message_limit)

    async def run_long(self, method: str, request: Message, call: CallContext) -> bytes:
        """A long call, in a long-call process (long_calls.py), working at most WORK_SECONDS
        once it starts."""
        pool, limit = self.long_pool, self.message_limit
        result = await pool.run(method, request, call.deadline, WORK_SECONDS, call.peer, limit)
        if isinstance(result, Status):
            raise Aborted(result)
        return result

    async def run_bounded(
        self, behavior: Callable[..., Message | bytes], request: Any, call: CallContext
    ) -> bytes:
        """A call of bounded work: on the event loop, or on a thread when it waits on the
        ledger's store."""
        if self.waiting_pool is not None:
            return await self.run_on(self.waiting_pool, behavior, request, call)
        return self.run(behavior, request, call)

    async def run_on(
        self,
        pool: ThreadPoolExecutor,
        behavior: Callable[..., Message | bytes],
        request: Any,
        call: CallContext,
    ) -> bytes:
        """Run on a pool; a caller that goes away stops the work at its next check."""
        loop = asyncio.get_running_loop()
        work = functools.partial(self.run, behavior, request, call)
        gone = call.gone = threading.Event()
        try:
            return await loop.run_in_executor(pool, work)
        except asyncio.CancelledError:
            gone.set()
            raise

    def apply_moves(self) -> Handler:
        """ApplyMoves: ApplyMove for each request on the stream, in order; a refused one ends
        the stream with its status. Each request is a call's work of its own: admitted when it
        arrives, counted until it is answered."""
        apply_move = self.servicer.ApplyMove

        async def handle(_requests: Any, context: AsyncCall, seen: Seen | None = None) -> None:
            async with Open(self, context) as peer:
                seconds, what = REQUEST_SECONDS, "the first request on the stream"
                while True:
                    request = await next_message(context, seconds, what)
                    if request is grpc.aio.EOF:
                        if seconds == REQUEST_SECONDS:  # a stream of no request at all
                            self.refused.take(peer)
                        return
                    seconds, what = STREAM_IDLE_SECONDS, "the next request on the stream"
                    if seen is not None:
                        seen.add(request)
                    await refuse_unreadable(context, request)
                    async with Admitted(self, context, False, peer):
                        request = await self.readable(context, request)
                        call = CallContext(deadline_of(context, None), peer)
                        body = await self.run_bounded(apply_move, request.request, call)
                    await context.write(wire.apply_moves_response(body))

        return handle if self.observer is None else self.observed("ApplyMoves", handle)


class Open:
    """One rules call open (`async with`, giving its peer's address): refused at once when its
    peer or the process has too many open; counted until it ends."""

    __slots__ = ("edge", "context", "peer")

    def __init__(self, edge: Edge, context: AsyncCall) -> None:
        self.edge, self.context = edge, context
        self.peer = ""

    async def __aenter__(self) -> str:
        self.peer = peer_address(self.context.peer())
        refused = self.edge.opened(self.peer)
        if refused is not None:
            await refuse(self.context, refused)
        wait = self.edge.refused.wait(self.peer)
        if wait:
            try:
                await self.held_and_refused(wait)
            finally:
                self.edge.closed(self.peer)
        return self.peer

    async def held_and_refused(self, wait: float) -> NoReturn:
        """A call from a peer with too many requests refused unread lately: refused unread
        too, once it has waited (a held call costs a timer; a caller refused at once would
        call again at once, and its calls would cost the event loop what its bombs did)."""
        await asyncio.sleep(min(wait, REQUEST_SECONDS))
        await refuse(
            self.context,
            Refused(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "TOO_MANY_REFUSED",
                f"too many requests from {self.peer} were refused unread lately (too large,"
                f" or none): its calls are read again in {math.ceil(wait)} s",
            ),
        )

    async def __aexit__(
        self,
        _kind: type[BaseException] | None,
        _error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        self.edge.closed(self.peer)


class Admitted:
    """One rules call's work admitted by the edge (`async with`): refused at once when it
    cannot start; once in, counted until it ends, and a refusal raised inside ends the call with
    its status."""

    __slots__ = ("edge", "context", "long", "peer")

    def __init__(self, edge: Edge, context: AsyncCall, long: bool, peer: str) -> None:
        self.edge, self.context, self.long, self.peer = edge, context, long, peer

    async def __aenter__(self) -> None:
        refused = self.edge.admitted(self.long, self.peer)
        if refused is not None:
            await refuse(self.context, refused)

    async def __aexit__(
        self,
        _kind: type[BaseException] | None,
        error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        self.edge.finished(self.long, self.peer)
        if isinstance(error, Aborted):
            await abort(self.context, error.status)
        if isinstance(error, Refused):
            await refuse(self.context, error)
        short = None if error is None else short_of(error)
        if short is not None:
            await refuse(self.context, short)


def busy(message: str) -> Refused:
    return Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, "BUSY", message)


def as_is(data: bytes) -> bytes:
    return data


def request_deserializer(edge: Edge, method: str) -> Callable[[bytes], object]:
    """How a method's request bytes are read: bounded by what the method needs (REQUEST_BYTES),
    then parsed; LegalMoves' and ApplyMove's leading state left as bytes without sealing."""
    request_class = getattr(api, SERVICE.methods_by_name[method].input_type.name)
    if method in STATE_AS_BYTES and edge.servicer.sealer is None:
        return state_left_as_bytes(request_class, REQUEST_BYTES[method])
    return safe_deserializer(request_class, REQUEST_BYTES[method])


def add_rules_service(edge: Edge, server: grpc.aio.Server) -> None:
    """Register the rules service through the edge (instead of the generated
    add_RulesServiceServicer_to_server): every method reads its own requests."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, bytes]] = {}
    for method in SERVICE.methods:
        deserializer = request_deserializer(edge, method.name)
        if method.client_streaming and method.server_streaming:
            handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                edge.apply_moves(), request_deserializer=deserializer, response_serializer=as_is
            )
        else:
            handlers[method.name] = grpc.stream_unary_rpc_method_handler(
                edge.unary(method.name),
                request_deserializer=deserializer,
                response_serializer=as_is,
            )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )
