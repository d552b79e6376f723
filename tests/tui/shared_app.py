"""One app shared by the tests of a module that only look at it (issue 41 item 4).

Each app costs its launch (0.13 CPU s to the home screen, 0.3 s into a game)
before a test's first key. Tests that start from the same state and leave it as
they found it share one: a module-scoped fixture built with :func:`shared_app`
(and the module's tests marked ``pytest.mark.asyncio(loop_scope="module")``, so
the app and the tests run on one event loop). The app gets what the ``dirs``
fixture gives a test's own app: temporary data and config folders (never the
real ones), bots answering at once, no round summary, no tips, and an input
guard that listens as soon as a screen is shown.

:func:`module_app` makes such a fixture in one line, its value ``(app, pilot)``.

What a test changes it puts back (:func:`back_home`, :func:`at_the_table`
after a test that pushed screens, :func:`from_home` for a test that opens games
from home, :func:`launched` for one that opens its game as ``launch=`` would);
a test that cannot (the app quit, the game resigned) keeps its own app, so the
order of the tests never matters.

One shared app a module: a test that calls into an app (``app.push_screen``, a
launch) does so in the context of the module's last started app, so a module
with two shared apps must only press keys in the first.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.screen import Screen

from tui.app import CardTableApp
from tui.screens.home import HomeScreen
from tui.screens.input_guard import InputGuard
from tui.table.screen import TableScreen

from .conftest import GuardTimer, make_app, settle


@asynccontextmanager
async def shared_app(
    folder: Path,
    *,
    size: tuple[int, int] = (80, 24),
    notifications: bool = False,
    environ: dict[str, str] | None = None,
    **kwargs: Any,
) -> AsyncIterator[Pilot[Any]]:
    """An app in ``folder`` (its data and config), settled, for a module's
    tests. ``environ`` is set only while the app is made (what Textual reads
    there, as NO_COLOR, it reads once), so the module's other apps never see it."""
    data, config = folder / "data", folder / "config"
    config.mkdir(parents=True)
    settings = {"bot_pace": 0, "round_summary": 0, "tips": False}
    (config / "settings.json").write_text(json.dumps(settings))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_DATA_DIR", str(data))
        patch.setenv("CARDTABLE_CONFIG_DIR", str(config))
        # as the autouse `guard_timer` does for a test's own app; each test's
        # own patch then restores this one, not the real timer
        patch.setattr(InputGuard, "guard_schedule", GuardTimer())
        with pytest.MonkeyPatch.context() as made_with:
            for name, value in (environ or {}).items():
                made_with.setenv(name, value)
            app = make_app((data, config), **kwargs)
        async with app.run_test(size=size, notifications=notifications) as pilot:
            await settle(pilot)
            yield pilot


Shared = tuple[CardTableApp, Pilot[Any]]


def module_app(**kwargs: Any) -> Any:
    """A module-scoped fixture of :func:`shared_app` (``make_app``'s
    ``kwargs``) at 80x24, its value ``(app, pilot)``; its tests are marked
    ``pytest.mark.asyncio(loop_scope="module")``. The app starts in the
    fixture, so that Textual's context (which app is running) reaches every
    test that uses it: pytest-asyncio passes a fixture's context on."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module")
    async def fixture(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
        async with shared_app(tmp_path_factory.mktemp("shared-app"), **kwargs) as pilot:
            yield pilot.app, pilot

    return fixture


@asynccontextmanager
async def from_home(pilot: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    """The shared app's home screen in front and no saved game, for one test;
    after it, home in front again and the games the test saved deleted."""
    app: Any = pilot.app
    await back_home(pilot)
    assert not app.store.list(), "an earlier test left a saved game"
    yield pilot
    await back_home(pilot)
    for record_id in [entry.id for entry in app.store.list()]:
        app.store.delete(record_id)


async def launched(pilot: Pilot[Any], launch: dict[str, Any]) -> Screen[Any]:
    """Open a ``{"action": "play", ...}`` launch from the shared app's home
    screen, as ``make_app(launch=...)`` opens it at the start; its screen."""
    app: Any = pilot.app
    assert launch.get("action") == "play", launch
    assert isinstance(app.screen, HomeScreen), f"the shared app shows {app.screen!r}, not home"
    await app.start_from_launch(launch)
    await settle(pilot)
    assert isinstance(app.screen, TableScreen), f"{launch} opened {app.screen!r}"
    return app.screen


async def back_home(pilot: Pilot[Any]) -> None:
    """Pop every screen above home, as Escape would, and check home is shown."""
    app = pilot.app
    while len(app.screen_stack) > 1:
        await app.pop_screen()
        await settle(pilot)
    assert isinstance(app.screen, HomeScreen), f"the shared app ended on {app.screen!r}"


@asynccontextmanager
async def at_the_table(pilot: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    """The shared app's game (the screen above home) in front and still being
    played, for one test; then in front again, whatever the test opened over it."""
    app = pilot.app
    assert len(app.screen_stack) >= 2, "the shared app's game is gone"
    table = app.screen_stack[1]
    assert isinstance(table, TableScreen), f"the shared app shows {table!r}, not its game"
    await _back_to(pilot, table)
    assert not table.over, "an earlier test ended the shared game (the one that does must be last)"
    yield pilot
    if table in app.screen_stack:  # else the test ended it: the next use says so
        await _back_to(pilot, table)


async def _back_to(pilot: Pilot[Any], screen: Screen[Any]) -> None:
    app = pilot.app
    while app.screen is not screen and len(app.screen_stack) > 1:
        await app.pop_screen()
        await settle(pilot)
    assert app.screen is screen, f"the shared app ended on {app.screen!r}"
