"""`cardtable ssh-host`: let visitors play over ssh (net/ssh_host.py).

Headless: it runs the SSH server until interrupted and prints where it
listens and how to connect."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from saves.store import SaveStore

if TYPE_CHECKING:
    from net.ssh_host import HostConfig, TableServerProcess
    from net.visitors import HostLimits


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``ssh-host`` command's flags and handler."""
    parser.description = (
        "Serve cardtable over SSH: each visitor gets the home screen in a "
        "terminal of their own, with their own saved games (docs/hosting.md). Binds to "
        "127.0.0.1 unless told otherwise."
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
    add_visitor_flags(parser)
    parser.set_defaults(handler=run_host)


def add_visitor_flags(parser: argparse.ArgumentParser) -> None:
    """What every door for visitors (ssh-host, web) asks alike: the table
    server they meet at, where else they may join, and their ceilings."""
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="the table server visitors join to play each other (default: `cardtable serve` "
        "started here in its own process on 127.0.0.1, keeping its tables in the data folder)",
    )
    parser.add_argument(
        "--allow-join",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="another table server visitors may join (repeatable); they reach no other address",
    )
    parser.add_argument(
        "--visitor-cpu",
        type=int,
        default=3600,
        metavar="SECONDS",
        help="CPU time one visitor's program may use before it is stopped (0: no ceiling; "
        "default 3600). Visitors run at a lower priority either way",
    )
    parser.add_argument(
        "--visitor-memory",
        type=int,
        default=512,
        metavar="MB",
        help="address space of one visitor's program (default 512)",
    )


def visitor_limits(args: argparse.Namespace) -> HostLimits:
    """The ceilings the command line asks for (UserError, one line, if wrong)."""
    from net.visitors import HostLimits

    from .cli import UserError

    for address in args.allow_join:
        _check_address("--allow-join", address)
    if args.visitor_cpu < 0:
        raise UserError(f"--visitor-cpu is 0 (no ceiling) or more seconds, not {args.visitor_cpu}")
    if args.visitor_memory < 64:
        raise UserError(f"--visitor-memory is at least 64 (MB), not {args.visitor_memory}")
    return HostLimits(
        memory_bytes=args.visitor_memory * 2**20, cpu_seconds=args.visitor_cpu or None
    )


def host_config(args: argparse.Namespace, data_dir: Path, game_server: str) -> HostConfig:
    """What the command line asks of the host (UserError, one line, if it is wrong)."""
    from net.ssh_host import HostConfig

    return HostConfig(
        data_dir=data_dir,
        authorized_keys=args.authorized_keys,
        limits=visitor_limits(args),
        game_server=game_server,
        allow_join=tuple(args.allow_join),
    )


def run_host(args: argparse.Namespace) -> int:
    from net.bytecode import compile_program_in_background
    from net.ssh_host import start_host

    from .cli import UserError

    if not 0 < args.port < 65536:
        raise UserError(f"--port must be from 1 to 65535, not {args.port}")
    keys: Path | None = args.authorized_keys
    if keys is not None and not keys.is_file():
        raise UserError(f"--authorized-keys: there is no file {keys}")
    server_address: str | None = args.server
    if server_address is not None:
        _check_address("--server", server_address)
    store = SaveStore.default(getattr(args, "data_dir", None))
    host_config(args, store.root, server_address or "127.0.0.1:1")  # its mistakes, before starting

    async def serve() -> None:
        # a service manager's stop: in order, from the start (before we say we listen)
        serving = asyncio.current_task()
        assert serving is not None
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)
        compile_program_in_background()  # visitors write no bytecode: the host does, once
        visitors = host_config(args, store.root, "127.0.0.1:1").limits.sessions
        address, tables = await offered_table_server(server_address, store.root, visitors)
        config = host_config(args, store.root, address)
        try:
            try:
                listener, _ = await start_host(config, args.host, args.port)
            except OSError as err:
                reason = err.strerror or err
                raise UserError(f"cannot listen on {args.host}:{args.port}: {reason}") from None
            who = "guests welcome" if keys is None else f"keys in {keys}"
            where = f"ssh -p {args.port} NAME@{args.host}"
            print(f"cardtable: {where} ({who}); Ctrl+C stops", flush=True)
            print(f"cardtable: visitors play each other at the table server {address}", flush=True)
            try:
                await listener.wait_closed()
            finally:
                listener.close()
        finally:
            if tables is not None:
                await tables.stop()

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(serve())
    return 0


async def offered_table_server(
    address: str | None, data_dir: Path, visitors: int
) -> tuple[str, TableServerProcess | None]:
    """The table server visitors meet at: ``address`` if the host named one,
    else ``cardtable serve`` started here in a process of its own (a busy
    table must not slow the visitors' keystrokes), on loopback; ``stop()``
    the process returned, if any. UserError if it does not start."""
    from net.ssh_host import TableServerProcess

    from .cli import UserError

    if address is not None:
        return address, None
    try:
        tables = await TableServerProcess.start(data_dir, visitors)
    except OSError as err:
        raise UserError(str(err)) from None
    return tables.address, tables


def _check_address(flag: str, text: str) -> None:
    from .cli import UserError
    from .network import split_address

    if split_address(text) is None:
        raise UserError(f"{flag} must be HOST:PORT, like 127.0.0.1:7420, not {text!r}")
