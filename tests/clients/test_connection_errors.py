"""Every client says why it cannot reach a server, naming the fix (issue 31): started against
a TLS server it does not trust, it says TLS is expected; against a closed port, that nothing
listens there; against the HTTP side (Connect and gRPC-Web), that it is an HTTP port. The
Python client, the play_random and terminal tools built on it, and the Node.js client, each as
a user runs it (the tools as processes, with no CRABGAMES_TLS_* setting)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from crabclients.client import RulesClient, ServiceUnavailableError
from crabgames.service.browser import serve_http
from crabgames.service.server import Observing, serve
from tests.test_tls import Pki

ROOT = Path(__file__).resolve().parents[2]
NODE_CLIENT = ROOT / "clients" / "node" / "play_kraby.js"
SECONDS = 2  # each client's wait for the connection: on loopback, failure is certain by then
# What each cause must be called, in every client's words.
CAUSES = {
    "tls": "expects TLS",
    "closed": "nothing listens on",
    "http": "answers HTTP/1.1, not gRPC",
}


def plain_env() -> dict[str, str]:
    """The environment of a user who set nothing: no TLS settings, no address."""
    return {k: v for k, v in os.environ.items() if not k.startswith("CRABGAMES_")}


def run(argv: list[str]) -> str:
    """The tool's standard error; it must fail."""
    done = subprocess.run(
        argv, capture_output=True, text=True, env=plain_env(), timeout=60, cwd=ROOT
    )
    assert done.returncode != 0, done.stdout[-2000:]
    return done.stderr


def python_client(address: str) -> str:
    with pytest.raises(ServiceUnavailableError) as refused:
        RulesClient.connect(address, timeout=SECONDS, tls=False)
    return str(refused.value)


def play_random(address: str) -> str:
    module = ["-m", "crabclients.play_random", "--connect-timeout", str(SECONDS)]
    return run([sys.executable, *module, "--address", address])


def terminal(address: str) -> str:
    module = ["-m", "crabclients.terminal", "--connect-timeout", str(SECONDS)]
    return run([sys.executable, *module, "--address", address])


def node(address: str) -> str:
    executable = shutil.which("node")
    assert executable, "Node.js is needed for the reference client in another language"
    if not (NODE_CLIENT.parent / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("run `make test` (it runs `npm ci --prefix clients/node`) first")
    return run([executable, str(NODE_CLIENT), address, "--deadline", str(SECONDS)])


CLIENTS: dict[str, Callable[[str], str]] = {
    "python client": python_client,
    "play_random": play_random,
    "terminal player": terminal,
    "node client": node,
}


@pytest.fixture(scope="module")
def addresses(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A TLS server whose CA nobody here trusts, a closed port, and an HTTP side."""
    pki = Pki.make(tmp_path_factory.mktemp("pki"))
    secure = serve("127.0.0.1:0", observing=Observing(tls=pki.files()))
    plain = serve("127.0.0.1:0")
    http = serve_http(plain, "127.0.0.1:0", grace=0)
    with socket.socket() as probe:  # bound, then closed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    try:
        yield {
            "tls": f"127.0.0.1:{secure.port}",
            "closed": f"127.0.0.1:{closed}",
            "http": f"127.0.0.1:{http.port}",
        }
    finally:
        plain.stop(0)  # its HTTP side too
        secure.stop(0)


@pytest.mark.parametrize("cause", sorted(CAUSES))
@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_client_that_cannot_reach_the_server_names_the_cause(addresses, client, cause):
    said = CLIENTS[client](addresses[cause])
    assert CAUSES[cause] in said, said[-2000:]
    assert addresses[cause] in said, "the message names the address it tried"
    if cause == "tls":  # and how to trust the server
        assert "CRABGAMES_TLS_CA" in said
    if cause == "closed":  # and how to point the client elsewhere
        assert "CRABGAMES_ADDRESS" in said
