"""An app started once per test module, for tests that only read it or leave
it as they found it.

An app costs 0.15-0.2 CPU s to its home screen and 0.4-0.5 s launched into a
game (Textual's styling and drawing, at every start): a test that looks at a
fresh launch and changes nothing need not pay for its own. A module makes a
fixture with :func:`shared_app` and marks the tests that use it
``pytest.mark.asyncio(loop_scope="module")``, so they run on the loop the app
runs on. The app starts in the fixture (so Textual's context, which says which
app is running, reaches every test that uses it, as pytest-asyncio passes a
fixture's context on) and stops after the module's last test.

Each test that uses it checks the state it starts from and leaves that state
behind, so the order the tests run in (one worker or several, ``-k``, a rerun
of one) never matters.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot

from tui.app import CardTableApp

from .conftest import make_app, settle

Shared = tuple[CardTableApp, Pilot[Any]]


def shared_app(**kwargs: Any) -> Callable[..., AsyncIterator[Shared]]:
    """A module-scoped fixture: ``make_app(dirs, **kwargs)`` at 80x24, settled,
    in temporary folders of its own with the settings ``dirs`` gives (instant
    bots, no round summary, no tips); the fixture's value is (app, pilot)."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module")
    async def fixture(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
        root = tmp_path_factory.mktemp("shared-app")
        data, config = root / "data", root / "config"
        config.mkdir()
        settings = {"bot_pace": 0, "round_summary": 0, "tips": False}
        (config / "settings.json").write_text(json.dumps(settings))
        with pytest.MonkeyPatch.context() as env:  # as `dirs` does: never the real folders
            env.setenv("CARDTABLE_DATA_DIR", str(data))
            env.setenv("CARDTABLE_CONFIG_DIR", str(config))
            app = make_app((data, config), **kwargs)
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                yield app, pilot

    return fixture
