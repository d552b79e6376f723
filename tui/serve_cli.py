"""`cardtable serve`: the table server (net/server.py), headless.

It runs until interrupted (Ctrl+C, or SIGTERM as a service manager sends),
prints where it listens, and keeps each table's game in the data folder
(--data-dir, else $CARDTABLE_DATA_DIR, else the user data folder), like local
games. Either way it stops in order: the last moves' saves reach the disk."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from typing import Any

from saves.store import SaveStore


def add_serve_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """The ``serve`` subcommand, on the parser's ``add_subparsers()`` object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        parents=[common],
        help="host tables for players on the network (headless)",
        description="Run a table server: players connect with the TCP protocol of "
        "docs/protocol.md, create tables, take seats or watch. Binds to 127.0.0.1 "
        "unless told otherwise.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=7420, help="port (default 7420)")
    parser.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a dropped player's seat is held (default 60)",
    )
    parser.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from net.server import Limits, TableServer

    from .cli import UserError

    if not 0 <= args.port < 65536:
        raise UserError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 < args.grace <= 24 * 3600:
        raise UserError(f"--grace must be more than 0 and at most a day, not {args.grace:g}")
    store = SaveStore.default(getattr(args, "data_dir", None))
    server = TableServer(store, limits=Limits(grace_seconds=args.grace))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    async def serve() -> None:
        try:
            host, port = await server.start(args.host, args.port)
        except OSError as err:
            raise UserError(f"cannot listen on {args.host}:{args.port}: {err.strerror}") from None
        print(f"cardtable: serving tables on {host}:{port}; Ctrl+C stops", flush=True)
        serving = asyncio.current_task()
        assert serving is not None
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C only
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)
        try:
            await server.serve_forever()
        finally:
            await server.close()

    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(serve())
    return 0
