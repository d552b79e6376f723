"""What the store asks of a database engine: statements in, rows out.

A write is an *operation*: a few statements that belong together (a move and
the end of the game it ends, a seat's tokens). The engine groups the
operations that arrive while it is committing the previous group into one
transaction (group commit: one fsync for many moves, from many tables), and
settles each operation's future once that transaction is committed, never
before. An operation that fails inside a group is retried alone, so one bad
operation (a duplicate move) fails only itself.

The SQL is written once, with ``?`` placeholders and types both engines
know (TEXT, BIGINT, DOUBLE PRECISION, BOOLEAN); each engine adapts the
placeholders (net/store/sqlite_engine.py, net/store/postgres_engine.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Stmt:
    """One statement: ``sql`` with ``?`` placeholders, run once with
    ``params``, or once per item of ``many``; ``rows``: its rows are wanted
    (a SELECT, or RETURNING)."""

    sql: str
    params: Sequence[Any] = ()
    many: Sequence[Sequence[Any]] | None = None
    rows: bool = False


Op = Sequence[Stmt]
# the rows of each statement of an operation that wants rows, in order
Result = list[list[Row]]


@dataclass(frozen=True)
class Step:
    """One migration: its number (the ``schema_version`` it brings the
    database to), what it does, and its statements per engine."""

    version: int
    what: str
    sqlite: Sequence[str]
    postgresql: Sequence[str]


@dataclass
class WriterFigures:
    """How the grouping went: operations committed, in how many transactions,
    and the seconds the transactions took (from BEGIN to the COMMIT's answer)."""

    operations: int = 0
    commits: int = 0
    largest: int = 0
    seconds: float = 0.0
    slowest: float = 0.0

    def count(self, group: int, seconds: float = 0.0) -> None:
        self.operations += group
        self.commits += 1
        self.largest = max(self.largest, group)
        self.seconds += seconds
        self.slowest = max(self.slowest, seconds)


class Engine(Protocol):
    """A database under the store. Every method raises only StoreError."""

    dialect: str  # "sqlite" | "postgresql"
    where: str  # what it is, for messages: "the SQLite database /d/server/cardtable.db"
    figures: WriterFigures

    async def migrate(self, steps: Sequence[Step]) -> int:
        """Bring the schema up to the last step (each step in its own
        transaction, once); returns the version it is at."""
        ...

    async def write(self, op: Op) -> Result:
        """Run ``op`` in a grouped transaction; returns once it is committed."""
        ...

    async def read(self, op: Op) -> Result:
        """Run ``op``'s statements on one consistent snapshot."""
        ...

    async def close(self) -> None:
        """Commit what is queued, then let go of the database."""
        ...


MAX_GROUP = 1000  # operations in one transaction at most


def merged(ops: Sequence[Op]) -> tuple[list[Stmt], list[list[int]]]:
    """The statements of ``ops`` in order, with a run of statements of the
    same SQL that want no rows (many tables' moves) merged into one
    ``executemany``; and, per operation, the positions in that list of its
    statements whose rows it wants. A group of a thousand moves is then one
    statement to the driver, not a thousand."""
    out: list[Stmt] = []
    wanted: list[list[int]] = []
    batch: list[Sequence[Any]] | None = None  # the rows of out[-1], if it is a merged run
    for op in ops:
        mine = []
        for stmt in op:
            if stmt.rows:
                out.append(stmt)
                mine.append(len(out) - 1)
                batch = None
                continue
            rows = stmt.many if stmt.many is not None else [stmt.params]
            if batch is not None and out[-1].sql == stmt.sql:
                batch.extend(rows)
            else:
                batch = list(rows)
                out.append(Stmt(stmt.sql, many=batch))
        wanted.append(mine)
    return out, wanted


# an insert of one row of parameters: ``INSERT ... VALUES (?, ?, ...)``
_ONE_ROW = re.compile(r"(?is)(INSERT\s.*\sVALUES\s*)(\(\s*\?(?:\s*,\s*\?)*\s*\))\s*")


def one_statement(statements: Sequence[Stmt], max_params: int) -> Stmt | None:
    """``statements`` (as :func:`merged` gives them) as one statement, where
    they are one insert of many rows that wants nothing back: one ``VALUES``
    list of them all, if it needs at most ``max_params`` parameters; else
    None. Run alone, outside a transaction, it is one: a group of moves is
    then one call into the database (each call a wait for the interpreter
    behind a busy event loop, and in PostgreSQL's pipeline every statement,
    BEGIN and COMMIT one more result to read)."""
    if len(statements) != 1 or statements[0].rows or statements[0].many is None:
        return None
    stmt, rows = statements[0], statements[0].many
    found = _ONE_ROW.fullmatch(stmt.sql)
    if found is None or not rows:
        return None
    width = found.group(2).count("?")
    if any(len(row) != width for row in rows) or width * len(rows) > max_params:
        return None
    sql = found.group(1) + ", ".join([found.group(2)] * len(rows))
    return Stmt(sql, tuple(value for row in rows for value in row))
