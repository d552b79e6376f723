"""rules/, saves/ and net/ stay headless: importing every module in them (and
making every game and bot) pulls in neither Textual nor Rich, nor the TUI.

The server, the bots and the benchmarks start fast and run without a terminal
because of this (ARCHITECTURE.md). It runs in a fresh interpreter: this test
process may already hold textual from other tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HEADLESS = ("rules", "saves", "net")
FORBIDDEN = ("textual", "rich", "tui")

_PROBE = """
import importlib, json, pkgutil, sys

FORBIDDEN = {forbidden!r}

def forbidden():
    return sorted(m for m in sys.modules if m.split(".")[0] in FORBIDDEN)

imported, culprits = [], {{}}
def load(name):
    before = set(forbidden())
    importlib.import_module(name)
    imported.append(name)
    new = sorted(set(forbidden()) - before)
    if new:
        culprits[name] = new[:5]

for top in {packages!r}:
    load(top)
    package = sys.modules[top]
    for info in pkgutil.walk_packages(package.__path__, top + "."):
        load(info.name)

# the registry imports every game lazily, and make_bot every bot module
from rules.registry import games
from rules.bots import LEVELS, make_bot
for game_id, spec in games().items():
    spec.new(spec.config(), 1)
    for level in LEVELS:
        make_bot(game_id, level.id)

print(json.dumps({{"imported": imported, "culprits": culprits, "forbidden": forbidden()}}))
"""


def test_headless_packages_never_import_textual_rich_or_the_tui() -> None:
    probe = _PROBE.format(forbidden=FORBIDDEN, packages=HEADLESS)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"a headless module failed to import:\n{done.stderr}"
    report = json.loads(done.stdout)
    imported = report["imported"]
    for top in HEADLESS:
        assert top in imported
    # the walk really went into the packages (a broken walk would prove nothing)
    assert "rules.game" in imported and "rules.registry" in imported
    assert "rules.bots.base" in imported
    assert report["forbidden"] == [], (
        f"headless code imported {report['forbidden']}; first pulled in by {report['culprits']}"
    )
