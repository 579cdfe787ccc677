"""What a rules call is, wherever it runs (the server's event loop, a thread, a long-call
process: edge.py, long_calls.py): the servicer's view of its call, the two ways it ends with a
status, and how its answer is made and bounded."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import Message
from mypy_extensions import mypyc_attr

from crabgames.core.errors import RulesError
from crabgames.service.limits import Received, check_time, short_of
from crabgames.service.status import internal_status, status_for

log = logging.getLogger(__name__)


@mypyc_attr(native_class=False)  # an error, as core/errors.py's are
class Aborted(Exception):
    """The call ends with this status: the edge's refusal, or the servicer's error (run_call).
    Each transport ends its call with it (edge.py, browser.py)."""

    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self.status = status


@mypyc_attr(native_class=False)  # an error, as core/errors.py's are
class Refused(RulesError):
    """A call the edge refuses with a status of its own (too many calls, a body that never
    came, an answer too large to send)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str) -> None:
        super().__init__(message)
        self.status_code = code.value[0]
        self.reason = reason


@mypyc_attr(allow_interpreted_subclasses=True)  # long_calls.SlotContext
class CallContext:
    """What the synchronous servicer sees of an asyncio call (limits.CallTime): its deadline
    (the caller's, cut to a work budget), whether the caller is still there."""

    __slots__ = ("deadline", "gone", "peer")

    def __init__(self, deadline: float | None, peer: str = "") -> None:
        self.deadline = deadline  # time.monotonic() seconds, or None
        # Set when the caller goes away while the work runs on another thread (edge.run_bounded);
        # work on the event loop cannot see its caller go, so it needs none (most calls).
        self.gone: threading.Event | None = None
        self.peer = peer

    def time_remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def is_active(self) -> bool:
        return self.gone is None or not self.gone.is_set()


def call_servicer(
    behavior: Callable[..., Message | bytes], request: Any, call: CallContext
) -> Message | bytes:
    """A servicer method called with the request; a Received request's state as bytes."""
    if type(request) is Received:
        return behavior(request.request, call, request.state)
    return behavior(request, call)


def answer(response: Message | bytes, limit: int) -> bytes:
    """A response's wire bytes, refused when larger than the message limit (the caller's state
    is untouched: the server keeps nothing of a call)."""
    data = response if isinstance(response, bytes) else response.SerializeToString()
    if len(data) > limit:
        raise Refused(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "ANSWER_TOO_LARGE",
            f"the answer would be {len(data)} bytes; the message limit is {limit}",
        )
    return data


def run_call(
    behavior: Callable[..., Message | bytes], request: Any, call: CallContext, limit: int
) -> bytes:
    """A servicer method run for a call whose time is not up yet; its answer's wire bytes. Any
    error ends the call with its status (status.py), written here once for every place a call
    runs: a bug is logged and INTERNAL, the server short of memory or threads BUSY."""
    try:
        check_time(call)
        return answer(call_servicer(behavior, request, call), limit)
    except RulesError as error:  # the engine's refusals, the call's time up, an answer too large
        raise Aborted(status_for(error)) from None
    except Exception as error:
        short = short_of(error)
        if short is not None:
            raise Aborted(status_for(short)) from None
        log.exception("%s failed", getattr(behavior, "__name__", behavior))
        raise Aborted(internal_status("internal error in the rules engine")) from None
