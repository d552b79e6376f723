"""`cardtable ssh-host`: let visitors play over ssh (net/ssh_host.py).

Headless: it runs the SSH server until interrupted and prints where it
listens and how to connect."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from pathlib import Path
from typing import Any

from saves.store import SaveStore


def add_host_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """The ``ssh-host`` subcommand, on the parser's ``add_subparsers()`` object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ssh-host",
        parents=[common],
        help="let visitors play cardtable with ssh",
        description="Serve cardtable over SSH: each visitor gets the home screen in a "
        "terminal of their own, with their own saved games (docs/hosting.md). Binds to "
        "127.0.0.1 unless told otherwise.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--authorized-keys",
        type=Path,
        metavar="FILE",
        help="only keys in this file may log in; each key has its own saves",
    )
    who.add_argument(
        "--guests",
        action="store_true",
        help="anybody may log in; the login name is the visitor's name",
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="the table server visitors join to play each other (default: one started "
        "here on 127.0.0.1, keeping its tables in the data folder)",
    )
    parser.set_defaults(handler=run_host)


def run_host(args: argparse.Namespace) -> int:
    from net.ssh_host import HostConfig, start_host

    from .cli import UserError

    if not 0 < args.port < 65536:
        raise UserError(f"--port must be from 1 to 65535, not {args.port}")
    keys: Path | None = args.authorized_keys
    if keys is not None and not keys.is_file():
        raise UserError(f"--authorized-keys: there is no file {keys}")
    server_address: str | None = args.server
    if server_address is not None:
        _check_address(server_address)
    store = SaveStore.default(getattr(args, "data_dir", None))

    async def serve() -> None:
        from net.server import TableServer

        tables = None
        address = server_address
        if address is None:
            # visitors meet at a table server of our own, on loopback only
            tables = TableServer(store)
            host, port = await tables.start("127.0.0.1", 0)
            address = f"{host}:{port}"
        config = HostConfig(data_dir=store.root, authorized_keys=keys, game_server=address)
        try:
            acceptor, _ = await start_host(config, args.host, args.port)
        except OSError as err:
            if tables is not None:
                await tables.close()
            raise UserError(f"cannot listen on {args.host}:{args.port}: {err.strerror}") from None
        who = "guests welcome" if keys is None else f"keys in {keys}"
        print(f"cardtable: ssh -p {args.port} NAME@{args.host} ({who}); Ctrl+C stops", flush=True)
        print(f"cardtable: visitors play each other at the table server {address}", flush=True)
        try:
            await acceptor.wait_closed()
        finally:
            acceptor.close()
            if tables is not None:
                await tables.close()

    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(serve())
    return 0


def _check_address(text: str) -> None:
    from .cli import UserError
    from .network import split_address

    if split_address(text) is None:
        raise UserError(f"--server must be HOST:PORT, like 127.0.0.1:7420, not {text!r}")
