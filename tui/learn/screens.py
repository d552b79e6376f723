"""The lessons: a list to choose from (Learn on the home screen), starting one
on the game's own screen with its coach, and the summary at its end, with
"play a real game" against the easy computer."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.lessons import Lesson, LessonError, lesson_ids, load_lesson
from tui.plain import plain
from tui.screens.dialog import Dialog
from tui.services import SERVICES
from tui.widgets.footer import FittingFooter

from .coach import LessonCoach
from .progress import load_progress, save_progress

if TYPE_CHECKING:
    from tui.app import CardTableApp


async def start_lesson(app: CardTableApp, game_id: str) -> None:
    """Open ``game_id``'s lesson on its game's screen (a notice if there is none)."""
    from net.lesson import open_lesson_table
    from tui.games import screen_class

    try:
        lesson = load_lesson(game_id)
    except LessonError as err:
        app.notify(plain(str(err), 200), severity="error", markup=False)
        return
    client = open_lesson_table(lesson, pace=app.settings.bot_pace, executor=app.bot_threads)

    def finished() -> None:
        progress = load_progress(app.store.root)
        progress.finished.add(game_id)
        problem = save_progress(app.store.root, progress)
        if problem:
            app.notify(problem, severity="warning", markup=False)
        app.push_screen(LessonDoneScreen(lesson), lambda choice: _after_lesson(app, lesson, choice))

    screen = screen_class(game_id)(client)
    screen.coach = LessonCoach(lesson, finished)
    await app.push_screen(screen)


def _after_lesson(app: CardTableApp, lesson: Lesson, choice: str | None) -> None:
    async def go() -> None:
        if choice == "play":
            await app.go_home()
            await play_real_game(app, lesson)
        elif choice == "lessons":
            await app.go_home()
            await app.push_screen(LearnScreen())

    if choice:
        app.call_later(go)


async def play_real_game(app: CardTableApp, lesson: Lesson) -> None:
    """A real game of the lesson's game, as many players as the lesson, against
    the easy computer."""
    from tui.seating import build_seats, kinds_from_vs

    spec = lesson.spec
    config = spec.config(None, players=lesson.config().players)
    seats, mine = build_seats(
        kinds_from_vs("computer:easy", config.players), spec.seat_names(config)
    )
    await app.start_game(spec.id, config, seats, mine)


class LessonDoneScreen(Dialog[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('play')", "Play a real game", id="lesson.play"),
        Binding("l", "choose('lessons')", "Lessons", id="lesson.list"),
        Binding("escape", "choose('')", "Stay at the table", key_display="esc", id="lesson.stay"),
    ]

    def __init__(self, lesson: Lesson) -> None:
        super().__init__()
        self.lesson = lesson

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="lesson-done"):
            yield Static(Text(f"Lesson done: {self.lesson.spec.title}", style="bold"))
            yield Static(Text(self.lesson.summary))
            with Horizontal(classes="buttons"):
                yield Button("Play a real game (p)", id="play", variant="primary", compact=True)
                yield Button("Lessons (l)", id="lessons", compact=True)
                yield Button("Stay (Esc)", id="stay", compact=True)

    def on_mount(self) -> None:
        self.query_one("#play", Button).focus()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "stay" else event.button.id)


class LearnScreen(Screen[None]):
    """Every game's lesson, with a mark for those played to their end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="learn.close"),
    ]

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static(
                "A guided first game of each game against a coach: each step says what to try. "
                "Choose a lesson and press Enter.",
                id="home-intro",
            )
            yield OptionList(id="lessons")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = "learn to play"
        done = load_progress(self.services.store.root).finished
        options = []
        for game_id in lesson_ids():
            lesson = load_lesson(game_id)
            label = Text(lesson.spec.title, style="bold")
            label.append("  (done)" if game_id in done else "", style="italic")
            label.append(f"\n{lesson.title} (about {lesson.minutes} minutes)")
            options.append(Option(label, id=game_id))
        lessons = self.query_one("#lessons", OptionList)
        lessons.add_options(options)
        lessons.highlighted = 0
        lessons.focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            await self.services.open_lessons(event.option.id)

    def action_close(self) -> None:
        self.dismiss()
