"""The embedded engine: one SQLite file (the standard library's sqlite3) in
the server's data dir, in WAL mode with ``synchronous=FULL``, so a commit is
on disk (the log fsynced) when it returns.

One writer thread owns the writing connection: it takes every operation
queued, runs them in one ``BEGIN IMMEDIATE`` ... ``COMMIT`` and settles
their futures on the event loop; operations queued meanwhile make the next
group. Reads go to one reader thread with its own connection (WAL lets it
read while the writer writes), so the event loop never waits for the disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .engine import Op, Result, Step, WriterFigures, merged, one_statement
from .errors import StoreConflict, StoreCorrupt, StoreError, StoreFull, StoreUnavailable, brief
from .handoff import Pending, hand_over, next_group, settle_all, settle_failed

# sqlite3's primary result codes (https://sqlite.org/rescode.html)
_FULL, _CANTOPEN, _READONLY, _IOERR, _CORRUPT, _NOTADB, _PERM = 13, 14, 8, 10, 11, 26, 3


class SqliteEngine:
    dialect = "sqlite"

    def __init__(self, path: Path, *, linger: float = 0.0) -> None:
        self.path = Path(path)
        self.where = f"the SQLite database {self.path}"
        self.figures = WriterFigures()
        # seconds the writer waits after the first operation of a group for
        # more (0: group only what queued up during the previous commit)
        self.linger = linger
        self._queue: queue.SimpleQueue[Pending | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._write_conn: sqlite3.Connection | None = None
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="store-read")
        self._read_conn: sqlite3.Connection | None = None

    # ------------------------------------------------------------ connections
    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 10000")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise StoreUnavailable(
                    f"{self.where} cannot use its write-ahead log: put the data dir on a local disk"
                )
            conn.execute("PRAGMA synchronous = FULL")  # WAL + FULL: a commit is fsynced
            conn.execute("PRAGMA foreign_keys = ON")
            return conn
        except OSError as err:
            raise StoreUnavailable(
                f"cannot create {self.where}: {brief(err)}: check the data dir is writable"
            ) from err
        except sqlite3.Error as err:
            raise self.error(err) from err

    def error(self, err: sqlite3.Error) -> StoreError:
        """sqlite3's exception as one line that says what to do."""
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
        if isinstance(err, sqlite3.IntegrityError):
            return StoreConflict(f"{self.where} refused a write: {brief(err)}")
        if code == _FULL:
            return StoreFull(
                f"the disk holding {self.path} is full: nothing more is kept until room is made"
                " there (the server goes on once there is)"
            )
        if code in (_NOTADB, _CORRUPT):
            return StoreCorrupt(
                f"{self.path} is not a readable cardtable database ({brief(err)}): move it "
                "aside and start again, or give another --database"
            )
        if code in (_CANTOPEN, _READONLY, _PERM, _IOERR):
            return StoreUnavailable(
                f"cannot write {self.where} ({brief(err)}): check the data dir is writable "
                "and its disk is mounted"
            )
        return StoreUnavailable(f"{self.where} failed: {brief(err)}")

    # ------------------------------------------------------------ schema
    async def migrate(self, steps: Sequence[Step]) -> int:
        return await asyncio.to_thread(self._migrate, steps)

    def _migrate(self, steps: Sequence[Step]) -> int:
        conn = self._write_conn = self._write_conn or self._connect()
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                " what TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL)"
            )
            for step in steps:
                conn.execute("BEGIN IMMEDIATE")  # one migrator at a time
                try:
                    found = conn.execute("SELECT max(version) FROM schema_version").fetchone()
                    if (found[0] or 0) < step.version:
                        for sql in step.sqlite:
                            conn.execute(sql)
                        conn.execute(
                            "INSERT INTO schema_version VALUES (?, ?, ?)",
                            (step.version, step.what, time.time()),
                        )
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            found = conn.execute("SELECT max(version) FROM schema_version").fetchone()
            return int(found[0] or 0)
        except sqlite3.Error as err:
            raise self.error(err) from err

    # ------------------------------------------------------------ writing
    async def write(self, op: Op) -> Result:
        if self._writer is None:
            self._writer = threading.Thread(
                target=self._write_loop, name="store-write", daemon=True
            )
            self._writer.start()
        # not shielded: a caller cancelled cancels its future, which the
        # writer then leaves alone (``settle_all``); a shield cost every
        # write a second future and a turn of the loop
        return await hand_over(self._queue, op)

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            if self.linger:
                time.sleep(self.linger)
            group, stop = next_group(self._queue, first)
            try:
                self._commit(group)
            except Exception as err:  # a bug must not leave writers waiting for ever
                settle_failed(group, self.where, err)
            if stop:
                return

    def _commit(self, group: list[Pending]) -> None:
        began = time.perf_counter()
        try:
            results = self._transaction([p.op for p in group], careful=False)
        except StoreConflict:
            # one operation is at fault: again, each in a savepoint, so it fails alone
            try:
                results = self._transaction([p.op for p in group], careful=True)
            except StoreError as err:
                results = [err] * len(group)
        except StoreError as err:
            results = [err] * len(group)
        if not all(isinstance(r, StoreError) for r in results):
            self.figures.count(len(group), time.perf_counter() - began)
        settle_all(group, results)

    def _transaction(self, ops: list[Op], *, careful: bool) -> list[Result | StoreError]:
        try:
            conn = self._write_conn = self._write_conn or self._connect()
            statements, wanted = merged(ops)
            limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
            alone = None if careful else one_statement(statements, limit)
            if alone is not None:
                # a group of moves and nothing else: one statement, its own
                # transaction (atomic, and fsynced as it returns). Each call
                # into SQLite hands the interpreter back and takes it again,
                # a wait of up to the switch interval behind a busy event
                # loop: BEGIN, a step a row and COMMIT were six such waits
                # for four moves, and the commit waited 12 ms at the median
                # beside a busy thread where one statement waited 2-4 ms
                conn.execute(alone.sql, alone.params)
                return [[] for _ in ops]
            conn.execute("BEGIN IMMEDIATE")
            try:
                if careful:
                    results = [self._careful(conn, op) for op in ops]
                else:
                    rows = _run(conn, statements, every=True)
                    results = [[rows[i] for i in mine] for mine in wanted]
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            return results
        except sqlite3.Error as err:
            raise self.error(err) from err
        except (ValueError, TypeError, OverflowError) as err:  # a value SQLite cannot hold
            raise StoreConflict(f"{self.where} refused a write: {brief(err)}") from err

    def _careful(self, conn: sqlite3.Connection, op: Op) -> Result | StoreError:
        conn.execute("SAVEPOINT op")
        try:
            result = _run(conn, op)
        except (sqlite3.IntegrityError, ValueError, TypeError, OverflowError) as err:
            conn.execute("ROLLBACK TO op")
            conn.execute("RELEASE op")
            if isinstance(err, sqlite3.Error):
                return self.error(err)
            return StoreConflict(f"{self.where} refused a write: {brief(err)}")
        conn.execute("RELEASE op")
        return result

    # ------------------------------------------------------------ reading
    async def read(self, op: Op) -> Result:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, self._read, op)

    def _read(self, op: Op) -> Result:
        try:
            conn = self._read_conn = self._read_conn or self._connect()
            conn.execute("BEGIN")  # one snapshot for every statement
            try:
                return _run(conn, op)
            finally:
                conn.execute("COMMIT")
        except sqlite3.Error as err:
            raise self.error(err) from err

    async def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._writer.join)
            self._writer = None
        await asyncio.get_running_loop().run_in_executor(self._reader, self._close_reader)
        self._reader.shutdown(wait=True)
        if self._write_conn is not None:
            self._write_conn.close()
            self._write_conn = None

    def _close_reader(self) -> None:
        if self._read_conn is not None:
            self._read_conn.close()
            self._read_conn = None


def _run(conn: sqlite3.Connection, op: Op, *, every: bool = False) -> Result:
    """The rows of each statement that wants them (``every``: a list for
    every statement, empty for those that want none)."""
    result: Result = []
    for stmt in op:
        if stmt.many is not None:
            conn.executemany(stmt.sql, stmt.many)
            if every:
                result.append([])
            continue
        cursor = conn.execute(stmt.sql, tuple(stmt.params))
        if stmt.rows:
            result.append([tuple(row) for row in cursor.fetchall()])
        elif every:
            result.append([])
    return result
