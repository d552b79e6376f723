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

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from rules.errors import UnknownGame
from saves.errors import SaveError
from tui.cli_output import OutputError
from tui.plain import plain
from tui.settings import LINE_CARDS, config_dir_of

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


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


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage and exits; we want one line and exit code 2
    def error(self, message: str) -> NoReturn:
        raise UserError(f"{message} ({_option_pointer(message)}see `{self.prog} --help`)")

    # argparse ignores a failed write of --help; we say so (`--help > /dev/full`)
    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            try:
                (file or sys.stderr).write(message)
            except BrokenPipeError:
                raise
            except OSError as err:
                raise OutputError(str(err)) from err


class _MainParser(_Parser):
    def format_help(self) -> str:
        from rules.registry import games  # every game: only when the help is shown

        self.epilog = EPILOG.format(games=", ".join(sorted(games())))
        return super().format_help()


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[_Parser]
else:  # (generic for the type checker only)
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """The subcommands: listed (a name and a help line) when the parser is
    made; a command's own parser is made, and given its flags and handler by
    its module, only when the command is named. (argparse makes a parser
    slowly, looking up translations on disk: thirteen were 10 ms of a start.)"""

    _unmade: _Parser  # in the map for each command not named yet (the map is the choices)

    def list_commands(self, commands: dict[str, Command]) -> None:
        self._unmade = _Parser(add_help=False)
        for name, command in commands.items():
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), command.help))
            self._name_parser_map[name] = self._unmade

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        assert values is not None and not isinstance(values, str)
        name = values[0]
        if self._name_parser_map.get(name) is self._unmade:
            del self._name_parser_map[name]
            command = COMMANDS[name]
            made = self.add_parser(name, parents=[common_options()] if command.common else [])
            module, _, function = command.arguments.partition(":")
            getattr(importlib.import_module(module), function)(made)
        super().__call__(parser, namespace, values, option_string)


def _option_pointer(message: str) -> str:
    """For `--players 9`: a game's setting is given as `--option players=9`."""
    if not message.startswith("unrecognized arguments:"):
        return ""
    from tui.game_names import game_option_names  # (the games: only for this mistake)

    words = message.removeprefix("unrecognized arguments:").split()
    for at, word in enumerate(words):
        name, _, value = word.removeprefix("--").partition("=")
        name = option_key(name)
        if word.startswith("--") and name in game_option_names():
            value = value or (words[at + 1] if at + 1 < len(words) else "VALUE")
            return f"did you mean --option {name}={value}? "
    return ""


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


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
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


def _folder(text: str) -> Path:
    """--data-dir: a folder; empty text is a mistake, not the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a folder, not empty text")
    return Path(text)


# ---------------------------------------------------------------- the parser
def common_options() -> _Parser:
    """--data-dir, --config-dir, --ascii, --lines and --cards, as a parent of a
    command's parser: they work before or after the command. Each only sets
    its value when given (SUPPRESS), so it never resets one given before."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--data-dir", type=_folder, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    common.add_argument(
        "--config-dir", type=_folder, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    common.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    common.add_argument(
        "--lines", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    common.add_argument(
        "--cards", choices=LINE_CARDS, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser; each command's flags are added when it is named."""
    parser = _MainParser(
        prog=PROG,
        description="Card games at a terminal table: against the computer, hot-seat, or "
        "over the network. With no command, opens the home screen.",
    )
    parser.add_argument(
        "--data-dir",
        type=_folder,
        default=None,
        metavar="PATH",
        help="keep saved games here, and this run's settings too (default: "
        "$CARDTABLE_DATA_DIR, else the user data folder)",
    )
    parser.add_argument(
        "--config-dir",
        type=_folder,
        default=None,
        metavar="PATH",
        help="keep settings here (default: the --data-dir given, else "
        "$CARDTABLE_CONFIG_DIR, else the user config folder)",
    )
    parser.add_argument(
        "--ascii", action="store_true", default=False, help="draw cards with S H D C, no Unicode"
    )
    parser.add_argument(
        "--lines",
        action="store_true",
        default=False,
        help="line mode, for screen readers and pipes: plain lines, choices by number, "
        "no redraws (docs/lines.md)",
    )
    parser.add_argument(
        "--cards",
        choices=LINE_CARDS,
        default=None,
        help="how line mode names cards: words (4 of spades, the default), letters (4S) "
        "or symbols (4♠)",
    )
    parser.add_argument("--version", action=_Version)
    parser.set_defaults(handler=cmd_home)
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", parser_class=_Parser, action=_Commands
    )
    assert isinstance(commands, _Commands)
    commands.list_commands(COMMANDS)
    return parser


class _Version(argparse.Action):
    """--version: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        parser._print_message(f"{parser.prog} {_version()}\n", sys.stdout)
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardtable")
    except PackageNotFoundError:
        return "(source)"


# ---------------------------------------------------------------- the app
def cmd_home(args: argparse.Namespace) -> int:
    return launch_app(args, None)


def launch_app(args: argparse.Namespace, launch: dict[str, Any] | None) -> int:
    """Open the Textual app, only on a real terminal (never draw into a pipe);
    with ``--lines``, line mode instead (any terminal, or pipes)."""
    if getattr(args, "lines", False):
        from tui.lines.app import run_lines  # never textual (docs/lines.md)

        return run_lines(args.data_dir, getattr(args, "cards", None), launch)
    if not (is_tty(sys.stdin) and is_tty(sys.stdout)):
        print(NOT_A_TTY, file=sys.stderr)
        return 2
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
