"""How Crab Bucket's modules import each other: no circle (each one reads the modules under it
whole, whichever is imported first), and no protocol in the rules: only the modules that read or
write messages, and the two that name the protocol's enum values once for the rest (data.py,
state.py), import the generated protobuf. Imports inside functions and under TYPE_CHECKING
count too."""

from __future__ import annotations

import ast
from pathlib import Path

import crabgames.games.crab_bucket as package

PACKAGE = package.__name__
MODULES = {path.stem: path for path in Path(package.__file__).parent.glob("*.py")}


# The modules that turn the game into messages and back, and the engine's glue: the others are
# the game itself (its state, rules, moves, events, explanations and strategy). Of those, data.py
# and state.py take the values of the protocol's enums (abilities, modes, steps, pending kinds,
# ends) from the generated code and name them for the rules, as every game does.
MESSAGE_MODULES = {"codec", "messages", "observation", "sampling", "words", "game"}
NAMES_THE_ENUMS = {"data", "state"}
PROTOCOL = "crabgames.v1"


def imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


def imported(path: Path) -> set[str]:
    """The package's modules that a module imports anywhere in its text."""
    found: set[str] = set()
    for node in imports(path):
        if isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE + "."):
            found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {
                alias.name.removeprefix(PACKAGE + ".").split(".")[0]
                for alias in node.names
                if alias.name.startswith(PACKAGE + ".")
            }
    return found & MODULES.keys() - {path.stem}


GRAPH = {name: imported(path) for name, path in MODULES.items()}


def circle_through(start: str) -> list[str] | None:
    """A path of imports from `start` back to itself, if there is one."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        for target in sorted(GRAPH[name]):
            if target == start:
                return [*path, start]
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def test_the_graph_is_read_from_the_modules():
    assert GRAPH["turn"] >= {"rules", "abilities"} and GRAPH["abilities"] >= {"rules"}
    assert GRAPH["codec"] >= {"messages", "rules"} and GRAPH["messages"] >= {"rules", "words"}


def test_no_module_imports_itself_through_others():
    circles = {name: circle_through(name) for name in GRAPH}
    assert {name: path for name, path in circles.items() if path} == {}


def reads_the_protocol(path: Path) -> bool:
    names = [
        node.module or "" if isinstance(node, ast.ImportFrom) else alias.name
        for node in imports(path)
        for alias in node.names
    ]
    return any(name == PROTOCOL or name.startswith(PROTOCOL + ".") for name in names)


def test_only_the_message_modules_import_the_protocol():
    readers = {name for name, path in MODULES.items() if reads_the_protocol(path)}
    assert "codec" in readers  # the check reads what it should
    assert readers <= MESSAGE_MODULES | NAMES_THE_ENUMS
