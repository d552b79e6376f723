"""Learn: a lesson on the game's own screen, guided step by step, a wrong move
explained and held back, the summary and a real game after it, progress kept
in the data folder; tips in the first real games (docs/learn.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from net.client import Update
from rules.events import Event, SeatEvent
from rules.lessons import lesson_ids, load_lesson
from rules.registry import get_game
from rules.views import View
from tui.learn.coach import CoachPanel, LessonCoach, LessonIntroScreen
from tui.learn.screens import LearnScreen, LessonDoneScreen
from tui.learn.tips import TipsCoach
from tui.screens.game_over import GameOverScreen
from tui.table.screen import TableScreen

from .conftest import make_app, screen_text, settle


def panel_text(app: Any) -> str:
    return str(app.screen.query_one(CoachPanel).render())


async def begin(pilot: Any) -> TableScreen:
    """Past the lesson's first words, to its game screen."""
    await settle(pilot, lambda: isinstance(pilot.app.screen, LessonIntroScreen))
    assert isinstance(pilot.app.screen, LessonIntroScreen)
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    return screen


async def test_the_domination_lesson_guides_explains_and_ends_in_a_real_game(dirs: Any) -> None:
    lesson = load_lesson("domination")
    app = make_app(dirs, launch={"action": "learn", "game": "domination"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Domination is a climbing duel" in screen_text(app)
        screen = await begin(pilot)
        assert "Step 1 of 7" in panel_text(app)
        # a legal move that is not the step's: held back, explained
        wrong = next(c for c in screen.update.legal if c != lesson.steps[0].move)
        assert await screen.submit(wrong) is False
        assert "Not that one" in panel_text(app)
        assert screen.update.state_id == 0  # nothing was played
        for number, step in enumerate(lesson.steps, 1):
            await settle(pilot, lambda: screen.my_turn)  # (the computer's reply in)
            assert f"Step {number} of" in panel_text(app)
            assert await screen.submit(step.move), step.move
            await settle(pilot)
        await settle(pilot, lambda: isinstance(app.screen, LessonDoneScreen))
        assert isinstance(app.screen, LessonDoneScreen)
        assert "Lesson done: Domination" in screen_text(app)
        progress = json.loads((dirs[0] / "learn.json").read_text())
        assert progress["finished"] == ["domination"]
        await pilot.press("p")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        real = app.screen
        assert isinstance(real, TableScreen) and real is not screen
        assert [s.level for s in real.client.seats if s.kind == "bot"] == ["easy"]
        assert not real.query(CoachPanel)


# whole lessons through the screens: CI's slow step (the rules play them all by default)
@pytest.mark.slow
@pytest.mark.parametrize("game_id", [g for g in lesson_ids() if g != "domination"])  # (above)
async def test_each_lesson_plays_to_its_end_on_its_screen(dirs: Any, game_id: str) -> None:
    lesson = load_lesson(game_id)
    app = make_app(dirs, launch={"action": "learn", "game": game_id})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await begin(pilot)
        for number, step in enumerate(lesson.steps, 1):
            await settle(pilot, lambda: screen.my_turn)
            assert f"Step {number} of" in panel_text(app)
            assert await screen.submit(step.move), step.move
            await settle(pilot)
        await settle(pilot, lambda: isinstance(app.screen, LessonDoneScreen))
        assert isinstance(app.screen, LessonDoneScreen)
        # one box at a time: the lesson's summary took the result's place (N27)
        assert not any(isinstance(s, GameOverScreen) for s in app.screen_stack)
        await pilot.press("l")
        await settle(pilot, lambda: isinstance(app.screen, LearnScreen))
        assert "(done)" in screen_text(app)


async def test_home_l_lists_the_lessons_and_enter_starts_one(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LearnScreen)
        text = screen_text(app)
        assert "Domination" in text and "Five-Card Trick" in text
        await pilot.press("enter")
        screen = await begin(pilot)
        assert screen.coach is not None


def _update(*events: Event) -> Update:
    return Update(state_id=1, seat=0, view=View(game="trick", seat=0), events=events)


def test_a_tip_is_said_once_when_its_event_first_comes() -> None:
    tips = load_lesson("trick").tips
    coach = TipsCoach(tips)
    # both seats Score: the rules' own reveal says the actions collided
    state = get_game("trick").new(seed=0)
    state.play_text(0, "score")
    collided = next(e for e in state.play_text(1, "score") if e.kind == "reveal")
    assert [t.mentions for t in coach.due(_update(collided))] == ["status=collided"]
    coach.after_update(_update(collided))
    assert coach.due(_update(collided)) == []
    assert coach.due(_update(Event("submit", "s", SeatEvent(seat=1)))) == []


async def test_tips_come_in_the_first_games_and_settings_turn_them_off(dirs: Any) -> None:
    from tui.learn.tips import tips_coach

    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.update_settings(tips=True)
        coaches = [tips_coach(app, "domination", new=True) for _ in range(4)]
        assert [c is not None for c in coaches] == [True, True, True, False]
        assert tips_coach(app, "trick", new=False) is not None
        app.update_settings(tips=False)
        assert tips_coach(app, "trick", new=True) is None


async def test_an_ssh_visitor_learns_too_with_progress_in_their_own_data(dirs: Any) -> None:
    """A visitor's app (net/grants.py) has Learn; its data folder is the visitor's own
    (ssh-host points CARDTABLE_DATA_DIR there), and progress is kept in it."""
    from net.grants import Grants

    app = make_app(dirs, grants=Grants.for_visitor([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Learn (l)" in screen_text(app)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LearnScreen)
        await pilot.press("enter")
        screen = await begin(pilot)
        coach = screen.coach
        assert isinstance(coach, LessonCoach)
        coach._finished()  # the lesson's end, as its last update calls it
        await settle(pilot, lambda: isinstance(app.screen, LessonDoneScreen))
    assert json.loads((dirs[0] / "learn.json").read_text())["finished"] == ["domination"]


def test_cardtable_learn_of_a_game_without_a_lesson_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui.cli import main

    assert main(["learn", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "cardtable: there is no lesson for 'chess'; lessons: domination, stress, territory, trick"
    )


async def test_the_lesson_s_summary_takes_the_place_of_the_result(dirs: Any) -> None:
    """N27: a lesson whose last move ends the game shows one box, the
    lesson's summary, not it over the result's box (two top borders)."""
    app = make_app(dirs, launch={"action": "play", "game": "domination", "vs": "computer:easy"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, TableScreen)
        await game.ending.resign()  # the game ends: its result box comes up
        await settle(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert isinstance(app.screen, GameOverScreen)
        finished: list[str] = []
        coach = LessonCoach(load_lesson("domination"), lambda: finished.append("done"))
        coach.screen = game
        coach._timer = game.set_interval(60, lambda: None)  # what after_update starts
        coach._finish_when_free()
        await settle(pilot, lambda: bool(finished))
        assert finished == ["done"]
        assert not any(isinstance(s, GameOverScreen) for s in app.screen_stack)
        assert "g for the result" in screen_text(app)
