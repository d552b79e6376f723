"""SVG snapshots of the key screens at 80x24: deterministic (seeded deal,
instant bots, no clock in the header, no blinking cursor on screen).

After an intended change of looks: `uv run pytest tests/tui/test_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from rules import registry

from .conftest import make_app, play_launch, settle


@pytest.fixture(autouse=True)
def _real_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The home screen lists the games a user has, not the tests' toy game."""
    registry.games()  # the built-in games are registered first
    monkeypatch.delitem(registry._GAMES, "toy", raising=False)


def test_home(dirs: Any, snap_compare: Any) -> None:
    assert snap_compare(make_app(dirs), terminal_size=(80, 24), run_before=settle)


def test_new_game(dirs: Any, snap_compare: Any) -> None:
    async def open_form(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(make_app(dirs), terminal_size=(80, 24), run_before=open_form)


def test_domination_in_progress(dirs: Any, snap_compare: Any) -> None:
    async def play_two(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for _ in range(2):
            screen: Any = pilot.app.screen
            index = next(i for i, c in enumerate(screen.hand) if c in screen.legal)
            await pilot.press(str(index + 1))
            await settle(pilot)
        await pilot.press("right")
        await settle(pilot)

    app = make_app(dirs, launch=play_launch(seed=7, vs="computer:easy"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=play_two)


def test_domination_ascii(dirs: Any, snap_compare: Any) -> None:
    app = make_app(dirs, ascii=True, launch=play_launch(seed=7, vs="computer:easy"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)
