"""The shared engine: PostgreSQL through psycopg 3's async connections.

One writer thread owns the writing connection, on an event loop of its
own: it takes every operation queued, sends them in one transaction through
psycopg's pipeline mode (the statements go out back to back, one round trip
for the lot), and settles their futures on the server's loop once the
COMMIT is answered; operations queued meanwhile make the next group. (On
the server's own loop, each of a commit's waits for PostgreSQL's answers
was a turn of that loop, milliseconds each on a busy server.) Reads use a
few other connections (``READERS``, opened as reads come at once), each
read one round trip: a lone statement, or several in one REPEATABLE READ
snapshot through pipeline mode. A connection that
breaks fails the operations in flight with StoreUnavailable and is opened
again at the next one (no more than once a second), so a database that went
away and came back is used again without a restart, and nothing
acknowledged is lost: an operation is acknowledged only after its COMMIT.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import threading
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict

from .engine import MAX_GROUP, Op, Result, Row, Step, Stmt, WriterFigures, merged, one_statement
from .errors import (
    BadDatabaseUrl,
    StoreConflict,
    StoreError,
    StoreFull,
    StoreUnavailable,
    brief,
)
from .handoff import Pending, hand_over, next_group, settle_all, settle_failed

MIGRATION_LOCK = 0x63617264  # pg_advisory_xact_lock key: one server migrates at a time
RECONNECT_EVERY = 1.0  # seconds between attempts to reach a database that is down
CONNECT_TIMEOUT = 5  # seconds (libpq's connect_timeout)
# A server whose machine vanishes in the middle of a transaction leaves its
# row locks held until PostgreSQL finds the connection dead (TCP's own
# timeouts: hours), and a take-over skips locked rows (SKIP LOCKED): each
# session of ours ends a transaction left idle this long, and probes a quiet
# connection's peer this often (net/server/room.py takes a silent server's
# tables after about 4 s; our transactions are pipelined, never idle for long)
SESSION_SETTINGS = (
    ("idle_in_transaction_session_timeout", "5s"),
    ("tcp_keepalives_idle", "5"),
    ("tcp_keepalives_interval", "2"),
    ("tcp_keepalives_count", "3"),
)
# reading connections at most: reads at once (a server's hellos, a take-over's
# records) wait for a turn of the event loop each, not for each other
READERS = 4
MAX_PARAMS = 65_535  # parameters of one statement (the protocol's 16-bit count)

_placeholders: dict[str, str] = {}
_PASSWORD = re.compile(r"(//[^:/@?]*):[^@/?]*@")  # user:password@


def _sql(text: str, *, keep: bool = True) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (remembered, unless
    not ``keep``: a group's insert of many rows is another text each size)."""
    found = _placeholders.get(text)
    if found is None:
        if "%" in text:
            raise ValueError(f"a % in the store's SQL: {text}")
        found = text.replace("?", "%s")
        if keep:
            _placeholders[text] = found
    return found


def shown_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return _PASSWORD.sub(r"\1:***@", url)


async def _send(
    conn: psycopg.AsyncConnection[Any], statements: Sequence[Stmt]
) -> list[psycopg.AsyncCursor[Any]]:
    """Send the statements; a cursor for each."""
    cursors = []
    for stmt in statements:
        cur = conn.cursor()
        if stmt.many is not None:
            await cur.executemany(_sql(stmt.sql), stmt.many)
        else:
            await cur.execute(_sql(stmt.sql), tuple(stmt.params))
        cursors.append(cur)
    return cursors


class _LoneReads:
    """Lone statements read together: those that come while a batch is read
    go in the next, one pipeline, one round trip for the lot (a server's
    hellos, a take-over's records)."""

    def __init__(self, engine: PostgresEngine) -> None:
        self.engine = engine
        self._waiting: list[tuple[Stmt, asyncio.Future[list[Row]]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def read(self, stmt: Stmt) -> list[Row]:
        """``stmt``'s rows, read with the lone statements that come meanwhile."""
        wanted: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        self._waiting.append((stmt, wanted))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send())
        return await wanted

    async def _send(self) -> None:
        engine = self.engine
        while self._waiting:
            async with engine._reading:
                batch, self._waiting = self._waiting[:MAX_GROUP], self._waiting[MAX_GROUP:]
                try:
                    conn = await engine._free_reader()
                except StoreError as err:
                    for _, wanted in batch:
                        if not wanted.done():
                            wanted.set_exception(err)
                    continue
                try:
                    await self._batch(conn, batch)
                finally:
                    engine._put_back(conn)

    async def _batch(
        self,
        conn: psycopg.AsyncConnection[Any],
        batch: list[tuple[Stmt, asyncio.Future[list[Row]]]],
    ) -> None:
        """The batch in one pipeline; if a statement fails, each again on
        its own (so that it fails alone)."""
        try:
            async with conn.pipeline():
                cursors = await _send(conn, [stmt for stmt, _ in batch])
            found = [
                [tuple(r) for r in await cur.fetchall()] if stmt.rows else []
                for cur, (stmt, _) in zip(cursors, batch, strict=True)
            ]
        except psycopg.Error:
            await self._each(conn, batch)
            return
        for (_, wanted), rows in zip(batch, found, strict=True):
            if not wanted.done():
                wanted.set_result(rows)

    async def _each(
        self,
        conn: psycopg.AsyncConnection[Any],
        batch: list[tuple[Stmt, asyncio.Future[list[Row]]]],
    ) -> None:
        """The batch one statement at a time: each fails alone."""
        for stmt, wanted in batch:
            try:
                if conn.broken or conn.closed:
                    raise psycopg.OperationalError("the connection to the server was lost")
                cur = await conn.execute(_sql(stmt.sql), tuple(stmt.params))
                rows = [tuple(r) for r in await cur.fetchall()] if stmt.rows else []
            except psycopg.Error as err:
                self.engine._forget(conn)
                if not wanted.done():
                    wanted.set_exception(self.engine.error(err))
                continue
            if not wanted.done():
                wanted.set_result(rows)

    async def finish(self) -> None:
        """Return once the statements waiting have been read."""
        if self._sender is not None and not self._sender.done():
            with contextlib.suppress(Exception):
                await self._sender


class PostgresEngine:
    dialect = "postgresql"

    def __init__(self, url: str, *, linger: float = 0.0) -> None:
        try:
            conninfo_to_dict(url)
        except psycopg.Error as err:
            raise BadDatabaseUrl(
                f"--database {shown_url(url)!r} is not a PostgreSQL URL ({brief(err)}): "
                "write it as postgresql://USER@HOST/DATABASE"
            ) from err
        self.url = url
        self.where = f"the PostgreSQL database {shown_url(url)}"
        self.figures = WriterFigures()
        self.linger = linger
        self._queue: queue.SimpleQueue[Pending | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._write_conn: psycopg.AsyncConnection[Any] | None = None
        # the reading connections, opened as reads come at once (at most
        # READERS), and those free: a read waits only for one of them
        self._readers: list[psycopg.AsyncConnection[Any]] = []
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._reading = asyncio.Semaphore(READERS)
        self._closing: set[asyncio.Task[None]] = set()
        self._lone = _LoneReads(self)  # lone statements, read together
        self._down: StoreError | None = None  # why the last attempt to connect failed
        self._down_until = 0.0  # (time.monotonic) no new attempt before
        self.reconnect_every = RECONNECT_EVERY

    # ------------------------------------------------------------ connections
    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        if self._down is not None and time.monotonic() < self._down_until:
            raise self._down
        try:
            conn = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
            # (set_config, not the URL's `options`: a URL that has its own keeps them)
            await conn.execute(
                "SELECT " + ", ".join("set_config(%s, %s, false)" for _ in SESSION_SETTINGS),
                [value for setting in SESSION_SETTINGS for value in setting],
            )
        except psycopg.Error as err:
            self._down = self.error(err)
            self._down_until = time.monotonic() + self.reconnect_every
            raise self._down from err
        self._down = None
        return conn

    def error(self, err: psycopg.Error) -> StoreError:
        """psycopg's exception as one line that says what to do."""
        if isinstance(err, pg_errors.IntegrityError):
            return StoreConflict(f"{self.where} refused a write: {brief(err)}")
        if isinstance(err, pg_errors.DiskFull):
            return StoreFull(
                f"the disk of {self.where} is full: nothing more is kept until room is made "
                "there (the server goes on once there is)"
            )
        if isinstance(err, pg_errors.InsufficientPrivilege):
            return StoreUnavailable(
                f"{self.where} refused: {brief(err)}: grant the user the right to create "
                "and write tables in that database"
            )
        if isinstance(err, psycopg.OperationalError):
            return StoreUnavailable(
                f"cannot reach {self.where}: {brief(err)}: check that PostgreSQL runs there "
                "and that the URL's user, host and database are right"
            )
        return StoreError(f"{self.where} failed: {brief(err)}")

    def _forget(self, conn: psycopg.AsyncConnection[Any] | None) -> None:
        """Drop a connection that broke (the next operation opens another)."""
        if conn is not None and (conn.broken or conn.closed):
            if conn is self._write_conn:
                self._write_conn = None
            if conn in self._readers:
                self._readers.remove(conn)

    # ------------------------------------------------------------ schema
    async def migrate(self, steps: Sequence[Step]) -> int:
        conn = await self._connect()
        try:
            async with conn:
                for step in steps:
                    async with conn.transaction():
                        await conn.execute(
                            _sql("SELECT pg_advisory_xact_lock(?)"), (MIGRATION_LOCK,)
                        )
                        await conn.execute(
                            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY"
                            " KEY, what TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL)"
                        )
                        cur = await conn.execute("SELECT max(version) FROM schema_version")
                        found = await cur.fetchone()
                        if ((found[0] if found else None) or 0) < step.version:
                            for sql in step.postgresql:
                                await conn.execute(sql)
                            await conn.execute(
                                _sql("INSERT INTO schema_version VALUES (?, ?, ?)"),
                                (step.version, step.what, time.time()),
                            )
                cur = await conn.execute("SELECT max(version) FROM schema_version")
                found = await cur.fetchone()
                return int((found[0] if found else None) or 0)
        except psycopg.Error as err:
            raise self.error(err) from err

    # ------------------------------------------------------------ writing
    async def write(self, op: Op) -> Result:
        if self._writer is None or not self._writer.is_alive():
            self._writer = threading.Thread(
                target=asyncio.run, args=(self._write_loop(),), name="store-write", daemon=True
            )
            self._writer.start()
        # not shielded: a caller cancelled cancels its future, which the
        # writer then leaves alone (``settle_all``)
        return await hand_over(self._queue, op)

    async def _write_loop(self) -> None:
        """The writer thread's loop: nothing else runs on it, so it blocks
        on the queue between groups."""
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                if self.linger:
                    await asyncio.sleep(self.linger)
                group, stop = next_group(self._queue, first)
                try:
                    await self._commit(group)
                except Exception as err:  # a bug must not leave writers waiting for ever
                    settle_failed(group, self.where, err)
                if stop:
                    return
        finally:
            if self._write_conn is not None:  # (a connection belongs to its loop)
                with contextlib.suppress(psycopg.Error):
                    await self._write_conn.close()
                self._write_conn = None

    async def _commit(self, group: list[Pending]) -> None:
        ops = [p.op for p in group]
        began = time.perf_counter()
        try:
            results: list[Result | StoreError] = list(await self._transaction(ops))
        except StoreConflict:
            # one operation is at fault: again, each in a savepoint, so it fails alone
            try:
                results = await self._careful(ops)
            except StoreError as err:
                results = [err] * len(group)
        except StoreError as err:
            results = [err] * len(group)
        if not all(isinstance(r, StoreError) for r in results):
            self.figures.count(len(group), time.perf_counter() - began)
        settle_all(group, results)

    async def _transaction(self, ops: list[Op]) -> list[Result]:
        conn = self._write_conn = self._write_conn or await self._connect()
        try:
            statements, wanted = merged(ops)
            alone = one_statement(statements, MAX_PARAMS)
            if alone is not None:  # (moves only: autocommit makes it its own transaction)
                await conn.execute(_sql(alone.sql, keep=False), alone.params)
                return [[] for _ in ops]
            async with conn.pipeline(), conn.transaction():
                cursors = await _send(conn, statements)
            return [
                [[tuple(r) for r in await cursors[i].fetchall()] for i in mine] for mine in wanted
            ]
        except psycopg.Error as err:
            self._forget(conn)
            raise self.error(err) from err
        except (ValueError, TypeError, OverflowError) as err:
            raise StoreConflict(f"{self.where} refused a write: {brief(err)}") from err

    async def _careful(self, ops: list[Op]) -> list[Result | StoreError]:
        """``ops`` in one transaction, each in a savepoint of its own."""
        conn = self._write_conn = self._write_conn or await self._connect()
        results: list[Result | StoreError] = []
        try:
            async with conn.transaction():
                for op in ops:
                    try:
                        async with conn.transaction():  # a savepoint
                            cursors = await _send(conn, op)
                            results.append(
                                [
                                    [tuple(r) for r in await c.fetchall()]
                                    for c, stmt in zip(cursors, op, strict=True)
                                    if stmt.rows
                                ]
                            )
                    except (pg_errors.IntegrityError, pg_errors.DataError) as err:
                        results.append(self.error(err))
                    except (ValueError, TypeError, OverflowError) as err:
                        results.append(StoreConflict(f"{self.where} refused a write: {brief(err)}"))
            return results
        except psycopg.Error as err:
            self._forget(conn)
            raise self.error(err) from err

    # ------------------------------------------------------------ reading
    async def read(self, op: Op) -> Result:
        """One round trip on a free reading connection: a lone statement is
        a snapshot of its own; several go out back to back (pipeline mode)
        in one REPEATABLE READ transaction. On one connection, statement by
        statement, each with its BEGIN and COMMIT, a read waited four turns
        of a busy event loop behind every read before it, and a server
        taking tables over while its players said hello waited seconds."""
        if len(op) == 1:
            rows = await self._lone.read(op[0])
            return [rows] if op[0].rows else []
        async with self._reading:
            conn = await self._free_reader()
            try:
                async with conn.pipeline(), conn.transaction():
                    cursors = await _send(conn, op)
                return [
                    [tuple(r) for r in await cur.fetchall()]
                    for cur, stmt in zip(cursors, op, strict=True)
                    if stmt.rows
                ]
            except psycopg.Error as err:
                self._forget(conn)
                raise self.error(err) from err
            finally:
                self._put_back(conn)

    async def _free_reader(self) -> psycopg.AsyncConnection[Any]:
        """A free reading connection (opened if none is): under ``_reading``."""
        if self._idle:
            return self._idle.pop()
        conn = await self._reader()
        self._readers.append(conn)
        return conn

    def _put_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """A reading connection back among the free, if it is fit to be (a
        read cancelled half-way may leave its transaction open: closed)."""
        if conn not in self._readers:
            return  # broken, forgotten
        if not conn.closed and conn.info.transaction_status == pq.TransactionStatus.IDLE:
            self._idle.append(conn)
            return
        self._readers.remove(conn)
        closing = asyncio.ensure_future(conn.close())
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    async def _reader(self) -> psycopg.AsyncConnection[Any]:
        """The reading connection: its transactions are REPEATABLE READ
        (psycopg's BEGIN says so, in the same round trip)."""
        conn = await self._connect()
        try:
            await conn.set_isolation_level(psycopg.IsolationLevel.REPEATABLE_READ)
        except psycopg.Error as err:
            await conn.close()
            raise self.error(err) from err
        return conn

    async def close(self) -> None:
        await self._lone.finish()
        if self._writer is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._writer.join)  # (it closes its connection)
            self._writer = None
        for conn in self._readers:
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    await conn.close()
        self._write_conn = None
        self._readers, self._idle = [], []
