"""Why a rules server cannot be reached, in words that name the fix.

gRPC says only that a channel did not become ready: a server that is down, a TLS server called
in plaintext, a plaintext server called over TLS, an untrusted certificate and a wrong port all
look alike. `diagnose` asks the address itself, with a few bytes over a plain socket: does
anything listen, does it answer HTTP/2 (gRPC in plaintext), HTTP/1.1 (the Connect and gRPC-Web
side, or another web server), or a TLS handshake, and does the handshake pass with the client's
own trust settings.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from crabgames.service.addresses import ADDRESS_VAR

# The client's first bytes on an HTTP/2 connection (RFC 9113, 3.4), then an empty SETTINGS.
H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
H2_SETTINGS = 4  # the frame type a gRPC server's first frame has
MOVE = f"point the client at the server with --address or {ADDRESS_VAR}"
TRUST_FIX = "give the CA that signed it: CRABGAMES_TLS_CA=ca.pem, or Tls(ca_file=...)"


class TlsSettings(Protocol):
    """What `diagnose` needs of crabclients.client.Tls (which imports this module)."""

    @property
    def ca_file(self) -> str | Path | None: ...
    @property
    def cert_file(self) -> str | Path | None: ...
    @property
    def key_file(self) -> str | Path | None: ...
    @property
    def server_name(self) -> str | None: ...


def diagnose(address: str, tls: TlsSettings | None, timeout: float = 2.0) -> str:
    """What is wrong between this client and `address`, as a clause naming the fix."""
    host, port = split(address)
    try:
        with connected(host, port, timeout):
            pass
    except socket.gaierror:
        return f"the host {host!r} does not resolve: {MOVE}"
    except ConnectionRefusedError:
        return f"nothing listens on {address}: start a server there (make run), or {MOVE}"
    except OSError as error:
        return f"{address} does not answer ({error}): a wrong host, or a firewall"
    if tls is None:
        return plaintext_problem(address, host, port, timeout)
    return tls_problem(address, host, port, tls, timeout)


def split(address: str) -> tuple[str, int]:
    host, _, port = address.removeprefix("dns:///").rpartition(":")
    return host.strip("[]") or "localhost", int(port) if port.isdigit() else 0


@contextlib.contextmanager
def connected(host: str, port: int, timeout: float) -> Iterator[socket.socket]:
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.settimeout(timeout)
        yield sock


def first_bytes(sock: socket.socket | ssl.SSLSocket, hello: bytes) -> bytes:
    """What the other side answers to `hello` (empty: it closed, or said nothing in time)."""
    try:
        sock.sendall(hello)
        return sock.recv(64)
    except (TimeoutError, ConnectionError):
        return b""


def speaks(answer: bytes) -> str:
    """ "grpc", "http1" or "" (something else, or nothing) from the first bytes of an answer."""
    if len(answer) >= 9 and answer[3] == H2_SETTINGS:
        return "grpc"
    if answer.startswith(b"HTTP/1."):
        return "http1"
    return ""


def plaintext_problem(address: str, host: str, port: int, timeout: float) -> str:
    with connected(host, port, timeout) as sock:
        kind = speaks(first_bytes(sock, H2_PREFACE))
    if kind == "grpc":
        return f"{address} speaks gRPC but did not become ready in time: is it overloaded?"
    if kind == "http1":
        return http1_problem(address)
    if handshake_passes(host, port, timeout):
        return (
            f"the server on {address} expects TLS: connect over TLS and trust its certificate"
            f" ({TRUST_FIX}; CRABGAMES_TLS=1 for a certificate of a public CA)"
        )
    return f"something listens on {address} but does not speak gRPC: a wrong port? {MOVE}"


def http1_problem(address: str) -> str:
    return (
        f"{address} answers HTTP/1.1, not gRPC: it is an HTTP port (Connect and gRPC-Web,"
        f" make run's 127.0.0.1:8080, or another web server); gRPC is on the server's --address"
        f" (127.0.0.1:50051 by default): {MOVE}"
    )


def handshake_passes(host: str, port: int, timeout: float) -> bool:
    """Whether a TLS handshake completes, trusting any certificate (only to learn that the
    server speaks TLS: nothing is sent over it)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    try:
        with connected(host, port, timeout) as sock, context.wrap_socket(sock):
            return True
    except (ssl.SSLError, OSError):
        return False


def tls_context(tls: TlsSettings) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(tls.ca_file) if tls.ca_file else None)
    if tls.cert_file and tls.key_file:
        context.load_cert_chain(str(tls.cert_file), str(tls.key_file))
    context.set_alpn_protocols(["h2"])
    return context


def tls_problem(address: str, host: str, port: int, tls: TlsSettings, timeout: float) -> str:
    try:
        context = tls_context(tls)
    except (OSError, ssl.SSLError) as error:
        return f"the TLS files do not load ({error}): check CRABGAMES_TLS_CA and the client's"
    name = tls.server_name or host
    try:
        with (
            connected(host, port, timeout) as sock,
            context.wrap_socket(sock, server_hostname=name) as secure,
        ):
            answer = first_bytes(secure, H2_PREFACE)
    except ssl.SSLCertVerificationError as error:
        if "match" in (error.verify_message or "") or "mismatch" in str(error):
            return (
                f"the server's certificate on {address} does not name {name!r}: connect by a"
                " name it lists, or set CRABGAMES_TLS_SERVER_NAME (Tls(server_name=...))"
            )
        return (
            f"the server's certificate on {address} is not trusted ({error.verify_message}):"
            f" {TRUST_FIX}"
        )
    except ssl.SSLError as error:
        if "CERTIFICATE_REQUIRED" in str(error).upper():
            return client_certificate_problem(address)
        return not_tls_problem(address, host, port, timeout, error)
    except OSError as error:
        return f"the TLS handshake with {address} failed ({error})"
    if speaks(answer) == "grpc":
        return f"{address} speaks gRPC over TLS but did not become ready in time: overloaded?"
    return client_certificate_problem(address)


def client_certificate_problem(address: str) -> str:
    return (
        f"the server on {address} refused this client's certificate, or asks for one: give a"
        " certificate its client CA signed (CRABGAMES_TLS_CLIENT_CERT and"
        " CRABGAMES_TLS_CLIENT_KEY, or Tls(cert_file=..., key_file=...))"
    )


def not_tls_problem(address: str, host: str, port: int, timeout: float, error: Exception) -> str:
    """The handshake failed below the certificates: what the port speaks instead."""
    with connected(host, port, timeout) as sock:
        kind = speaks(first_bytes(sock, H2_PREFACE))
    if kind == "grpc":
        return (
            f"the server on {address} speaks plaintext gRPC, not TLS: connect without TLS"
            " (unset CRABGAMES_TLS, CRABGAMES_TLS_CA and the other CRABGAMES_TLS_* settings)"
        )
    if kind == "http1":
        return http1_problem(address)
    return f"the TLS handshake with {address} failed ({error}): a wrong port? {MOVE}"
