"""Every theme the settings offer keeps the table readable: each piece of text
drawn on a game screen (cards and their edges, captions, the discard grid, the
scores, the action cards, the status line, the footer's keys) has a contrast of
at least 3:1 (WCAG's minimum for bold text and interface marks) against what is
behind it, as the terminal receives it.

Left out: ANSI themes (their colours are the terminal's own), the header
(Textual's), and the one-column separators and scrollbars."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.color import Color

from rules.registry import shipped
from tui.contrast import MINIMUM, contrast
from tui.textual_seams import screen_update

from .conftest import make_app, play_launch, settle

DECORATION = set("▏▁▔▕│▎▊█▌▐▆▇▅▄▃▂ ")


def poorly_contrasted(app: Any) -> set[str]:
    """The pieces of text on screen, below the header, under the minimum."""
    width, height = app.size
    console = Console(
        file=io.StringIO(), width=width, height=height, color_system="truecolor",
        force_terminal=True, legacy_windows=False,
    )  # fmt: skip
    update = screen_update(app, with_background=False)
    row, poor = 0, set()
    for segment in console.render(update):
        row += segment.text.count("\n")
        style, text = segment.style, segment.text.strip()
        if row == 0 or not text or set(text) <= DECORATION or style is None:
            continue
        if style.color is None or style.bgcolor is None or style.dim:
            continue
        ratio = contrast(Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor))
        if ratio < MINIMUM:
            poor.add(f"{text[:12]!r} {ratio:.1f}")
    return poor


# the default run checks the themes that once failed and the default; the slow
# step checks every one
SOME = ("textual-dark", "textual-light", "solarized-light")


@pytest.mark.parametrize("game", shipped())
async def test_the_default_and_the_light_themes_keep_the_table_readable(
    dirs: Any, game: str
) -> None:
    await _check_themes(dirs, game, SOME)


@pytest.mark.slow
@pytest.mark.parametrize("game", shipped())
async def test_every_theme_keeps_the_table_readable(dirs: Any, game: str) -> None:
    await _check_themes(dirs, game, None)


async def _check_themes(dirs: Any, game: str, only: tuple[str, ...] | None) -> None:
    app = make_app(dirs, launch={**play_launch(seed=3), "game": game})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # a card played, or an action chosen
        await settle(pilot)
        themes = sorted(t for t in app.available_themes if not t.startswith("ansi"))
        assert len(themes) > 10 and set(SOME) <= set(themes)
        if only is not None:
            themes = list(only)
        failures = {}
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            poor = poorly_contrasted(app)
            if poor:
                failures[theme] = sorted(poor)
        assert failures == {}


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_forms_open_focused_on_a_field_that_stands_out_in_every_theme(dirs: Any) -> None:
    from textual.widgets import Select
    from textual.widgets._select import SelectCurrent

    from tui.screens.new_game import NewGameScreen
    from tui.screens.settings import SettingsScreen

    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        assert isinstance(app.screen.focused, Select)  # a field, not the form around it
        await pilot.press("escape", "comma")  # Settings
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        assert isinstance(app.screen.focused, Select) and app.screen.focused.id == "theme"
        focused, other = list(app.screen.query(SelectCurrent))[:2]
        # dark and light themes, among them those whose accent is near the surface
        light = ("textual-light", "solarized-light", "catppuccin-latte", "rose-pine-dawn")
        for theme in ("textual-dark", "solarized-dark", "nord", *light):
            app.theme = theme
            await pilot.pause()
            style, plain_style = focused.rich_style, other.rich_style
            # a shape (bold underline) marks it whatever the colours...
            assert style.underline and style.bold and not plain_style.underline, theme
            # ...and its text stays readable on the accent
            assert style.color is not None and style.bgcolor is not None
            text, back = Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor)
            assert contrast(text, back) >= MINIMUM, theme
