"""The `cardtable` command: launches the app, or works headless on rules and saves.

    cardtable                          the home screen
    cardtable play GAME [--vs ...]     a new game straight away
    cardtable resume [ID]              a saved game (no ID: the list)
    cardtable rules GAME               a game's rules, as text
    cardtable saves list|show|delete|export

Only the commands that open the app import it (and so textual), lazily: the
rest start fast and work without a terminal. Every mistake a user can make
gets one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from rules.bots import LEVELS
from rules.config import parse_option_value
from rules.errors import UnknownGame, shown_input
from rules.game import GameSpec
from rules.registry import games, get_game
from saves.errors import SaveError
from saves.record import GameRecord, parse_time
from saves.store import SaveStore
from tui.arena_cli import add_arena_parser

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
        raise UserError(f"{message} (see `{self.prog} --help`)")


def main(argv: Sequence[str] | None = None) -> int:
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
        # the reader went away (`cardtable saves show X | head`): not our error;
        # point stdout at devnull so the flush at exit does not complain again
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- the parser
def build_parser() -> argparse.ArgumentParser:
    game_ids = ", ".join(sorted(games()))
    levels = "|".join(lv.id for lv in LEVELS)

    # --data-dir and --ascii work before or after the command: the copy on each
    # subcommand only sets them when given (SUPPRESS), so it never resets them
    common = _Parser(add_help=False)
    common.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
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
        type=Path,
        default=None,
        metavar="PATH",
        help="keep saved games and settings here (default: $CARDTABLE_DATA_DIR, else the "
        "user data folder)",
    )
    parser.add_argument(
        "--ascii", action="store_true", default=False, help="draw cards with S H D C, no Unicode"
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
        description="Go on with a saved game; with no ID, choose one from the list.",
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
    export.add_argument("path", metavar="PATH", type=Path, help="a file or folder to write to")
    export.set_defaults(handler=cmd_saves_export)
    add_arena_parser(sub)  # `cardtable arena`: tui/arena_cli.py
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
    try:
        spec.config(args.preset, **options)
    except ValueError as err:
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
    """Open the Textual app, only on a real terminal (never draw into a pipe)."""
    if not (_is_tty(sys.stdin) and _is_tty(sys.stdout)):
        print(NOT_A_TTY, file=sys.stderr)
        return 2
    from tui.app import run_app  # textual loads only here

    code: int = run_app(args.data_dir, args.ascii, launch)
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
        name, eq, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name:
            raise UserError(f"--option takes NAME=VALUE, not {shown_input(item)}")
        info = known.get(name)
        if info is None:
            raise UserError(
                f"{spec.id} has no option {shown_input(name)}; options: {', '.join(sorted(known))}"
            )
        try:
            options[name] = parse_option_value(info, value)
        except ValueError as err:
            raise UserError(str(err)) from None
    return options


def _game(game_id: str) -> GameSpec[Any, Any]:
    try:
        return get_game(game_id)
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


def cmd_saves_list(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    entries = store.list()
    if not entries:
        _print(f"No saved games in {store.games_dir}")
        return 0
    _print(f"Saved games in {store.games_dir}, last played first:")
    rows = [("ID", "GAME", "STATUS", "MOVES", "LAST PLAYED", "PLAYERS")]
    broken = []
    for e in entries:
        if e.record is None:
            broken.append(f"{e.id}  unreadable: {e.error}")
            continue
        r = e.record
        rows.append(
            (r.id, r.game, r.status, str(len(r.moves)), _local_time(r.updated), _players(r))
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [
            c.rjust(w) if i == 3 else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=False))
        ]
        _print("  ".join([*cells, row[-1]]))
    for line in broken:
        _print(line)
    return 0


def cmd_saves_show(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    record_id = store.resolve(args.id)
    r = store.load(record_id)
    names = [s.name for s in r.seats]
    spec = r.spec()
    lines = [
        f"Game {r.id}: {spec.title} ({r.game})" + (f", preset {r.preset}" if r.preset else ""),
        f"Status: {_status(r)}",
        "Players: " + ", ".join(f"{i + 1}. {_seat(s)}" for i, s in enumerate(r.seats)),
        "Options: " + ", ".join(f"{k}={_option_text(v)}" for k, v in r.config.items()),
        f"Seed: {r.seed}" + (" (fixed deck order)" if r.deck_order is not None else ""),
        f"Started: {_local_time(r.created)}   Last played: {_local_time(r.updated)}",
        f"File: {store.path(r.id)}",
        f"Moves ({len(r.moves)}):",
    ]
    lines += [f"  {i + 1:>4}. {names[seat]}: {text}" for i, (seat, text) in enumerate(r.moves)]
    _print("\n".join(lines))
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
            what += f" ({entry.record.game}, {len(entry.record.moves)} moves)"
        answer = input(f"Delete saved game {what}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            _print("Kept it.")
            return 1
    store.delete(record_id)
    _print(f"Deleted saved game {record_id}.")
    return 0


def cmd_saves_export(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    record_id = store.resolve(args.id)
    written = store.export(record_id, args.path)
    _print(f"Exported saved game {record_id} to {written}")
    return 0


# ---------------------------------------------------------------- text
def _print(text: str) -> None:
    try:
        print(text)
    except UnicodeEncodeError:  # a terminal that cannot show a suit symbol
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        print(text.encode(encoding, "replace").decode(encoding))


def _local_time(stamp: str) -> str:
    try:
        return parse_time(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def _seat(seat: Any) -> str:
    if seat.kind == "bot":
        return f"{seat.name} (computer, {seat.level or 'medium'})"
    return f"{seat.name} ({seat.kind})"


def _players(record: GameRecord) -> str:
    return " vs ".join(
        f"{s.name} ({s.level or 'medium'})" if s.kind == "bot" else s.name for s in record.seats
    )


def _status(record: GameRecord) -> str:
    result = record.result or {}
    if record.status == "playing":
        return "playing"
    winner = result.get("winner")
    who = (
        f"{record.seats[winner].name} won"
        if type(winner) is int and 0 <= winner < len(record.seats)
        else "no winner"
    )
    reason = result.get("reason")
    return f"{record.status}: {who}" + (f" ({reason})" if reason else "")


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
