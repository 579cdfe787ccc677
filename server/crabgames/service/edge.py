"""The limits every rules call is served with, whatever its transport, so that no caller can
hold the server by being slow, idle or greedy (docs/security.md). gRPC (`EdgeInterceptor`, a
grpc.aio interceptor) and the browser protocols (browser.py's RulesOverHttp) run the
same `Edge.unary` around each unary method's handler; ApplyMoves is `Edge.stream` on both.

- A call's request must arrive within REQUEST_SECONDS (a withheld body holds an entry in
  admission.Waiting, swept every SWEEP_SECONDS, never a thread). On gRPC the interceptor
  registers each unary method as client-streaming, so the edge reads the request itself
  (admission.Admission.unary_call); the call is answered once its first message is read, as
  gRPC's own unary calls are.
- A call of bounded work (one decode, at most one move and its chance events) runs on the event
  loop; with a freshness ledger (ledger.py), whose calls wait on the network, on a pool of
  LEDGER_THREADS threads. A long one (LONG_CALLS: loops over many games or moves) runs in a
  long-call process and stops at the caller's deadline, when the caller goes away, and at
  WORK_SECONDS whatever the deadline; beyond QUEUED_LONG_CALLS waiting, one is refused at once.
- An ApplyMoves stream must send its next request within STREAM_IDLE_SECONDS.
- At most MAX_CALLS rules calls per process are at work; more are refused at once
  (RESOURCE_EXHAUSTED). Health and reflection are not counted, so they always answer.
- A peer address whose calls keep ending with no request message (gRPC refused it as too large
  once inflated, or none came) has its next calls held a while and refused unread.
- An answer larger than the message limit is refused (RESOURCE_EXHAUSTED) before it is sent.
- With an observer (metrics.py: --metrics-address, --access-log), every rules call, refused or
  not, is reported as it ends with its method, request, status and duration.

Every refusal is raised as calls.Aborted with its status, as is every error of the work
(calls.run_call); each transport ends the call with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar, cast

import grpc
from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.service.admission import (
    EOF,
    Admission,
    Admitted,
    CallLimits,
    Open,
    Seen,
    deadline_of,
    refuse_unreadable,
)
from crabgames.service.calls import Aborted, CallContext, run_call
from crabgames.service.limits import (
    REQUEST_BYTES,
    Deferred,
    safe_deserializer,
    state_left_as_bytes,
)
from crabgames.service.long_calls import LongCallPool, Status
from crabgames.service.peers import PeerRate, peer_address
from crabgames.v1 import rules_service_pb2 as api

if TYPE_CHECKING:
    from crabgames.service.servicer import RulesServicer

SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]

# A call's first request message (a unary call's only one) must arrive this soon after the call
# opens; until it has, the call holds no slot of MAX_CALLS, only one of its peer's OPEN_CALLS.
REQUEST_SECONDS = 5.0
STREAM_IDLE_SECONDS = 30.0
# How often the calls waiting for a request are checked against those times: a late one is
# refused at most this long after its time is up.
SWEEP_SECONDS = 0.25
# The longest a long call may work, whatever the caller's deadline (Playouts' count and Replay's
# record length bound them too; this bounds them on any state).
WORK_SECONDS = 5.0
# Rules calls at work (their request arrived) per process.
MAX_CALLS = 1024
# Rules calls open per process, at work or waiting for their request, and per peer address (any
# port): a caller opening calls that never send anything fills its own share, never the
# server's. Behind a proxy every caller is the proxy's address: let the proxy bound its callers.
# (Not grpc.aio's maximum_concurrent_rpcs: it counts health and reflection too, so callers
# filling it would leave the health probes unanswered, and it has no share per peer.)
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
T = TypeVar("T")
# A unary method's work on its request (Edge.runner's, or what a transport put around it).
Run = Callable[[Any, CallContext], Awaitable[T]]


class Transport(Protocol):
    """What the edge reads of a call from its transport: a grpc.aio servicer context as it is,
    or browser.HttpCall."""

    async def read(self) -> Any:
        """The call's next request message, as the method's deserializer made it (a request
        message, limits.Received, Deferred, TooLarge or Undecodable), or EOF."""

    def time_remaining(self) -> float | None: ...


class CallObserver(Protocol):
    """What the edge tells of every call as it ends (metrics.Observer)."""

    def finish(
        self,
        method: str,
        request: Any,
        started: float,
        error: BaseException | None,
        peer: str,
        messages: int,
    ) -> None: ...


@contextlib.contextmanager
def observed(observer: CallObserver, method: str, caller: str) -> Iterator[Seen]:
    """A call reported to the observer as it ends (`with`, giving its Seen), refused or not."""
    seen, started, error = Seen(), time.perf_counter(), None
    try:
        yield seen
    except BaseException as failed:  # GeneratorExit: a stream closed as its caller went away
        error = asyncio.CancelledError() if isinstance(failed, GeneratorExit) else failed
        raise
    finally:
        observer.finish(method, seen.request, started, error, caller, seen.count)


def started_pool(threads: int, name: str) -> ThreadPoolExecutor:
    """A pool whose threads exist from the start: a process short of threads later (thousands
    of idle connections elsewhere) still has its pools."""
    pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
    ready = threading.Barrier(threads + 1)
    for _ in range(threads):
        pool.submit(ready.wait)
    ready.wait()
    return pool


class Edge(Admission):
    """The limits above, kept for one server process (both transports count in the same): its
    calls counted and admitted by Admission, served here."""

    def __init__(
        self,
        servicer: RulesServicer,
        long_threads: int,
        message_limit: int,
        observer: CallObserver | None = None,
    ) -> None:
        room = long_threads + QUEUED_LONG_CALLS
        refused = PeerRate(REFUSED_PER_MINUTE, burst=REFUSED_BURST)
        limits = (MAX_CALLS, OPEN_CALLS, OPEN_CALLS_PER_PEER, room, LONG_CALL_SHARE_PER_PEER)
        calls = CallLimits(REQUEST_SECONDS, SWEEP_SECONDS, LONG_CALLS, servicer.admit, self.parsed)
        super().__init__(*limits, refused, calls)
        self.servicer = servicer
        # metrics.Observer, told of every call as it ends (None: nothing observed, nothing paid)
        self.observer = observer
        self.message_limit = message_limit
        self.long_pool = LongCallPool(long_threads, room)
        # Connect's JSON requests are parsed here, after their call is admitted, so that a large
        # one never holds the event loop.
        self.parse_pool = started_pool(1, "json")
        # Bounded calls wait on the ledger's store, when there is one: on threads, so that
        # the event loop (and every other caller) never waits on the network.
        self.waiting_pool: ThreadPoolExecutor | None = None
        if getattr(servicer, "ledger", None) is not None:
            self.waiting_pool = started_pool(LEDGER_THREADS, "ledger")

    def close(self) -> None:
        self.long_pool.close()
        for pool in (self.parse_pool, self.waiting_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        ledger = getattr(self.servicer, "ledger", None)
        if ledger is not None:
            ledger.close()  # its connections to the store

    # ----- a call, whatever its transport -----

    def unary(self, name: str, run: Run[T], transport: Transport, caller: str) -> Awaitable[T]:
        """A unary call from `caller` (its transport's peer, with its port): its request read
        within REQUEST_SECONDS, admitted, and worked on by `run` (the method's handler, as its
        transport calls it). (Not a coroutine itself: a call not observed pays for no frame of
        it.)"""
        if self.observer is None:
            return self.unary_call(name, run, transport, peer_address(caller), None)
        return self.observed_unary(self.observer, name, run, transport, caller)

    async def observed_unary(
        self, observer: CallObserver, name: str, run: Run[T], transport: Transport, caller: str
    ) -> T:
        with observed(observer, name, caller) as seen:
            answer: T = await self.unary_call(name, run, transport, peer_address(caller), seen)
            return answer

    async def stream(self, transport: Transport, caller: str) -> AsyncGenerator[bytes]:
        """ApplyMoves: ApplyMove for each request on the stream, in order; a refused one ends
        the stream with its status. Each request is a call's work of its own: admitted when it
        arrives, counted until it is answered (not until its answer is written: a caller that
        reads no answers would hold MAX_CALLS slots). So its limits are here, per message, not
        around the stream as an interceptor's would be."""
        apply_move, peer = self.runner("ApplyMove"), peer_address(caller)
        deadline = deadline_of(transport.time_remaining())
        observer = self.observer
        reported = observer and observed(observer, "ApplyMoves", caller)
        with reported or contextlib.nullcontext() as seen, Open(self, peer) as held:
            if held:
                await self.held_and_refused(peer, held)
            seconds, what = self.request_seconds, "the first request on the stream"
            first = True
            while True:
                request = await self.waiting.next_message(transport.read, seconds, what)
                if request is EOF:
                    if first:  # a stream of no request at all
                        self.refused.take(peer)
                    return
                first = False
                seconds, what = STREAM_IDLE_SECONDS, "the next request on the stream"
                if seen is not None:
                    seen.add(request)
                refuse_unreadable(request)
                with Admitted(self, False, peer):
                    if type(request) is Deferred:
                        request = await self.parsed(request)
                    body = await apply_move(request.request, CallContext(deadline, peer))
                yield wire.apply_moves_response(body)

    async def parsed(self, request: Deferred) -> Any:
        """A Connect JSON request parsed now, on the parse pool (refused when it does not
        parse)."""
        loop = asyncio.get_running_loop()
        parsed = await loop.run_in_executor(self.parse_pool, request.parse)
        refuse_unreadable(parsed)
        return parsed

    # ----- a method's work -----

    def runner(self, name: str) -> Run[bytes]:
        """A method's work on its request, where it runs: a long call in a long-call process,
        a bounded one on the event loop (or a thread, with a ledger)."""
        if name in LONG_CALLS:
            return functools.partial(self.run_long, name)
        return functools.partial(self.run_bounded, getattr(self.servicer, name))

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
        ledger's store (a caller that goes away stops that work at its next check)."""
        pool = self.waiting_pool
        if pool is None:
            return self.run(behavior, request, call)
        loop = asyncio.get_running_loop()
        work = functools.partial(self.run, behavior, request, call)
        gone = call.gone = threading.Event()
        try:
            return await loop.run_in_executor(pool, work)
        except asyncio.CancelledError:
            gone.set()
            raise


# ----- gRPC -----

GrpcContext = grpc.aio.ServicerContext[Any, Any]


async def abort(context: GrpcContext, status: grpc.Status) -> NoReturn:
    if context.done():  # gRPC ended the call itself (a message over its limit): nobody to tell
        raise asyncio.CancelledError
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("abort returns only by raising")  # pragma: no cover


class EdgeInterceptor(grpc.aio.ServerInterceptor):
    """The edge on gRPC: each unary rules method's handler (add_rules_service's) replaced by a
    client-streaming one that reads its request itself (a timer bounds the wait: gRPC's own
    unary handler is called only once the request has come) and runs the handler's work
    through Edge.unary. Other services (health, reflection) pass through untouched."""

    def __init__(self, edge: Edge) -> None:
        self.edge = edge
        # Each method's replacement, made on its first call (the registered handlers are fixed).
        self.replaced: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        replaced = self.replaced.get(details.method)
        if replaced is not None:
            return replaced
        handler = await continuation(details)
        service, _, name = details.method[1:].rpartition("/")
        if handler is None or service != SERVICE.full_name or handler.unary_unary is None:
            return handler
        run = cast(Run[bytes], handler.unary_unary)  # add_rules_service's: Edge.runner's
        replaced = grpc.stream_unary_rpc_method_handler(
            self.read_by_the_edge(name, run),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
        self.replaced[details.method] = replaced
        return replaced

    def read_by_the_edge(self, name: str, run: Run[bytes]) -> Callable[..., Awaitable[bytes]]:
        unary = self.edge.unary

        async def handle(_requests: object, context: GrpcContext) -> bytes:
            try:
                return await unary(name, run, context, context.peer())
            except Aborted as error:
                await abort(context, error.status)

        return handle


def request_deserializer(edge: Edge, method: str) -> Callable[[bytes], object]:
    """How a method's request bytes are read: bounded by what the method needs (REQUEST_BYTES),
    then parsed; LegalMoves' and ApplyMove's leading state left as bytes without sealing."""
    request_class = getattr(api, SERVICE.methods_by_name[method].input_type.name)
    if method in STATE_AS_BYTES and edge.servicer.sealer is None:
        return state_left_as_bytes(request_class, REQUEST_BYTES[method])
    return safe_deserializer(request_class, REQUEST_BYTES[method])


def add_rules_service(edge: Edge, server: grpc.aio.Server) -> None:
    """Register the rules service (instead of the generated add_RulesServiceServicer_to_server:
    the servicer is synchronous, answers with wire bytes, and its requests are read by the
    edge's deserializers). A unary method's handler is its work (Edge.runner), given the call
    by EdgeInterceptor, which the server must have; ApplyMoves is Edge.stream."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, bytes]] = {}
    # Answers are wire bytes already: no response serializer.
    for method in SERVICE.methods:
        read = request_deserializer(edge, method.name)
        if method.client_streaming:
            behavior = functools.partial(apply_moves, edge)
            handlers[method.name] = grpc.stream_stream_rpc_method_handler(behavior, read)
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                edge.runner(method.name), read
            )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )


async def apply_moves(edge: Edge, _requests: object, context: GrpcContext) -> None:
    answers = edge.stream(context, context.peer())
    try:
        async for answer in answers:
            await context.write(answer)
    except Aborted as error:
        await abort(context, error.status)
    finally:
        await answers.aclose()
