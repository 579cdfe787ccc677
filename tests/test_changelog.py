"""Every break of the wire since the last contract before the front-end work is named in
CHANGELOG.md: `buf breaking` against those protos (kept in tests/data/) lists each break, and the
changelog must name its field and message, so a break never slips out unannounced."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parent.parent
BEFORE = ROOT / "tests" / "data" / "protos_before_frontend_contract"
BUF = ROOT / ".venv" / "bin" / "buf"
GAME_PREFIX = re.compile(r"^(Kraby|CrabBucket|CrabRage)")


def breaks() -> list[dict]:
    run = subprocess.run(
        [str(BUF), "breaking", "protos", "--against", str(BEFORE), "--error-format=json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode in (0, 100), run.stderr  # 100: breaks found
    return [json.loads(line) for line in run.stdout.splitlines() if line.strip()]


def test_every_break_since_the_front_end_contract_is_in_the_changelog():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    found = breaks()
    assert found, "no break found: the baseline in tests/data is not the old contract"
    missing = []
    for item in found:
        # the names the break quotes: a field, its message, an enum value (numbers and
        # descriptions such as "optional with explicit presence" left aside)
        names = [
            n for n in re.findall(r'"([^"]+)"', item["message"]) if re.fullmatch(r"[A-Za-z_]\w*", n)
        ]
        assert names, item["message"]
        unnamed = [
            n for n in names if n not in changelog and GAME_PREFIX.sub("", n) not in changelog
        ]
        if unnamed:
            missing.append(f"{item['path']}: {item['type']}: {', '.join(unnamed)}")
    assert not missing, "breaks CHANGELOG.md does not name:\n" + "\n".join(missing)
