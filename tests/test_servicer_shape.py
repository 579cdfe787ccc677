"""The servicer's shape (issue 28): each RPC method turns its request into one engine call and
reads as such, so it stays short. Which methods are RPCs is read from the service's descriptor,
not listed here."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from crabgames.v1 import rules_service_pb2 as api

MAX_LINES = 20  # an RPC method's, its signature and docstring included
SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]
# Read as source: the servicer may run compiled (crabgames.compiled), with no source to inspect.
SERVICER = Path(__file__).parents[1] / "server" / "crabgames" / "service" / "servicer.py"


def lines_of(node: ast.FunctionDef) -> int:
    """A function's length in lines, from its `def` to its last line (decorators left out)."""
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1


def rpc_methods() -> dict[str, ast.FunctionDef]:
    """The servicer's methods named as RPCs, as written in its source."""
    tree = ast.parse(SERVICER.read_text())
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    servicer = next(node for node in classes if node.name == "RulesServicer")
    rpcs = {rpc.name for rpc in SERVICE.methods}
    return {
        node.name: node
        for node in servicer.body
        if isinstance(node, ast.FunctionDef) and node.name in rpcs
    }


def test_every_rpc_method_is_at_most_max_lines():
    lengths = {name: lines_of(method) for name, method in rpc_methods().items()}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert too_long == {}, f"RPC methods longer than {MAX_LINES} lines: {too_long}"


def test_every_unary_rpc_is_a_servicer_method():
    """The servicer answers every unary RPC itself (the edge runs the streaming ApplyMoves
    through ApplyMove), so the length check above sees all of them."""
    unary = {
        rpc.name for rpc in SERVICE.methods if not rpc.client_streaming and not rpc.server_streaming
    }
    assert unary and unary <= set(rpc_methods())


def test_lines_are_counted_from_the_signature_to_the_end():
    source = textwrap.dedent(
        """
        @decorated
        def sample(
            a: int,
        ) -> int:
            \"\"\"A docstring.\"\"\"
            return a
        """
    )
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert lines_of(node) == 5
