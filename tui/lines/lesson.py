"""Lessons in line mode (docs/learn.md): the list, then the lesson's table
with its coach saying each step as lines (the same words as the app's coach
panel: ``rules.lessons.LessonRun.parts``), and at the end "play a real game"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.client import Update
from rules.lessons import Lesson, LessonError, LessonRun, lesson_ids, load_lesson
from rules.plain import plain
from rules.registry import get_game
from tui.learn.progress import load_progress, save_progress
from tui.seating import build_seats, kinds_from_vs

from .menus import choose
from .table import TableSession

if TYPE_CHECKING:
    from .app import LineApp


class LineCoach:
    """The lesson's coach: says each new thing once, as lines."""

    def __init__(self, lesson: Lesson, say: TableSession | None = None) -> None:
        self.lesson = lesson
        self.run = LessonRun(lesson)
        self.session = say
        self.said: set[str] = set()
        self.told_how: int | None = None  # the step whose "Type ..." line was said
        self.state_id = 0

    def _say(self, text: str) -> None:
        if text and text not in self.said and self.session is not None:
            self.said.add(text)
            self.session.say(*text.split("\n"))

    def objection(self, move: str) -> str | None:
        return self.run.objection(move)

    def moved(self) -> None:
        self.run.played()
        self.speak()

    def speak(self) -> None:
        # the step's words without the app's keys: line mode says its own way
        head, body = self.run.parts(self.state_id, keys=False)
        step = self.run.step
        self._say(head)
        self._say(body)
        fresh = self.told_how != self.run.index  # once a step (two may want one move)
        if step is not None and step.say in body and self.session is not None and fresh:
            self.told_how = self.run.index
            # the notation as typed: no card words
            self.session.io.say(f"Type {step.move}, or its number in the list.")

    def after_update(self, update: Update) -> bool:
        self.state_id = update.state_id
        self.speak()
        return self.run.finished and update.state_id >= self.run.ends[-1]


async def learn(app: LineApp, game_id: str | None) -> None:
    """A lesson: ``game_id``'s, or one chosen from the list."""
    if game_id is None:
        ids = lesson_ids()
        done = load_progress(app.store.root).finished
        labels = [f"{get_game(g).title}" + (" (done)" if g in done else "") for g in ids]
        choice = await choose(app.io, "Learn which game?", labels)
        if choice is None:
            return
        game_id = ids[choice]
    try:
        lesson = load_lesson(game_id)
    except LessonError as err:
        app.io.say(plain(err, 300))
        return
    await run_lesson(app, lesson)


async def run_lesson(app: LineApp, lesson: Lesson) -> None:
    from net.lesson import open_lesson_table

    client = open_lesson_table(lesson, **app.table_options())
    app.io.say(f"Learn {lesson.spec.title}.", *lesson.intro.split("\n"))
    app.io.say(f"About {lesson.minutes} minutes.")
    coach = LineCoach(lesson)
    session = TableSession(client, app.io, app.cards, coach=coach)
    coach.session = session
    outcome = await session.run()
    await session.close()
    if outcome not in ("lesson", "over"):
        return
    progress = load_progress(app.store.root)
    progress.finished.add(lesson.game)
    problem = save_progress(app.store.root, progress)
    if problem:
        app.io.say(problem)
    app.io.say(f"Lesson done: {lesson.spec.title}.", *lesson.summary.split("\n"))
    choice = await choose(app.io, "What next?", ["play a real game against the easy computer"])
    if choice == 0:
        spec = lesson.spec
        config = spec.config(None, players=lesson.config().players)
        seats, mine = build_seats(
            kinds_from_vs("computer:easy", config.players), spec.seat_names(config)
        )
        from net.local import open_table

        real = open_table(app.store, spec.id, config, seats, mine, **app.table_options())
        await app.play(real, new=True)
