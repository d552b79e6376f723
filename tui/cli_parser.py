"""The command line's parser (argparse), for :mod:`tui.cli`: made only when
the command line has more than `cardtable` alone (argparse and the gettext
it imports are 2% of the home screen's start).

Each command's parser is made, and its module imported, only when it is
named (:data:`tui.cli.COMMANDS`)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tui.cli import COMMANDS, EPILOG, PROG, Command, UserError, cmd_home, option_key
from tui.cli_output import OutputError
from tui.settings import LINE_CARDS

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


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
