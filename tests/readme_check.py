"""`make readme-check`: every code block of README.md and docs/*.md, run verbatim in a fresh clone
as a newcomer would, or marked with what it needs instead.

Each fenced block is marked by an HTML comment on the line just above it (other comment lines
may sit between the marker and the fence):

    <!-- readme-check -->                 run it: an ```sh block with bash -euo pipefail, a
                                          ```python block with the clone's .venv/bin/python;
                                          after the server is up, in order, README.md first
    <!-- readme-check: server -->         the long-running server command (`make run`), at most
                                          one: started in the background, waited for until it
                                          prints its listening line, stopped (SIGTERM) at the end
    <!-- readme-check: output -->         what the block run just before prints, exactly
    <!-- readme-check: not run: WHY -->   not run; WHY names what it needs (root, a certificate,
                                          nine minutes, a cluster) or what it is (a diagram)

A block under `<!-- message: crabgames.v1.X -->` is a JSON example that
tests/test_frontend_docs.py checks against the protos. Any other block fails the check, before
anything is run: no block is left unchecked by accident.

Every block runs in a `git clone` of this repository's last commit (uncommitted edits are not
seen, as in CI) in a temporary folder, with this machine's pip and npm caches. The server is
always put on free loopback ports, given to every block as CRABGAMES_ADDRESS and
CRABGAMES_HTTP_ADDRESS, the variables make run and every client and example read: so the
check also shows that a block follows them (a block that names 127.0.0.1:50051 or :8080 itself
fails, whatever listens there). Standard library only: it runs before any virtualenv exists.

python3 tests/readme_check.py [--keep]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ADDRESS = "127.0.0.1:50051"  # crabgames.service.addresses (not importable here)
DEFAULT_HTTP_ADDRESS = "127.0.0.1:8080"  # make run's Connect and gRPC-Web
DEFAULT_HOST_ADDRESS = "127.0.0.1:8090"  # make run's game host (crabclients.host)
# What a block says instead of a default address: the variable, with the default for a reader
# who has not set it.
FOLLOWING = {
    DEFAULT_ADDRESS: "${CRABGAMES_ADDRESS:-127.0.0.1:50051}",
    DEFAULT_HTTP_ADDRESS: "${CRABGAMES_HTTP_ADDRESS:-127.0.0.1:8080}",
    DEFAULT_HOST_ADDRESS: "${CRABGAMES_HOST_ADDRESS:-127.0.0.1:8090}",
}
# A fence, also indented (in a list item): the body is read without that indent.
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```$", re.M | re.S
)
MARKER = re.compile(r"<!-- readme-check(?:: (?P<kind>server|output|not run: (?P<why>.*?)))? -->")
CHECKED_ELSEWHERE = re.compile(r"<!-- message: [\w.]+ -->")  # tests/test_frontend_docs.py
RUNNABLE = {"sh": "bash", "bash": "bash", "python": "python"}
LISTENING = "crabgames-server listening on"
SERVER_START_SECONDS = 300  # the clone's set-up (venv, install, code generation) comes first
BLOCK_SECONDS = 600  # the first block after the server installs the development tools


@dataclass
class Block:
    file: str  # relative to the repository, e.g. "docs/agents.md"
    line: int  # of the opening fence
    lang: str
    kind: str  # "run", "server", "output", "not run", "elsewhere" or "unmarked"
    body: str
    why: str = ""
    output: str = ""  # what it printed on standard output, once run

    @property
    def where(self) -> str:
        return f"{self.file} line {self.line}"


def comments_above(text: str, start: int) -> list[str]:
    """The HTML comment lines directly above the line at `start`."""
    lines = [line.strip() for line in text[:start].split("\n")[:-1]]
    found = []
    while lines and lines[-1].startswith("<!--") and lines[-1].endswith("-->"):
        found.append(lines.pop())
    return found


def blocks_of(file: str, text: str) -> list[Block]:
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        comments = comments_above(text, match.start())
        kind, why = "unmarked", ""
        for comment in comments:
            if marker := MARKER.fullmatch(comment):
                kind = (marker.group("kind") or "run").split(":")[0]
                why = (marker.group("why") or "").strip()
            elif CHECKED_ELSEWHERE.fullmatch(comment) and kind == "unmarked":
                kind = "elsewhere"
        body = textwrap.dedent(match.group("body"))  # an indented fence's body, unindented
        found.append(Block(file, line, match.group("lang"), kind, body, why))
    return found


def documents(root: Path) -> list[str]:
    return ["README.md", *sorted(f"docs/{p.name}" for p in (root / "docs").glob("*.md"))]


def all_blocks(root: Path) -> list[Block]:
    return [b for f in documents(root) for b in blocks_of(f, (root / f).read_text())]


def problems(found: list[Block]) -> list[str]:
    """What is wrong with the marks, before anything runs: each a line naming the block."""
    wrong = []
    for block in found:
        if block.kind == "unmarked":
            wrong.append(f"{block.where}: no <!-- readme-check --> marker (run it, or say why not)")
        if block.kind == "not run" and len(block.why.split()) < 2:
            wrong.append(f"{block.where}: 'not run' must say what the block needs")
        if block.kind in ("run", "server") and block.lang not in RUNNABLE:
            wrong.append(f"{block.where}: a run block must be ```sh or ```python")
        if block.kind in ("run", "server"):
            wrong += [f"{block.where}: {why}" for why in hard_coded(block.body)]
    if sum(b.kind == "server" for b in found) > 1:
        wrong.append("at most one <!-- readme-check: server --> block")
    for before, block in zip([None, *found], found, strict=False):
        if block.kind == "output" and (before is None or before.kind != "run"):
            wrong.append(f"{block.where}: an output block must follow a run block")
    return wrong


def hard_coded(body: str) -> list[str]:
    """A default address written out instead of read from its variable."""
    rest = body
    for spelled in FOLLOWING.values():
        rest = rest.replace(spelled, "")
    return [
        f"names {address} itself: write {spelled} (or a client's default) instead"
        for address, spelled in FOLLOWING.items()
        if address in rest
    ]


def free_address() -> str:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return f"127.0.0.1:{probe.getsockname()[1]}"


def clean_env(address: str, http_address: str, host_address: str = "") -> dict[str, str]:
    """This machine's environment as a newcomer's shell would have it (no virtualenv, no make
    flags of an outer make), with the addresses to serve on and call."""
    drop = ("VIRTUAL_ENV", "MAKEFLAGS", "MFLAGS", "ADDRESS", "HTTP_ADDRESS", "HOST_ADDRESS")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("CRABGAMES_")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if "/.venv/" not in p
    )
    env["CRABGAMES_ADDRESS"] = address
    env["CRABGAMES_HTTP_ADDRESS"] = http_address
    env["CRABGAMES_HOST_ADDRESS"] = host_address or free_address()
    return env


def command(block: Block) -> list[str]:
    if RUNNABLE[block.lang] == "python":
        return [".venv/bin/python", "-c", block.body]
    return ["bash", "-euo", "pipefail", "-c", block.body]


class Server:
    """A server block run in the background, its output collected."""

    def __init__(self, block: Block, cwd: Path, env: dict[str, str]) -> None:
        self.output: list[str] = []
        self.listening = threading.Event()
        self.process = subprocess.Popen(
            command(block),
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
                self.process.wait(timeout=30)
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
    """The block's output (standard output and error); CheckFailed if it fails. Its own process
    group, stopped whole, so nothing it starts outlives it."""
    process = subprocess.Popen(
        command(block),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        raise CheckFailed(
            f"{block.where}: still running after {BLOCK_SECONDS} s", out + err
        ) from None
    finally:
        kill_group(process.pid)
    if process.returncode:
        raise CheckFailed(f"{block.where}: exit code {process.returncode}", out + err)
    block.output = out
    return out + err


def kill_group(group: int) -> None:
    """Whatever a block left running in its process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def compare_output(block: Block, before: Block) -> None:
    if before.output.rstrip() != block.body.rstrip():
        raise CheckFailed(
            f"{block.where}: {before.where} printed something else",
            f"expected:\n{block.body}\nprinted:\n{before.output}",
        )


def check(clone: Path, out=sys.stdout) -> float:
    """Clone, check the marks, run every marked block; the seconds it took. Raises
    CheckFailed."""
    start = time.monotonic()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    found = all_blocks(clone)
    if wrong := problems(found):
        raise CheckFailed("blocks marked wrongly", "\n".join(wrong))
    address, http = free_address(), free_address()
    print(f"readme-check: serving on {address}, HTTP on {http}", file=out)
    env = clean_env(address, http)
    server: Server | None = None
    before: Block | None = None
    try:
        for block in found:
            if block.kind in ("not run", "elsewhere"):
                reason = block.why or "tests/test_frontend_docs.py checks it"
                print(f"# {block.where}: not run ({reason})", file=out)
                continue
            print(f"$ ({block.where}, {block.kind})\n{block.body}", file=out, flush=True)
            if block.kind == "server":
                server = Server(block, clone, env)
                server.wait_listening()
                if server.text.count("listening on") != 1:
                    raise CheckFailed("the listening line is printed more than once", server.text)
                print(server.text, end="", file=out)
            elif block.kind == "output":
                assert before is not None  # problems() checked
                compare_output(block, before)
            else:
                print(run_block(block, clone, env), end="", file=out, flush=True)
            before = block
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
    print(f"readme-check: every code block ran or says what it needs ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
