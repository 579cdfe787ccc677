"""Every rule an error can cite is written down in docs/rules/, one heading each, so a player
who reads `rule: K4` or `rule: Movement Rules (R10)` in an error finds it by search; and no doc
sends the reader outside the repository or into the server's internals.

The cited rules are collected twice: by playing seeded random games of every game and sending
illegal moves at many states (another seat's moves, moves from earlier states, tampered moves,
a chance outcome where a player decides and the reverse), and by reading the source for every
literal rule given to `IllegalMove` or `Violation`, and every ruling id it cites in comments.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

from crabgames.core.engine import EXPLICIT, Engine, legal_move_msgs
from crabgames.core.errors import IllegalMove, RulesError
from crabgames.core.game import CHANCE, NOBODY
from crabgames.games import all_games
from crabgames.games.crab_rage.explain import DECISIONS
from crabgames.v1 import game_pb2

ROOT = Path(__file__).resolve().parent.parent
RULES_DOCS = ROOT / "docs" / "rules"
SOURCE = ROOT / "server" / "crabgames"
GAMES = ("kraby", "crab_bucket", "crab_rage")
# The file that holds a ruling id's rule: G (every game) in general.md, the others per game.
ID_FILES = {"G": "general.md", "K": "kraby.md", "B": "crab_bucket.md", "R": "crab_rage.md"}
RULING_ID = re.compile(r"\b([GKBR])([1-9][0-9]?)\b")
# A literal rule handed to an error: IllegalMove("K4", ...) or Violation("Crab Move", ...).
LITERAL_RULE = re.compile(r"\b(?:IllegalMove|Violation)\(\s*\"([^\"]+)\"")
# "Action Phase (R7)" cites the rulebook section and the ruling: each needs its heading.
SECTION_AND_ID = re.compile(r"^(.+?) \(([GKBR][0-9]+)\)$")
HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.MULTILINE)
# What no doc may point at: the rulebooks and rulings outside the repository.
OUTSIDE = re.compile(r"\.\./shared|shared/rule|rulings\.md|/work/")
# What a doc for players and front ends must not point at in place of the rule or layout itself:
# the server's hooks and source files. docs/architecture.md, the map of the internals, does.
INTERNALS = re.compile(r"decision_hidden_from|chance_hidden_from|move_ids\.py")
ABOUT_INTERNALS = ("architecture.md",)


def parts(rule: str) -> list[str]:
    """The headings a cited rule needs: the section and the ruling id of "Section (R7)"."""
    both = SECTION_AND_ID.match(rule)
    return [both.group(1), both.group(2)] if both else [rule]


def doc_for(game_id: str, part: str) -> str:
    """The rules file that must hold `part` when `game_id` cites it."""
    ruling = RULING_ID.fullmatch(part)
    return ID_FILES[ruling.group(1)] if ruling else f"{game_id}.md"


def headings(name: str) -> set[str]:
    """A doc's heading keys: a heading's text before its first ": " (`### K4: holes` is K4)."""
    text = (RULES_DOCS / name).read_text(encoding="utf-8")
    return {heading.split(": ", 1)[0] for heading in HEADING.findall(text)}


def game_of(path: Path) -> str | None:
    relative = path.relative_to(SOURCE).parts
    return relative[1] if relative[0] == "games" and len(relative) > 2 else None


# ----- the rules the engine cites when it refuses a move -----


def tampered(move: game_pb2.Move, rng: random.Random) -> game_pb2.Move:
    """A copy of a move with one number of the game's part changed (nested fields included)."""
    copy = game_pb2.Move()
    copy.CopyFrom(move)
    copy.label = ""
    which = copy.WhichOneof("move")
    assert which is not None
    message = getattr(copy, which)
    numbers: list[tuple[Any, Any]] = []  # (message or repeated field, name or index)

    def collect(msg) -> None:
        for field in msg.DESCRIPTOR.fields:
            value = getattr(msg, field.name)
            if field.message_type is not None:
                for item in value if field.is_repeated else [value]:
                    collect(item)
            elif field.type in (field.TYPE_STRING, field.TYPE_BOOL):
                continue
            elif field.is_repeated:
                numbers.extend((value, i) for i in range(len(value)))
            else:
                numbers.append((msg, field.name))

    collect(message)
    if not numbers:
        return copy
    holder, key = rng.choice(numbers)
    current = holder[key] if isinstance(key, int) else getattr(holder, key)
    new = rng.choice((current + 1, current - 1, current + 2, rng.randrange(0, 12), 200))
    try:
        if isinstance(key, int):
            holder[key] = new
        else:
            setattr(holder, key, new)
    except (ValueError, TypeError):
        pass
    return copy


def illegal_tries(match, moves, pool, rng):
    """Moves to send at this state that are likely refused."""
    decision = match.decision()
    tries = []
    if decision.kind == CHANCE:
        tries.append(game_pb2.Move(chance=game_pb2.ChanceOutcome(value=99)))
        tries.extend(rng.sample(pool, min(3, len(pool))))
        return tries
    tries.append(game_pb2.Move(player=decision.player, chance=game_pb2.ChanceOutcome(value=0)))
    for move in rng.sample(moves, min(2, len(moves))):
        other = game_pb2.Move()
        other.CopyFrom(move)
        other.player = (decision.player + 1) % match.num_players
        tries.append(other)
        for _ in range(4):
            tries.append(tampered(move, rng))
    for move in rng.sample(pool, min(6, len(pool))):
        if move.WhichOneof("move") != "chance":
            again = game_pb2.Move()
            again.CopyFrom(move)
            again.player = decision.player
            tries.append(again)
    return tries


def rules_cited_in_play(engine: Engine, game_id: str, num_players: int, options, seed: int):
    """(rule, reason) of every refusal met in one seeded random game, chance explicit."""
    rng = random.Random(seed)
    match, _ = engine.new_match(game_id, options, num_players, seed, EXPLICIT)
    pool: list[game_pb2.Move] = []
    cited: dict[str, str] = {}
    while (decision := match.decision()).kind != NOBODY:
        moves = legal_move_msgs(match, decision)
        for attempt in illegal_tries(match, moves, pool, rng):
            try:
                match.check_move(attempt)
            except IllegalMove as error:
                cited.setdefault(error.rule, error.message)
            except RulesError:
                pass
        if decision.kind == CHANCE:
            weights = [m.chance.probability for m in moves]
            move = rng.choices(moves, weights)[0]
        else:
            move = rng.choice(moves)
        pool.extend(rng.sample(moves, min(3, len(moves))))
        if len(pool) > 400:
            del pool[: len(pool) - 400]
        match.play(move)
    return cited


def play_cases():
    for game_id in GAMES:
        for num_players, options in importlib.import_module(f"tests.cases.{game_id}").CASES:
            yield game_id, num_players, options


@pytest.fixture(scope="module")
def cited_in_play() -> dict[str, dict[str, str]]:
    engine = Engine(all_games())
    cited: dict[str, dict[str, str]] = {game_id: {} for game_id in GAMES}
    for index, (game_id, num_players, options) in enumerate(play_cases()):
        for seed in (11 + index, 97 + index):
            cited[game_id].update(rules_cited_in_play(engine, game_id, num_players, options, seed))
    return cited


# ----- the rules the source cites -----


def cited_in_source() -> dict[str | None, set[str]]:
    """Every literal rule given to IllegalMove/Violation and every ruling id, by game (None:
    the generic engine), plus the CRAB RAGE! rule for each decision."""
    cited: dict[str | None, set[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        if path.parts[-2] == "v1":  # generated code
            continue
        text = path.read_text(encoding="utf-8")
        found = cited.setdefault(game_of(path), set())
        found.update(LITERAL_RULE.findall(text))
        found.update(a + b for a, b in RULING_ID.findall(text))
    cited.setdefault("crab_rage", set()).update(rule for rule, _ in DECISIONS.values())
    return cited


def missing(game_id: str | None, rules) -> list[str]:
    absent = []
    for rule in sorted(rules):
        for part in parts(rule):
            if RULING_ID.fullmatch(part) is None and game_id is None:
                absent.append(f"{rule!r}: a section name cited outside a game")
                continue
            name = doc_for(game_id or "general", part)
            if part not in headings(name):
                absent.append(f"{rule!r} needs a heading `### {part}: ...` in docs/rules/{name}")
    return absent


def test_every_rule_the_engine_cites_in_play_has_a_heading(cited_in_play):
    for game_id in GAMES:
        assert cited_in_play[game_id], f"no illegal move of {game_id} was refused"
    absent = [line for g, rules in cited_in_play.items() for line in missing(g, rules)]
    assert absent == []


def test_play_meets_the_engines_own_rules_g2_and_g3(cited_in_play):
    for game_id in GAMES:
        assert {"G2", "G3"} <= set(cited_in_play[game_id]), game_id


def test_the_source_reading_finds_every_rule_met_in_play(cited_in_play):
    """The static reading is the complete list: play meets no rule it missed."""
    source = cited_in_source()
    for game_id in GAMES:
        known = source[game_id] | source[None]
        assert set(cited_in_play[game_id]) - known == set(), game_id


def test_every_rule_the_source_cites_has_a_heading():
    absent = [line for g, rules in cited_in_source().items() for line in missing(g, rules)]
    assert absent == []


def test_every_ruling_id_has_a_heading():
    """Every ruling id, whether or not the code cites it today: G1-G6, K1-K9, B1-B9, R1-R21."""
    expected = {"G": 6, "K": 9, "B": 9, "R": 21}
    for letter, count in expected.items():
        keys = headings(ID_FILES[letter])
        assert [f"{letter}{n}" for n in range(1, count + 1) if f"{letter}{n}" not in keys] == []


def test_no_doc_points_outside_the_repository_or_at_server_internals():
    docs = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    found = []
    for path in docs:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            internal = path.name not in ABOUT_INTERNALS and INTERNALS.search(line)
            if OUTSIDE.search(line) or internal:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
