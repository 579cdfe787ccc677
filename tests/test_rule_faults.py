"""The rule-fault suite (tests/rule_faults.py, `make rule-faults`) kept in step with the code and
the rules, without running it: every fault's text is in its file exactly once as the code stands
(else the fault is stale), every ruling of docs/rules and every ability, action, billboard and
signature move has a fault, and every fault names rule test files that exist and are named for
its rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crabgames.games.crab_bucket.data import ABILITY_NAMES
from crabgames.games.crab_rage.data import ACTION_NAMES, BILLBOARD_NAMES, SIGNATURES
from tests.rule_faults import FAULTS, ROOT, Fault, stale

RULINGS = sorted(
    {
        ruling
        for doc in (ROOT / "docs/rules").glob("*.md")
        for ruling in re.findall(r"^### ([KBRG]\d+):", doc.read_text(), re.MULTILINE)
    },
    key=lambda r: (r[0], int(r[1:])),
)
PRINTED = {
    "ability": sorted(ABILITY_NAMES.values()),
    "action": sorted(ACTION_NAMES.values()),
    "billboard": sorted(BILLBOARD_NAMES.values()),
    "signature move": sorted(card.name for card in SIGNATURES.values()),
}
# The rule test files of a printed component, and the rulings told in a section's file rather
# than in one of their own (docs/testing.md: Setup tells R1 and R2; each action's file what R8
# says of it; R11's file the billboards, R13's the signature moves).
COMPONENT_FILES = {
    "ability": "test_ability_{}",
    "action": "test_action_{}",
    "billboard": "test_r11_",
    "signature move": "test_r13_",
}
TOLD_ELSEWHERE = {
    "R1": ("test_setup",),
    "R2": ("test_setup",),
    "R8": ("test_action_smash", "test_action_rage"),
}


def slug(title: str) -> str:
    """A rule's title as the test files name it: lower case, a section's number and the
    punctuation left out ("2. Play an Oxi! Card": play_an_oxi_card)."""
    words = re.sub(r"^\d+\.\s*", "", title).lower()
    return re.sub(r"[^a-z0-9]+", "_", words.replace("'", "")).strip("_")


def named_for(rule: str) -> tuple[str, ...]:
    """The beginnings of the names of the test files that may kill a fault of `rule`."""
    if re.fullmatch(r"[KBRG]\d+", rule):
        return (f"test_{rule.lower()}_", *TOLD_ELSEWHERE.get(rule, ()))
    for kind, names in PRINTED.items():
        if rule in names:
            return (COMPONENT_FILES[kind].format(slug(rule)),)
    return (f"test_{slug(rule)}",)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.id)
def test_each_faults_text_is_in_its_file_exactly_once(fault: Fault):
    assert stale(fault) is None, f"{fault.id} is stale: re-pick its text"
    assert fault.new != fault.old and fault.wrong


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.id)
def test_each_fault_is_killed_by_rule_test_files_named_for_its_rule(fault: Fault):
    assert fault.tests
    for test in fault.tests:
        assert (ROOT / test).is_file(), test
        assert Path(test).name != "test_golden.py"
    names = [Path(test).name for test in fault.tests]
    assert any(name.startswith(named_for(fault.rule)) for name in names), (fault.rule, names)


def test_every_fault_is_listed_in_docs_testing_md():
    listed = set(
        re.findall(r"^\| [^|]+ \| `([^`]+)`", (ROOT / "docs/testing.md").read_text(), re.M)
    )
    assert {f.id for f in FAULTS} <= listed


def test_fault_ids_are_unique():
    ids = [f.id for f in FAULTS]
    assert len(ids) == len(set(ids))


def test_every_ruling_of_docs_rules_has_a_fault():
    assert len(RULINGS) == 9 + 9 + 21 + 6
    assert set(RULINGS) - {f.rule for f in FAULTS} == set()


@pytest.mark.parametrize("kind", sorted(PRINTED))
def test_every_printed_ability_action_billboard_and_signature_move_has_a_fault(kind):
    assert set(PRINTED[kind]) - {f.rule for f in FAULTS} == set()


def test_the_five_faults_of_issue_32_are_in_the_suite():
    ids = {f.id for f in FAULTS}
    assert {
        "go-clam-keeps-6",
        "K9-best-contribution-floored",
        "rescue-oxi-the-lowest",
        "K6-other-ships-one-direction",
        "R12-style-bonus-never-reset",
    } <= ids
