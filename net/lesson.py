"""A lesson's table (docs/learn.md): the lesson's fixed deal, the learner in
seat 1 and its scripted opponent in seat 2, at a table in this process like
any local game, so the lesson runs on the game's own screen.

The table saves nothing: a lesson is practice, not a game to resume or to
count (its progress is kept by the app, in the data folder's learn file).
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor

from rules.lessons import LEARNER, OPPONENT, Lesson
from rules.lessons.scripted import ScriptedBot
from saves.record import SeatInfo

from .local import LocalClient, open_table
from .table import Clock, Sleep

__all__ = ["open_lesson_table"]


def open_lesson_table(
    lesson: Lesson,
    learner_name: str = "You",
    pace: float = 0.0,
    *,
    executor: Executor | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> LocalClient:
    """The lesson's table, not started (the screen starts it), with a client
    for the learner's seat."""
    seats = [SeatInfo(learner_name, "human"), SeatInfo(lesson.opponent, "bot", "easy")]
    assert (LEARNER, OPPONENT) == (0, 1), "the seats above are in this order"
    client = open_table(
        None,
        lesson.game,
        lesson.config(),
        seats,
        (LEARNER,),
        seed=lesson.seed,
        pace=pace,
        deck_order=lesson.deck or None,
        executor=executor,
        clock=clock,
        sleep=sleep,
    )
    client.table.use_bot(OPPONENT, ScriptedBot(lesson.opponent_moves()))
    return client
