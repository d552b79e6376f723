"""`cardtable bot --connect HOST:PORT`: a built-in bot at a table server,
headless, playing over the protocol like any third-party client
(net/bot_player.py)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
from typing import Any

from rules.bots import LEVELS
from tui.plain import plain


def add_bot_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bot`` command's flags and handler."""
    levels = [lv.id for lv in LEVELS]
    parser.description = (
        "Connect to a table server (`cardtable serve`, or Host in the app), "
        "take the first open seat of a table (or create one with a seat open for you) "
        "and play it with a built-in bot until the game ends. It sees only what its "
        "seat is sent (docs/protocol.md)."
    )
    parser.add_argument(
        "--connect", required=True, metavar="HOST:PORT", help="the server, like 127.0.0.1:7420"
    )
    parser.add_argument("--level", default="hard", choices=levels, help="the bot's level")
    parser.add_argument("--table", metavar="ID", help="the table to join (default: create one)")
    parser.add_argument("--name", default="", help="the name shown at the table")
    parser.add_argument(
        "--game",
        metavar="G",
        help="the game of a table it creates (default: the first it plays at full strength)",
    )
    parser.add_argument(
        "--preset", metavar="P", help="the rule variant of a table it creates (its game's presets)"
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="the seats of a table it creates (default: the game's own number; "
        "the same as --option players=N)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        dest="options",
        metavar="NAME=VALUE",
        help="an option of a table it creates (repeatable; see `cardtable rules GAME`)",
    )
    parser.set_defaults(handler=run_bot)


def parse_address(text: str, what: str = "--connect") -> tuple[str, int]:
    """``HOST:PORT`` (an IPv6 host in brackets); ValueError with a sentence."""
    from .network import split_address

    address = split_address(text)
    if address is None:
        raise ValueError(f"{what} takes HOST:PORT, like 127.0.0.1:7420, not {text!r}")
    return address


def run_bot(args: argparse.Namespace) -> int:
    from net.bot_player import BotError, play_game, result_line, sit_down, table_seats
    from net.remote import RemoteClient, RemoteError
    from rules.errors import UnknownGame

    from .cli import UserError
    from .play_cli import parse_options

    try:
        host, port = parse_address(args.connect)
    except ValueError as err:
        raise UserError(str(err)) from None
    if args.table is not None and not re.fullmatch(r"[0-9a-f]{6,32}", args.table):
        raise UserError(
            f"--table takes a table's id, like 5f662632 (as the lobby and `cardtable "
            f"bot` print it), not {plain(args.table, 40)!r}"
        )
    options: dict[str, Any] = {}
    if args.table is None:
        # the table it will create, checked here in one line before connecting
        try:
            spec, _ = table_seats(args.game)
            options = parse_options(spec, args.options)
            if args.players is not None:
                if options.get("players", args.players) != args.players:
                    raise UserError("--players and --option players= say different numbers")
                options["players"] = args.players
            _, options = table_seats(spec.id, args.preset, options)
        except UnknownGame as err:
            raise UserError(str(err)) from None
        except BotError as err:
            raise UserError(str(err)) from None
    elif args.game or args.preset or args.players is not None or args.options:
        raise UserError(
            "--game, --preset, --players and --option are for a table it creates, not with --table"
        )
    name = args.name or f"Bot ({args.level})"

    def say(text: str) -> None:
        print(f"cardtable bot: {text}", flush=True)

    async def play() -> None:
        try:
            client = await RemoteClient.connect(host, port, name, client="cardtable-bot")
        except (OSError, ConnectionError) as err:
            reason = getattr(err, "strerror", None) or err
            raise BotError(f"cannot connect to {host}:{port}: {reason}") from None
        except RemoteError as err:
            raise BotError(f"the server at {host}:{port} refused us: {err}") from None
        try:
            await sit_down(client, args.table, args.game, say, preset=args.preset, options=options)
            seat = client.my_seats[0]
            say(f"playing seat {seat + 1} of table {client.table_id} at level {args.level}")
            outcome = await play_game(client, args.level, say)
            say(result_line(outcome, seat, [s.name for s in client.seats]))
        finally:
            await client.close()

    try:
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            asyncio.run(play())
    except BotError as err:
        print(f"cardtable bot: {err}", file=sys.stderr, flush=True)
        return 1
    return 0
