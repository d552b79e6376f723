"""The rules page (tui/screens/rules.py): a page of a hundred widgets or more
(one a paragraph), so what it costs to open is what a player waits for."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.widgets.markdown import MarkdownBlock

from tui.screens.rules import RulesScreen

from .conftest import make_app, screen_text, settle


async def test_the_rules_page_is_styled_once_as_it_opens(
    dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shown the first time, its widgets were styled as they mounted: Textual's
    restyle of the whole screen is skipped (a fifth of the opening), and so is
    its restyle of the whole page as the page takes the focus, and as it loses
    it when the page closes (tui/widgets/rules_viewer.py)."""
    restyled: list[RulesScreen] = []
    original = RulesScreen.update_node_styles

    def counted(self: RulesScreen, animate: bool = True) -> None:
        restyled.append(self)
        original(self, animate)

    monkeypatch.setattr(RulesScreen, "update_node_styles", counted)
    blocks_styled: Counter[int] = Counter()  # each paragraph, heading, list... by id
    apply = Stylesheet.apply

    def apply_counted(self: Stylesheet, node: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(node, MarkdownBlock):
            blocks_styled[id(node)] += 1
        apply(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", apply_counted)
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rules = RulesScreen("trick")
        await app.push_screen(rules)
        await settle(pilot)
        assert app.screen is rules and "Five-Card Trick" in screen_text(app)
        assert restyled == []
        assert rules.focused is not None and rules.focused.has_focus  # the page
        assert len(blocks_styled) > 20 and set(blocks_styled.values()) == {1}, blocks_styled
        await pilot.press("t")  # and it works as before: the contents open, focused
        await settle(pilot)
        assert type(rules.focused).__name__ == "Tree"
        await pilot.press("t")  # the page focused again
        await settle(pilot)
        blocks_styled.clear()
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not rules and not blocks_styled  # closed: nothing restyled
