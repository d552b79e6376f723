"""Who may take which seat back: for each table a server holds, its
``if_gone`` policy, its seats for people, whether its game began, and the
SHA-256 of each held seat's token, one row a seat (a token is one seat's:
the digest is unique). What a restarted server, or another server taking
the table over (issue 36), brings back."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .engine import Engine, Stmt


@dataclass(frozen=True)
class KeptTable:
    """A table a server holds: its ``if_gone`` policy, its seats for people
    (those that were ``open`` at its creation), whether the game began, and
    the SHA-256 of each held seat's token (by seat)."""

    if_gone: str
    open_seats: frozenset[int]
    tokens: Mapping[int, bytes]
    started: bool
    # a correspondence table (schema step 3): its seconds for each move, what
    # a late seat gets, and its running clocks: seat -> (turn, Unix end)
    per_move: int | None = None
    if_late: str = "computer"
    deadlines: Mapping[int, tuple[int, float]] = field(default_factory=dict)
    # the seats whose person sat with a claimed name (step 3)
    named: frozenset[int] = frozenset()


def _keep(table_id: str, kept: KeptTable, owner: str | None) -> list[Stmt]:
    tokens = [(table_id, seat, digest.hex()) for seat, digest in sorted(kept.tokens.items())]
    clocks = {str(seat): list(held) for seat, held in sorted(kept.deadlines.items())}
    terms = (kept.per_move, kept.if_late if kept.per_move is not None else None)
    held = (
        kept.if_gone,
        json.dumps(sorted(kept.open_seats)),
        kept.started,
        *terms,
        json.dumps(clocks) if clocks else None,
        json.dumps(sorted(kept.named)) if kept.named else None,
    )
    columns = (
        "if_gone = ?, open_seats = ?, started = ?, per_move = ?, if_late = ?, deadlines = ?, "
        "named_seats = ?"
    )
    if owner is None:
        update = Stmt(f"UPDATE game_tables SET {columns} WHERE id = ?", (*held, table_id))
    else:  # a server of a room: its own tables, or one nobody holds yet (a new one)
        update = Stmt(
            f"UPDATE game_tables SET {columns}, owner = ? "
            "WHERE id = ? AND (owner IS NULL OR owner = ?)",
            (*held, owner, table_id, owner),
        )
    return [
        update,
        Stmt("DELETE FROM seat_tokens WHERE table_id = ?", (table_id,)),
        Stmt("INSERT INTO seat_tokens (table_id, seat, digest) VALUES (?, ?, ?)", many=tokens),
    ]


def _release(table_id: str, owner: str | None) -> list[Stmt]:
    if owner is None:
        return [
            Stmt(
                "UPDATE game_tables SET if_gone = NULL, lobby = NULL, owner = NULL WHERE id = ?",
                (table_id,),
            ),
            Stmt("DELETE FROM seat_tokens WHERE table_id = ?", (table_id,)),
        ]
    # a server of a room lets go of its own only; the lobby row is the
    # lobby's to clear (a finished table stays listed a while)
    mine = "SELECT id FROM game_tables WHERE id = ? AND owner = ?"
    return [
        Stmt(f"DELETE FROM seat_tokens WHERE table_id IN ({mine})", (table_id, owner)),
        Stmt("UPDATE game_tables SET if_gone = NULL WHERE id = ? AND owner = ?", (table_id, owner)),
    ]


class SeatRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # the server of a room these rows are (None: the only server): it
        # keeps and brings back only the tables it owns
        self.owner: str | None = None
        self._held: dict[str, KeptTable] | None = None  # as keep_all last kept them

    async def keep(self, table_id: str, kept: KeptTable) -> None:
        """Who may take which seat back at ``table_id`` (replaces what was
        kept). StoreConflict if a token is another seat's."""
        await self.engine.write(_keep(table_id, kept, self.owner))
        if self._held is not None:
            self._held[table_id] = kept

    async def keep_all(self, tables: Mapping[str, KeptTable]) -> None:
        """Exactly ``tables`` are held, as they say (for a server that hands
        over every table's seats at each change, as the seats file was
        written): only the tables that changed are written, in one
        transaction."""
        held = self._held if self._held is not None else await self.kept()
        # each table's statements in turn, but the same statement of every
        # table together (the engine sends a run of one statement as one
        # executemany: a take-over's storm of rejoins changes many tables)
        kept_steps: list[list[Stmt]] = [[], [], []]
        for table_id, kept in tables.items():
            if held.get(table_id) != kept:
                for step, stmt in zip(kept_steps, _keep(table_id, kept, self.owner), strict=True):
                    step.append(stmt)
        op = [stmt for step in kept_steps for stmt in step]
        for table_id in held.keys() - tables.keys():
            op.extend(_release(table_id, self.owner))
        if op:
            await self.engine.write(op)
        self._held = dict(tables)

    async def release(self, table_id: str) -> None:
        """No server holds ``table_id`` any more (its record stays)."""
        await self.engine.write(_release(table_id, self.owner))
        if self._held is not None:
            self._held.pop(table_id, None)

    async def kept(
        self, table_id: str | None = None, *, among: Sequence[str] | None = None
    ) -> dict[str, KeptTable]:
        """The unfinished tables held (this server's, in a room), to bring
        back at a start; or only ``table_id``, or only those ``among`` these
        (tables taken over, read together)."""
        where, params = "t.if_gone IS NOT NULL", list[object]()
        if self.owner is not None:
            where, params = f"{where} AND t.owner = ?", [self.owner]
        if table_id is not None:
            where, params = f"{where} AND t.id = ?", [*params, table_id]
        if among is not None:
            if not among:
                return {}
            marks = ", ".join("?" * len(among))
            where, params = f"{where} AND t.id IN ({marks})", [*params, *among]
        tables, tokens = await self.engine.read(
            [
                Stmt(
                    "SELECT t.id, t.if_gone, t.open_seats, t.started, t.per_move, t.if_late, "
                    "t.deadlines, t.named_seats FROM game_tables t "
                    f"WHERE {where} AND t.status = 'playing' ORDER BY t.id",
                    params,
                    rows=True,
                ),
                Stmt(
                    "SELECT s.table_id, s.seat, s.digest FROM seat_tokens s JOIN game_tables t "
                    f"ON t.id = s.table_id WHERE {where}",
                    params,
                    rows=True,
                ),
            ]
        )
        held: dict[str, dict[int, bytes]] = {}
        for table_id, seat, digest in tokens:
            held.setdefault(table_id, {})[int(seat)] = bytes.fromhex(digest)
        return {
            table_id: KeptTable(
                if_gone,
                frozenset(json.loads(open_seats)),
                held.get(table_id, {}),
                bool(started),
                per_move=None if per_move is None else int(per_move),
                if_late=if_late or "computer",
                deadlines=_deadlines(clocks),
                named=frozenset(json.loads(named)) if named else frozenset(),
            )
            for table_id, if_gone, open_seats, started, per_move, if_late, clocks, named in tables
        }

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        """The (table, seat) whose token has this SHA-256, if any."""
        found = await self.engine.read(
            [
                Stmt(
                    "SELECT table_id, seat FROM seat_tokens WHERE digest = ?",
                    (digest.hex(),),
                    rows=True,
                )
            ]
        )
        return (str(found[0][0][0]), int(found[0][0][1])) if found[0] else None


def _deadlines(text: str | None) -> dict[int, tuple[int, float]]:
    """A correspondence table's running clocks as kept (JSON: seat -> [turn,
    end]); a row that is not that brings the clocks back fresh."""
    if not text:
        return {}
    try:
        return {
            int(seat): (int(turn), float(end)) for seat, (turn, end) in json.loads(text).items()
        }
    except (ValueError, TypeError, AttributeError):
        return {}
