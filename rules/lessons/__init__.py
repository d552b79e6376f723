"""Lessons: a guided first game of each game, as data (docs/learn.md).

A lesson is one TOML file per game in this package (``<game id>.toml``),
read with msgspec into the typed structs below: the options and the deal (a
seed and a deck order, the game's own setup), the scripted opponent's moves,
and the steps. Each step says what is happening and what to try, names the
one move it expects of the learner (seat 0) and the opponent's replies (seat
1), explains the moves a learner is likely to try instead, and lists the
events its move must produce (``shows``): so a rules change that breaks a
lesson fails ``tests/rules/test_lessons.py``, which plays every lesson
through the real rules to its end.

A lesson also holds the game's tips: one line each for the first time a
special rule happens in a real game (``tips``), keyed by event kind, so the
tips and the lessons speak of the rules in one voice.

Pure: no I/O beyond reading this package's own files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

import msgspec

from ..events import Event
from ..game import GameSpec, GameState
from ..registry import get_game

LEARNER = 0  # the learner's seat in every lesson
OPPONENT = 1  # the scripted opponent's


class LessonError(ValueError):
    """A lesson file that cannot be read or does not play; says which and why."""


class Tip(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line for the first time a special rule happens in a real game.

    ``kind``: the event kind that shows it; ``mentions``: what its data must
    hold somewhere (walked through lists and mappings), or "" for any event of
    that kind: ``key=value``, a field of that value (a Trick reveal whose
    ``taken_by=steal``), else a text within one of its texts (an action whose
    status is ``collided``)."""

    kind: str
    text: str
    mentions: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.mentions}" if self.mentions else self.kind

    def matches(self, event: Event) -> bool:
        if event.kind != self.kind:
            return False
        if not self.mentions:
            return True
        # the data's JSON form: what docs/protocol/events.md documents
        texts, fields = _contents(event.data.to_json())
        key, equals, value = self.mentions.partition("=")
        if equals:
            return (key, value) in fields
        return any(self.mentions in t for t in texts)


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One move of the learner, and what the opponent answers.

    ``say``: what is happening and what to try; ``move``: the learner's move
    the step waits for (the game's notation); ``wrong``: explanations of
    particular other moves (by notation); ``otherwise``: the explanation of
    any other move; ``replies``: the opponent's moves after it, in order;
    ``rule``: the special rule this step shows ("" for none), whose name
    titles the step; ``title``: the step's title where it shows no rule (every
    shipped step has one or the other, tests/rules/test_lessons.py); ``shows``:
    events the step's moves must produce, each an event kind or
    ``kind:mention`` (as a tip's ``mentions``); ``refuses``: moves of the
    learner the rules must refuse before the step's move (what the rule
    forbids); ``ends_turn``: the move ends
    the learner's turn (a rule that stops it, such as a Blitz that may not
    take a last card); ``after``: what just happened, said once the replies
    are in; ``keys``: how the full-screen app's keys make the move ("Press 1,
    then 3, then Enter"). Every other text names no key (line mode has none:
    tests/lines/test_lesson_words.py), and a front end says how its own
    input makes the move."""

    say: str
    move: str
    keys: str = ""
    otherwise: str = ""
    wrong: dict[str, str] = {}
    replies: list[str] = []
    rule: str = ""
    title: str = ""
    shows: list[str] = []
    refuses: list[str] = []
    ends_turn: bool = False
    after: str = ""


class Lesson(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A guided game: see the module's docstring."""

    game: str
    title: str
    minutes: int
    intro: str
    summary: str
    rules: dict[str, str]  # rule id -> its name, each shown by a step
    steps: list[Step]
    options: dict[str, Any] = {}
    seed: int = 1
    deck: list[str] = []  # top first; empty: the seed shuffles
    opening: list[str] = []  # the opponent's moves before the first step
    opponent: str = "Coach"
    tips: list[Tip] = []

    @property
    def spec(self) -> GameSpec[Any, Any]:
        return get_game(self.game)

    def config(self) -> Any:
        return self.spec.config(None, **self.options)

    def new_state(self) -> GameState[Any, Any]:
        return self.spec.new(self.config(), self.seed, self.deck or None)

    def opponent_moves(self) -> list[str]:
        """The scripted opponent's moves, in the order it plays them."""
        return [*self.opening, *(r for step in self.steps for r in step.replies)]

    def script(self) -> Iterator[tuple[int, str]]:
        """Every move of the lesson as (seat, notation), in order."""
        for move in self.opening:
            yield OPPONENT, move
        for step in self.steps:
            yield LEARNER, step.move
            for reply in step.replies:
                yield OPPONENT, reply


def lesson_ids() -> list[str]:
    """The shipped games that have a lesson, in the catalogue's order."""
    from ..registry import shipped

    folder = resources.files(__name__)
    return [g for g in shipped() if folder.joinpath(f"{g}.toml").is_file()]


def load_lesson(game_id: str) -> Lesson:
    """The lesson of ``game_id``; LessonError (one line) if there is none or
    its file is not a lesson."""
    if game_id not in lesson_ids():
        raise LessonError(f"there is no lesson for {game_id!r}; lessons: {', '.join(lesson_ids())}")
    text = resources.files(__name__).joinpath(f"{game_id}.toml").read_bytes()
    return read_lesson(text, f"{game_id}.toml")


def read_lesson(text: bytes | str, name: str = "lesson") -> Lesson:
    try:
        lesson = msgspec.toml.decode(text, type=Lesson)
    except msgspec.DecodeError as err:
        raise LessonError(f"{name}: {err}") from None
    unknown = {s.rule for s in lesson.steps if s.rule and s.rule not in lesson.rules}
    if unknown:
        raise LessonError(
            f"{name}: steps name rules it does not list: {', '.join(sorted(unknown))}"
        )
    return lesson


class LessonRun:
    """Where a learner stands in a lesson: the step that waits for a move,
    and what to say about a move (pure; the screen's coach asks it)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.spec = lesson.spec
        self.index = 0  # the step that waits for the learner's move

    @property
    def step(self) -> Step | None:
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.lesson.steps)

    def same_move(self, a: str, b: str) -> bool:
        try:
            return self.spec.parse_move(a) == self.spec.parse_move(b)
        except ValueError:
            return False

    def judge(self, move: str) -> str | None:
        """None if ``move`` is the one the step waits for; else why not, in
        words (the move is then not played: the lesson follows its script)."""
        step = self.step
        if step is None:
            return None  # the lesson is over: the game is the learner's
        if self.same_move(move, step.move):
            return None
        for wrong, why in step.wrong.items():
            if self.same_move(move, wrong):
                return why
        words = self.spec.move_words(self.lesson.config(), step.move)
        reason = (
            step.otherwise or "It is a fine move in a real game, but not the one this step shows."
        )
        return f"{reason} Try: {words}."

    def played(self) -> Step | None:
        """The learner's move of the current step was played: the next step."""
        if not self.finished:
            self.index += 1
        return self.step

    @property
    def ends(self) -> list[int]:
        """Where each step's moves end in the script (its replies included):
        the state id at which the step's ``after`` may be said."""
        ends, count = [], len(self.lesson.opening)
        for step in self.lesson.steps:
            count += 1 + len(step.replies)
            ends.append(count)
        return ends

    def parts(self, state_id: int, brief: bool = False, keys: bool = True) -> tuple[str, str]:
        """What the coach says at ``state_id`` (moves played so far): what just
        happened ("" at first: the intro is said on its own), and the step
        waiting for a move (``brief``: that step alone; ``keys``: with the
        app's keys for it, which line mode leaves out)."""
        steps, index = self.lesson.steps, self.index
        if (brief and not self.finished) or index == 0:
            head = ""
        else:
            if state_id < self.ends[index - 1]:
                return "", f"Step {index} of {len(steps)} · Watch {self.lesson.opponent} answer…"
            head = steps[index - 1].after
        if self.finished:
            return head, "That is the end of the lesson."
        step = steps[index]
        counter = f"Step {index + 1} of {len(steps)}"
        counter += f" · {self.lesson.rules[step.rule] if step.rule else step.title}"
        how = f" {step.keys}" if keys and step.keys else ""
        return head, f"{counter}\n{step.say}{how}"

    def objection(self, move: str) -> str | None:
        """None if the lesson lets ``move`` be played now, else what the coach
        says instead (the move is then not played)."""
        why = self.judge(move)
        return None if why is None else f"Not that one. {why}"


def play_through(lesson: Lesson) -> tuple[GameState[Any, Any], list[list[Event]]]:
    """Play the whole lesson through the real rules: the state at its end and
    the events of each step (opening's first). LessonError, naming the step,
    if a move is refused or a step does not show what it says it shows."""
    state = lesson.new_state()
    out: list[list[Event]] = [[]]
    for move in lesson.opening:
        out[0] += _play(state, OPPONENT, move, "the opening")
    for number, step in enumerate(lesson.steps, 1):
        where = f"step {number}"
        if LEARNER not in state.to_act():
            raise LessonError(
                f"{where}: the learner is not to act (seats to act: {state.to_act()})"
            )
        for forbidden in step.refuses:
            try:
                state.copy().play_text(LEARNER, forbidden)
            except ValueError:
                continue
            raise LessonError(
                f"{where}: the rules allow {forbidden}, which the step says they refuse"
            )
        events = _play(state, LEARNER, step.move, where)
        if step.ends_turn and LEARNER in state.to_act():
            raise LessonError(f"{where}: {step.move} does not end the learner's turn")
        for reply in step.replies:
            events += _play(state, OPPONENT, reply, where)
        for wanted in step.shows:
            kind, _, mention = wanted.partition(":")
            if not any(Tip(kind, "", mention).matches(e) for e in events):
                raise LessonError(f"{where}: no {wanted} event (got {[e.kind for e in events]})")
        for wrong in step.wrong:
            lesson.spec.parse_move(wrong)  # NotationError for a typo
        out.append(events)
    return state, out


def _play(state: GameState[Any, Any], seat: int, move: str, where: str) -> list[Event]:
    try:
        return state.play_text(seat, move)
    except ValueError as err:
        raise LessonError(f"{where}: seat {seat} cannot play {move}: {err}") from None


def _contents(data: Any) -> tuple[set[str], set[tuple[str, str]]]:
    """Every text in an event's data, and every (key, text) of its mappings,
    walked through lists and mappings."""
    texts: set[str] = set()
    fields: set[tuple[str, str]] = set()
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts.add(item)
        elif isinstance(item, Mapping):
            fields.update((str(k), v) for k, v in item.items() if isinstance(v, str))
            stack.extend(item.values())
        elif isinstance(item, Sequence):
            stack.extend(item)
    return texts, fields
