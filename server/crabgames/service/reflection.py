"""Server reflection as `grpc.reflection.v1` beside `grpc.reflection.v1alpha`.

Clients such as `buf curl` and grpcurl ask v1 first. grpcio-reflection 1.85 serves only
v1alpha, and v1 is the same protocol under another package name: the same messages with the
same field numbers, so the same bytes on the wire. So the v1 service is the v1alpha servicer
registered under the v1 name, and its descriptor (which reflection itself must be able to
describe) is the v1alpha file's descriptor renamed, built here rather than vendored.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, text_format
from grpc_reflection.v1alpha import reflection as v1alpha
from grpc_reflection.v1alpha import reflection_pb2

V1ALPHA_PACKAGE = "grpc.reflection.v1alpha"
V1_PACKAGE = "grpc.reflection.v1"
V1_FILE = "grpc/reflection/v1/reflection.proto"
SERVICE_NAME = f"{V1_PACKAGE}.ServerReflection"


def v1_file() -> descriptor_pb2.FileDescriptorProto:
    """The v1alpha reflection file as the v1 one: its name, package and type references
    renamed (in its text format, where the package name appears only as that), nothing else
    changed."""
    source = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(source)
    text = text_format.MessageToString(source).replace(V1ALPHA_PACKAGE, V1_PACKAGE)
    renamed = text_format.Parse(text, descriptor_pb2.FileDescriptorProto())
    renamed.name = V1_FILE
    renamed.options.Clear()  # v1alpha's deprecation and Java package do not apply
    return renamed


def register_v1(pool: descriptor_pool.DescriptorPool | None = None) -> None:
    """Add the v1 file to the pool reflection describes (the default one), once."""
    pool = pool or descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
    except KeyError:
        pool.AddSerializedFile(v1_file().SerializeToString())


def enable(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Reflection v1 and v1alpha on `server`, listing `service_names` and both reflection
    services."""
    register_v1()
    names = (*service_names, SERVICE_NAME, v1alpha.SERVICE_NAME)
    servicer = v1alpha.aio.ReflectionServicer(names)
    v1alpha_handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    handlers = [
        grpc.method_handlers_generic_handler(
            package + ".ServerReflection", {"ServerReflectionInfo": v1alpha_handler}
        )
        for package in (V1_PACKAGE, V1ALPHA_PACKAGE)
    ]
    server.add_generic_rpc_handlers(handlers)
