"""The host's refusals: every one is JSON `{code, message, field}` with a 4xx status (or 503
when the rules service or the store cannot be reached), never a 500 for what a caller sent.
A refusal of the rules service keeps its reason and rule (`reason`, `rule`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import grpc

from crabclients.client import RulesServiceError

BAD_REQUEST, FORBIDDEN, NOT_FOUND, CONFLICT = 400, 403, 404, 409
TOO_LARGE, TOO_MANY, UNAVAILABLE = 413, 429, 503
TIMEOUT = 408


@dataclass
class HostError(Exception):
    """A refusal: its HTTP status and its JSON body."""

    status: int
    code: str
    message: str
    field: str = ""
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    retry_after: float = 0.0  # seconds, sent as Retry-After (429 and 503)

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "field": self.field, **self.extra}

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}"


def bad_request(field_name: str, message: str) -> HostError:
    return HostError(BAD_REQUEST, "bad_request", message, field_name)


# What a refusal of the rules service means for the caller of the host: the status and the
# code, by the service's ErrorInfo reason (then by its gRPC status).
BY_REASON: dict[str, tuple[int, str]] = {
    "ILLEGAL_MOVE": (CONFLICT, "illegal_move"),
    "GAME_OVER": (CONFLICT, "game_over"),
    "STALE_STATE": (CONFLICT, "stale_version"),
    "BAD_PLAYER_TOKEN": (FORBIDDEN, "not_your_turn"),
    "RATE_LIMITED": (TOO_MANY, "rules_busy"),
    "BUSY": (TOO_MANY, "rules_busy"),
}
BY_STATUS: dict[grpc.StatusCode, tuple[int, str]] = {
    grpc.StatusCode.INVALID_ARGUMENT: (BAD_REQUEST, "malformed"),
    grpc.StatusCode.FAILED_PRECONDITION: (CONFLICT, "illegal_move"),
    grpc.StatusCode.ABORTED: (CONFLICT, "stale_version"),
    grpc.StatusCode.PERMISSION_DENIED: (FORBIDDEN, "forbidden"),
    grpc.StatusCode.RESOURCE_EXHAUSTED: (TOO_MANY, "rules_busy"),
}


def refused(error: RulesServiceError, prefix: str = "") -> HostError:
    """The host's answer to a refusal of the rules service, with its reason, rule and the first
    field it names (under `prefix`, the JSON field the host read it from). Anything else the
    service says (unavailable, a deadline) is 503: the caller may try again."""
    status, code = BY_REASON.get(error.reason) or BY_STATUS.get(
        error.code, (UNAVAILABLE, "rules_unavailable")
    )
    path = error.field_violations[0][0] if error.field_violations else ""
    where = ".".join(part for part in (prefix, path) if part)
    extra = {"reason": error.reason, "rule": error.rule}
    retry = 1.0 if status in (TOO_MANY, UNAVAILABLE) else 0.0
    message = error.message
    if error.field_violations:
        message = f"{path}: {error.field_violations[0][1]}"
    return HostError(status, code, message, where, extra, retry)
