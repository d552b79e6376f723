"""`cardtable saves list | show | delete | export`: the saved games as text,
headless (Textual is imported only to draw cards in ``show``)."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saves.record import GameRecord, parse_time
from saves.store import SaveStore
from tui.cli import UserError, common_options, is_tty
from tui.cli_output import print_out as _print
from tui.plain import plain
from tui.save_words import result_sentence, result_words
from tui.settings import config_dir_of, load_settings

if TYPE_CHECKING:
    from tui.widgets.cards import CardStyle


# the list's STATUS column: the result in words, for the player named "You"
STATUS_WIDTH = 30
# moves `saves show` lists at most: the first and the last half of them
SHOWN_MOVES = 1000


def add_saves_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``saves`` command's actions, their flags and handlers."""
    common = common_options()
    actions = parser.add_subparsers(
        title="saves commands", metavar="ACTION", parser_class=type(parser), required=True
    )
    ls = actions.add_parser("list", parents=[common], help="every saved game, last played first")
    ls.set_defaults(handler=cmd_saves_list)
    show = actions.add_parser("show", parents=[common], help="one saved game in full")
    show.add_argument("id", metavar="ID")
    show.set_defaults(handler=cmd_saves_show)
    delete = actions.add_parser("delete", parents=[common], help="delete a saved game")
    delete.add_argument("id", metavar="ID")
    delete.add_argument("--yes", action="store_true", help="do not ask first")
    delete.set_defaults(handler=cmd_saves_delete)
    export = actions.add_parser(
        "export", parents=[common], help="copy a saved game's file (e.g. for a bug report)"
    )
    export.add_argument("id", metavar="ID")
    export.add_argument(
        "path",
        metavar="PATH",
        help="a file to write, or a folder (one that exists, or PATH/) to put ID.json in",
    )
    export.set_defaults(handler=cmd_saves_export)


def cmd_saves_list(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    entries = store.list()
    if not entries:
        _print(f"No saved games in {store.games_dir}")
        return 0
    _print(f"Saved games in {plain(store.games_dir, None)}, last played first:")
    rows = [("ID", "GAME", "STATUS", "MOVES", "LAST PLAYED", "PLAYERS")]
    broken = []
    for e in entries:
        if e.record is None:
            broken.append(f"{plain(e.id, 40)}  unreadable: {plain(e.error)}")
            continue
        r = e.record
        rows.append(
            (
                r.id,
                plain(r.game, 40),
                result_words(r, STATUS_WIDTH),
                str(len(r.moves)),
                _local_time(r.updated),
                _players(r),
            )
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
    names = [plain(s.name, 40) for s in r.seats]
    spec = r.spec()
    preset = f", preset {plain(r.preset, 40)}" if r.preset else ""
    lines = [
        f"Game {r.id}: {plain(spec.title, 40)} ({plain(r.game, 40)}){preset}",
        f"Status: {_status(r)}",
        "Players: " + ", ".join(f"{i + 1}. {_seat(s)}" for i, s in enumerate(r.seats)),
        "Options: " + ", ".join(f"{plain(k, 40)}={_option_text(v)}" for k, v in r.config.items()),
        f"Seed: {r.seed}" + (" (fixed deck order)" if r.deck_order is not None else ""),
        f"Started: {_local_time(r.created)}   Last played: {_local_time(r.updated)}",
        f"File: {plain(store.path(r.id), None)}",
        f"Moves ({len(r.moves)}), in words; the notation a save keeps in brackets:",
    ]
    # the cards as the table draws them (the settings' card style, or --ascii);
    # imported here: the other commands start without Textual (a test checks)
    from tui.widgets.event_log import display_text

    style = _card_style(getattr(args, "ascii", False), config_dir_of(args))
    words = functools.partial(spec.words_of_recorded_move, r.game_config())

    def move_line(i: int) -> str:
        seat, text = r.moves[i]
        return (
            f"  {i + 1:>4}. {names[seat] if 0 <= seat < len(names) else '?'}: "
            f"{display_text(words(text), style)}  [{plain(text, 100)}]"
        )

    if len(r.moves) <= SHOWN_MOVES:
        lines += map(move_line, range(len(r.moves)))
    else:  # the opening and the end; the file has the rest (`saves export`)
        half = SHOWN_MOVES // 2
        lines += map(move_line, range(half))
        lines.append(
            f"  ... {len(r.moves) - 2 * half:,} moves not shown: "
            f"`cardtable saves export {r.id} FILE` keeps them all ..."
        )
        lines += map(move_line, range(len(r.moves) - half, len(r.moves)))
    _print("\n".join(lines))
    return 0


def cmd_saves_export(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    record_id = store.resolve(args.id)
    written = store.export(record_id, args.path)
    _print(f"Exported saved game {record_id} to {plain(written, None)}")
    return 0


def cmd_saves_delete(args: argparse.Namespace) -> int:
    store = SaveStore.default(args.data_dir)
    record_id = store.resolve(args.id)
    if not args.yes:
        if not is_tty(sys.stdin):
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


def _card_style(ascii: bool, config_dir: Path) -> CardStyle:
    """The card style the app would use: ``--ascii``, else the settings', else
    ASCII where standard output cannot encode a suit symbol."""
    from tui.widgets.cards import CardStyle  # with Textual: only where cards are drawn

    settings, _ = load_settings(config_dir)
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        ascii = True
    return CardStyle(
        ascii=ascii or settings.card_style == "ascii", four_colour=settings.four_colour
    )


def _local_time(stamp: str) -> str:
    try:
        return parse_time(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError):
        return plain(stamp, 40)


def _seat(seat: Any) -> str:
    if seat.kind == "bot":
        return f"{plain(seat.name, 40)} (computer, {plain(seat.level or 'medium', 40)})"
    return f"{plain(seat.name, 40)} ({plain(seat.kind, 40)})"


def _players(record: GameRecord) -> str:
    return " vs ".join(
        f"{plain(s.name, 40)} ({plain(s.level or 'medium', 40)})"
        if s.kind == "bot"
        else plain(s.name, 40)
        for s in record.seats
    )


def _status(record: GameRecord) -> str:
    """ "playing", or "finished: Computer 1 won (Computer 1 finished first; you
    are left holding cards)": the reason with the seats' names filled in."""
    if record.status == "playing":
        return "playing"
    return f"{plain(record.status, 40)}: {result_sentence(record)}"


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return plain(value, 100)
