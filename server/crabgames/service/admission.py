"""The rules calls a server process has open and at work, counted by peer, and the refusals
of a call that would pass a limit (the limits themselves: edge.py, which serves every call
within them). Everything here is synchronous and runs on every call, so it is compiled with the
rules (crabgames.compiled); edge.py's asynchronous flow calls it."""

from __future__ import annotations

import time
from types import TracebackType

import grpc
from mypy_extensions import mypyc_attr

from crabgames.core.errors import RulesError, bad_request
from crabgames.service.calls import Aborted, Refused
from crabgames.service.limits import TooLarge, Undecodable, short_of
from crabgames.service.peers import PeerRate
from crabgames.service.status import status_for


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
