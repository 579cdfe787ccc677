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
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection as v1alpha
from grpc_reflection.v1alpha import reflection_pb2

V1ALPHA_PACKAGE = "grpc.reflection.v1alpha"
V1_PACKAGE = "grpc.reflection.v1"
V1_FILE = "grpc/reflection/v1/reflection.proto"
SERVICE_NAME = f"{V1_PACKAGE}.ServerReflection"


def v1_file() -> descriptor_pb2.FileDescriptorProto:
    """The v1alpha reflection file as the v1 one: package, type references and Java options
    renamed, nothing else changed."""
    source = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(source)
    renamed = descriptor_pb2.FileDescriptorProto.FromString(source.SerializeToString())
    renamed.name = V1_FILE
    renamed.package = V1_PACKAGE
    renamed.options.Clear()  # v1alpha's deprecation and Java package do not apply
    for message in renamed.message_type:
        for field in message.field:
            if field.HasField("type_name"):  # assigning "" would set it: proto2 presence
                field.type_name = field.type_name.replace(f".{V1ALPHA_PACKAGE}.", f".{V1_PACKAGE}.")
    for service in renamed.service:
        for method in service.method:
            for end in ("input_type", "output_type"):
                name = getattr(method, end).replace(f".{V1ALPHA_PACKAGE}.", f".{V1_PACKAGE}.")
                setattr(method, end, name)
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
