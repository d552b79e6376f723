"""SVG snapshots of the Territory screen at 80x24, one game (seed 2, you
first, an easy computer): the start, mid-game with a card chosen, a Blitz,
the hint, the end; and mid-game in a light theme. Deterministic as
test_snapshots.py is (seeded deal and bot, instant bots, no clock), and the
hint searches a fixed number of iterations instead of a time budget.

After an intended change of looks: `uv run pytest tests/tui/test_territory_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot

import net.table
from net.client import HintEstimate
from rules.bots.advice import advise
from rules.bots.base import Situation
from rules.bots.search import Budget
from tui.games.territory import TerritoryScreen
from tui.games.territory.grid import plays_of

from .conftest import make_app, settle
from .pictures import Tour, take
from .shared_app import shared_app

LAUNCH = {
    "action": "play",
    "game": "territory",
    "vs": "computer:easy",
    "seed": 2,
    "options": {"first_player": "0"},
}
SIZE = (80, 24)
# the moves of this game up to a Blitz that may go on: Enter plays the card
# the screen chose on the cell it chose; a move is played with its card's key,
# the arrows and Enter; p stops a Blitz
TO_THE_BLITZ = ["enter", "enter", "enter", "conquer 7D 0,-1", "p", "conquer AS 0,0"]

Run = Callable[[Pilot[Any]], Awaitable[None]]


def hint_by_iterations(situation: Situation, rng: random.Random) -> tuple[HintEstimate, ...]:
    """The advice counts iterations and seeds by the position, so its figures
    never depend on the machine's speed; a smaller budget, for a quick test."""
    return advise(situation, Budget(iterations=300)).choices


@pytest.fixture(autouse=True)
def _hint_by_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.table, "_hint", hint_by_iterations)


def territory(pilot: Pilot[Any]) -> TerritoryScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, TerritoryScreen):
            return screen
    raise AssertionError("no Territory screen")


async def play(pilot: Pilot[Any], step: str) -> None:
    """One step of the game as a player types it, then the computer's answer."""
    screen = territory(pilot)
    if step in ("enter", "p"):
        await pilot.press(step)
    else:
        (chosen,) = [p for p in plays_of(screen.legal) if p.text == step]
        assert chosen.card is not None and chosen.cell is not None
        await pilot.press(str(screen.hand.index(chosen.card) + 1))
        dx, dy = chosen.cell[0] - screen.cursor[0], chosen.cell[1] - screen.cursor[1]
        across = ["right" if dx > 0 else "left"] * abs(dx)
        down = ["down" if dy > 0 else "up"] * abs(dy)
        await pilot.press(*across, *down, "enter")
    await settle(pilot, lambda: screen.my_turn or screen.over)


def steps(*moves: str, then: tuple[str, ...] = ()) -> Run:
    async def run(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for move in moves:
            await play(pilot, move)
        if then:
            await pilot.press(*then)
            await settle(pilot)

    return run


@pytest.mark.slow  # a whole game through the keys: CI's slow step (the default run's time)
def test_territory_end(dirs: Any, snap_compare: Any) -> None:
    async def to_the_end(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        screen = territory(pilot)
        for _ in range(120):
            if screen.over:
                break
            stuck = screen.view.step == "blitz" and not any(
                m.startswith("blitz") for m in screen.legal
            )
            await play(pilot, "p" if stuck else "enter")
        assert screen.over
        await pilot.press("v")  # from the game-over dialog to the table
        await settle(pilot)

    app = make_app(dirs, launch=LAUNCH)
    assert snap_compare(app, terminal_size=SIZE, run_before=to_the_end)


def test_territory_light_theme(dirs: Any, snap_compare: Any) -> None:
    _, config = dirs
    settings = json.loads((config / "settings.json").read_text())
    (config / "settings.json").write_text(json.dumps({**settings, "theme": "textual-light"}))
    run = steps("enter", "enter", "enter", then=("3",))
    assert snap_compare(make_app(dirs, launch=LAUNCH), terminal_size=SIZE, run_before=run)


# The game's pictures on one path (tests/tui/pictures.py), in one app: the
# start; one move, and the hint asked there (the dialog closed after); two more
# moves and a card chosen; on to a Blitz that may go on.


async def start(pilot: Pilot[Any]) -> str:
    await steps()(pilot)
    return await take(pilot)


async def hint(pilot: Pilot[Any]) -> str:
    await play(pilot, "enter")
    await pilot.press("h")
    await settle(pilot)
    picture = await take(pilot)
    await pilot.press("escape")
    await settle(pilot, lambda: isinstance(pilot.app.screen, TerritoryScreen))
    return picture


async def mid_game_a_card_chosen(pilot: Pilot[Any]) -> str:
    for move in ("enter", "enter"):  # three moves in all
        await play(pilot, move)
    await pilot.press("3")
    await settle(pilot)
    return await take(pilot)


async def blitz(pilot: Pilot[Any]) -> str:
    for move in TO_THE_BLITZ[3:]:  # the three "enter"s are played
        await play(pilot, move)
    screen = territory(pilot)
    assert screen.view.step == "blitz" and "blitz 10C 1,0" in screen.legal
    return await take(pilot)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def seed_2(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Tour]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(net.table, "_hint", hint_by_iterations)
        folder = tmp_path_factory.mktemp("territory-seed-2")
        async with shared_app(folder, size=SIZE, launch=LAUNCH, notifications=True) as pilot:
            yield Tour(pilot, {
                "start": start, "hint": hint, "mid-game": mid_game_a_card_chosen,
                "blitz": blitz,
            })  # fmt: skip


@pytest.mark.asyncio(loop_scope="module")
async def test_territory_start(seed_2: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_2.picture("start"))


@pytest.mark.asyncio(loop_scope="module")
async def test_territory_hint(seed_2: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_2.picture("hint"))


@pytest.mark.asyncio(loop_scope="module")
async def test_territory_mid_game_a_card_chosen(seed_2: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_2.picture("mid-game"))


@pytest.mark.asyncio(loop_scope="module")
async def test_territory_blitz(seed_2: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_2.picture("blitz"))
