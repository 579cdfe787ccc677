"""Engine errors -> gRPC status with google.rpc rich details, in one place."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from crabgames.core.errors import DOMAIN, IllegalMove, InvalidArgument, RulesError

# The longest text a status carries (message, each description and metadata value): every
# status fits gRPC's trailers, whatever an error quotes (the engine cuts quotes too: shown()).
MAX_TEXT_CHARS = 1024


def cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[: MAX_TEXT_CHARS - 3] + "..."


def _pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def status_for(error: RulesError) -> grpc.Status:
    metadata = {key: cut(value) for key, value in error.metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=metadata)
    details = [_pack(info)]
    if isinstance(error, InvalidArgument):
        code = code_pb2.INVALID_ARGUMENT
        bad = error_details_pb2.BadRequest()
        for v in error.violations:
            bad.field_violations.add(field=cut(v.field), description=cut(v.description))
        details.append(_pack(bad))
    elif isinstance(error, IllegalMove):
        code = code_pb2.FAILED_PRECONDITION
        failure = error_details_pb2.PreconditionFailure()
        failure.violations.add(
            type="ILLEGAL_MOVE", subject=cut(error.rule), description=cut(error.message)
        )
        details.append(_pack(failure))
    elif hasattr(error, "status_code"):  # its kind's own (errors.py, sealing.py, limits.py...)
        code = error.status_code
    else:
        code = code_pb2.INVALID_ARGUMENT
    return rpc_status.to_status(
        status_pb2.Status(code=code, message=cut(error.message), details=details)
    )


def internal_status(message: str) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(reason="INTERNAL", domain=DOMAIN)
    status = status_pb2.Status(code=code_pb2.INTERNAL, message=message, details=[_pack(info)])
    return rpc_status.to_status(status)
