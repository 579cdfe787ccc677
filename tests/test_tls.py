"""TLS and mutual TLS through real servers on loopback, with CAs made on the fly: calls work
with the right CA and fail with another, a mutual-TLS server refuses a client without a
certificate (or with one from another CA), and a rotated certificate is taken without a
restart: on request (what SIGHUP does), at the reload interval, and by SIGHUP to a real
`crabgames-server` process. The Python and Node clients connect with their TLS options, and a
plaintext health port answers probes that cannot speak TLS."""

from __future__ import annotations

import datetime
import ipaddress
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from grpc_health.v1 import health_pb2, health_pb2_grpc

from crabclients.client import RulesClient, ServiceUnavailableError, Tls
from crabgames.service.server import Observing, serve
from crabgames.service.tls import ServerTls, TlsFiles, read
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.test_command_line import server, wait_for

ROOT = Path(__file__).resolve().parents[1]
NODE_CLIENT = ROOT / "clients" / "node"
QUICK = 3.0  # seconds to wait for a connection that should work (or fail) on loopback


def name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


@dataclass
class Ca:
    """A certificate authority made for one test."""

    key: ec.EllipticCurvePrivateKey
    cert: x509.Certificate
    pem: bytes

    @classmethod
    def make(cls, common_name: str) -> Ca:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            builder(name(common_name), name(common_name), key.public_key())
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )
        return cls(key, cert, cert.public_bytes(serialization.Encoding.PEM))

    def issue(self, common_name: str, server: bool) -> tuple[bytes, bytes]:
        """A certificate (PEM) and its key for a server on 127.0.0.1 and localhost, or for a
        client."""
        key = ec.generate_private_key(ec.SECP256R1())
        usage = (
            x509.ExtendedKeyUsageOID.SERVER_AUTH if server else x509.ExtendedKeyUsageOID.CLIENT_AUTH
        )
        cert = (
            builder(name(common_name), self.cert.subject, key.public_key())
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(
                x509.SubjectAlternativeName(
                    [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
                ),
                critical=False,
            )
            .sign(self.key, hashes.SHA256())
        )
        return cert.public_bytes(serialization.Encoding.PEM), pem_key(key)


def builder(subject: x509.Name, issuer: x509.Name, public_key) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
    )


@dataclass
class Pki:
    """A server CA, a server certificate it signed, and files for both in `folder`; a client
    CA and a client certificate for mutual TLS."""

    folder: Path
    ca: Ca
    client_ca: Ca

    @classmethod
    def make(cls, folder: Path, tag: str = "") -> Pki:
        pki = cls(folder, Ca.make(f"server CA {tag}"), Ca.make(f"client CA {tag}"))
        pki.write_server(pki.ca)
        (folder / "ca.pem").write_bytes(pki.ca.pem)
        (folder / "client-ca.pem").write_bytes(pki.client_ca.pem)
        cert, key = pki.client_ca.issue("a bot", server=False)
        (folder / "client.pem").write_bytes(cert)
        (folder / "client.key").write_bytes(key)
        return pki

    def write_server(self, ca: Ca) -> None:
        """(Re)write the server's certificate and key files, the way a renewal does: each
        file replaced whole."""
        cert, key = ca.issue("crabgames", server=True)
        for file, data in (("server.key", key), ("server.pem", cert)):
            temporary = self.folder / f".{file}.new"
            temporary.write_bytes(data)
            os.replace(temporary, self.folder / file)

    def files(self, mutual: bool = False, reload_seconds: float = 0.0) -> TlsFiles:
        client_ca = self.folder / "client-ca.pem" if mutual else None
        return TlsFiles(
            self.folder / "server.pem", self.folder / "server.key", client_ca, reload_seconds
        )

    def client(self, ca: Ca | None = None, with_cert: bool = False) -> Tls:
        ca_file = self.folder / "ca.pem"
        if ca is not None:
            ca_file = self.folder / f"trust-{id(ca)}.pem"
            ca_file.write_bytes(ca.pem)
        if not with_cert:
            return Tls(ca_file)
        return Tls(ca_file, self.folder / "client.pem", self.folder / "client.key")


@pytest.fixture
def pki(tmp_path: Path) -> Pki:
    return Pki.make(tmp_path)


def games_over(port: int, tls: Tls) -> int:
    with RulesClient.connect(f"127.0.0.1:{port}", timeout=QUICK, tls=tls) as client:
        return len(client.list_games())


def refused(port: int, tls: Tls) -> bool:
    """Whether a call over a fresh channel trusting `tls` fails (the handshake refused)."""
    channel = grpc.secure_channel(f"127.0.0.1:{port}", tls.credentials())
    try:
        api_grpc.RulesServiceStub(channel).ListGames(api.ListGamesRequest(), timeout=QUICK)
    except grpc.RpcError as error:
        return error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    finally:
        channel.close()
    return False


def test_a_tls_call_works_with_the_servers_ca_and_fails_with_another(pki: Pki):
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files()))
    try:
        assert games_over(running.port, pki.client()) == 3
        assert refused(running.port, pki.client(Ca.make("someone else")))
        with pytest.raises(ServiceUnavailableError, match="certificate .* is not trusted"):
            RulesClient.connect(
                f"127.0.0.1:{running.port}", timeout=1, tls=pki.client(Ca.make("other"))
            )
        # A plaintext client cannot talk to a TLS port.
        channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
        with pytest.raises(grpc.RpcError):
            api_grpc.RulesServiceStub(channel).ListGames(api.ListGamesRequest(), timeout=QUICK)
        channel.close()
    finally:
        running.stop(0)


def test_mutual_tls_refuses_a_client_without_a_certificate_or_with_another_cas(pki: Pki):
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files(mutual=True)))
    try:
        assert games_over(running.port, pki.client(with_cert=True)) == 3
        assert refused(running.port, pki.client())  # no client certificate
        # A client certificate the client CA did not sign.
        stranger_cert, stranger_key = Ca.make("stranger").issue("a bot", server=False)
        (pki.folder / "stranger.pem").write_bytes(stranger_cert)
        (pki.folder / "stranger.key").write_bytes(stranger_key)
        stranger = Tls(
            pki.folder / "ca.pem", pki.folder / "stranger.pem", pki.folder / "stranger.key"
        )
        assert refused(running.port, stranger)
    finally:
        running.stop(0)


def test_a_reload_takes_the_new_certificate_for_new_connections_only(pki: Pki):
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files(reload_seconds=0)))
    try:
        old_ca = pki.ca
        kept = RulesClient.connect(f"127.0.0.1:{running.port}", timeout=QUICK, tls=pki.client())
        new_ca = Ca.make("renewed server CA")
        pki.write_server(new_ca)
        # Files rotated but no reload asked for (no interval): the old certificate stays.
        assert refused(running.port, pki.client(new_ca))
        running.reload_tls()
        assert games_over(running.port, pki.client(new_ca)) == 3
        assert refused(running.port, pki.client(old_ca))
        assert len(kept.list_games()) == 3  # a connection opened before keeps working
        kept.close()
        assert running.tls is not None and running.tls.reloads == 1
    finally:
        running.stop(0)


def test_the_reload_interval_picks_up_changed_files_and_keeps_the_old_on_bad_ones(pki: Pki):
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files(reload_seconds=0.2)))
    try:
        tls = running.tls
        assert tls is not None
        new_ca = Ca.make("renewed server CA")
        pki.write_server(new_ca)
        time.sleep(0.3)
        assert games_over(running.port, pki.client(new_ca)) == 3
        # A key that is not the certificate's: refused, the certificate in use is kept.
        _, other_key = new_ca.issue("crabgames", server=True)
        (pki.folder / "server.key").write_bytes(other_key)
        time.sleep(0.3)
        assert games_over(running.port, pki.client(new_ca)) == 3
        assert tls.failed_reloads == 1 and tls.reloads == 1
    finally:
        running.stop(0)


def test_files_that_do_not_load_stop_the_start_with_the_reason(pki: Pki):
    _, other_key = pki.ca.issue("crabgames", server=True)
    (pki.folder / "server.key").write_bytes(other_key)
    with pytest.raises(ValueError, match="is not the key of the certificate"):
        read(pki.files())
    with pytest.raises(ValueError, match="both a certificate file and a key file"):
        TlsFiles.from_paths(str(pki.folder / "server.pem"), "")
    with pytest.raises(ValueError, match="client CA needs"):
        TlsFiles.from_paths("", "", str(pki.folder / "client-ca.pem"))
    (pki.folder / "server.pem").write_text("not a certificate")
    with pytest.raises(ValueError):
        ServerTls(pki.files())


def test_sighup_reloads_the_certificate_of_a_server_process(pki: Pki):
    env = {
        "CRABGAMES_TLS_CERT": str(pki.folder / "server.pem"),
        "CRABGAMES_TLS_KEY": str(pki.folder / "server.key"),
        "CRABGAMES_TLS_CLIENT_CA": str(pki.folder / "client-ca.pem"),
        "CRABGAMES_TLS_RELOAD_SECONDS": "0",  # SIGHUP only
    }
    with server("--address", "127.0.0.1:0", env=env) as (process, lines):
        port = int(wait_for(lines, "listening on").rsplit(":", 1)[1])
        assert games_over(port, pki.client(with_cert=True)) == 3
        new_ca = Ca.make("renewed server CA")
        pki.write_server(new_ca)
        process.send_signal(signal.SIGHUP)
        (pki.folder / "ca.pem").write_bytes(new_ca.pem)
        # The reload is logged at once, with the new certificate's subject and expiry.
        logged = process.stderr_lines
        assert str(pki.folder / "server.pem") in wait_for(logged, "TLS: reading")
        wait_for(logged, "TLS reloaded: certificate")
        deadline = time.monotonic() + 10
        while True:  # the signal is handled within half a second
            try:
                assert games_over(port, pki.client(with_cert=True)) == 3
                break
            except ServiceUnavailableError:
                if time.monotonic() > deadline:
                    raise
        assert process.poll() is None
    assert process.returncode == 0


def test_the_client_takes_its_tls_options_from_the_environment(pki: Pki, monkeypatch):
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files(mutual=True)))
    try:
        monkeypatch.setenv("CRABGAMES_TLS_CA", str(pki.folder / "ca.pem"))
        monkeypatch.setenv("CRABGAMES_TLS_CLIENT_CERT", str(pki.folder / "client.pem"))
        monkeypatch.setenv("CRABGAMES_TLS_CLIENT_KEY", str(pki.folder / "client.key"))
        monkeypatch.setenv("CRABGAMES_TLS_SERVER_NAME", "localhost")
        with RulesClient.connect(f"127.0.0.1:{running.port}", timeout=QUICK) as client:
            state = client.new_game("kraby", num_players=2, seed=3).state
            assert client.legal_moves(state)
    finally:
        running.stop(0)


def test_the_node_client_plays_over_mutual_tls(pki: Pki):
    node = shutil.which("node")
    assert node, "Node.js is needed for the reference client in another language"
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("run `make test` (it runs `npm ci --prefix clients/node`) first")
    running = serve("127.0.0.1:0", observing=Observing(tls=pki.files(mutual=True)))
    try:
        folder = pki.folder
        common = [node, "play_kraby.js", f"127.0.0.1:{running.port}", "--players", "2"]
        done = subprocess.run(
            [*common, "--ca", str(folder / "ca.pem")]
            + ["--cert", str(folder / "client.pem"), "--key", str(folder / "client.key")],
            cwd=NODE_CLIENT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "replay ok" in done.stdout
        # Without its certificate the server refuses it.
        env = {**os.environ, "CRABGAMES_TLS_CA": str(folder / "ca.pem")}
        failed = subprocess.run(
            [*common, "--deadline", "2"],
            cwd=NODE_CLIENT,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert failed.returncode != 0
        assert "asks for one: give a certificate its client CA signed" in failed.stderr
    finally:
        running.stop(0)


def test_the_plaintext_health_port_answers_health_only(pki: Pki):
    running = serve(
        "127.0.0.1:0", observing=Observing(tls=pki.files(mutual=True), health_address="127.0.0.1:0")
    )
    try:
        assert running.health_port is not None
        channel = grpc.insecure_channel(f"127.0.0.1:{running.health_port}")
        health = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="crabgames.v1.RulesService")
        assert health.Check(request, timeout=QUICK).status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as refusal:
            api_grpc.RulesServiceStub(channel).ListGames(api.ListGamesRequest(), timeout=QUICK)
        assert refusal.value.code() == grpc.StatusCode.UNIMPLEMENTED
        channel.close()
    finally:
        running.stop(0)


def test_the_docs_recipe_for_a_test_certificate_serves_tls_a_client_trusting_its_ca_calls(
    tmp_path: Path,
):
    """docs/deploy.md's openssl commands, run verbatim (the files go to $TMPDIR): the server
    takes the certificate, and a client trusting the recipe's CA calls it by address and by
    name, while a plaintext client is told TLS is expected."""
    from tests.readme_check import all_blocks

    recipe = [b for b in all_blocks(ROOT) if b.kind == "run" and "openssl req" in b.body]
    assert len(recipe) == 1, "docs/deploy.md has one test-certificate recipe"
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run(["bash", "-euo", "pipefail", "-c", recipe[0].body], env=env, check=True)
    folder = tmp_path / "crabgames-tls"
    running = serve(
        "127.0.0.1:0",
        observing=Observing(tls=TlsFiles(folder / "server.pem", folder / "server.key")),
    )
    try:
        for host in ("127.0.0.1", "localhost"):
            address = f"{host}:{running.port}"
            with RulesClient.connect(address, timeout=QUICK, tls=Tls(folder / "ca.pem")) as client:
                assert client.list_games()
        with pytest.raises(ServiceUnavailableError, match="expects TLS"):
            RulesClient.connect(f"127.0.0.1:{running.port}", timeout=1, tls=False)
    finally:
        running.stop(0)
