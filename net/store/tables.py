"""The tables the server keeps: each game's record (its head row and one row
per move). Who may take which seat back is net/store/seats.py; the lobby's
rows are on the same table rows (net/store/lobby.py).

A move is one insert, keyed by (table, ply), in the engine's grouped
transaction: :meth:`TableRows.record_move` returns once it is committed, so
the server answers ``ok`` after it and a crash can lose only moves nobody
was told were taken.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from saves.errors import SaveError
from saves.record import FORMAT, FORMAT_VERSION, GameRecord, utc_now

from .engine import Engine, Row, Stmt
from .errors import StoreConflict, StoreCorrupt, TableMoved

_HEAD = "id, game, preset, config, seed, deck_order, seats, created, updated, status, result, hints"
_UPSERT_HEAD = (
    f"INSERT INTO game_tables ({_HEAD}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET game = excluded.game, preset = excluded.preset, "
    "config = excluded.config, seed = excluded.seed, deck_order = excluded.deck_order, "
    "seats = excluded.seats, created = excluded.created, updated = excluded.updated, "
    "status = excluded.status, result = excluded.result, hints = excluded.hints"
)
_UPSERT_MOVE = (
    "INSERT INTO moves (table_id, ply, seat, notation, played) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (table_id, ply) DO UPDATE SET seat = excluded.seat, "
    "notation = excluded.notation"
)
_INSERT_MOVE = "INSERT INTO moves (table_id, ply, seat, notation, played) VALUES (?, ?, ?, ?, ?)"
_INSERT_MOVE_OWNED = (
    "INSERT INTO moves (table_id, ply, seat, notation, played) SELECT ?, ?, ?, ?, ?"
)


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


class TableRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._plies: dict[str, int] = {}  # per table, the moves known to be kept
        # per table, its seats and hints as last encoded: a move changes
        # neither, so catch_up encodes them only when they change
        self._heads: dict[str, tuple[tuple[Any, ...], tuple[int, ...], str | None, str | None]] = {}
        # per table, its head (but the time) as this store last wrote it
        self._written: dict[str, tuple[str | None, ...]] = {}
        # the server of a room these rows are written by (None: the only
        # server): its moves are kept only at tables it still owns
        self.owner: str | None = None

    # ------------------------------------------------------------ records
    async def new_id(self) -> str:
        """A fresh table id (8 hex digits) that no kept table has."""
        while True:
            table_id = secrets.token_hex(4)
            found = await self.engine.read(
                [Stmt("SELECT 1 FROM game_tables WHERE id = ?", (table_id,), rows=True)]
            )
            if not found[0]:
                return table_id

    async def save_record(self, record: GameRecord) -> None:
        """Keep ``record`` whole (a new table, its seats renamed): its head and
        every move; moves kept beyond its last are removed."""
        self._written.pop(record.id, None)  # (catch_up writes the head again)
        await self.engine.write(self._record_statements(record))
        self._plies[record.id] = len(record.moves)

    def _record_statements(self, record: GameRecord) -> list[Stmt]:
        head = (
            record.id,
            record.game,
            record.preset,
            _dumps(record.config),
            record.seed,
            _dumps(record.deck_order),
            _dumps([s.to_json() for s in record.seats]),
            record.created,
            record.updated,
            record.status,
            _dumps(record.result),
            _dumps(record.hints),
        )
        moves = [
            (record.id, ply, seat, text, record.updated)
            for ply, (seat, text) in enumerate(record.moves)
        ]
        return [
            Stmt(_UPSERT_HEAD, head),
            Stmt("DELETE FROM moves WHERE table_id = ? AND ply >= ?", (record.id, len(moves))),
            Stmt(_UPSERT_MOVE, many=moves),
        ]

    async def record_move(
        self,
        table_id: str,
        state_id: int,
        seat: int,
        move: str,
        *,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        """Keep the move ``seat`` played at state ``state_id`` (the moves
        before it: the ply) of ``table_id``; with ``result``, the move ended
        the game. Returns once committed; StoreConflict if that ply holds
        another move (the same move again is no error: a retry)."""
        now = utc_now()
        op = [Stmt(_INSERT_MOVE, (table_id, state_id, seat, move, now))]
        if result is not None:
            self._written.pop(table_id, None)  # (catch_up writes the head again)
            op.append(
                Stmt(
                    "UPDATE game_tables SET status = 'finished', result = ?, updated = ? "
                    "WHERE id = ?",
                    (_dumps(dict(result)), now, table_id),
                )
            )
        try:
            await self.engine.write(op)
            if table_id in self._plies:
                self._plies[table_id] = max(self._plies[table_id], state_id + 1)
        except StoreConflict:
            found = await self.engine.read(
                [
                    Stmt(
                        "SELECT seat, notation FROM moves WHERE table_id = ? AND ply = ?",
                        (table_id, state_id),
                        rows=True,
                    )
                ]
            )
            if found[0] and tuple(found[0][0]) == (seat, move):
                if result is not None:  # the move was kept; the end may not have been
                    await self.engine.write(op[1:])
                return
            kept = f"move {state_id + 1} is {found[0][0][1]!r}" if found[0] else "no such table"
            raise StoreConflict(f"table {table_id}: {kept}, so {move!r} is not kept") from None

    async def catch_up(self, record: GameRecord) -> None:
        """Keep what ``record`` has that is not kept yet (the moves past those
        kept, its seats, status and result), for a caller that hands over the
        whole record after each change, as net/table.py saves it. One grouped
        transaction: returns once committed."""
        kept = self._plies.get(record.id)
        if kept is None:
            found = await self.engine.read(
                [
                    Stmt("SELECT count(*) FROM moves WHERE table_id = ?", (record.id,), rows=True),
                    Stmt("SELECT 1 FROM game_tables WHERE id = ?", (record.id,), rows=True),
                ]
            )
            if not found[1]:
                await self.save_record(record)
                return
            kept = int(found[0][0][0])
        now = utc_now()
        moves = [
            (record.id, ply, seat, text, now)
            for ply, (seat, text) in enumerate(record.moves)
            if ply >= kept
        ]
        seats_json, hints_json = self._head_json(record)
        head = (
            seats_json,
            hints_json,
            record.updated,
            record.status,
            _dumps(record.result),
            record.id,
        )
        update = (
            "UPDATE game_tables SET seats = ?, hints = ?, updated = ?, status = ?, result = ? "
            "WHERE id = ?"
        )
        # the head as last written here, but its time: a move changes none
        # of it, and the time a record was played is its last move's (_record)
        written = (seats_json, hints_json, record.status, head[4])
        if self.owner is None and moves and self._written.get(record.id) == written:
            op = [Stmt(_INSERT_MOVE, many=moves)]  # a move: one insert, the head as it was
        elif self.owner is None:
            op = [Stmt(_INSERT_MOVE, many=moves), Stmt(update, head)]
        else:
            # fenced: the head's update takes the table's row lock only if this
            # server owns it, and the moves go in only then; a server that
            # another took the table from (too slow to beat) keeps nothing more
            op = [
                Stmt(
                    f"{update} AND (owner IS NULL OR owner = ?) RETURNING id",
                    (*head, self.owner),
                    rows=True,
                ),
                Stmt(
                    f"{_INSERT_MOVE_OWNED} WHERE EXISTS (SELECT 1 FROM game_tables "
                    "WHERE id = ? AND (owner IS NULL OR owner = ?))",
                    many=[(*move, record.id, self.owner) for move in moves],
                ),
            ]
        try:
            result = await self.engine.write(op)
        except StoreConflict:  # kept otherwise than thought: the record whole
            self._written.pop(record.id, None)
            await self._check_owner(record.id)
            await self.save_record(record)
            result = [[(record.id,)]]
        else:
            self._written[record.id] = written
        if self.owner is not None and not result[0]:
            raise TableMoved(
                f"table {record.id} is held by another server of the room now: "
                "reconnect to be sent there"
            )
        self._plies[record.id] = len(record.moves)

    def _head_json(self, record: GameRecord) -> tuple[str | None, str | None]:
        """``record``'s seats and hints as JSON, encoded again only when
        they changed (SeatInfo is frozen: equal seats are the same seats)."""
        seats, hints = tuple(record.seats), tuple(record.hints)
        cached = self._heads.get(record.id)
        if cached is not None and cached[0] == seats and cached[1] == hints:
            return cached[2], cached[3]
        seats_json = _dumps([s.to_json() for s in seats])
        hints_json = _dumps(list(hints))
        self._heads[record.id] = (seats, hints, seats_json, hints_json)
        return seats_json, hints_json

    async def _check_owner(self, table_id: str) -> None:
        if self.owner is None:
            return
        found = await self.engine.read(
            [Stmt("SELECT owner FROM game_tables WHERE id = ?", (table_id,), rows=True)]
        )
        if found[0] and found[0][0][0] not in (None, self.owner):
            raise TableMoved(f"table {table_id} is held by another server of the room now")

    async def load_record(self, table_id: str) -> GameRecord:
        """The record of ``table_id`` as kept (StoreCorrupt if it does not read)."""
        heads, moves = await self.engine.read(
            [
                Stmt(f"SELECT {_HEAD} FROM game_tables WHERE id = ?", (table_id,), rows=True),
                Stmt(
                    "SELECT table_id, ply, seat, notation, played FROM moves WHERE table_id = ? "
                    "ORDER BY ply",
                    (table_id,),
                    rows=True,
                ),
            ]
        )
        if not heads:
            raise StoreCorrupt(f"no table {table_id} is kept in {self.engine.where}")
        return _record(heads[0], moves, self.engine.where)

    async def load_records(self, table_ids: Sequence[str]) -> dict[str, GameRecord | StoreCorrupt]:
        """The records of ``table_ids`` as kept, read together (one snapshot,
        one round trip: a server taking many tables over at once); each
        that does not read, or is not kept, as its StoreCorrupt."""
        if not table_ids:
            return {}
        marks = ", ".join("?" * len(table_ids))
        heads, moves = await self.engine.read(
            [
                Stmt(
                    f"SELECT {_HEAD} FROM game_tables WHERE id IN ({marks})", table_ids, rows=True
                ),
                Stmt(
                    "SELECT table_id, ply, seat, notation, played FROM moves "
                    f"WHERE table_id IN ({marks}) ORDER BY table_id, ply",
                    table_ids,
                    rows=True,
                ),
            ]
        )
        by_table: dict[str, list[Row]] = {}
        for move in moves:
            by_table.setdefault(move[0], []).append(move)
        found: dict[str, GameRecord | StoreCorrupt] = {
            table_id: StoreCorrupt(f"no table {table_id} is kept in {self.engine.where}")
            for table_id in table_ids
        }
        for head in heads:
            try:
                found[head[0]] = _record(head, by_table.get(head[0], []), self.engine.where)
            except StoreCorrupt as err:
                found[head[0]] = err
        return found

    async def records(self, status: str | None = None) -> list[GameRecord]:
        """Every kept record (of ``status``, if given); one that does not read
        is left out (StoreCorrupt is for :meth:`load_record`)."""
        where = "" if status is None else " WHERE status = ?"
        join = "" if status is None else " JOIN game_tables t ON t.id = m.table_id AND t.status = ?"
        params = () if status is None else (status,)
        heads, moves = await self.engine.read(
            [
                Stmt(f"SELECT {_HEAD} FROM game_tables{where} ORDER BY id", params, rows=True),
                Stmt(
                    f"SELECT m.table_id, m.ply, m.seat, m.notation, m.played FROM moves m{join} "
                    "ORDER BY m.table_id, m.ply",
                    params,
                    rows=True,
                ),
            ]
        )
        by_table: dict[str, list[Row]] = {}
        for move in moves:
            by_table.setdefault(move[0], []).append(move)
        found = []
        for head in heads:
            try:
                found.append(_record(head, by_table.get(head[0], []), self.engine.where))
            except StoreCorrupt:
                continue
        return found

    async def delete(self, table_id: str) -> None:
        """Forget the table: its record, moves, tokens and lobby row."""
        await self.engine.write([Stmt("DELETE FROM game_tables WHERE id = ?", (table_id,))])
        self._plies.pop(table_id, None)
        self._heads.pop(table_id, None)
        self._written.pop(table_id, None)


def _record(head: Row, moves: Iterable[Row], where: str) -> GameRecord:
    (
        table_id,
        game,
        preset,
        config,
        seed,
        deck_order,
        seats,
        created,
        updated,
        status,
        result,
        hints,
    ) = head
    listed = [(int(ply), int(seat), str(text), str(played)) for _, ply, seat, text, played in moves]
    if [ply for ply, *_ in listed] != list(range(len(listed))):
        raise StoreCorrupt(f"table {table_id} in {where} has a gap in its moves")
    last = max([str(updated), *(played for *_, played in listed[-1:])])
    data = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "id": table_id,
        "game": game,
        "preset": preset,
        "config": json.loads(config),
        "seed": int(seed),
        "deck_order": json.loads(deck_order) if deck_order is not None else None,
        "seats": json.loads(seats),
        "moves": [[seat, text] for _, seat, text, _ in listed],
        "created": created,
        "updated": last,
        "status": status,
        "result": json.loads(result) if result is not None else None,
        "hints": json.loads(hints),
    }
    try:
        return GameRecord.from_json(data)
    except SaveError as err:
        raise StoreCorrupt(f"table {table_id} in {where} does not read: {err}") from None
