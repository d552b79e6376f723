"""Fixtures for the app tests: temporary data and config dirs (never the real
ones), instant bots, and helpers that wait for the table instead of sleeping."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import textual._wait
from rich.console import Console
from syrupy import SnapshotAssertion
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.pilot import Pilot
from textual.screen import Screen

from tui.app import CardTableApp
from tui.screens.input_guard import InputGuard
from tui.textual_seams import render_screen

from .pictures import picture_comparer

# Pilot waits for the app to go idle after every key and pause by sleeping in
# steps of 20 ms until a step passes with almost no CPU used: at least 40 ms a
# key, a quarter of the TUI tests' time spent asleep. Steps of 5 ms find the
# same idle moment sooner; and steps of 1 ms (a step idle under a fifth of a
# millisecond of CPU: the same share) sooner still, where nothing rests on
# the idle moment: a key's own two waits (a test reads the screen after a
# `pause` or `settle`) and the pauses inside `settle` (which also waits for
# the table, the message queues, the animations and a refresh of the
# screen). A bare `pilot.pause()` keeps 5 ms: a test that read the screen
# right after one at 1 ms read a form half laid out (docs/testing.md, "Ninth
# cut").
textual._wait.SLEEP_GRANULARITY = 0.005
textual._wait.SLEEP_IDLE = 0.001


@contextlib.contextmanager
def _fine_idle_steps() -> Iterator[None]:
    coarse = textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE
    textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = 0.001, 0.0002
    try:
        yield
    finally:
        textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = coarse


_press_keys = App._press_keys


async def _press_keys_in_fine_steps(self: App[Any], keys: Iterable[str]) -> None:
    with _fine_idle_steps():
        await _press_keys(self, keys)


App._press_keys = _press_keys_in_fine_steps  # type: ignore[method-assign]


# Each app parses the same CSS again (its files, every widget's DEFAULT_CSS):
# a tenth of an app test's time. Textual keeps what it parsed per stylesheet;
# here the apps of one test process share it. A parse depends only on the
# text, where it came from, its scope and the theme's variables: the key.
# The rules parsed are only read afterwards, so sharing them changes nothing.
_parse_rules = Stylesheet._parse_rules
_PARSED: dict[tuple[object, ...], list[RuleSet]] = {}


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    variables = tuple(sorted(self._variables.items()))
    key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
    rules = _PARSED.get(key)
    if rules is None:
        rules = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        _PARSED[key] = rules
    return rules


Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]


# While `settle` waits, the app refreshes the screen many times over (each
# message, each timer, each mount), and in a headless test each refresh draws
# the changed part of the screen for a terminal that is not there: a quarter of
# the app tests' CPU. Inside `settle` those draws are put off, and the screen
# is drawn once, whole where it changed, when it has settled; outside `settle`
# (keys, pauses) every refresh draws as before. So every state a test stops in
# is drawn as a terminal would get it (a widget that fails to draw still fails
# the test), and only the draws of states that `settle` passes through are
# skipped. Layout, the refresh callbacks and the mouse-over are unchanged.
_compositor_refresh = Screen._compositor_refresh
_drawing_put_off = False


def _compositor_refresh_unless_settling(self: Screen[Any]) -> None:
    app = self.app
    if _drawing_put_off and app.is_headless and self is app.screen:
        app._update_mouse_over(self)  # what the refresh does besides drawing
        return  # the dirty regions are kept for the draw after `settle`
    _compositor_refresh(self)


Screen._compositor_refresh = _compositor_refresh_unless_settling  # type: ignore[method-assign]


class GuardTimer:
    """Stands in for the input guard's timer (tui/screens/input_guard.py), so no
    test waits on the wall clock. By default a guarded screen listens as soon as
    it is shown (keys typed before it still do not count); with ``holding`` its
    guard lasts until the test calls :meth:`elapse`, as if the moment had passed
    with nobody typing."""

    def __init__(self) -> None:
        self.holding = False
        self.waiting: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, seconds: float, then: Callable[[], None]) -> None:
        if self.holding:
            self.waiting.append((seconds, then))
        else:
            then()

    def elapse(self) -> None:
        """Every timer started so far runs out (an overtaken one ends nothing)."""
        waiting, self.waiting = self.waiting, []
        for _, then in waiting:
            then()


@pytest.fixture(autouse=True)
def guard_timer(monkeypatch: pytest.MonkeyPatch) -> GuardTimer:
    timer = GuardTimer()
    monkeypatch.setattr(InputGuard, "guard_schedule", timer)
    return timer


@pytest.fixture
def compare_picture(
    snapshot: SnapshotAssertion, request: pytest.FixtureRequest
) -> Callable[[str], bool]:
    """A picture taken in a shared app (tests/tui/pictures.py) against the
    test's stored snapshot, as ``snap_compare`` compares its own."""
    return picture_comparer(snapshot, request.node)


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    data, config = tmp_path / "data", tmp_path / "config"
    config.mkdir()
    # bots answer at once in tests: the table's pace is the settings' bot_pace;
    # and no round summary holds play up (its own tests turn it on)
    # and no tip of a first game pops up (tests/tui/test_learn.py turns them on)
    settings = {"bot_pace": 0, "round_summary": 0, "tips": False}
    (config / "settings.json").write_text(json.dumps(settings))
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data))
    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", str(config))
    yield data, config


def make_app(dirs: tuple[Path, Path], **kwargs: Any) -> CardTableApp:
    data, config = dirs
    return CardTableApp(data, config, **kwargs)


def play_launch(seed: int = 7, vs: str = "computer:easy", **options: Any) -> dict[str, Any]:
    return {"action": "play", "game": "domination", "vs": vs, "seed": seed, "options": options}


@contextlib.contextmanager
def glides_at_once(app: App[Any]) -> Iterator[None]:
    """Textual's scrolls and tab underlines glide in real time, and a test
    waits for them to end: Home over a chart of fifty lines at Textual's fifty
    lines a second is a second asleep, a tab's underline a third of one.
    Where a test reads where a glide ends, not the glide, each ends at once,
    as at the animation level a player sets with TEXTUAL_ANIMATIONS=none."""
    before = app.animation_level
    app.animation_level = "none"
    try:
        yield
    finally:
        app.animation_level = before


async def settle(pilot: Pilot[Any], done: Callable[[], bool] = lambda: True) -> None:
    """Let the table and the screens finish: no bot thinking, no message
    pending, no animation running, the screen drawn, and ``done()`` if given
    (at most 50 rounds)."""
    global _drawing_put_off
    app = pilot.app
    _drawing_put_off = True
    try:
        with _fine_idle_steps():
            await _until_settled(pilot, done)
    finally:
        _drawing_put_off = False
    if app.is_running and app.screen_stack:
        app.screen._compositor_refresh()  # what changed while settling, drawn once


async def _until_settled(pilot: Pilot[Any], done: Callable[[], bool]) -> None:
    app = pilot.app
    for _ in range(50):
        # a computer that finishes thinking during this round sends its update
        # after the round's pauses began: only a round that began with nobody
        # thinking has drawn everything (a Trick status line read half laid
        # out, "Computer: locked in" in a column still sized for "choosing")
        quiet_from_the_start = not _busy(app)
        await pilot.pause()
        client = _client_of(app)
        if client is not None and hasattr(client, "idle"):
            await client.idle()
        # what the screens make of it, drawn, with what they left for after a refresh
        await pilot.pause()
        # a scroll (Home, End) is animated, and under load its frames come late:
        # the screen read after it must show where it ended
        await app.animator.wait_for_idle()
        # a screen pushed as that refresh ends (a timer's dialog, after the
        # refresh of the screen below) is not composed yet: only the screen
        # the refresh was waited on is drawn
        refreshed = app.screen
        await asyncio.wait_for(refreshed.wait_for_refresh(), 10)
        if done() and quiet_from_the_start and not _busy(app) and app.screen is refreshed:
            break


def _client_of(app: Any) -> Any:
    for screen in reversed(app.screen_stack):
        client = getattr(screen, "client", None)
        if client is not None:
            return client
    return None


def _busy(app: Any) -> bool:
    client = _client_of(app)
    table = getattr(client, "table", None)
    return bool(table is not None and table.thinking())


def screen_text(app: CardTableApp) -> str:
    """What the terminal shows now, as plain text (for asserting on rendered output)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        legacy_windows=False,
        color_system=None,
        force_terminal=True,
    )
    render_screen(app, console)
    return console.export_text()


@pytest.fixture
def sent_to_terminal(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app writes to its terminal (bells, notifications), in a
    terminal that shows OSC 9 notifications."""
    monkeypatch.setenv("CARDTABLE_NOTIFY", "osc9")
    sent: list[str] = []

    def write(app: Any, text: str) -> bool:
        sent.append(text)
        return True

    monkeypatch.setattr(CardTableApp, "terminal_writer", staticmethod(write))
    return sent
