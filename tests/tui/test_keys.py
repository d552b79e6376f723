"""One key for one thing: every binding cardtable declares is an app action (it
has an id), the keys the README's table promises are bound where it says, the
shared keys mean one thing on every screen, and the palette and the keys panel
offer the app's actions, not Textual's generic scrolling bindings."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from textual.binding import Binding
from textual.command import CommandList
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.widgets import HelpPanel

import tui
from rules.registry import shipped
from tui.app import CardTableApp
from tui.commands import ScreenActions
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.pause import PauseScreen
from tui.screens.replay import ReplayTextScreen
from tui.table.replay_keys import REPLAY_BINDINGS
from tui.table.screen import TableScreen
from tui.widgets.keys_panel import AppBindingsTable

from .conftest import play_launch, screen_text, settle
from .shared_app import back_home, launched, shared_app

# The tests that only look at home or at a game's keys share one app (issue
# 41 item 4): `keys_home` (its home screen) and `keys_game` (a game opened
# from that home screen for the test, as `launch=` opens it: seed 2 against
# the computer, closed again after). Each leaves home in front, a panel it
# opened closed again. One app a module: a test's calls into an app run in
# the context of the module's last started app. They run on the module's
# loop. A test that quits keeps its own app.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def keys_home_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("keys-home")) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def keys_home(keys_home_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    await back_home(keys_home_app)
    yield keys_home_app
    keys_home_app.app.action_hide_help_panel()
    await back_home(keys_home_app)


@pytest_asyncio.fixture(loop_scope="module")
async def keys_game(keys_home: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    await launched(keys_home, play_launch(seed=2))
    yield keys_home


README = Path(__file__).resolve().parents[2] / "README.md"


def declared() -> Iterator[tuple[str, Binding]]:
    """(class name, binding) for every binding a class of ours declares."""
    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, DOMNode):
                continue
            for binding in cls.__dict__.get("BINDINGS", []):
                assert isinstance(binding, Binding), f"{cls.__name__}: a tuple binding"
                yield cls.__name__, binding
    for binding in REPLAY_BINDINGS:
        assert isinstance(binding, Binding)
        yield "replay", binding


def shown_key(binding: Binding) -> str:
    return binding.key_display or binding.key.split(",")[0]


def test_every_binding_of_ours_has_an_id() -> None:
    # the palette and the keys panel tell the app's actions from Textual's by it
    missing = [f"{name}: {b.key} {b.description}" for name, b in declared() if not b.id]
    assert not missing


def readme_keys() -> list[tuple[str, str, str]]:
    text = README.read_text("utf-8")
    section = text.split("### Keys", 1)[1]
    rows = re.findall(r"^\| ([^|]+?) \| `([^`]+)` \| ([^|]+?) \|$", section, re.M)
    assert len(rows) > 10, "the README's key table"
    return rows


def _bindings_where(where: str) -> list[Binding]:
    def of(cls: type[DOMNode]) -> list[Binding]:
        return [b for c in cls.__mro__ for b in c.__dict__.get("BINDINGS", [])]

    if where == "home":
        return of(HomeScreen)
    if where.startswith("a game"):
        return of(TableScreen)
    if where == "the menu":
        return of(PauseScreen)
    if where == "a replay":
        return [*of(ReplayTextScreen), *REPLAY_BINDINGS]  # type: ignore[list-item]
    if where == "the lobby":
        return of(LobbyScreen)
    if where == "anywhere":
        return of(CardTableApp)
    raise AssertionError(f"the README names a place the test does not know: {where}")


def _same_key(written: str, binding: Binding) -> bool:
    keys = {shown_key(binding).lower(), *binding.key.split(",")}
    aliases = {"esc": "escape", "?": "question_mark", ",": "comma", "^q": "ctrl+q"}
    return written.lower() in keys or aliases.get(written.lower()) in keys


@pytest.mark.parametrize(("where", "key", "what"), readme_keys())
def test_the_readme_key_table_matches_the_bindings(where: str, key: str, what: str) -> None:
    found = [b for b in _bindings_where(where) if b.description == what]
    assert found, f"{where}: no binding described {what!r}"
    assert any(_same_key(key, b) for b in found), f"{where}: {what} is not on {key}"


def test_a_shared_thing_has_one_key_on_every_screen() -> None:
    # a screen may add a key (Enter in a list), but the README's key works on
    # every screen that offers the thing
    shared = {what: key for where, key, what in readme_keys() if where != "anywhere"}
    keys: dict[tuple[str, str], set[str]] = {}
    for name, binding in declared():
        if binding.description in shared and name != "CardTableApp":  # ^q: "anywhere"
            keys.setdefault((name, binding.description), set()).update(binding.key.split(","))
    lacking = [
        f"{name}: {what} lacks {shared[what]}"
        for (name, what), bound in keys.items()
        if not _same_key(shared[what], Binding(",".join(bound), "x"))
    ]
    assert not lacking


@pytest.mark.parametrize(
    ("key", "actions"),
    [("s", {"score_history", "close"}), ("comma", {"settings", "choose('settings')"})],
)
def test_s_and_comma_mean_one_thing_everywhere(key: str, actions: set[str]) -> None:
    # s is the scores (and closes them again), , the settings: never "save" or
    # anything else on another screen
    others = [
        f"{name}: {b.description}"
        for name, b in declared()
        if key in b.key.split(",") and b.action not in actions and b.description != "Scores"
    ]
    assert not others


def test_a_dialog_over_the_table_gives_the_tables_keys_no_other_meaning() -> None:
    # a key pressed for the table just as a dialog comes up (h for a hint as the
    # game ends) must not do something else there, like leave the game
    from tui.screens.game_over import GameOverScreen
    from tui.screens.pause import PauseScreen
    from tui.screens.round_summary import RoundSummaryScreen

    table = {
        key: b.description
        for b in TableScreen.BINDINGS
        if isinstance(b, Binding)
        for key in b.key.split(",")
    }
    clashes = [
        f"{dialog.__name__}: {key} is {b.description!r} there, {table[key]!r} at the table"
        for dialog in (GameOverScreen, PauseScreen, RoundSummaryScreen)
        for b in dialog.BINDINGS
        if isinstance(b, Binding)
        for key in b.key.split(",")
        if key in table and key != "escape" and b.description != table[key]
    ]
    assert not clashes


def _generic(texts: list[str]) -> list[str]:
    words = ("Scroll", "Page ", "Copy selected", "Focus Next", "First", "Last")
    return [t for t in texts if any(w in t for w in words) or t in ("Up", "Down")]


@pytest.fixture
def palette_pilot(request: pytest.FixtureRequest, where: str) -> Pilot[Any]:
    """The shared app at home, or at its game, for the palette test's case."""
    pilot: Pilot[Any] = request.getfixturevalue("keys_home" if where == "home" else "keys_game")
    return pilot


@on_a_shared_app
@pytest.mark.parametrize("where", ["home", "game"])
async def test_the_palette_and_the_keys_panel_offer_the_apps_actions(
    palette_pilot: Pilot[Any], where: str
) -> None:
    pilot = palette_pilot
    app = pilot.app
    provider = ScreenActions(app.screen)
    offered = [hit.text or "" for hit in [h async for h in provider.discover()]]
    expected = {"New game", "Settings"} if where == "home" else {"Menu", "Rules", "Hint"}
    assert expected <= set(offered)
    assert not _generic(offered), offered
    app.action_show_help_panel()
    await settle(pilot)
    table = app.screen.query_one(AppBindingsTable).render_bindings_table()
    listed = [str(cell) for cell in table.columns[1].cells]
    # while the panel is open, Esc hides it (N24), and the panel says so
    assert "Hide the keys" in listed
    assert expected - {"Menu"} <= set(listed)
    assert not _generic(listed), listed
    app.action_hide_help_panel()
    # the palette itself opens on the app's actions, above Textual's commands
    await pilot.press("ctrl+p")
    await settle(pilot)
    commands = app.screen.query_one(CommandList)
    await settle(pilot, lambda: commands.option_count > 0)
    first = str(commands.get_option_at_index(0).prompt)
    assert first.splitlines()[0] in expected | {"Resume", "Join", "Host", "Rules"} | {
        "Scores",
        "Choose",
        "Play",
        "Play chosen",
    }


@on_a_shared_app
@pytest.mark.parametrize("game", shipped())
async def test_each_game_leaves_the_shared_keys_to_the_shared_rules_and_lists_its_own_once(
    keys_home: Pilot[Any], game: str
) -> None:
    pilot = keys_home
    app: Any = pilot.app
    await launched(pilot, {**play_launch(seed=1), "game": game})
    # a game's own check_action answers for its keys and asks TableScreen for
    # the rest: Finish only for a seat out of the game (Domination and Trick
    # had answered True for every key not theirs, offering it mid-game)
    screen = app.screen
    assert isinstance(screen, TableScreen) and screen.seat_in_play()
    assert screen.check_action("finish", ()) is False
    assert "Finish" not in screen_text(app).splitlines()[-1]
    # the keys panel lists a family of keys once and leaves the table whole
    table_widgets = [w for w in app.screen.children if w.display]
    widths = {w: w.region.width for w in table_widgets}
    app.action_show_help_panel()
    await settle(pilot)
    # over the table, not beside it: at 80 columns nothing of the table narrows
    assert {w: w.region.width for w in table_widgets} == widths
    table = app.screen.query_one(AppBindingsTable).render_bindings_table()
    keys = [str(cell) for cell in table.columns[0].cells]
    listed = [str(cell) for cell in table.columns[1].cells]
    # "1-5 Play" and no "2 Play card 2"; "←→ Choose" and no "→ Choose"
    assert not [d for d in listed if re.fullmatch(r".* \d", d)], listed
    named_twice = [k for k in keys for other in keys if k != other and k in _named(other)]
    assert not named_twice, keys


def _named(label: str) -> set[str]:
    from tui.app_keys import keys_named

    arrows = {"left": "←", "right": "→", "up": "↑", "down": "↓"}
    return {arrows.get(k, k) for k in keys_named(label)}


@on_a_shared_app
async def test_number_keys_are_named_for_the_cards_held(keys_game: Pilot[Any]) -> None:
    pilot = keys_game
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, TableScreen)
    assert "1-5 Play" in screen_text(app).splitlines()[-1]
    screen.number_keys = lambda: 4  # type: ignore[method-assign]  # as late in a deal
    screen.refresh_bindings()
    await settle(pilot)
    assert "1-4 Play" in screen_text(app).splitlines()[-1]
    offered = {key for key in screen.active_bindings if key.isdigit()}
    assert offered == {"1", "2", "3", "4"}


@on_a_shared_app
async def test_esc_closes_the_keys_panel_and_only_then_means_back(keys_game: Pilot[Any]) -> None:
    """N24: the keys panel (palette "Keys") covers the home buttons; Esc closes
    it, and Esc without it is the screen's own again."""
    pilot = keys_game
    app = pilot.app
    table = app.screen
    app.action_show_help_panel()
    await settle(pilot)
    assert app.screen.query(HelpPanel)
    await pilot.press("escape")
    await settle(pilot)
    assert app.screen is table and not table.query(HelpPanel)
    await pilot.press("escape")  # now the table's Esc: the menu
    await settle(pilot)
    assert isinstance(app.screen, PauseScreen)


async def test_the_palette_s_quit_asks_first(dirs: Any) -> None:
    """N10: the palette's Quit asks, as a player may pick it searching."""
    from tui.screens.confirm import ConfirmScreen

    from .conftest import make_app, screen_text, settle

    app = make_app(dirs, launch={"action": "play", "game": "domination", "vs": "computer:easy"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        (quit,) = [c for c in app.get_system_commands(app.screen) if c.title == "Quit"]
        await quit.callback()
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Quit cardtable? The game is saved" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, TableScreen)
        await quit.callback()
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0
