"""`cardtable serve`: the table server (net/server/), headless.

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
import sys

from saves.store import SaveStore


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` command's flags and handler."""
    parser.description = (
        "Run a table server: players connect with the TCP protocol of "
        "docs/protocol.md, create tables, take seats or watch. Binds to 127.0.0.1 "
        "unless told otherwise."
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
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="where the server keeps its tables, seats, names and standings: "
        "postgresql://USER@HOST/DB, or sqlite:///PATH (default: server/cardtable.db in "
        "the data folder; docs/store.md)",
    )
    parser.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="make this server one of a card room: several servers on one PostgreSQL "
        "--database share one lobby, names and standings, and send clients to the server "
        "that holds their table; HOST:PORT is where clients reach this one (docs/scaling.md)",
    )
    parser.add_argument(
        "--thinkers",
        type=int,
        default=None,
        metavar="N",
        help="processes in which computer players think (default: one per core but one; "
        "docs/bots.md)",
    )
    limits = parser.add_argument_group("limits (docs/protocol.md)")
    limits.add_argument(
        "--per-address",
        type=int,
        default=16,
        metavar="N",
        help="connections at once from one address (default 16; raise it for a club or "
        "a room of bots behind one address)",
    )
    limits.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        metavar="N",
        help="connections at once in all (default 1000; each takes a file descriptor, "
        "and the server raises its own descriptor limit to fit if it may)",
    )
    limits.add_argument(
        "--max-tables",
        type=int,
        default=1000,
        metavar="N",
        help="tables held at once (default 1000; finished ones nobody is at make room)",
    )
    limits.add_argument(
        "--tables-per-address",
        type=int,
        default=16,
        metavar="N",
        help="unfinished tables created from one address (default 16)",
    )
    limits.add_argument(
        "--tables-per-name",
        type=int,
        default=8,
        metavar="N",
        help="unfinished tables created by one player name from one address (default 8)",
    )
    limits.add_argument(
        "--empty-table-expiry",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="a waiting table nobody sits at closes after this (default 300)",
    )
    limits.add_argument(
        "--finished-table-expiry",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="a finished table leaves the lobby this long after its end, once nobody "
        "is at it (default 600)",
    )
    limits.add_argument(
        "--ping-interval",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the server pings every connection this often (default 10)",
    )
    limits.add_argument(
        "--dead-after",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="a connection whose pings go unanswered (or whose data goes unacknowledged) "
        "this long is taken as gone, and its seat's grace period starts (default 20)",
    )
    parser.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from net.server import Limits, TableServer
    from net.server.database_store import DatabaseStore
    from net.server.event_loop import run as run_server_loop
    from net.server.heap import PacedCollector, settle_heap
    from net.store import StoreError, open_store
    from net.store.legacy import upgrade
    from net.thinkers import process_pool
    from rules.registry import games

    from .cli import UserError

    if not 0 <= args.port < 65536:
        raise UserError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 < args.grace <= 24 * 3600:
        raise UserError(f"--grace must be more than 0 and at most a day, not {args.grace:g}")
    counts = {
        "--per-address": args.per_address,
        "--max-connections": args.max_connections,
        "--max-tables": args.max_tables,
        "--tables-per-address": args.tables_per_address,
        "--tables-per-name": args.tables_per_name,
    }
    if args.thinkers is not None and not 1 <= args.thinkers <= 256:
        raise UserError(f"--thinkers must be from 1 to 256, not {args.thinkers}")
    for flag, value in counts.items():
        if not 1 <= value <= 1_000_000:
            raise UserError(f"{flag} must be from 1 to 1000000, not {value}")
    seconds = {
        "--empty-table-expiry": args.empty_table_expiry,
        "--finished-table-expiry": args.finished_table_expiry,
        "--ping-interval": args.ping_interval,
        "--dead-after": args.dead_after,
    }
    for flag, value in seconds.items():
        if not 0 < value <= 24 * 3600:
            raise UserError(f"{flag} must be more than 0 and at most a day, not {value:g}")
    if args.dead_after < args.ping_interval:
        raise UserError(
            f"--dead-after ({args.dead_after:g}) must be at least --ping-interval "
            f"({args.ping_interval:g}): a client needs a ping to answer"
        )
    advertise = _advertised(args.advertise, args.database)
    connections = _descriptors_for(args.max_connections)
    limits = Limits(
        grace_seconds=args.grace,
        per_address=args.per_address,
        connections=connections,
        tables=args.max_tables,
        tables_per_address=args.tables_per_address,
        tables_per_name=args.tables_per_name,
        empty_table_seconds=args.empty_table_expiry,
        finished_table_seconds=args.finished_table_expiry,
        ping_seconds=args.ping_interval,
        dead_seconds=args.dead_after,
    )
    data_dir = SaveStore.default(getattr(args, "data_dir", None)).root
    # computer players think in processes of their own, on every core but
    # one unless told otherwise (net/thinkers.py)
    thinkers = process_pool(args.thinkers)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    async def serve() -> None:
        # the tables, seats, names and standings in a database (net/store/); a
        # data dir of the file-based server is read into it once
        try:
            store = await open_store(args.database, data_dir)
            try:
                upgraded = await upgrade(store, data_dir)
            except BaseException:
                await store.close()
                raise
        except StoreError as err:
            raise UserError(str(err)) from None
        server = TableServer(
            DatabaseStore(store, data_dir), limits=limits, executor=thinkers, advertise=advertise
        )
        # the modules and the games' tables loaded, then out of the collector's
        # sight for good (net/server/heap.py), before the earlier run's tables
        games()
        settle_heap()
        # and later the collector's full scans an hour apart (net/server/heap.py)
        pacing = asyncio.ensure_future(PacedCollector().run(asyncio.sleep))
        try:
            host, port = await server.start(args.host, args.port)
        except OSError as err:
            await store.close()
            raise UserError(f"cannot listen on {args.host}:{args.port}: {err.strerror}") from None
        except StoreError as err:
            await store.close()
            raise UserError(str(err)) from None
        # this line first: `ssh-host` reads where the server listens from it
        print(f"cardtable: serving tables on {host}:{port}; Ctrl+C stops", flush=True)
        print(f"cardtable: keeping tables in {store.where}", flush=True)
        if upgraded:
            print(f"cardtable: {upgraded}", flush=True)
        if server.room is not None:
            print(f"cardtable: one of the room's servers, reached at {advertise}", flush=True)
        # the server's own handlers, through the loop: a shell that started it
        # with SIGINT ignored (a background job) does not make it unstoppable,
        # and every client is told `closing` before its connection goes
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows: Ctrl+C
                loop.add_signal_handler(signum, stop.set)
        try:
            await stop.wait()
        finally:
            pacing.cancel()
            await server.close()

    try:
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            run_server_loop(serve())
    finally:
        thinkers.shutdown(cancel_futures=True)
    return 0


def _advertised(advertise: str | None, database: str | None) -> str | None:
    """``--advertise`` checked: HOST:PORT, with a PostgreSQL ``--database``."""
    from .cli import UserError

    if advertise is None:
        return None
    host, _, port = advertise.strip().rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(
            f"--advertise {advertise[:80]!r} is not HOST:PORT: give the address clients "
            "reach this server at, e.g. 10.0.0.5:7420"
        )
    scheme = (database or "").split(":", 1)[0].lower()
    if scheme not in ("postgresql", "postgres"):
        raise UserError(
            "--advertise makes this server one of a room, whose servers share one "
            "PostgreSQL: give --database postgresql://USER@HOST/DB too"
        )
    return f"{host}:{int(port)}"


# for the listening sockets, the saves, the logs, and the connections being
# refused (net.server closes up to 64 at once politely)
RESERVED_DESCRIPTORS = 160


def _descriptors_for(connections: int) -> int:
    """Raise this process's soft limit on open files (up to the hard one) so
    that ``connections`` fit beside what the server needs for itself; the
    connections that fit, said on stderr if fewer than asked for."""
    try:
        import resource
    except ImportError:  # not on POSIX: the system decides
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + RESERVED_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return connections
    fits = max(1, soft - RESERVED_DESCRIPTORS)
    print(
        f"cardtable: only {soft} file descriptors (ulimit -n): serving at most {fits} "
        f"connections, not {connections}",
        file=sys.stderr,
        flush=True,
    )
    return fits
