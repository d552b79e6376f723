"""`cardtable web`: let visitors play in a browser (net/web_host.py).

Headless: it serves the page until interrupted and prints its address. The
visitors are guests, confined exactly as ssh-host's are, and they meet
ssh-host's at the same table server when both are given one (--server)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from saves.store import SaveStore

from .host_cli import _check_address, add_visitor_flags, offered_table_server, visitor_limits


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``web`` command's flags and handler."""
    parser.description = (
        "Serve cardtable to browsers: each tab gets the home screen in a terminal "
        "of its own, with its visitor's own saved games, as an ssh-host guest does "
        "(docs/hosting.md). Binds to 127.0.0.1 unless told otherwise."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    parser.add_argument(
        "--guests",
        action="store_true",
        help="anybody who reaches the page may play, as a guest (required: a browser "
        "visitor proves nothing else)",
    )
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="a reverse proxy on this machine forwards the visitors: take a visitor's "
        "address from X-Forwarded-For (for the limits per address)",
    )
    add_visitor_flags(parser)
    parser.set_defaults(handler=run_web)


def run_web(args: argparse.Namespace) -> int:
    from net.bytecode import compile_program_in_background
    from net.web_host import WebConfig, listening_port, start_web_host

    from .cli import UserError

    if not args.guests:
        raise UserError("cardtable web serves guests only: add --guests to let anybody play")
    if not 0 <= args.port < 65536:
        raise UserError(f"--port must be from 1 to 65535, not {args.port}")
    if args.server is not None:
        _check_address("--server", args.server)
    limits = visitor_limits(args)  # its mistakes, before starting
    store = SaveStore.default(getattr(args, "data_dir", None))

    async def serve() -> None:
        serving = asyncio.current_task()
        assert serving is not None
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)
        compile_program_in_background()  # visitors write no bytecode: the host does, once
        address, tables = await offered_table_server(args.server, store.root, limits.sessions)
        config = WebConfig(
            data_dir=store.root,
            limits=limits,
            game_server=address,
            allow_join=tuple(args.allow_join),
            behind_proxy=args.behind_proxy,
        )
        try:
            try:
                runner, _ = await start_web_host(config, args.host, args.port)
            except OSError as err:
                reason = err.strerror or err
                raise UserError(f"cannot listen on {args.host}:{args.port}: {reason}") from None
            try:
                where = f"http://{args.host}:{listening_port(runner)}/"
                print(f"cardtable: open {where} in a browser (guests welcome); Ctrl+C stops")
                print(f"cardtable: visitors play each other at the table server {address}")
                await asyncio.Event().wait()  # until interrupted
            finally:
                await runner.cleanup()  # every visitor hung up on; their games are saved
        finally:
            if tables is not None:
                await tables.stop()

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(serve())
    return 0
