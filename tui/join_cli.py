"""`cardtable join HOST:PORT [--table ID]`: the app at a server's lobby, or
seated at one of its tables (a link a friend can send); with `--lines`, the
lobby in line mode."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from tui.plain import plain

TABLE_ID = re.compile(r"[0-9a-fA-F]{6,32}")  # as the protocol's table ids


def add_join_parser(
    subparsers: Any,
    common: argparse.ArgumentParser,
    launch_app: Callable[[argparse.Namespace, dict[str, Any] | None], int],
    user_error: type[Exception],
) -> None:
    """The ``join`` subcommand, on the parser's ``add_subparsers()`` object."""
    join: argparse.ArgumentParser = subparsers.add_parser(
        "join",
        parents=[common],
        help="open a table server's lobby, or sit at one of its tables",
        description="Open the lobby of the table server at HOST:PORT, or, with --table, "
        "sit at that table (your own seat taken back, else an open seat, else watch): "
        "a link a friend can send. With --lines, the lobby in line mode.",
    )
    join.add_argument("address", nargs="?", default="", metavar="HOST:PORT")
    join.add_argument("--table", metavar="ID", help="the table to sit at (its id in the lobby)")

    def cmd_join(args: argparse.Namespace) -> int:
        return launch_app(args, join_launch(args, user_error))

    join.set_defaults(handler=cmd_join)


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
