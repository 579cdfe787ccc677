"""Typed errors raised by the engine; the service maps them to gRPC status codes in one place."""

from __future__ import annotations

from dataclasses import dataclass

from google.rpc import code_pb2
from mypy_extensions import mypyc_attr

# google.rpc.ErrorInfo domain for every error this engine raises.
DOMAIN = "crabgames.v1"
# A caller's value quoted in an error is cut to this many characters: an error never echoes a
# caller's string whole (a long one would turn the error into a too-large trailer).
SHOWN_CHARS = 40


def shown(value: object) -> str:
    """`value` as an error quotes it (repr), cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


@dataclass(frozen=True)
class FieldViolation:
    """One problem with one field, named by its path from the request (for example
    `state.kraby.hands[2].orange`)."""

    field: str
    description: str


# The errors stay Python classes when compiled (mypyc): each kind says its reason (and the
# service's, its status) as a class attribute that an instance may override, and the service
# subclasses them. They are made once a refused call, never in a loop.
@mypyc_attr(native_class=False)
class RulesError(Exception):
    """Base of every error a client can cause. `reason` is the google.rpc.ErrorInfo reason."""

    reason = "RULES_ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def metadata(self) -> dict[str, str]:
        return {}


@mypyc_attr(native_class=False)
class InvalidArgument(RulesError):
    """Malformed input: a state, move or option that does not decode to something meaningful."""

    def __init__(self, reason: str, violations: list[FieldViolation]) -> None:
        first = violations[0]
        super().__init__(f"{first.field}: {first.description}")
        self.reason = reason
        self.violations = violations


@mypyc_attr(native_class=False)
class IllegalMove(RulesError):
    """A well-formed move the rules do not allow now. `rule` names the rulebook section or the
    ruling (for example "K4") that forbids it."""

    reason = "ILLEGAL_MOVE"

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule

    @property
    def metadata(self) -> dict[str, str]:
        return {"rule": self.rule, "reason": self.message}


@mypyc_attr(native_class=False)
class StaleState(RulesError):
    """A move decided on an older version of the state than the one sent."""

    reason = "STALE_STATE"
    status_code = code_pb2.ABORTED


@mypyc_attr(native_class=False)
class TooManyMoves(RulesError):
    """A decision with more legal moves than one answer lists (a CRAB RAGE! Smash at a huge
    rage offers every X the player can pay). The moves are still legal: ApplyMove takes them."""

    reason = "TOO_MANY_MOVES"
    status_code = code_pb2.RESOURCE_EXHAUSTED


@mypyc_attr(native_class=False)
class GameOver(RulesError):
    """A move sent after the game ended."""

    reason = "GAME_OVER"
    status_code = code_pb2.FAILED_PRECONDITION


def malformed(reason: str, field: str, description: str) -> InvalidArgument:
    return InvalidArgument(reason, [FieldViolation(field, description)])


def bad_state(field: str, description: str) -> InvalidArgument:
    return malformed("MALFORMED_STATE", field, description)


def bad_move(field: str, description: str) -> InvalidArgument:
    return malformed("MALFORMED_MOVE", field, description)


def bad_request(field: str, description: str) -> InvalidArgument:
    return malformed("MALFORMED_REQUEST", field, description)
