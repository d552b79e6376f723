"""Every lesson plays through the real rules to its end (docs/learn.md): a
rules change that breaks a lesson, or a step that no longer shows what it
teaches, fails here."""

from __future__ import annotations

import pytest

from rules.lessons import (
    LessonError,
    LessonRun,
    Tip,
    lesson_ids,
    load_lesson,
    play_through,
    read_lesson,
)
from rules.registry import get_game, shipped

LESSONS = lesson_ids()


def test_every_shipped_game_has_a_lesson() -> None:
    """A game added to the catalogue without a lesson fails here."""
    assert lesson_ids() == list(shipped())


@pytest.mark.parametrize("game_id", LESSONS)
def test_the_lesson_plays_through_the_rules_and_shows_what_it_says(game_id: str) -> None:
    lesson = load_lesson(game_id)
    state, events = play_through(lesson)  # LessonError names the step that broke
    assert len(events) == len(lesson.steps) + 1
    assert not state.is_over or lesson.steps[-1].shows  # the end is one of its steps


@pytest.mark.parametrize("game_id", LESSONS)
def test_no_lesson_has_a_move_clock(game_id: str) -> None:
    """A learner reads as long as needed: no move is ever played for them."""
    state = load_lesson(game_id).new_state()
    assert all(state.clock(seat) is None for seat in (0, 1))


@pytest.mark.parametrize("game_id", LESSONS)
def test_every_special_rule_has_its_own_step(game_id: str) -> None:
    lesson = load_lesson(game_id)
    taught = [s.rule for s in lesson.steps if s.rule]
    assert sorted(taught) == sorted(lesson.rules), "each rule once, each in its own step"
    for step in lesson.steps:
        if step.rule:
            assert step.shows, f"the step on {step.rule} checks no event"


@pytest.mark.parametrize("game_id", LESSONS)
def test_every_tip_is_shown_by_the_lesson(game_id: str) -> None:
    """A tip waits for an event kind the rules really emit: the lesson shows each."""
    lesson = load_lesson(game_id)
    _, events = play_through(lesson)
    seen = [e for step in events for e in step]
    assert lesson.tips
    for tip in lesson.tips:
        assert any(tip.matches(e) for e in seen), f"no event in the lesson shows tip {tip.key}"


@pytest.mark.parametrize("game_id", LESSONS)
def test_a_wrong_move_is_explained_and_the_right_one_accepted(game_id: str) -> None:
    lesson = load_lesson(game_id)
    run = LessonRun(lesson)
    state = lesson.new_state()
    for seat, move in lesson.script():
        if seat == 0:
            step = run.step
            assert step is not None
            assert run.judge(move) is None
            others = [str(m) for m in state.legal_moves(0) if not run.same_move(str(m), move)]
            for other in others[:3]:
                why = run.judge(other)
                assert why, f"{other} at {step.move}: no explanation"
            for wrong, because in step.wrong.items():
                assert run.judge(wrong) == because
            run.played()
        state.play_text(seat, move)
    assert run.finished and run.judge("anything") is None


def test_a_lesson_out_of_step_with_the_rules_fails_naming_the_step() -> None:
    text = b"""
game = "domination"
title = "t"
minutes = 1
intro = "i"
summary = "s"
deck = ["4H", "7C", "JC", "KS", "2D", "6C", "9C", "3S", "5D", "QH"]
options = { first_leader = "0" }
[rules]
[[steps]]
say = "play"
move = "4H"
replies = ["3S"]
"""
    with pytest.raises(LessonError, match="step 1: seat 1 cannot play 3S"):
        play_through(read_lesson(text))


def test_a_step_that_no_longer_shows_its_event_fails() -> None:
    text = b"""
game = "domination"
title = "t"
minutes = 1
intro = "i"
summary = "s"
deck = ["4H", "7C", "JC", "KS", "2D", "6C", "9C", "3S", "5D", "QH"]
options = { first_leader = "0" }
[rules]
[[steps]]
say = "play"
move = "4H"
replies = ["6C"]
shows = ["domination"]
"""
    with pytest.raises(LessonError, match="step 1: no domination event"):
        play_through(read_lesson(text))


def test_a_file_that_is_no_lesson_is_one_line() -> None:
    with pytest.raises(LessonError, match=r"broken\.toml"):
        read_lesson(b"game = 3", "broken.toml")
    with pytest.raises(LessonError, match="no lesson for 'chess'"):
        load_lesson("chess")


def test_a_tip_matches_by_kind_and_by_a_text_in_the_data() -> None:
    # both seats Score: the rules' own reveal says the actions collided
    state = get_game("trick").new(seed=0)
    state.play_text(0, "score")
    collided = next(e for e in state.play_text(1, "score") if e.kind == "reveal")
    assert Tip("reveal", "t", "collided").matches(collided)
    assert not Tip("reveal", "t", "stolen").matches(collided)
    assert Tip("reveal", "t").matches(collided)
    assert not Tip("play", "t").matches(collided)


def test_a_rule_the_rules_no_longer_enforce_fails() -> None:
    text = b"""
game = "domination"
title = "t"
minutes = 1
intro = "i"
summary = "s"
deck = ["4H", "7C", "JC", "KS", "2D", "6C", "9C", "3S", "5D", "QH"]
options = { first_leader = "0" }
[rules]
[[steps]]
say = "play"
move = "4H"
refuses = ["7C"]
"""
    with pytest.raises(LessonError, match="step 1: the rules allow 7C"):
        play_through(read_lesson(text))


def test_every_step_of_every_lesson_has_a_title() -> None:
    """N23: "Step 6 of 7" beside "Step 5 of 7 · Who cannot play loses the
    round": every step is titled, by its rule's name or its own title."""
    from rules.lessons import lesson_ids, load_lesson

    for game_id in lesson_ids():
        untitled = [i for i, s in enumerate(load_lesson(game_id).steps, 1) if not s.rule + s.title]
        assert not untitled, f"{game_id}: steps {untitled} have no title"
