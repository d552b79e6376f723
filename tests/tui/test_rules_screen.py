"""The rules page (tui/screens/rules.py): a page of a hundred widgets or more
(one a paragraph), so what it costs to open is what a player waits for."""

from __future__ import annotations

from typing import Any

import pytest

from tui.screens.rules import RulesScreen

from .conftest import make_app, screen_text, settle


async def test_the_rules_page_is_styled_once_as_it_opens(
    dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shown the first time, its widgets were styled as they mounted: Textual's
    restyle of the whole screen is skipped (a fifth of the opening)."""
    restyled: list[RulesScreen] = []
    original = RulesScreen.update_node_styles

    def counted(self: RulesScreen, animate: bool = True) -> None:
        restyled.append(self)
        original(self, animate)

    monkeypatch.setattr(RulesScreen, "update_node_styles", counted)
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rules = RulesScreen("trick")
        await app.push_screen(rules)
        await settle(pilot)
        assert app.screen is rules and "Five-Card Trick" in screen_text(app)
        assert restyled == []
        await pilot.press("t")  # and it works as before: the contents open, focused
        await settle(pilot)
        assert type(rules.focused).__name__ == "Tree"
