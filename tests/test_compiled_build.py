"""The compiled build (crabgames.compiled, issue 29): the rules compiled by mypyc do exactly what
the pure source does, and a build that is not of this very source is never used.

`make test` builds it first where a C compiler is found; without one the tests of the compiled
build skip (and fail under CI=true, where .ci/run installs the compiler)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import crabgames
from crabgames import compiled
from crabgames.core.engine import Engine
from crabgames.games import all_games
from tests.compiled_agreement import SEEDS, tables

ROOT = Path(__file__).resolve().parent.parent


def require_compiled_build() -> None:
    if not crabgames.BUILD.startswith("compiled"):
        pytest.skip(f"the tests run {crabgames.BUILD}")


def agreement_lines(**environ: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.compiled_agreement"],
        cwd=ROOT,
        env=os.environ | environ,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.splitlines()


def test_every_rules_module_runs_compiled():
    require_compiled_build()
    all_games()  # imports every game's modules
    expected = {compiled.module_name(path) for path in compiled.compiled_sources()}
    for name in expected:
        importlib.import_module(name)
    assert expected <= set(compiled.compiled_modules())
    # The service's asynchronous transports stay pure (mypyc compiles no async generator, and
    # grpc.aio needs its handlers to be Python coroutine functions).
    assert "crabgames.service.edge" not in compiled.compiled_modules()


def test_no_native_class_extends_a_builtin_container():
    """mypyc's native subclass of dict (or list) that keeps attributes of its own corrupts the
    garbage collector (python/mypy#21133: a crash in a later collection, far from the cause), so
    such a class is declared interpreted (mypyc_attr(native_class=False))."""
    require_compiled_build()
    native_containers = [
        f"{name}.{cls.__name__}"
        for name in compiled.compiled_modules()
        for cls in vars(sys.modules[name]).values()
        if isinstance(cls, type)
        and cls.__module__ == name
        and hasattr(cls, "__mypyc_attrs__")  # what mypyc gives its native classes only
        and any(base in (dict, list, set) for base in cls.__mro__)
    ]
    assert native_containers == []


def test_the_pure_source_and_the_compiled_build_agree_move_for_move():
    require_compiled_build()
    built = agreement_lines()
    pure = agreement_lines(CRABGAMES_PURE="1")
    assert built[0].startswith("compiled by mypyc"), built[0]
    assert pure[0].startswith("pure Python"), pure[0]
    assert len(built) == 1 + len(tables(Engine(all_games()))) * len(SEEDS)
    for ours, theirs in zip(built[1:], pure[1:], strict=True):
        assert ours == theirs


# ----- which build runs -----


def fake_build(tmp_path: Path, monkeypatch, digest_of=compiled.source_digest) -> None:
    """A manifest naming every compiled source with the digest `digest_of` gives it."""
    monkeypatch.setattr(compiled, "BUILD", tmp_path)
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "manifest.json")
    modules = {
        compiled.module_name(path): {
            "source": str(path.relative_to(compiled.SERVER)),
            "sha256": digest_of(path),
            "extension": compiled.module_name(path) + ".so",
        }
        for path in compiled.compiled_sources()
    }
    manifest = {
        "extension_suffix": compiled.importlib.machinery.EXTENSION_SUFFIXES[0],
        "shared_library": "shared.so",
        "modules": modules,
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))


def test_a_build_of_this_very_source_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)
    fake_build(tmp_path, monkeypatch)
    files, status = compiled.build_status()
    assert status.startswith("compiled by mypyc")
    assert files["crabgames.core.engine"] == tmp_path / "crabgames.core.engine.so"
    assert files[compiled.SHARED_LIBRARY] == tmp_path / "shared.so"


def test_a_build_of_other_source_is_not_used(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)
    rules = compiled.PACKAGE / "games" / "kraby" / "rules.py"

    def digest_of(path: Path) -> str:
        return "0" * 64 if path == rules else compiled.source_digest(path)

    fake_build(tmp_path, monkeypatch, digest_of)
    files, status = compiled.build_status()
    assert files == {}
    changed = "crabgames/games/kraby/rules.py changed"
    assert status == f"pure Python (the compiled build is stale: {changed})"


def test_a_build_for_another_python_is_not_used(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)
    fake_build(tmp_path, monkeypatch)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["extension_suffix"] = ".cpython-27-x86_64-linux-gnu.so"
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    files, status = compiled.build_status()
    assert files == {}
    assert status == "pure Python (the compiled build is for another Python: make compiled)"


def test_pure_is_asked_for_by_name(tmp_path, monkeypatch):
    fake_build(tmp_path, monkeypatch)
    monkeypatch.setenv(compiled.PURE_VARIABLE, "1")
    assert compiled.build_status() == ({}, "pure Python (CRABGAMES_PURE is set)")
