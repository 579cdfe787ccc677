"""deploy/nginx/crabgames.conf balances calls across servers: two servers behind Debian's nginx
both take calls; with one stopped, calls still succeed (nginx tries the next server, and clients
retry UNAVAILABLE through deploy/service_config.json). Loopback only, a few seconds."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import grpc
import pytest

from crabgames.service.server import serve
from crabgames.v1 import kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (.ci/run installs it)"
)
CALLS = 24


class CountingInterceptor(grpc.aio.ServerInterceptor):
    """Counts the rules calls a server takes (interceptors run on the server's event loop)."""

    def __init__(self) -> None:
        self.calls = 0

    async def intercept_service(self, continuation, handler_call_details):
        if handler_call_details.method.startswith("/crabgames.v1.RulesService/"):
            self.calls += 1
        return await continuation(handler_call_details)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_config(tmp: Path, listen: int, upstreams: list[int]) -> Path:
    """The shipped config with test ports, inside a minimal nginx.conf of its own."""
    site = (DEPLOY / "nginx" / "crabgames.conf").read_text()
    lines = "".join(
        f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;\n" for port in upstreams
    )
    site, servers = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", lines, site)
    site, listens = re.subn(r"listen 8080 http2;", f"listen 127.0.0.1:{listen} http2;", site)
    assert servers == 1 and listens == 1, "deploy/nginx/crabgames.conf changed shape"
    (tmp / "crabgames.conf").write_text(site)
    main = tmp / "nginx.conf"
    temp_paths = "".join(
        f"    {kind}_temp_path {tmp}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main.write_text(
        f"worker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log warn;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log off;\n{temp_paths}    include {tmp}/crabgames.conf;\n}}\n"
    )
    return main


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


@pytest.fixture
def balanced(tmp_path):
    counters = [CountingInterceptor(), CountingInterceptor()]
    servers = [serve("127.0.0.1:0", threads=4, interceptors=[c]) for c in counters]
    listen = free_port()
    config = nginx_config(tmp_path, listen, [s.port for s in servers])
    tmp_path.chmod(0o755)
    nginx = subprocess.Popen(
        [NGINX, "-p", str(tmp_path), "-c", str(config), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(listen)
        yield f"127.0.0.1:{listen}", servers, counters
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        for server in servers:
            server.stop(0)


def client_channel(address: str) -> grpc.Channel:
    service_config = (DEPLOY / "service_config.json").read_text()
    options = [("grpc.service_config", service_config), ("grpc.enable_retries", 1)]
    return grpc.insecure_channel(address, options)


def new_game(stub, seed: int) -> api.NewGameResponse:
    request = api.NewGameRequest(num_players=2, seed=seed, kraby=kraby_pb2.KrabyOptions())
    return stub.NewGame(request, timeout=10)


def test_the_service_config_retries_unavailable_on_the_rules_service():
    config = json.loads((DEPLOY / "service_config.json").read_text())
    (method,) = config["methodConfig"]
    assert method["name"] == [{"service": "crabgames.v1.RulesService"}]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]


def test_nginx_spreads_calls_over_both_servers_and_survives_one_stopping(balanced):
    address, servers, counters = balanced
    with client_channel(address) as channel:
        stub = api_grpc.RulesServiceStub(channel)
        for seed in range(1, CALLS + 1):
            assert new_game(stub, seed).state.seed == seed
        assert all(c.calls > 0 for c in counters), [c.calls for c in counters]
        assert sum(c.calls for c in counters) == CALLS

        servers[0].stop(0)
        stopped_at = counters[0].calls
        for seed in range(1, CALLS + 1):
            assert new_game(stub, seed).state.seed == seed
        assert counters[0].calls == stopped_at
        assert counters[1].calls >= CALLS
