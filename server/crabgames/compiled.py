"""The compiled build: the same rules source, compiled by mypyc (docs/performance.md, issue 29).

The engine's core, the games' modules and the service's synchronous path are plain typed
Python. `make compiled` (run by `make test` and `make bench`; where no C compiler or Python
headers are found it says so and stops) compiles exactly that source with mypyc, as black and
mypy ship theirs, into `server/crabgames/.compiled/`; nothing is written twice.
Importing `crabgames` then loads those extension modules in place of the source, but only if
every compiled source file is byte for byte what was compiled (its SHA-256 is in the build's
manifest): edit a rule and, until it is rebuilt, the pure source runs, with a warning. Set
CRABGAMES_PURE=1 to run the pure source on purpose (the agreement test compares the two).

This module is never compiled itself: it decides what runs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import time
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
SERVER = PACKAGE.parent
BUILD = PACKAGE / ".compiled"
MANIFEST = BUILD / "manifest.json"
# mypyc compiles the modules into one shared library (imported under this top-level name) and a
# small module per source file that loads its part of it.
GROUP = "crabgames_compiled"
SHARED_LIBRARY = f"{GROUP}__mypyc"
# What is compiled: every module of the engine's core and of the games, but for package
# __init__ files (they only name what a package holds) and the modules named here, which stay
# pure Python for the reason given.
COMPILED_PACKAGES = ("core", "games")
# The service's modules that every call runs and that are synchronous (its asynchronous
# transports, edge.py and browser.py, stay pure: mypyc compiles no asynchronous generator, and
# grpc.aio awaits a handler only if `inspect` finds a Python coroutine function).
COMPILED_SERVICE = ("admission", "calls", "limits", "peers", "status", "servicer")
GAME_CLASS = (
    "names its hooks where their rules are written (legal_moves = staticmethod(rules.legal_moves))"
    ", which mypyc cannot put in a native class's method table; the rules it names are compiled"
)
KEPT_PURE: dict[str, str] = {
    "crabgames.games.kraby.game": GAME_CLASS,
    "crabgames.games.crab_bucket.game": GAME_CLASS,
    "crabgames.games.crab_rage.game": GAME_CLASS,
}
PURE_VARIABLE = "CRABGAMES_PURE"


def compiled_sources() -> list[Path]:
    """The source files the compiled build compiles, sorted."""
    service = [PACKAGE / "service" / f"{name}.py" for name in COMPILED_SERVICE]
    return sorted(
        [
            path
            for package in COMPILED_PACKAGES
            for path in (PACKAGE / package).rglob("*.py")
            if path.name != "__init__.py" and module_name(path) not in KEPT_PURE
        ]
        + service
    )


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SERVER).with_suffix("").parts)


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----- at import: use the build if it was made from this very source -----


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled build's extension modules before the source (sys.meta_path)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def build_status() -> tuple[dict[str, Path], str]:
    """The compiled build's files by module name, and a sentence saying what runs and why."""
    if os.environ.get(PURE_VARIABLE):
        return {}, f"pure Python ({PURE_VARIABLE} is set)"
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}, "pure Python (no compiled build: make compiled makes one)"
    if manifest.get("extension_suffix") != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return {}, "pure Python (the compiled build is for another Python: make compiled)"
    files = {SHARED_LIBRARY: BUILD / manifest["shared_library"]}
    for name, entry in manifest["modules"].items():
        source = SERVER / entry["source"]
        if not source.exists() or source_digest(source) != entry["sha256"]:
            return {}, f"pure Python (the compiled build is stale: {entry['source']} changed)"
        files[name] = BUILD / entry["extension"]
    sources = {module_name(path) for path in compiled_sources()}
    if sources != set(manifest["modules"]):
        return {}, "pure Python (the compiled build is stale: modules were added or removed)"
    return files, f"compiled by mypyc ({len(manifest['modules'])} modules)"


def use_compiled_build() -> str:
    """Put the compiled build in front of the source if it is fresh; say what runs."""
    files, status = build_status()
    if files:
        sys.meta_path.insert(0, CompiledFinder(files))
    elif "stale" in status:
        warnings.warn(f"crabgames runs {status}", RuntimeWarning, stacklevel=2)
    return status


def compiled_modules() -> list[str]:
    """The crabgames modules this process runs compiled (empty when it runs pure Python)."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("crabgames.")
        and isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    )


# ----- make compiled -----


def build() -> None:
    """Compile the sources with mypyc into a new build, then put it in place of the old one."""
    import tempfile

    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]  # no stubs shipped

    sources = compiled_sources()
    os.chdir(SERVER.parent)  # mypy's configuration (pyproject.toml: strict, mypy_path)
    with tempfile.TemporaryDirectory(prefix="crabgames-compile-") as scratch:
        staging = Path(scratch) / "build"
        extensions = mypycify(
            [str(path.relative_to(SERVER.parent)) for path in sources],
            opt_level="3",
            group_name=GROUP,
            target_dir=str(Path(scratch) / "c"),
        )
        setup(
            name=GROUP,
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--build-lib", str(staging)]
            + ["--build-temp", str(Path(scratch) / "objects")],
        )
        write_manifest(staging, sources)
        shutil.rmtree(BUILD, ignore_errors=True)
        shutil.copytree(staging, BUILD)


def write_manifest(staging: Path, sources: list[Path]) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    modules = {
        module_name(path): {
            "source": str(path.relative_to(SERVER)),
            "sha256": source_digest(path),
            "extension": str(path.relative_to(SERVER).with_suffix(suffix)),
        }
        for path in sources
    }
    missing = [m["extension"] for m in modules.values() if not (staging / m["extension"]).exists()]
    if missing or not (staging / (SHARED_LIBRARY + suffix)).exists():
        raise SystemExit(f"make compiled: mypyc built no {missing or SHARED_LIBRARY}")
    manifest = {
        "extension_suffix": suffix,
        "shared_library": SHARED_LIBRARY + suffix,
        "modules": modules,
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))


def why_not_buildable() -> str | None:
    """What this machine lacks to compile the build (None: nothing)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no headers of this Python (Debian: python3-dev)"
    return None


def main() -> None:
    lacking = why_not_buildable()
    if lacking is not None:
        print(f"make compiled: {lacking}, so the rules run as pure Python (the same source)")
        return
    started = time.monotonic()
    build()
    print(f"make compiled: {len(compiled_sources())} modules in {time.monotonic() - started:.0f} s")
