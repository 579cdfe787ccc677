"""Mutation testing of one game's rules modules with that game's rule tests (docs/testing.md).

    python -m tests.mutation kraby [--module rules.py ...] [--report-only]

mutmut (from the `dev` extras) changes one thing at a time in the game's rules modules (an
operator, a number, a condition, a returned value) and runs the game's rule tests against each
change: tests/<game>/ without the golden playthroughs (tests/<game>/test_golden.py), which fail
on any change at all and so pin no rule. A mutant the rule tests let through (it survives)
means a rule no rule test pins, unless it is equivalent: a change that cannot alter behaviour,
listed with its reason in tests/mutation_equivalents.txt and subtracted here.

Everything happens in a scratch copy (WORKDIR, default $TMPDIR/crabgames-mutation/<game>), never
in the work tree: server/ is copied as src/ (mutmut imports the mutated code from mutants/src)
with the generated protobuf code, tests/ and pyproject.toml beside it, and the run's mutmut
configuration is written into the copy's pyproject.toml. One worker process; run it niced.
Each mutant runs in a process forked from a server that has imported only pytest and the heavy
libraries, so each imports the game afresh and the tables built at import (Kraby's entry
tables, Crab Bucket's PLACEABLE) are built by the mutated functions.

The report: per module, mutants in all, killed (a rule test failed or ran out of time),
equivalent, surviving (each survivor run again against every rule test of the game, see
`recheck`); the score is killed / (all - equivalent); then every survivor as
file:line, function, and the line before and after. Exit status 1 below --fail-under (95).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "server" / "crabgames" / "games"
EQUIVALENTS = ROOT / "tests" / "mutation_equivalents.txt"

# Each game's rules modules: where its rules live (not the codec, views, labels or events).
RULES_MODULES = {
    "kraby": ["rules.py", "data.py"],
    "crab_bucket": ["rules.py", "turn.py", "abilities.py", "data.py"],
    "crab_rage": [
        "rules.py",
        "actions.py",
        "movement.py",
        "phases.py",
        "endgame.py",
        "flow.py",
        "setup.py",
        "data.py",
        "season.py",
    ],
}

# Imported once by the fork server before any mutant: libraries no mutant touches.
PRELOAD = [
    "grpc",
    "google.protobuf",
    "hypothesis",
    "cryptography",
    "redis",
    "crabgames.v1.game_pb2",
    "crabgames.v1.kraby_pb2",
    "crabgames.v1.crab_bucket_pb2",
    "crabgames.v1.crab_rage_pb2",
    "crabgames.v1.rules_service_pb2",
    "crabgames.v1.rules_service_pb2_grpc",
]

KILLED = {
    "killed",
    "timeout",
    "segfault",
    "caught by type check",
    "killed (all rule tests)",
    "timeout (all rule tests)",
}


@dataclass
class Mutant:
    name: str  # crabgames.games.kraby.rules.x_slide_stop__mutmut_3
    status: str
    module: str = ""  # rules.py
    function: str = ""  # slide_stop (KrabyState.copy for a method)
    line: int = 0
    before: str = ""
    after: str = ""
    reason: str = ""  # why it is equivalent, from the list


# In a game's test folder but not rule tests: the golden playthroughs fail on any change at all,
# in their own file and replayed with the accelerators off (test_fast_paths.py).
NOT_RULE_TESTS = ("test_golden.py",)
NOT_RULE_TEST_NAMES = "not golden_games"


def rule_tests(game: str) -> list[str]:
    """pytest's arguments for the game's rule tests."""
    ignored = [f"--ignore=tests/{game}/{name}" for name in NOT_RULE_TESTS]
    return [f"tests/{game}", *ignored, "-k", NOT_RULE_TEST_NAMES]


def mutmut_config(game: str, modules: list[str]) -> str:
    only = [f"src/crabgames/games/{game}/{m}" for m in modules]
    selection = rule_tests(game)
    return "\n".join(
        [
            "",
            "[tool.mutmut]",
            'source_paths = ["src"]',
            f"only_mutate = {only!r}".replace("'", '"'),
            'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]',
            f"pytest_add_cli_args_test_selection = {selection!r}".replace("'", '"'),
            'process_isolation = "forkserver"',
            'forkserver_warmup = "import"',
            'preload_modules_file = "preload.txt"',
            "timeout_multiplier = 5.0",
            "timeout_constant = 5.0",
            "use_git_change_detection = false",
            "",
        ]
    )


def prepare(workdir: Path, game: str, modules: list[str]) -> None:
    if workdir.exists():
        shutil.rmtree(workdir)
    # The mutants are of the source, so the copy runs it pure (no compiled build, .compiled).
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".hypothesis", ".compiled")
    shutil.copytree(ROOT / "server", workdir / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=ignore)
    pyproject = (ROOT / "pyproject.toml").read_text()
    (workdir / "pyproject.toml").write_text(pyproject + mutmut_config(game, modules))
    (workdir / "preload.txt").write_text("\n".join(PRELOAD) + "\n")


def mutmut(workdir: Path, *args: str, log: Path | None = None) -> str:
    exe = Path(sys.executable).with_name("mutmut")
    command = [str(exe) if exe.exists() else "mutmut", *args]
    if log is None:
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, check=False)
        return done.stdout
    with log.open("w") as out:
        subprocess.run(command, cwd=workdir, stdout=out, stderr=subprocess.STDOUT, check=False)
    return ""


def results(workdir: Path) -> list[Mutant]:
    mutants = []
    for line in mutmut(workdir, "results", "--all", "true").splitlines():
        found = re.match(r"\s*(crabgames\.\S+__mutmut_\d+): (.+)$", line)
        if found:
            mutants.append(Mutant(found[1], found[2].strip()))
    return mutants


def failing_unmutated(workdir: Path, game: str) -> list[str]:
    """The rule tests that fail on the scratch copy's code with no mutant active: after a run,
    tests written for code changed since (a rule fixed meanwhile) fail on the copy's older code,
    and would 'kill' every mutant they run on; the recheck leaves them out."""
    command = [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"]
    command += rule_tests(game)
    env = {**os.environ, "MUTANT_UNDER_TEST": "none", "PYTHONPATH": "src"}
    done = subprocess.run(command, cwd=workdir / "mutants", env=env, capture_output=True, text=True)
    return re.findall(r"^FAILED (\S+)", done.stdout, re.M)


def recheck(workdir: Path, game: str, mutant: Mutant, left_out: Sequence[str] = ()) -> None:
    """Run every rule test of the game against a mutant mutmut let through. mutmut runs only
    the tests it saw reach the mutated function, and it credits a function called while the
    modules are imported (the tables built at import: Kraby's entry tables, Crab Bucket's
    PLACEABLE) to the first test that ran; so the survivors in such functions
    (`called_at_import`) run every rule test. A failing test or a hang here kills the mutant.
    A test that never calls any other function cannot see its mutants: those stand."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += rule_tests(game)
    command += [f"--deselect={test}" for test in left_out]
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant.name, "PYTHONPATH": "src"}
    try:
        done = subprocess.run(
            command, cwd=workdir / "mutants", env=env, capture_output=True, timeout=RECHECK_LIMIT
        )
    except subprocess.TimeoutExpired:
        mutant.status = "timeout (all rule tests)"
        return
    if done.returncode == 1:
        mutant.status = "killed (all rule tests)"
    elif done.returncode != 0:
        raise SystemExit(f"recheck of {mutant.name} failed to run:\n{done.stdout[-2000:]!r}")


RECHECK_LIMIT = 120  # seconds: a game's rule tests take a few
# Calls at import that only wrap a function, never call it.
WRAPPERS = {"staticmethod", "classmethod", "property", "lru_cache", "cache", "wraps", "dataclass"}


def called_at_import(workdir: Path, game: str) -> set[str]:
    """The functions of the game's package that run while its modules are imported: called by
    module-level code (tables built once), and whatever those call in turn, by name. Only their
    mutants can escape mutmut's own choice of tests (see `recheck`)."""
    calls: dict[str, set[str]] = {}
    start: set[str] = set()

    def name(f: ast.AST) -> str:
        return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")

    def names_called(node: ast.AST) -> set[str]:
        """Functions called in `node`, and those handed to a call (`map(f, ...)`)."""
        found = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and name(sub.func) not in WRAPPERS:
                found.add(name(sub.func))
                found.update(name(a) for a in sub.args if isinstance(a, ast.Name | ast.Attribute))
        return found

    for path in sorted(game_source(workdir, game).glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                calls.setdefault(node.name, set()).update(names_called(node))
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        method = f"{node.name}.{item.name}"
                        calls.setdefault(method, set()).update(names_called(item))
                        if any(name(d) == "cached_property" for d in item.decorator_list):
                            start.update(names_called(item))  # often read at set-up
                    else:
                        start.update(names_called(item))
            else:
                start.update(names_called(node))
    reached, todo = set(), [n for n in start if n in calls]
    while todo:
        function = todo.pop()
        if function not in reached:
            reached.add(function)
            todo += [n for n in calls.get(function, ()) if n in calls]
    return reached


def tests_fingerprint(game: str) -> str:
    """A digest of the game's rule tests (and their helpers), to know when they changed."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "tests" / game).rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def name_parts(name: str) -> tuple[str, str]:
    """(module file, function) of a mutant's name; a method's as Class.method."""
    module_path, kind, rest = re.split(r"\.(xǁ|x_)", name, maxsplit=1)
    function = rest.rsplit("__mutmut_", 1)[0]
    if kind == "xǁ":
        function = function.replace("ǁ", ".")
    return module_path.rsplit(".", 1)[1] + ".py", function


def function_lines(path: Path) -> dict[str, tuple[int, int]]:
    """Each function's first and last line, methods as Class.method."""
    spans = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    spans[f"{node.name}.{item.name}"] = (item.lineno, item.end_lineno or 0)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spans.setdefault(node.name, (node.lineno, node.end_lineno or 0))
    return spans


def game_source(workdir: Path, game: str) -> Path:
    """The game's package as the run mutated it (the scratch copy's, not the work tree's)."""
    return workdir / "src" / "crabgames" / "games" / game


def describe(workdir: Path, game: str, mutant: Mutant) -> None:
    """The module, function, line and the change of a mutant, from `mutmut show`."""
    mutant.module, mutant.function = name_parts(mutant.name)
    diff = mutmut(workdir, "show", mutant.name).splitlines()
    removed = [d[1:] for d in diff if d.startswith("-") and not d.startswith("---")]
    added = [d[1:] for d in diff if d.startswith("+") and not d.startswith("+++")]
    mutant.before = " / ".join(s.strip() for s in removed)
    mutant.after = " / ".join(s.strip() for s in added)
    source = game_source(workdir, game) / mutant.module
    first, last = function_lines(source).get(mutant.function, (1, 0))
    lines = source.read_text().splitlines()
    wanted = removed[0].strip() if removed else ""
    for number in range(first, last + 1):
        if lines[number - 1].strip() == wanted:
            mutant.line = number
            break
    else:
        mutant.line = first


def load_equivalents(game: str) -> list[tuple[str, str, str, str, str]]:
    """(module, function, line before, line after, reason) of each listed equivalent mutant."""
    found = []
    for raw in EQUIVALENTS.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = [f.strip() for f in raw.split(" || ")]
        if len(fields) != 5:
            raise SystemExit(f"{EQUIVALENTS}: needs 5 fields split by ' || ': {raw}")
        where, function, before, after, reason = fields
        entry_game, _, module = where.partition("/")
        if entry_game == game:
            found.append((module, function, before, after, reason))
    return found


def report(game: str, mutants: list[Mutant], modules: list[str], seconds: float | None) -> str:
    equivalents = load_equivalents(game)
    used = set()
    for mutant in mutants:
        if mutant.status in KILLED:
            continue
        for index, (module, function, before, after, reason) in enumerate(equivalents):
            same = (module, function, before, after)
            if same == (mutant.module, mutant.function, mutant.before, mutant.after):
                mutant.reason = reason
                used.add(index)
                break
    checked = [m for m in mutants if m.status != "not checked"]
    out = [f"mutation testing of {game}'s rules modules with its rule tests (no golden tests)"]
    if seconds is not None:
        out.append(f"run time: {seconds / 60:.1f} min")
    head = (
        f"{'module':<16}{'mutants':>9}{'killed':>8}{'equivalent':>12}{'survived':>10}{'score':>9}"
    )
    out += ["", head]
    for module in [*modules, "all"]:
        mine = [m for m in checked if module in ("all", m.module)]
        killed = sum(m.status in KILLED for m in mine)
        equivalent = sum(bool(m.reason) for m in mine)
        survived = len(mine) - killed - equivalent
        counted = len(mine) - equivalent
        score = f"{100 * killed / counted:.1f}%" if counted else "-"
        row = f"{module:<16}{len(mine):>9}{killed:>8}{equivalent:>12}{survived:>10}{score:>9}"
        out.append(row)
    if len(checked) < len(mutants):
        out.append(
            f"not checked yet (a run still going, or stopped): {len(mutants) - len(checked)}"
        )
    survivors = [m for m in checked if m.status not in KILLED and not m.reason]
    out += ["", f"survivors ({len(survivors)}): file:line  function  status"]
    for m in sorted(survivors, key=lambda m: (m.module, m.line, m.name)):
        out.append(f"  games/{game}/{m.module}:{m.line}  {m.function}  [{m.status}]")
        out.append(f"      - {m.before}")
        out.append(f"      + {m.after}")
    stale = [e for i, e in enumerate(equivalents) if i not in used]
    if stale:
        out += ["", "listed as equivalent but not among the survivors (killed, or code changed):"]
        out += [f"  {e[0]} {e[1]}: {e[2]} -> {e[3]}" for e in stale]
    return "\n".join(out)


def score_of(mutants: list[Mutant]) -> float:
    counted = [m for m in mutants if not m.reason and m.status != "not checked"]
    killed = sum(m.status in KILLED for m in counted)
    return 100 * killed / len(counted) if counted else 100.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=sorted(RULES_MODULES))
    parser.add_argument("--module", action="append", help="only this rules module (repeatable)")
    parser.add_argument("--workdir", type=Path, help="scratch copy (default: a temp folder)")
    parser.add_argument("--report-only", action="store_true", help="report the last run again")
    parser.add_argument(
        "--retest-survivors",
        action="store_true",
        help="with --report-only: run the last run's survivors against the current rule tests",
    )
    parser.add_argument("--fail-under", type=float, default=95.0)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="mutants run (and rechecked) at once (default 1: a shared machine)",
    )
    args = parser.parse_args()
    modules = args.module or RULES_MODULES[args.game]
    for module in modules:
        if not (GAMES / args.game / module).is_file():
            parser.error(f"no module {module} in games/{args.game}")
    workdir = args.workdir or Path(tempfile.gettempdir()) / "crabgames-mutation" / args.game
    seconds = None
    if not args.report_only:
        if not (ROOT / "server" / "crabgames" / "v1").is_dir():
            raise SystemExit("the generated protobuf code is missing: run make setup-dev")
        prepare(workdir, args.game, modules)
        print(f"mutmut on {', '.join(modules)} of {args.game}, in {workdir} (log: mutmut.log)")
        started = time.monotonic()
        mutmut(workdir, "run", "--max-children", str(args.workers), log=workdir / "mutmut.log")
        seconds = time.monotonic() - started
        (workdir / "seconds.txt").write_text(f"{seconds:.0f}\n")
    elif (workdir / "seconds.txt").exists():
        seconds = float((workdir / "seconds.txt").read_text())
    if args.report_only and args.retest_survivors:
        # Tests only get added, so a mutant killed before stays killed; survivors are retried.
        ignore = shutil.ignore_patterns("__pycache__", ".hypothesis")
        shutil.copytree(
            ROOT / "tests", workdir / "mutants" / "tests", ignore=ignore, dirs_exist_ok=True
        )
        cached, stamp = workdir / "rechecked.json", workdir / "rechecked-tests.txt"
        tests_now = tests_fingerprint(args.game)
        same = stamp.exists() and stamp.read_text() == tests_now
        if cached.exists() and not same:  # killed stays killed; the survivors are tried again
            kept = {k: v for k, v in json.loads(cached.read_text()).items() if v in KILLED}
            cached.write_text(json.dumps(kept, indent=0))
        stamp.write_text(tests_now)
    mutants = [m for m in results(workdir) if name_parts(m.name)[0] in modules]
    if not mutants:
        raise SystemExit(f"no mutants found in {workdir}: see {workdir / 'mutmut.log'}")
    import_time = called_at_import(workdir, args.game)
    rechecked_file = workdir / "rechecked.json"
    rechecked = json.loads(rechecked_file.read_text()) if rechecked_file.exists() else {}
    listed = {e[:4] for e in load_equivalents(args.game)}
    left_out: list[str] = []
    if args.report_only and args.retest_survivors:
        left_out = failing_unmutated(workdir, args.game)
        for test in left_out:
            print(f"left out of the recheck (fails on the copy's unmutated code): {test}")
    to_recheck = []
    for mutant in mutants:
        mutant.module, mutant.function = name_parts(mutant.name)
        if mutant.status in KILLED or mutant.status == "not checked":
            continue  # not checked: the run is still going, or was stopped
        describe(workdir, args.game, mutant)
        if mutant.name in rechecked:
            mutant.status = rechecked[mutant.name]
            continue
        seen = (mutant.module, mutant.function, mutant.before, mutant.after)
        wanted = args.retest_survivors or mutant.function in import_time
        if wanted and seen not in listed:  # an equivalent mutant passes every test anyway
            to_recheck.append(mutant)
    with ThreadPoolExecutor(args.workers) as pool:  # each recheck is a pytest process
        done = pool.map(lambda m: recheck(workdir, args.game, m, left_out), to_recheck)
        for mutant, _ in zip(to_recheck, done, strict=True):
            rechecked[mutant.name] = mutant.status
            rechecked_file.write_text(json.dumps(rechecked, indent=0))
    text = report(args.game, mutants, modules, seconds)
    (workdir / "report.txt").write_text(text + "\n")
    print(text)
    print(f"\nreport: {workdir / 'report.txt'}")
    return 0 if score_of(mutants) >= args.fail_under else 1


if __name__ == "__main__":
    sys.exit(main())
