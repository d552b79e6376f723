"""`cardtable join HOST:PORT [--table ID]`: the app at a server's lobby, or
seated at one of its tables (a link a friend can send); with `--lines`, the
lobby in line mode."""

from __future__ import annotations

import argparse
import re
from typing import Any

from tui.plain import plain

TABLE_ID = re.compile(r"[0-9a-fA-F]{6,32}")  # as the protocol's table ids


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``join`` command's flags and handler."""
    parser.description = (
        "Open the lobby of the table server at HOST:PORT, or, with --table, "
        "sit at that table (your own seat taken back, else an open seat, else watch): "
        "a link a friend can send. With --lines, the lobby in line mode."
    )
    parser.add_argument("address", nargs="?", default="", metavar="HOST:PORT")
    parser.add_argument("--table", metavar="ID", help="the table to sit at (its id in the lobby)")
    parser.set_defaults(handler=cmd_join)


def cmd_join(args: argparse.Namespace) -> int:
    from tui.cli import UserError, launch_app

    return launch_app(args, join_launch(args, UserError))


def join_launch(args: argparse.Namespace, user_error: type[Exception]) -> dict[str, Any]:
    """What the app (or line mode) opens for ``join``; ``user_error`` with a
    sentence if the command line is wrong."""
    lines = getattr(args, "lines", False)
    if not lines and not args.address:
        raise user_error("join needs the server's address: cardtable join HOST:PORT")
    if args.address:
        from tui.network import parse_address

        try:
            parse_address(args.address)
        except ValueError as err:
            raise user_error(str(err)) from None
    launch: dict[str, Any] = {"action": "join", "address": args.address}
    if args.table is not None:
        if lines:
            raise user_error("--table is for the app; in line mode choose the table from the list")
        if not TABLE_ID.fullmatch(args.table):
            raise user_error(f"{plain(args.table, 40)!r} is not a table id (6-32 hex digits)")
        launch["table"] = args.table.lower()
    return launch
