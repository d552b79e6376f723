"""``cardtable learn GAME``: open the app straight into a game's lesson
(docs/learn.md). Checked here, headless, so a game with no lesson is one line
on stderr, not an app that opens to an error."""

from __future__ import annotations

import argparse
import contextlib

from rules.errors import UnknownGame
from rules.lessons import LessonError, lesson_ids, load_lesson
from tui.game_names import game_named


def add_learn_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``learn`` command's flags and handler."""
    lessons = ", ".join(lesson_ids())
    parser.description = (
        "Learn to play a game: a guided first game against a scripted coach, on "
        "the game's own screen. With no GAME, the list of lessons."
    )
    parser.add_argument("game", nargs="?", metavar="GAME", help=f"one of: {lessons}")
    parser.set_defaults(handler=cmd_learn)


def cmd_learn(args: argparse.Namespace) -> int:
    from tui.cli import UserError, launch_app

    game_id = args.game
    if game_id is not None:
        # `learn Domination`, `learn five-card trick`: named as `play` and `rules` take them
        with contextlib.suppress(UnknownGame):  # no such game: load_lesson names the lessons
            game_id = game_named(game_id).id
        try:
            load_lesson(game_id)
        except LessonError as err:
            raise UserError(str(err)) from None
    return launch_app(args, {"action": "learn", "game": game_id})
