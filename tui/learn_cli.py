"""``cardtable learn GAME``: open the app straight into a game's lesson
(docs/learn.md). Checked here, headless, so a game with no lesson is one line
on stderr, not an app that opens to an error."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import Any

from rules.errors import UnknownGame
from rules.lessons import LessonError, lesson_ids, load_lesson
from tui.game_names import game_named


def add_learn_parser(
    subparsers: Any,
    common: argparse.ArgumentParser,
    launch_app: Callable[[argparse.Namespace, dict[str, Any] | None], int],
    user_error: type[Exception],
) -> None:
    """The ``learn`` subcommand, on the parser's ``add_subparsers()`` object."""
    lessons = ", ".join(lesson_ids())
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "learn",
        parents=[common],
        help="learn a game: a guided first game against a coach",
        description="Learn to play a game: a guided first game against a scripted coach, on "
        "the game's own screen. With no GAME, the list of lessons.",
    )
    parser.add_argument("game", nargs="?", metavar="GAME", help=f"one of: {lessons}")

    def handler(args: argparse.Namespace) -> int:
        game_id = args.game
        if game_id is not None:
            # `learn Domination`, `learn five-card trick`: named as `play` and `rules` take them
            with contextlib.suppress(UnknownGame):  # no such game: load_lesson names the lessons
                game_id = game_named(game_id).id
            try:
                load_lesson(game_id)
            except LessonError as err:
                raise user_error(str(err)) from None
        return launch_app(args, {"action": "learn", "game": game_id})

    parser.set_defaults(handler=handler)
