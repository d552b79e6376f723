"""`cardtable web` in a real browser: Debian's Chromium, headless, driven by
Playwright, on the real program. The screen is read from the page's own
xterm.js (``window.cardtable.terminal``), as the visitor sees it.

Slow (a browser and a cardtable start for each test: several seconds). Where
there is no Chromium and CI is unset they skip, saying how to get it;
`.ci/run` installs it."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from net.web_host import WebConfig, listening_port, start_web_host

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SECONDS = 60  # the most a step waits for the screen (a loaded machine starts slowly)
SCREEN_JS = """() => {
  const buffer = window.cardtable.terminal.buffer.active;
  const rows = [];
  for (let i = 0; i < buffer.length; i++) rows.push(buffer.getLine(i).translateToString(true));
  return rows.join("\\n");
}"""

pytestmark = pytest.mark.slow


def _browser_or_skip() -> Any:
    missing = None
    if not Path(CHROMIUM).exists():
        missing = "no Chromium: apt-get install -y chromium (.ci/run does)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "no Playwright: uv sync (it is a dev dependency)"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    return sync_playwright


class WebHostThread:
    """`cardtable web` on its own event loop, in a thread (Playwright's sync
    API wants the test's)."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.port = 0

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def start() -> None:
            self.runner, host = await start_web_host(self.config, "127.0.0.1", 0)
            self.port = listening_port(self.runner)
            # the visitor takes the spare (net/web_spare.py), as a visitor who
            # does not come the very moment the host starts does
            assert host.spares is not None
            await asyncio.wait_for(host.spares.ready.wait(), SECONDS)
            self.ready.set()

        self.loop.run_until_complete(start())
        self.loop.run_forever()
        self.loop.run_until_complete(self.runner.cleanup())
        self.loop.close()

    def __enter__(self) -> str:
        self.thread.start()
        assert self.ready.wait(SECONDS), "cardtable web did not start"
        return f"http://127.0.0.1:{self.port}/"

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(SECONDS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _browser_or_skip()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A tab on a `cardtable web` of its own (a fresh browser profile: a new visitor)."""
    # the offered table server need not run for these tests: Join to it is
    # allowed, Join elsewhere is refused before anything is sent
    config = WebConfig(tmp_path, game_server="127.0.0.1:9")
    with WebHostThread(config) as url:
        context = browser.new_context(viewport={"width": 1100, "height": 720})
        try:
            tab = context.new_page()
            tab.goto(url)
            yield tab
        finally:
            context.close()


def screen(tab: Any) -> str:
    return str(tab.evaluate(SCREEN_JS))


def wait_until(tab: Any, done: Callable[[str], bool], what: str) -> str:
    """The screen once ``done`` holds for it."""
    deadline = time.monotonic() + SECONDS
    shown = ""
    while time.monotonic() < deadline:
        shown = screen(tab)
        if done(shown):
            return shown
        tab.wait_for_timeout(100)
    raise AssertionError(f"{what} never showed; the screen:\n{shown}")


def wait_for(tab: Any, text: str) -> str:
    """The screen once ``text`` is on it."""
    return wait_until(tab, lambda shown: text in shown, repr(text))


def test_a_browser_guest_starts_a_game_and_plays_a_card(page: Any) -> None:
    # the terminal draws the home screen in more than one frame: wait for the
    # whole of it (the game list and the last button), not its first lines
    home = wait_until(
        page,
        lambda shown: "Choose a game" in shown and "Quit (q)" in shown,
        "the home screen drawn whole",
    )
    assert "Domination" in home
    assert page.locator("h1").inner_text() == "cardtable"
    page.keyboard.press("n")  # a new game of the game chosen: the first, Domination
    wait_for(page, "new game: Domination")
    page.keyboard.press("Control+s")
    wait_for(page, "Your turn")
    for key in "12345":  # the first card that may be played
        page.keyboard.press(key)
        page.wait_for_timeout(300)
        if "You play" in screen(page):
            break
    wait_for(page, "You play")


def test_a_browser_guest_cannot_host_or_join_elsewhere(page: Any) -> None:
    home = wait_for(page, "Quit (q)")  # the home screen drawn to its last button
    assert "Join (j)" in home and "Host" not in home
    page.keyboard.press("o")  # Host's key does nothing for a guest
    page.keyboard.press("j")
    form = wait_for(page, "join a table server")
    assert "127.0.0.1:9" in form  # the server this host offers
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+k")
    # Textual runs an input's key bindings (Ctrl+K) as the key bubbles up,
    # after letters typed behind it may already be in the field: on a busy
    # machine Ctrl+K then cleared "127.0.0.1:8" too. Type into the emptied field.
    wait_until(page, lambda shown: "127.0.0.1:9" not in shown, "the field emptied")
    page.keyboard.type("127.0.0.1:8")
    wait_for(page, "127.0.0.1:8")
    page.keyboard.press("Control+s")
    wait_for(page, "only the table servers it offers")


def test_the_page_reads_as_an_app_and_says_when_the_session_ends(page: Any) -> None:
    wait_for(page, "Choose a game")
    header = page.locator("header").inner_text()
    assert "cardtable" in header and "Card games" in header
    box = page.locator("#terminal").bounding_box()
    assert box is not None and box["height"] > 600 and box["width"] > 1000  # the window's room
    page.keyboard.press("q")  # Quit: the program ends, the page says so
    page.locator("#notice").wait_for(state="visible", timeout=SECONDS * 1000)
    assert "your games are saved" in page.locator("#notice-text").inner_text()


def test_a_new_tab_resumes_the_visitors_game(page: Any) -> None:
    wait_for(page, "Choose a game")
    page.keyboard.press("n")
    wait_for(page, "new game: Domination")
    page.keyboard.press("Control+s")
    wait_for(page, "Your turn")
    second = page.context.new_page()  # the same browser: the same cookie, the same visitor
    second.goto(page.url)
    wait_for(second, "Your turn")  # the very screen the first tab showed
    page.locator("#notice").wait_for(state="visible", timeout=SECONDS * 1000)
    assert "another tab" in page.locator("#notice-text").inner_text()
