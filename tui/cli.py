"""The `cardtable` command: launches the app, or works headless on rules and saves.

    cardtable                          the home screen
    cardtable play GAME [--vs ...]     a new game straight away
    cardtable resume [ID]              a saved game (no ID: the list)
    cardtable rules GAME               a game's rules, as text
    cardtable saves list|show|delete|export
    cardtable serve [--host H] [--port P]   a table server for network play
    cardtable --lines [COMMAND]        line mode: plain lines for screen readers and pipes
    cardtable --lines join HOST:PORT   a network table, in line mode

Only the commands that open the app import it (and so textual), lazily: the
rest start fast and work without a terminal. Each command's module (its
flags and its handler) is imported only when that command is named
(:data:`COMMANDS`): the home screen's start imports none of them, nor the
games, the bots or the network (tests/test_start_imports.py). Every mistake
a user can make gets one line on stderr and exit code 2, never a traceback. Everything printed
goes through :func:`tui.plain.plain`: text from a save file or the command line
never reaches the terminal with its escapes or control characters.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from rules.errors import UnknownGame
from saves.errors import SaveError
from tui.cli_output import OutputError
from tui.plain import plain
from tui.settings import config_dir_of

if TYPE_CHECKING:
    import argparse


# the longest one-line error (an argument echoed in it is cut far shorter)
MAX_ERROR = 400

PROG = "cardtable"
NOT_A_TTY = (
    "cardtable needs an interactive terminal; with ssh use `ssh -t host cardtable` "
    "(`cardtable --help` lists the commands that work without one)"
)
EPILOG = (
    "Games: {games}. Saved games live in --data-dir, else $CARDTABLE_DATA_DIR, "
    "else your user data folder; `cardtable saves list` shows where."
)


class Command(NamedTuple):
    """A subcommand: its line in `cardtable --help`, and the function
    ("module:function") that gives its parser its flags and handler."""

    help: str
    arguments: str
    # takes --data-dir, --config-dir, --ascii, --lines and --cards after the command too
    common: bool = True


# in `cardtable --help`'s order; a module is imported only when its command is named
COMMANDS: dict[str, Command] = {
    "play": Command("start a new game", "tui.play_cli:add_play_arguments"),
    "resume": Command("go on with a saved game", "tui.play_cli:add_resume_arguments"),
    "rules": Command("print a game's rules", "tui.rules_cli:add_rules_arguments"),
    "saves": Command(
        "list, show, delete or export saved games", "tui.saves_cli:add_saves_arguments"
    ),
    "join": Command(
        "open a table server's lobby, or sit at one of its tables",
        "tui.join_cli:add_join_arguments",
    ),
    "arena": Command(
        "play bots against each other and print win rates",
        "tui.arena_cli:add_arena_arguments",
        common=False,
    ),
    "ssh-host": Command("let visitors play cardtable with ssh", "tui.host_cli:add_host_arguments"),
    "learn": Command(
        "learn a game: a guided first game against a coach", "tui.learn_cli:add_learn_arguments"
    ),
    "serve": Command(
        "host tables for players on the network (headless)", "tui.serve_cli:add_serve_arguments"
    ),
    "bot": Command(
        "a computer player that takes a seat at a table server",
        "tui.bot_cli:add_bot_arguments",
        common=False,
    ),
    "stats": Command(
        "your record: wins, streaks, ratings, per opponent and game",
        "tui.stats_cli:add_stats_arguments",
    ),
    "web": Command("let visitors play cardtable in a browser", "tui.web_cli:add_web_arguments"),
    "tables": Command(
        "the tables you sit at elsewhere, and where it is your turn",
        "tui.tables_cli:add_tables_arguments",
    ),
}


class UserError(Exception):
    """A mistake on the command line or in the user's files: one line, exit 2."""


def option_key(name: str) -> str:
    """An option's name as the games spell theirs: lower case, with underscores."""
    return name.casefold().replace("-", "_")


def main(argv: Sequence[str] | None = None) -> int:
    code = _run(argv)
    # what is still buffered is written now, so that a full disk is our error
    # message and exit code, not a traceback at exit
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except OSError as err:
        _silence_stdout()
        return _output_failed(err)
    return code


def parse_command_line(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (``sys.argv``'s if None), as its command's handler
    takes it. `cardtable` alone, the home screen, is answered without argparse
    (argparse, the gettext it imports and a parser are 2% of the home screen's
    start); ``tests/test_cli.py`` checks the answer is argparse's."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words:
        home = SimpleNamespace(
            data_dir=None, config_dir=None, ascii=False, lines=False, cards=None, handler=cmd_home
        )
        return cast("argparse.Namespace", home)
    return build_parser().parse_args(words)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line's parser (tui/cli_parser.py)."""
    from tui.cli_parser import build_parser as build

    return build()


def common_options() -> argparse.ArgumentParser:
    """--data-dir, --config-dir, --ascii, --lines, --cards: a command's parser's parent."""
    from tui.cli_parser import common_options as options

    return options()


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = parse_command_line(argv)
        code: int = args.handler(args)
        return code
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except UserError as err:
        return _fail(str(err))
    except (SaveError, UnknownGame) as err:
        return _fail(str(err))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`cardtable saves show X | head`): not our error
        _silence_stdout()
        return 0
    except OutputError as err:
        _silence_stdout()
        return _output_failed(err.__cause__ or err)


def _silence_stdout() -> None:
    # point stdout at devnull so the flush at exit does not complain again
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _output_failed(err: BaseException) -> int:
    reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
    _fail(f"cannot write the output: {reason}")
    return 1


def _fail(message: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        print(f"{PROG}: {plain(message, MAX_ERROR)}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- the app
def cmd_home(args: argparse.Namespace) -> int:
    return launch_app(args, None)


def launch_app(args: argparse.Namespace, launch: dict[str, Any] | None) -> int:
    """Open the Textual app, only on a real terminal (never draw into a pipe);
    with ``--lines``, line mode instead (any terminal, or pipes)."""
    if getattr(args, "lines", False):
        from tui.lines.app import run_lines  # never textual (docs/lines.md)

        return run_lines(args.data_dir, getattr(args, "cards", None), launch, config_dir_of(args))
    if not (is_tty(sys.stdin) and is_tty(sys.stdout)):
        print(NOT_A_TTY, file=sys.stderr)
        return 2
    from tui.start_heap import hold_collector

    hold_collector()  # until the first frame (tui/start_heap.py)
    from tui.run import run_app  # textual loads only here

    code: int = run_app(args.data_dir, args.ascii, launch, config_dir_of(args))
    return code


def is_tty(stream: Any) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


if __name__ == "__main__":
    # `python -m tui.cli`: run the module the commands import (tui.cli, not
    # __main__), so that their UserError is the one caught here
    from tui.cli import main as cli_main

    sys.exit(cli_main())
