"""Every shipped game has the one shape docs/contract.md's "Adding a game"
lists: the same modules in its package, its computers declared on its spec,
its pages, and nothing of it named in the shared bot code. A game added to the
catalogue that misses a step fails here, not silently elsewhere."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from rules.bots import LEVELS, make_bot
from rules.bots.roster import GameBots, bots_of
from rules.registry import CATALOGUE, get_game, shipped

REPO = Path(__file__).resolve().parents[2]
# docs/contract.md, "Adding a game", step 1
MODULES = (
    "notation",
    "options",
    "view",
    "state",
    "position",
    "spec",
    "events",
    "words",
    "figures",
    "from_view",
    "bots",
)


@pytest.mark.parametrize("game_id", shipped())
def test_every_shipped_game_is_a_package_of_the_same_modules(game_id: str) -> None:
    missing = [m for m in MODULES if importlib.util.find_spec(f"rules.{game_id}.{m}") is None]
    assert missing == [], f"rules/{game_id}/ lacks {missing}"
    package = importlib.import_module(f"rules.{game_id}")
    spec_module = importlib.import_module(f"rules.{game_id}.spec")
    assert package.SPEC is spec_module.SPEC is get_game(game_id)
    assert (get_game(game_id).title, get_game(game_id).summary) == CATALOGUE[game_id]


@pytest.mark.parametrize("game_id", shipped())
def test_every_shipped_game_declares_its_computers_on_its_spec(game_id: str) -> None:
    spec = get_game(game_id)
    declared = spec.bots()
    assert isinstance(declared, GameBots) and bots_of(spec) is declared
    bots_module = importlib.import_module(f"rules.{game_id}.bots")
    assert declared is bots_module.BOTS
    assert set(declared.levels) <= {lv.id for lv in LEVELS}
    assert declared.levels, "a shipped game has a bot of its own"
    assert declared.adapter is not None and declared.judge is not None
    for level, factory in declared.levels.items():
        assert type(make_bot(game_id, level)) is type(factory())


@pytest.mark.parametrize("game_id", shipped())
def test_every_shipped_game_has_its_pages(game_id: str) -> None:
    for page in (f"docs/rules/{game_id}.md", f"docs/play/{game_id}.md"):
        assert (REPO / page).is_file(), f"{page} is missing"


def test_the_shared_bot_code_names_no_game() -> None:
    named = re.compile("|".join(rf"['\"]{re.escape(g)}['\"]" for g in shipped()))
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "rules" / "bots").glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if named.search(line)
    ]
    assert found == []
