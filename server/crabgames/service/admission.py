"""The rules calls a server process has open and at work, counted by peer, the refusals of a
call that would pass a limit, and a unary call's way from its request to its work (the limits
themselves: edge.py, which serves every call within them). All of it runs on every call, so it
is compiled with the rules (crabgames.compiled); edge.py's transports and ApplyMoves' stream (an
asynchronous generator, which mypyc does not compile) call it."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Final, NamedTuple, NoReturn

import grpc
from mypy_extensions import mypyc_attr

from crabgames.core.errors import RulesError, bad_request
from crabgames.service.calls import Aborted, CallContext, Refused
from crabgames.service.limits import Deferred, TooLarge, Undecodable, short_of
from crabgames.service.peers import PeerRate
from crabgames.service.status import status_for

# What a transport's read gives once the caller has sent all its requests.
EOF: Final = grpc.aio.EOF


class CallLimits(NamedTuple):
    """What a unary call is served with besides the counts (edge.py's limits and hooks)."""

    request_seconds: float  # the request must arrive within this
    sweep_seconds: float  # how often the waits for a request are checked
    long_methods: tuple[str, ...]  # loops over many games or moves, counted apart
    admit: Callable[[str, str], None]  # the servicer's own admission (a ledger's), by method, peer
    parse: Callable[[Deferred], Awaitable[Any]]  # a Connect JSON request parsed off the loop


def deadline_of(remaining: float | None) -> float | None:
    """The caller's deadline (time.monotonic()), from its time remaining."""
    return None if remaining is None else time.monotonic() + remaining


def refusal(error: RulesError) -> Aborted:
    return Aborted(status_for(error))


def refuse_unreadable(request: object) -> None:
    """Refuse a request that does not parse, or that is larger than its method needs."""
    if isinstance(request, Undecodable):
        why = f"does not parse as {request.type_name}: {request.error}"
        raise refusal(bad_request("request", why))
    if isinstance(request, TooLarge):
        raise refusal(too_large(request.why))


def too_large(why: str) -> Refused:
    return Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE", why)


def busy(message: str) -> Refused:
    return Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, "BUSY", message)


def one_less(counts: dict[str, int], peer: str) -> None:
    """A peer's count down by one, and the peer forgotten at zero (the dict stays as small as
    the peers with calls in it)."""
    left = counts[peer] - 1
    if left:
        counts[peer] = left
    else:
        del counts[peer]


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


class Waiting:
    """The calls waiting for their next request message, each until its time is up, checked
    together every `sweep_seconds` (edge.SWEEP_SECONDS) while any waits. (A timer per call
    cost every call an event loop iteration of its own, as libuv closes a stopped timer's
    handle on the next one, and two getpid calls of asyncio's: docs/performance.md.) Waits of
    one length are kept in the order they began, so their times are up in that order: a sweep
    reads the late ones and the first still in time, however many wait."""

    def __init__(self, sweep_seconds: float) -> None:
        self.sweep_seconds = sweep_seconds
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, met on the first wait
        self.by_length: dict[float, dict[asyncio.Task[Any], float]] = {}
        self.late: set[asyncio.Task[Any]] = set()  # cancelled by a sweep, not by the transport
        self.sweeping = False

    async def next_message(
        self, read: Callable[[], Awaitable[Any]], seconds: float, what: str
    ) -> Any:
        """The next request message (EOF once the caller has sent all), waiting at most
        `seconds` for it (a late one is refused at most `sweep_seconds` after)."""
        loop = self.loop
        if loop is None:
            loop = self.loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        assert task is not None
        waits = self.by_length.setdefault(seconds, {})
        waits[task] = time.monotonic() + seconds
        if not self.sweeping:
            self.sweeping = True
            loop.call_later(self.sweep_seconds, self.sweep)
        try:
            return await read()
        except asyncio.CancelledError:
            if task not in self.late:
                raise  # cancelled by the transport (the caller went away), not by a sweep
            task.uncancel()
        finally:
            waits.pop(task, None)
            self.late.discard(task)
        why = f"{what} did not arrive within {seconds:g} s"
        raise refusal(Refused(grpc.StatusCode.DEADLINE_EXCEEDED, "REQUEST_TIMEOUT", why))

    def sweep(self) -> None:
        """Cancel the waits whose time is up; sweep again while any wait."""
        now = time.monotonic()
        for waits in self.by_length.values():
            late = []
            for task, until in waits.items():
                if until > now:
                    break
                late.append(task)
            for task in late:
                del waits[task]
                self.late.add(task)
                task.cancel()
        self.sweeping = any(self.by_length.values())
        if self.sweeping and self.loop is not None:
            self.loop.call_later(self.sweep_seconds, self.sweep)


@mypyc_attr(allow_interpreted_subclasses=True)  # edge.Edge, whose calls are asynchronous
class Admission:
    """The counts of one server process's rules calls (both transports count in the same), and
    whether one more may open or start, within the limits it is given."""

    def __init__(
        self,
        max_calls: int,
        open_calls: int,
        open_calls_per_peer: int,
        long_room: int,
        long_share_per_peer: float,
        refused: PeerRate,
        calls: CallLimits,
    ) -> None:
        self.max_calls = max_calls
        self.max_open_calls = open_calls
        self.max_open_calls_per_peer = open_calls_per_peer
        self.long_room = long_room  # long calls running or waiting
        self.long_share = max(1, int(long_room * long_share_per_peer))  # of them, per peer
        self.calls = 0  # at work
        self.long_calls = 0
        self.open_calls = 0  # at work or waiting for a request
        self.open_by_peer: dict[str, int] = {}
        self.long_by_peer: dict[str, int] = {}
        # peers whose calls keep ending with no request message (edge.py)
        self.refused = refused
        self.stopping = False  # set by a graceful stop: new calls are refused
        self.request_seconds = calls.request_seconds
        self.long_methods = calls.long_methods
        self.admit = calls.admit
        self.parse = calls.parse
        self.waiting = Waiting(calls.sweep_seconds)  # the calls waiting for a request, timed

    def opened(self, peer: str) -> RulesError | None:
        """Why a new call cannot even wait for its request now, or None (and it is counted)."""
        if self.stopping:
            return Refused(
                grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", "the server is shutting down"
            )
        if self.open_calls >= self.max_open_calls:
            return busy(f"{self.max_open_calls} calls are open on this server process")
        per_peer = self.max_open_calls_per_peer
        if self.open_by_peer.get(peer, 0) >= per_peer:
            return busy(f"{per_peer} calls from {peer} are open on this process")
        self.open_calls += 1
        self.open_by_peer[peer] = self.open_by_peer.get(peer, 0) + 1
        return None

    def closed(self, peer: str) -> None:
        self.open_calls -= 1
        one_less(self.open_by_peer, peer)

    def admitted(self, long: bool, peer: str) -> RulesError | None:
        """Why a call whose request arrived cannot start its work now, or None (and the call
        is counted)."""
        if self.calls >= self.max_calls:
            return busy(f"{self.max_calls} calls are in flight on this server process")
        if long:
            if self.long_calls >= self.long_room:
                return busy("too many long calls (Playouts, Replay) are running or waiting")
            if self.long_by_peer.get(peer, 0) >= self.long_share:
                return busy(f"{peer} has {self.long_share} long calls running or waiting")
            self.long_by_peer[peer] = self.long_by_peer.get(peer, 0) + 1
        self.calls += 1
        self.long_calls += long
        return None

    def finished(self, long: bool, peer: str) -> None:
        self.calls -= 1
        if long:
            self.long_calls -= 1
            one_less(self.long_by_peer, peer)

    async def unary_call(
        self,
        name: str,
        run: Callable[[Any, CallContext], Awaitable[Any]],
        transport: Any,
        peer: str,
        seen: Seen | None,
    ) -> Any:
        """A unary call from `peer`: its request read within `request_seconds` from its
        transport (edge.Transport), admitted, and worked on by `run`."""
        with Open(self, peer) as held:
            if held:
                await self.held_and_refused(peer, held)
            request = await self.waiting.next_message(
                transport.read, self.request_seconds, "the request"
            )
            if request is EOF:
                self.refused.take(peer)
                raise refusal(bad_request("request", "no request message: a call sends one"))
            if seen is not None:
                seen.add(request)
            refuse_unreadable(request)
            with Admitted(self, name in self.long_methods, peer):
                self.admit(name, peer)
                if type(request) is Deferred:  # a Connect JSON request, parsed off the loop
                    request = await self.parse(request)
                # Answered without waiting for the end of the request stream, as gRPC's own
                # unary calls are: a second message is never read (waiting for the end would
                # cost every call a read of its own, about a sixth of a small call's CPU).
                call = CallContext(deadline_of(transport.time_remaining()), peer)
                return await run(request, call)

    async def held_and_refused(self, peer: str, wait: float) -> NoReturn:
        """A call from a peer with too many requests refused unread lately: refused unread
        too, once it has waited (a held call costs a timer; a caller refused at once would
        call again at once, and its calls would cost the event loop what its bombs did)."""
        await asyncio.sleep(min(wait, self.request_seconds))
        why = (
            f"too many requests from {peer} were refused unread lately (too large, or"
            f" none): its calls are read again in {math.ceil(wait)} s"
        )
        raise refusal(Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_REFUSED", why))


class Open:
    """One rules call open (`with`): refused at once when its peer or the process has too many
    open; counted until it ends. Entered, it gives how long the call must be held before it is
    refused unread (its peer's calls keep sending no request: edge.py), or 0."""

    __slots__ = ("admission", "peer")

    def __init__(self, admission: Admission, peer: str) -> None:
        self.admission, self.peer = admission, peer

    def __enter__(self) -> float:
        refused = self.admission.opened(self.peer)
        if refused is not None:
            raise refusal(refused)
        return self.admission.refused.wait(self.peer)

    def __exit__(
        self,
        _kind: type[BaseException] | None,
        _error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        self.admission.closed(self.peer)


class Admitted:
    """One rules call's work admitted (`with`): refused at once when it cannot start; once in,
    counted until it ends, and a refusal raised inside (the servicer's admission, an answer too
    large, the server short of memory) becomes its status."""

    __slots__ = ("admission", "long", "peer")

    def __init__(self, admission: Admission, long: bool, peer: str) -> None:
        self.admission, self.long, self.peer = admission, long, peer

    def __enter__(self) -> None:
        refused = self.admission.admitted(self.long, self.peer)
        if refused is not None:
            raise refusal(refused)

    def __exit__(
        self,
        _kind: type[BaseException] | None,
        error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        self.admission.finished(self.long, self.peer)
        if isinstance(error, RulesError):
            raise refusal(error) from None
        short = None if error is None else short_of(error)
        if short is not None:
            raise refusal(short) from None
