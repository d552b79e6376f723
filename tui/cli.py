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
rest start fast and work without a terminal. Every mistake a user can make
gets one line on stderr and exit code 2, never a traceback. Everything printed
goes through :func:`tui.plain.plain`: text from a save file or the command line
never reaches the terminal with its escapes or control characters.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rules.bots import LEVELS
from rules.config import parse_option_value
from rules.errors import UnknownGame, shown_input
from rules.game import GameSpec
from rules.registry import games
from saves.errors import SaveError
from saves.record import check_field
from saves.store import SaveStore
from tui.arena_cli import add_arena_parser
from tui.bot_cli import add_bot_parser
from tui.cli_output import OutputError
from tui.cli_output import print_out as _print
from tui.game_names import game_named, game_option_names
from tui.host_cli import add_host_parser
from tui.join_cli import add_join_parser
from tui.learn_cli import add_learn_parser
from tui.plain import plain
from tui.saves_cli import cmd_saves_export, cmd_saves_list, cmd_saves_show
from tui.serve_cli import add_serve_parser
from tui.settings import LINE_CARDS, config_dir_of
from tui.stats_cli import add_stats_parser
from tui.tables_cli import add_tables_parser
from tui.web_cli import add_web_parser

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


# the longest one-line error (an argument echoed in it is cut far shorter)
MAX_ERROR = 400

PROG = "cardtable"
NOT_A_TTY = (
    "cardtable needs an interactive terminal; with ssh use `ssh -t host cardtable` "
    "(`cardtable --help` lists the commands that work without one)"
)
DEFAULT_VS = "computer:medium"


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


def _option_pointer(message: str) -> str:
    """For `--players 9`: a game's setting is given as `--option players=9`."""
    if not message.startswith("unrecognized arguments:"):
        return ""
    words = message.removeprefix("unrecognized arguments:").split()
    for at, word in enumerate(words):
        name, _, value = word.removeprefix("--").partition("=")
        name = _option_key(name)
        if word.startswith("--") and name in game_option_names():
            value = value or (words[at + 1] if at + 1 < len(words) else "VALUE")
            return f"did you mean --option {name}={value}? "
    return ""


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
        handler = getattr(args, "handler", cmd_home)
        code: int = handler(args)
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
def build_parser() -> argparse.ArgumentParser:
    game_ids = ", ".join(sorted(games()))
    levels = "|".join(lv.id for lv in LEVELS)

    # --data-dir and --ascii work before or after the command: the copy on each
    # subcommand only sets them when given (SUPPRESS), so it never resets them
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

    parser = _Parser(
        prog=PROG,
        description="Card games at a terminal table: against the computer, hot-seat, or "
        "over the network. With no command, opens the home screen.",
        epilog=f"Games: {game_ids}. Saved games live in --data-dir, else $CARDTABLE_DATA_DIR, "
        "else your user data folder; `cardtable saves list` shows where.",
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
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser(
        "play", parents=[common], help="start a new game", description="Start a new game."
    )
    play.add_argument("game", metavar="GAME", help=f"one of: {game_ids}")
    play.add_argument(
        "--vs",
        default=DEFAULT_VS,
        metavar="OPPONENT",
        help=f"computer:{levels} or human (hot-seat at this terminal); default {DEFAULT_VS}",
    )
    play.add_argument("--seed", type=int, default=None, metavar="N", help="deal from this seed")
    play.add_argument("--preset", default=None, metavar="P", help="a named rule variant")
    play.add_argument(
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a game option (repeatable); `cardtable rules GAME` describes them",
    )
    play.set_defaults(handler=cmd_play)

    resume = sub.add_parser(
        "resume",
        parents=[common],
        help="go on with a saved game",
        description="Go on with a saved game; with no ID, the unfinished game played most "
        "recently (`cardtable saves list` shows them all).",
    )
    resume.add_argument("id", nargs="?", metavar="ID", help="a saved game's id (or its start)")
    resume.set_defaults(handler=cmd_resume)

    rules = sub.add_parser(
        "rules", parents=[common], help="print a game's rules", description="Print a game's rules."
    )
    rules.add_argument("game", metavar="GAME", help=f"one of: {game_ids}")
    rules.set_defaults(handler=cmd_rules)

    saves = sub.add_parser(
        "saves", parents=[common], help="list, show, delete or export saved games"
    )
    saves_sub = saves.add_subparsers(
        title="saves commands", metavar="ACTION", parser_class=_Parser, required=True
    )
    ls = saves_sub.add_parser("list", parents=[common], help="every saved game, last played first")
    ls.set_defaults(handler=cmd_saves_list)
    show = saves_sub.add_parser("show", parents=[common], help="one saved game in full")
    show.add_argument("id", metavar="ID")
    show.set_defaults(handler=cmd_saves_show)
    delete = saves_sub.add_parser("delete", parents=[common], help="delete a saved game")
    delete.add_argument("id", metavar="ID")
    delete.add_argument("--yes", action="store_true", help="do not ask first")
    delete.set_defaults(handler=cmd_saves_delete)
    export = saves_sub.add_parser(
        "export", parents=[common], help="copy a saved game's file (e.g. for a bug report)"
    )
    export.add_argument("id", metavar="ID")
    export.add_argument(
        "path",
        metavar="PATH",
        help="a file to write, or a folder (one that exists, or PATH/) to put ID.json in",
    )
    export.set_defaults(handler=cmd_saves_export)
    add_join_parser(sub, common, launch_app, UserError)  # `cardtable join`: tui/join_cli.py
    add_arena_parser(sub)  # `cardtable arena`: tui/arena_cli.py
    add_host_parser(sub, common)  # `cardtable ssh-host`: tui/host_cli.py
    add_learn_parser(sub, common, launch_app, UserError)  # `cardtable learn`: tui/learn_cli.py
    add_serve_parser(sub, common)  # `cardtable serve`: tui/serve_cli.py
    add_bot_parser(sub)  # `cardtable bot`: tui/bot_cli.py
    add_stats_parser(sub, common)  # `cardtable stats`: tui/stats_cli.py
    add_web_parser(sub, common)  # `cardtable web`: tui/web_cli.py
    add_tables_parser(sub, common)  # `cardtable tables`: tui/tables_cli.py
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardtable")
    except PackageNotFoundError:
        return "(source)"


# ---------------------------------------------------------------- the app
def cmd_home(args: argparse.Namespace) -> int:
    return launch_app(args, None)


def cmd_play(args: argparse.Namespace) -> int:
    spec = _game(args.game)
    vs = parse_vs(args.vs)
    options = parse_options(spec, args.options)
    if args.preset is not None and args.preset not in spec.presets:
        raise UserError(
            f"{spec.id} has no preset {shown_input(args.preset)}; "
            f"presets: {', '.join(spec.presets)}"
        )
    try:
        config = spec.config(args.preset, **options)
        # what the game's record will hold must read back
        check_field("config", config.to_dict(), "--option")
        if args.seed is not None:
            check_field("seed", args.seed, "--seed")
    except (ValueError, SaveError) as err:
        raise UserError(str(err)) from None
    launch = {
        "action": "play",
        "game": spec.id,
        "vs": vs,
        "seed": args.seed,
        "preset": args.preset,
        "options": options,
    }
    return launch_app(args, launch)


def cmd_resume(args: argparse.Namespace) -> int:
    record_id = None
    if args.id is not None:
        store = SaveStore.default(args.data_dir)
        record_id = store.resolve(args.id)
        store.load(record_id).replay()  # refuse here, in one line, what the app could not open
    return launch_app(args, {"action": "resume", "id": record_id})


def launch_app(args: argparse.Namespace, launch: dict[str, Any] | None) -> int:
    """Open the Textual app, only on a real terminal (never draw into a pipe);
    with ``--lines``, line mode instead (any terminal, or pipes)."""
    if getattr(args, "lines", False):
        from tui.lines.app import run_lines  # never textual (docs/lines.md)

        return run_lines(args.data_dir, getattr(args, "cards", None), launch)
    if not (_is_tty(sys.stdin) and _is_tty(sys.stdout)):
        print(NOT_A_TTY, file=sys.stderr)
        return 2
    from tui.run import run_app  # textual loads only here

    code: int = run_app(args.data_dir, args.ascii, launch, config_dir_of(args))
    return code


def _is_tty(stream: Any) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def parse_vs(text: str) -> str:
    """``computer[:LEVEL]`` or ``human``, as ``computer:LEVEL`` or ``human``."""
    levels = [lv.id for lv in LEVELS]
    low = text.strip().lower()
    if low == "human":
        return "human"
    kind, _, level = low.partition(":")
    if kind == "computer":
        level = level or DEFAULT_VS.partition(":")[2]
        if level in levels:
            return f"computer:{level}"
    raise UserError(f"--vs takes computer:{'|'.join(levels)} or human, not {shown_input(text)}")


def parse_options(spec: GameSpec[Any, Any], items: Sequence[str]) -> dict[str, Any]:
    """``name=value`` texts into typed option values (UserError if one is wrong)."""
    known = {info.name: info for info in spec.Config.options()}
    options: dict[str, Any] = {}
    for item in items:
        given, eq, value = item.partition("=")
        given = given.strip()
        if not eq or not given:
            raise UserError(f"--option takes NAME=VALUE, not {shown_input(item)}")
        # `Players=4`, `allow-concede=yes`: as `rules GAME` or a screen writes them
        info = known.get(_option_key(given))
        if info is None:
            raise UserError(
                f"{spec.id} has no option {shown_input(given)}; options: {', '.join(sorted(known))}"
            )
        try:
            options[info.name] = parse_option_value(info, value)
        except ValueError:
            raise UserError(
                f"option '{info.name}' takes {_kind_text(info.kind)}, not {shown_input(value)}"
            ) from None
    return options


def _option_key(name: str) -> str:
    """An option's name as the games spell theirs: lower case, with underscores."""
    return name.casefold().replace("-", "_")


def _kind_text(kind: type) -> str:
    if kind is bool:
        return "yes or no"
    if kind is int:
        return "a whole number"
    if kind is float:
        return "a number"
    return "text"


def _game(name: str) -> GameSpec[Any, Any]:
    try:
        return game_named(name)
    except UnknownGame as err:
        raise UserError(str(err)) from None


# ---------------------------------------------------------------- headless
def cmd_rules(args: argparse.Namespace) -> int:
    spec = _game(args.game)
    from tui.ruledocs import rules_markdown  # plain file reading: no textual

    try:
        text = rules_markdown(spec.id)
    except FileNotFoundError:
        raise UserError(f"{spec.title} has no rules page yet") from None
    _print(text.rstrip("\n"))
    return 0


def cmd_saves_delete(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    record_id = store.resolve(args.id)
    if not args.yes:
        if not _is_tty(sys.stdin):
            raise UserError("saves delete asks first; add --yes to delete without a terminal")
        what = record_id
        entry = next((e for e in store.list() if e.id == record_id), None)
        if entry is not None and entry.record is not None:
            what += f" ({plain(entry.record.game, 40)}, {len(entry.record.moves)} moves)"
        answer = input(plain(f"Delete saved game {what}? [y/N] ", None))
        if answer.strip().lower() not in ("y", "yes"):
            _print("Kept it.")
            return 1
    store.delete(record_id)
    _print(f"Deleted saved game {record_id}.")
    return 0


# ---------------------------------------------------------------- text
if __name__ == "__main__":
    sys.exit(main())
