"""`make readme-check`: run the README's commands verbatim in a fresh clone, as a newcomer would.

The commands checked are the README's ```sh blocks marked just above with an HTML comment:

    <!-- readme-check: server -->   a long-running server command (`make run`): started in the
                                    background, waited for until it prints its listening line,
                                    stopped (SIGTERM) once every other block has run
    <!-- readme-check -->           commands run in order with bash -e, after the server is up

Every block runs in a `git clone` of this repository's last commit (uncommitted edits are not
seen, as in CI) in a temporary folder, with this machine's pip and npm caches. When another
process holds 127.0.0.1:50051, the default address, the check serves on a free port instead:
it sets ADDRESS and CRABGAMES_ADDRESS (the defaults of make run and of the clients) and writes
that port into the commands that name the address; it says so. The same for 127.0.0.1:8080, make
run's HTTP address (HTTP_ADDRESS). Standard library only: it runs
before any virtualenv exists.

python3 tests/readme_check.py [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ADDRESS = "127.0.0.1:50051"
DEFAULT_HTTP_ADDRESS = "127.0.0.1:8080"  # make run's Connect and gRPC-Web
BLOCK = re.compile(
    r"^<!-- readme-check(?:: (?P<kind>\w+))? -->\n```sh\n(?P<body>.*?)^```", re.M | re.S
)
LISTENING = "crabgames-server listening on"
SERVER_START_SECONDS = 300  # the clone's set-up (venv, install, code generation) comes first
BLOCK_SECONDS = 300


@dataclass
class Block:
    kind: str  # "server" or "run"
    body: str
    line: int  # in the README, for messages


def blocks(readme: str) -> list[Block]:
    found = [
        Block(m.group("kind") or "run", m.group("body"), readme.count("\n", 0, m.start()) + 1)
        for m in BLOCK.finditer(readme)
    ]
    if sum(b.kind == "server" for b in found) > 1:
        raise SystemExit("readme-check: at most one server block")
    return found


def address_free(address: str) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        socket.create_server((host, int(port))).close()
    except OSError:
        return False
    return True


def free_address() -> str:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return f"127.0.0.1:{probe.getsockname()[1]}"


def clean_env(address: str, http_address: str = DEFAULT_HTTP_ADDRESS) -> dict[str, str]:
    """This machine's environment as a newcomer's shell would have it: no virtualenv, no make
    flags of an outer make, the address to serve and call."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "MAKEFLAGS", "MFLAGS")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if "/.venv/" not in p
    )
    if address != DEFAULT_ADDRESS:
        env["ADDRESS"] = env["CRABGAMES_ADDRESS"] = address
    if http_address != DEFAULT_HTTP_ADDRESS:
        env["HTTP_ADDRESS"] = http_address
    return env


class Server:
    """A server block run in the background, its output collected."""

    def __init__(self, block: Block, cwd: Path, env: dict[str, str]) -> None:
        self.output: list[str] = []
        self.listening = threading.Event()
        self.process = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", block.body],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: make and the server stop together
        )
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            if LISTENING in line:
                self.listening.set()

    def wait_listening(self) -> None:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not self.listening.wait(0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise CheckFailed("the server block did not print its listening line", self.text)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    @property
    def text(self) -> str:
        return "".join(self.output)


class CheckFailed(Exception):
    def __init__(self, what: str, output: str) -> None:
        super().__init__(what)
        self.what, self.output = what, output


def run_block(block: Block, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.body],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=BLOCK_SECONDS,
    )
    if done.returncode:
        raise CheckFailed(f"exit code {done.returncode}", done.stdout)
    return done.stdout


def check(clone: Path, out=sys.stdout) -> float:
    """Clone, run every marked block; the seconds it took. Raises CheckFailed."""
    start = time.monotonic()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    found = blocks((clone / "README.md").read_text())
    if not found:
        raise CheckFailed("no block of README.md is marked <!-- readme-check -->", "")
    address = DEFAULT_ADDRESS if address_free(DEFAULT_ADDRESS) else free_address()
    if address != DEFAULT_ADDRESS:
        print(f"readme-check: {DEFAULT_ADDRESS} is taken here, serving on {address}", file=out)
    http = DEFAULT_HTTP_ADDRESS if address_free(DEFAULT_HTTP_ADDRESS) else free_address()
    if http != DEFAULT_HTTP_ADDRESS:
        print(f"readme-check: {DEFAULT_HTTP_ADDRESS} is taken here, HTTP on {http}", file=out)
    env = clean_env(address, http)
    server: Server | None = None
    try:
        for block in found:
            block.body = block.body.replace(DEFAULT_ADDRESS, address)
            block.body = block.body.replace(DEFAULT_HTTP_ADDRESS, http)
            print(f"$ (README line {block.line}, {block.kind})\n{block.body}", file=out, flush=True)
            if block.kind == "server":
                server = Server(block, clone, env)
                server.wait_listening()
                if server.text.count("listening on") != 1:
                    raise CheckFailed("the listening line is printed more than once", server.text)
                print(server.text, end="", file=out)
            else:
                try:
                    print(run_block(block, clone, env), end="", file=out, flush=True)
                except CheckFailed as failed:
                    failed.what = f"README line {block.line}: {failed.what}"
                    raise
    finally:
        if server is not None:
            server.stop()
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args()
    where = Path(tempfile.mkdtemp(prefix="crabgames-readme-"))
    try:
        seconds = check(where / "clone")
    except CheckFailed as failed:
        print(failed.output[-6000:], file=sys.stderr)
        sys.exit(f"readme-check failed: {failed.what}")
    finally:
        if args.keep:
            print(f"readme-check: clone kept in {where / 'clone'}")
        else:
            shutil.rmtree(where, ignore_errors=True)
    print(f"readme-check: every marked README command ran ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
