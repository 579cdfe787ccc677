"""TLS and mutual TLS for the server (docs/deploy.md), with certificates reloaded in place.

The certificate chain and key come from PEM files (flags or CRABGAMES_TLS_CERT and
CRABGAMES_TLS_KEY); with a client CA (CRABGAMES_TLS_CLIENT_CA) every client must present a
certificate that CA signed. The files are read again, without a restart, when `request_reload`
is called (the server does on SIGHUP) or, every CRABGAMES_TLS_RELOAD_SECONDS, when one of them
changed (a renewed certificate written in place, or a Kubernetes Secret's symlink swapped).

gRPC asks `fetch` for the certificate before each new connection's handshake (on one of its
own threads), so connections opened after a reload get the new certificate and the ones open
keep theirs. A set of files that does not load (a key that does not match its certificate, a
half-written file) is logged and the old certificate stays in use.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
from cryptography import x509
from cryptography.hazmat.primitives import serialization

log = logging.getLogger(__name__)

# How often the files are looked at for a change, when no reload interval is given: a renewed
# certificate is in use within a minute, and a stat of three files a minute costs nothing.
DEFAULT_RELOAD_SECONDS = 60.0


@dataclass(frozen=True)
class TlsFiles:
    """Where the server's certificate chain, its key and (for mutual TLS) the CA that signs
    client certificates are, and how often to look for new ones (0: only on SIGHUP). Plain
    data, so that --workers hands it to each worker, which loads the files itself."""

    cert: Path
    key: Path
    client_ca: Path | None = None
    reload_seconds: float = DEFAULT_RELOAD_SECONDS

    @classmethod
    def from_paths(
        cls,
        cert: str,
        key: str,
        client_ca: str = "",
        reload_seconds: float = DEFAULT_RELOAD_SECONDS,
    ) -> TlsFiles | None:
        if not cert and not key:
            if client_ca:
                raise ValueError("a client CA needs the server's own certificate and key")
            return None
        if not cert or not key:
            raise ValueError("TLS needs both a certificate file and a key file")
        ca = Path(client_ca) if client_ca else None
        return cls(Path(cert), Path(key), ca, reload_seconds)

    def paths(self) -> tuple[Path, ...]:
        return (
            (self.cert, self.key)
            if self.client_ca is None
            else (self.cert, self.key, self.client_ca)
        )


@dataclass(frozen=True)
class Loaded:
    """One checked set of PEM files and what gRPC makes of them."""

    config: grpc.ServerCertificateConfiguration
    subject: str
    not_after: float  # the certificate's expiry, in Unix seconds
    signature: tuple[tuple[int, int, int], ...]  # (inode, size, mtime) of each file


def signature(paths: tuple[Path, ...]) -> tuple[tuple[int, int, int], ...]:
    """What changes when a file is replaced or rewritten (stat follows a Secret's symlinks)."""
    stats = [os.stat(path) for path in paths]
    return tuple((s.st_ino, s.st_size, s.st_mtime_ns) for s in stats)


def read(files: TlsFiles) -> tuple[bytes, bytes, bytes | None, x509.Certificate]:
    """The chain, key and client CA as PEM, checked: the chain parses, the key is the first
    certificate's, and the client CA (if any) holds certificates. ValueError says what is
    wrong. It makes no gRPC object, so a parent process checks the files with it before it
    forks its workers."""
    chain_pem = files.cert.read_bytes()
    key_pem = files.key.read_bytes()
    ca_pem = files.client_ca.read_bytes() if files.client_ca is not None else None
    try:
        chain = x509.load_pem_x509_certificates(chain_pem)
        key = serialization.load_pem_private_key(key_pem, password=None)
        if ca_pem is not None:
            x509.load_pem_x509_certificates(ca_pem)
    except ValueError as error:
        raise ValueError(f"TLS files {', '.join(map(str, files.paths()))}: {error}") from None
    spki = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if chain[0].public_key().public_bytes(*spki) != key.public_key().public_bytes(*spki):
        raise ValueError(
            f"the key in {files.key} is not the key of the certificate in {files.cert}"
        )
    return chain_pem, key_pem, ca_pem, chain[0]


def load(files: TlsFiles) -> Loaded:
    """The files read, checked and made into gRPC's certificate configuration."""
    before = signature(files.paths())
    chain_pem, key_pem, ca_pem, leaf = read(files)
    config = grpc.ssl_server_certificate_configuration([(key_pem, chain_pem)], ca_pem)
    not_after = leaf.not_valid_after_utc.timestamp()
    return Loaded(config, leaf.subject.rfc4514_string(), not_after, before)


class ServerTls:
    """The server's TLS credentials, whose certificate is read again on request or when its
    files change."""

    def __init__(self, files: TlsFiles) -> None:
        self.files = files
        self.reload_seconds = files.reload_seconds  # 0: only on request (SIGHUP)
        self.loaded = load(files)  # at start, a bad file stops the server
        self.reloads = 0  # certificates taken since the start
        self.failed_reloads = 0
        # A configuration loaded on request (SIGHUP) that gRPC has not asked for yet.
        self.pending: grpc.ServerCertificateConfiguration | None = None
        self.next_check = time.monotonic() + self.reload_seconds
        self.lock = threading.Lock()  # gRPC may call fetch from several threads at once
        log.info(self.describe("TLS with"))

    @property
    def mutual(self) -> bool:
        return self.files.client_ca is not None

    def describe(self, what: str) -> str:
        expires = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(self.loaded.not_after))
        clients = "client certificates required" if self.mutual else "no client certificates"
        return f"{what} certificate {self.loaded.subject} (expires {expires}); {clients}"

    def credentials(self) -> grpc.ServerCredentials:
        # The stubs say the fetcher returns a configuration; gRPC documents None as "no change".
        return grpc.dynamic_ssl_server_credentials(
            self.loaded.config,
            self.fetch,  # type: ignore[arg-type]
            require_client_authentication=self.mutual,
        )

    def request_reload(self) -> None:
        """Read the files again now and log the outcome, for the next handshake to take (what
        SIGHUP does: the operator who sent it reads at once whether the new files loaded).
        Called from a signal handler, which Python runs on the main thread, never on one of
        gRPC's: waiting for the lock there blocks no handshake for longer than a reload."""
        log.info("TLS: reading %s again (requested)", ", ".join(map(str, self.files.paths())))
        with self.lock:
            config = self.reload(forced=True)
            if config is not None:
                self.pending = config

    def fetch(self) -> grpc.ServerCertificateConfiguration | None:
        """gRPC's question before each handshake: a new certificate, or None for no change.
        Costs a clock read unless a reload is due or was made on request."""
        if self.pending is None and (
            self.reload_seconds <= 0 or time.monotonic() < self.next_check
        ):
            return None
        with self.lock:
            config, self.pending = self.pending, None
            if config is None and time.monotonic() >= self.next_check:
                config = self.reload(forced=False)
            if self.reload_seconds > 0:
                self.next_check = time.monotonic() + self.reload_seconds
            return config

    def reload(self, forced: bool) -> grpc.ServerCertificateConfiguration | None:
        try:
            if not forced and signature(self.files.paths()) == self.loaded.signature:
                return None
            self.loaded = load(self.files)
        except (OSError, ValueError) as error:
            # Keep serving with the certificate in use; the next change or SIGHUP tries again.
            self.failed_reloads += 1
            log.error("TLS reload failed, keeping the certificate in use: %s", error)
            return None
        self.reloads += 1
        log.info(self.describe("TLS reloaded:"))
        return self.loaded.config
