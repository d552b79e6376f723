"""Every screen at 80x24 shows its text whole, notices keep clear of the game,
and ASCII mode leaves no glyph outside tui/glyphs.py's table.

"Whole": no text widget holds more lines than it shows (a prompt cut at the
right edge, a caption cut mid-word), and the header shows the whole title."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._toast import Toast

from tui.app import CardTableApp
from tui.glyphs import unknown_glyphs
from tui.widgets.event_log import EventLog

from .conftest import make_app, screen_text, settle


def cut_texts(screen: Screen[Any]) -> list[str]:
    """The text widgets on ``screen`` that show less than their text."""
    cut = []
    for widget in screen.query(Static):
        region = widget.content_region
        if not widget.display or region.width <= 0 or region.height <= 0:
            continue
        if widget.styles.text_wrap == "nowrap":
            wide = widget.get_content_width(region.size, region.size)
            if wide > region.width:
                cut.append(f"#{widget.id}: {wide} columns in {region.width}")
        tall = widget.get_content_height(region.size, region.size, region.width)
        if tall > region.height:
            cut.append(f"#{widget.id}: {tall} lines in {region.height}: {widget.render()}")
    return cut


def game(game_id: str, **options: Any) -> dict[str, Any]:
    return {"action": "play", "game": game_id, "vs": "computer:easy", "seed": 3, "options": options}


Step = Callable[[Pilot[Any]], Awaitable[None]]


async def keys(pilot: Pilot[Any], *pressed: str) -> None:
    for key in pressed:
        await pilot.press(key)
        await settle(pilot)


# The screens, reached one after another in one app a tour (an app's start
# is most of such a test's time): the name each screen is checked under, and
# the keys that lead to it from the one before.
Tour = tuple[dict[str, Any] | None, tuple[tuple[str, tuple[str, ...]], ...]]
TOURS: dict[str, Tour] = {
    "home": (None, (
        ("home", ()),
        ("new game", ("n",)),
        ("rules", ("escape", "question_mark")),
        ("settings", ("escape", "comma")),
    )),
    "resume": (game("stress", players=4), (("resume", ("escape", "q", "r")),)),
    "domination": (game("domination"), (
        ("domination", ()),
        ("domination, a card refused", ("1", "1", "5")),
        ("the menu", ("escape",)),
    )),
    "stress": (game("stress", players=4), (
        ("stress, 4 players", ()),
        ("stress, playing", ("r", "1", "enter", "1", "enter")),
    )),
    "territory": (game("territory"), (("territory", ()),)),
    "trick": (game("trick"), (
        ("trick", ()),
        ("trick, a round played", ("1", "2", "enter")),
        ("trick, the scores chart", ("space", "s")),
    )),
}  # fmt: skip
# each screen alone: its tour's launch and every key of the tour up to it
SCREENS: dict[str, tuple[dict[str, Any] | None, tuple[str, ...]]] = {}
for _launch, _stops in TOURS.values():
    _pressed: tuple[str, ...] = ()
    for _name, _keys in _stops:
        _pressed += _keys
        SCREENS[_name] = (_launch, _pressed)


# ASCII mode on the screens that draw the most kinds of glyph
IN_ASCII = ("home", "resume", "the menu", "domination", "stress, playing", "territory",
            "trick, a round played", "trick, the scores chart")  # fmt: skip
# two of them in the default run; the rest in CI's slow step (the default run's time)
ASCII_BY_DEFAULT = ("home", "stress, playing")
ASCII_CASES = [
    pytest.param(
        name,
        id=f"{name}, ascii",
        marks=() if name in ASCII_BY_DEFAULT else (pytest.mark.slow,),
    )
    for name in IN_ASCII
]


def assert_fits(app: CardTableApp, ascii: bool) -> None:
    """The screen shown now holds its texts whole and its title in the header
    (and in ASCII, no glyph tui/glyphs.py does not know)."""
    assert not cut_texts(app.screen), cut_texts(app.screen)
    text = screen_text(app)
    header = text.splitlines()[0]
    title = app.screen.sub_title or app.sub_title  # a dialog shows its game's
    assert title in header, f"the title is cut: {header!r}"
    if ascii:
        strays = sorted(unknown_glyphs(text))
        assert not strays, f"glyphs tui/glyphs.py does not know: {strays}"


@pytest.mark.parametrize("tour", TOURS)
async def test_every_screen_fits_80_columns(dirs: Any, tour: str) -> None:
    launch, stops = TOURS[tour]
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for name, pressed in stops:
            await keys(pilot, *pressed)
            try:
                assert_fits(app, ascii=False)
            except AssertionError as err:
                raise AssertionError(f"{name}: {err}") from err


@pytest.mark.parametrize("name", ASCII_CASES)
async def test_every_screen_fits_80_columns_in_ascii(dirs: Any, name: str) -> None:
    launch, pressed = SCREENS[name]
    app = make_app(dirs, launch=launch, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *pressed)
        assert_fits(app, ascii=True)


async def test_over_a_game_a_notice_is_a_line_of_the_log(dirs: Any) -> None:
    app = make_app(dirs, launch=game("domination"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.notify("Bea has left.")
        await settle(pilot)
        assert not app.screen.query(Toast)  # nothing over the hand or the prompt
        log = app.screen.query_one(EventLog)
        assert "Bea has left." in "\n".join(line.text for line in log.lines)


async def test_elsewhere_a_notice_takes_the_title_bars_line_one_at_a_time(dirs: Any) -> None:
    app: CardTableApp = make_app(dirs)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        before = screen_text(app).splitlines()
        app.notify("Could not save settings.")
        app.notify("Game saved: pick it up again from Resume.")
        await settle(pilot)
        (toast,) = [t for t in app.screen.query(Toast) if t.parent and t.parent.display]
        assert (toast.region.y, toast.region.height, toast.region.width) == (0, 1, 80)
        after = screen_text(app).splitlines()
        assert "Game saved: pick it up again from Resume." in after[0]
        assert after[1:] == before[1:]  # nothing of the screen under the title bar covered


def test_who_plays_shortens_by_steps_before_counting_the_players() -> None:
    from saves.record import SeatInfo
    from tui.players_title import players_title

    seats = [SeatInfo("You", "human"), SeatInfo("Computer", "bot", "medium")]
    names = ["You", "Computer"]
    assert players_title(names, seats, room=30) == "You vs Computer (medium)"
    assert players_title(names, seats, room=16) == "You vs Computer"  # no room for the level
    assert players_title(names, seats, room=10) == "2 players"
    four = [
        SeatInfo("You", "human"),
        *[SeatInfo(f"Computer {n}", "bot", "easy") for n in (1, 2, 3)],
    ]
    names4 = ["You", "Computer 1", "Computer 2", "Computer 3"]
    assert players_title(names4, four, room=30) == "You vs 3 computers (easy)"
    assert players_title(names4, four, room=20) == "You vs 3 computers"
