"""Lessons speak of moves, not keys (issue 40): every text a lesson says in
any front end names no key of the full-screen app; the app's keys are each
step's ``keys``, which the app adds and line mode leaves out for its own
"Type 4H, or its number"."""

from __future__ import annotations

import re

import pytest

from rules.lessons import LessonRun, lesson_ids, load_lesson
from tui.lines.lesson import LineCoach

# words and signs that only make sense with the app's keyboard and screen
KEYS = re.compile(
    r"\b(press|presses|key|keys|Enter|Tab|Esc|arrows?|cursor|click)\b|[←→↑↓]|\(\d(, \d)*\)",
    re.IGNORECASE,
)


class Session:
    """What a coach needs of its table session: ``say`` and ``io.say``, kept."""

    def __init__(self, said: list[str]) -> None:
        self.said = said
        self.io = self

    def say(self, *texts: str) -> None:
        self.said.extend(texts)


@pytest.mark.parametrize("game", lesson_ids())
def test_no_lesson_text_names_a_key(game: str) -> None:
    lesson = load_lesson(game)
    texts = [lesson.intro, lesson.summary, *(t.text for t in lesson.tips)]
    for step in lesson.steps:
        texts += [step.say, step.otherwise, step.after, *step.wrong.values()]
    for text in texts:
        assert not KEYS.search(text), text


@pytest.mark.parametrize("game", lesson_ids())
def test_the_app_hears_the_keys_and_line_mode_its_own_words(game: str) -> None:
    lesson = load_lesson(game)
    with_keys = [i for i, step in enumerate(lesson.steps) if step.keys]
    assert with_keys, "the app's lesson says which keys make a move"
    step = lesson.steps[with_keys[0]]
    run = LessonRun(lesson)
    run.index = with_keys[0]
    _, app_body = run.parts(run.ends[run.index - 1] if run.index else 0)
    _, line_body = run.parts(run.ends[run.index - 1] if run.index else 0, keys=False)
    assert step.keys in app_body and step.say in line_body
    assert step.keys not in line_body and not KEYS.search(line_body)

    said: list[str] = []

    class Session:
        def say(self, *texts: str) -> None:
            said.extend(texts)

        class io:
            say = staticmethod(lambda *texts: said.extend(texts))

    coach = LineCoach(lesson, Session())  # type: ignore[arg-type]
    coach.run.index = run.index
    coach.state_id = run.ends[run.index - 1] if run.index else 0
    coach.speak()
    assert f"Type {step.move}, or its number in the list." in said
    assert not any(KEYS.search(line) for line in said if not line.startswith("Type "))


def test_each_step_says_what_to_type_even_when_an_earlier_step_wanted_the_same() -> None:
    lesson = load_lesson("trick")
    moves = [step.move for step in lesson.steps]
    again = next(i for i, m in enumerate(moves) if m in moves[:i])  # score+claim twice
    said: list[str] = []
    coach = LineCoach(lesson, Session(said))  # type: ignore[arg-type]
    for index in (moves.index(moves[again]), again):
        coach.run.index = index
        coach.state_id = coach.run.ends[index - 1] if index else 0
        coach.speak()
    assert said.count(f"Type {moves[again]}, or its number in the list.") == 2
