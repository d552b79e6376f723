"""The lobby: the tables' list and its pages, the subscribers told of every
change, watching a table, chat, the standings, and what a place at a table is sent. It
talks to clients only as :class:`~net.server.peer.Peer` objects (whose
lines go to a :class:`~net.server.peer.Sender`), so it is tested without
sockets (tests/net/test_lobby_parts.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec

from rules.plain import plain
from rules.registry import games

from .. import protocol as p
from .. import standings
from ..client import Update
from .hall import Hall
from .hosted import Hosted
from .limits import AddressBuckets, TokenBucket
from .peer import Peer

CREATOR = "_by"  # a lobby row's creator (address, name), kept but never listed


class Lobby:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self._dirty: dict[str, Hosted] = {}  # changed since subscribers were told
        limits = hall.limits
        self._chat_by_address = AddressBuckets(
            limits.chat_per_address_per_second, limits.chat_per_address_burst, hall.clock
        )
        self._chat_by_table: dict[str, TokenBucket] = {}
        self._watches_by_address = AddressBuckets(
            limits.watches_per_address_per_second, limits.watches_per_address_burst, hall.clock
        )

    # ------------------------------------------------------------ changes
    def changed(self, hosted: Hosted) -> None:
        """Note a change to push; the pushes of one moment go out together
        (a join changes a table several times: its subscribers hear once)."""
        if not self._dirty:
            asyncio.get_running_loop().call_soon(self._push)
        self._dirty[hosted.id] = hosted

    def _push(self) -> None:
        tables = self.hall.tables
        changed = [h for h in self._dirty.values() if tables.get(h.id) is h]
        self._dirty.clear()
        listeners = [peer for peer in self.hall.peers if peer.subscribed]
        for hosted in changed:
            entry = hosted.lobby_entry()
            line = p.encode(p.TableUpdate(table=entry))
            for peer in listeners:
                peer.send_line(line)
            self._keep_row(hosted.id, entry, hosted)

    def _keep_row(self, table_id: str, entry: p.TableSummary | None, hosted: Hosted) -> None:
        """The lobby row in the store too (for the other servers of a room),
        with who created it (the room's quotas count it; never sent)."""
        row: dict[str, Any] | None = None
        if entry is not None:
            row = msgspec.to_builtins(entry)
            row[CREATOR] = [hosted.creator_address, hosted.creator_name]
        self.hall.spawn(self.hall.store.put_lobby(table_id, row))

    def removed(self, hosted: Hosted, why: str) -> None:
        """A table has left the lobby: subscribers are told at once."""
        self._dirty.pop(hosted.id, None)
        self._chat_by_table.pop(hosted.id, None)
        line = p.encode(p.TableRemoved(table=hosted.id, reason=why))
        for peer in self.hall.peers:
            if peer.subscribed:
                peer.send_line(line)
        self._keep_row(hosted.id, None, hosted)

    # ------------------------------------------------------------ list
    def list_tables(self, peer: Peer, message: p.ListTables) -> None:
        """One page of the tables that match, from the cached summaries."""
        peer.check_bytes("table lists")
        wanted = None if message.tables is None else {t.lower() for t in message.tables}

        def matches(game: str, status: str, table: str) -> bool:
            return (
                (message.game is None or game == message.game)
                and (message.status is None or status == message.status)
                and (wanted is None or table in wanted)
            )

        # this server's tables (chosen before any summary is built: a list asks
        # for one page of a thousand tables), then those the room's other servers hold
        matching: list[Hosted | p.TableSummary] = [
            hosted
            for hosted in self.hall.tables.values()
            if matches(hosted.table.record.game, hosted.status(), hosted.id)
        ]
        matching.extend(e for e in self.hall.elsewhere() if matches(e.game, e.status, e.table))
        size = self.hall.limits.list_page if message.limit is None else message.limit
        page = matching[message.offset : message.offset + size]
        peer.send(
            p.Tables(
                id=message.id,
                tables=[t.lobby_entry() if isinstance(t, Hosted) else t for t in page],
                total=len(matching),
                offset=message.offset,
            )
        )

    def subscribe(self, peer: Peer, on: bool) -> None:
        peer.subscribed = on

    # ------------------------------------------------------------ a place at a table
    def table(self, table_id: str) -> Hosted:
        hosted = self.hall.tables.get(table_id.lower())  # ids are hex: either case names one
        if hosted is None:
            raise p.ProtocolError(p.NO_TABLE, f"there is no table {table_id}")
        return hosted

    @staticmethod
    def check_free(peer: Peer) -> None:
        if peer.hosted is not None:
            raise p.ProtocolError(p.NOT_NOW, "you are at a table already: leave it first")

    def history(self, hosted: Hosted, seat: int | None) -> list[p.WireEvent]:
        """The events ``seat`` may see so far, as the wire carries them."""
        return p.wire_events(hosted.table.history(seat))

    def spectators_history(self, hosted: Hosted) -> bytes:
        """What a spectator may see of the history, encoded, each event once
        (every spectator gets the same; net/table_parts/audience.py): a
        watch costs the server what the snapshot costs, not the game's
        length."""
        return hosted.table.audience.history_json(None)

    def check_watch_rate(self, peer: Peer) -> None:
        """Refuse (``too_fast``) a watch over the address's rate, before any
        other work, and pause the client's reads: a loop of `watch` and
        `leave` then costs a line a pause, not two a tenth of a second."""
        bucket = self._watches_by_address.bucket(peer.address)
        if bucket.take():
            return
        wait = peer.pause_reads(bucket.until())
        limits = self.hall.limits
        raise p.ProtocolError(
            p.TOO_FAST,
            f"watching: one address may start {limits.watches_per_address_per_second:g} "
            f"watches a second (bursts of {limits.watches_per_address_burst}): ask again "
            f"in {wait:.1f} s",
        )

    def watch(self, peer: Peer, message: p.Watch) -> None:
        self.check_free(peer)
        self.check_watch_rate(peer)
        hosted = self.table(message.table)
        peer.check_bytes("watching")
        hosted.spectators.add(peer)
        hosted.touch()
        peer.hosted, peer.seat = hosted, None
        peer.unwatch = hosted.table.watch([None], self.listener(peer, hosted))
        table = hosted.table
        watching = p.Watching(
            id=message.id,
            table=hosted.lobby_entry(),
            names=[s.name for s in table.record.seats],
            history=[],  # (spliced in below, as kept encoded)
            # the full snapshot first; changes follow as `game` messages
            update=p.wire_update(hosted.shown(table.snapshot(None)), self.hall.now_ms()),
            reconnecting=hosted.reconnecting(),
        )
        peer.send_line(_with_history(p.encode(watching), self.spectators_history(hosted)))

    def listener(self, peer: Peer, hosted: Hosted) -> Callable[[Update], None]:
        def deliver(update: Update) -> None:
            self.send_update(peer, hosted, update)

        return deliver

    def send_update(self, peer: Peer, hosted: Hosted, update: Update) -> None:
        shown = hosted.shown(update)
        if peer.seat is not None:
            peer.note_options(shown)
        peer.send(
            p.Game(
                table=hosted.id,
                update=p.wire_update(shown, self.hall.now_ms()),
                reconnecting=hosted.reconnecting(),
                # who sits where now (a person may have joined since)
                names=[seat.name for seat in hosted.table.record.seats],
                # and how: away (with the seconds of grace left), or played
                # by the computer for its person (as in the table summary)
                seats=hosted.seats_summary(),
            )
        )

    # ------------------------------------------------------------ chat
    def chat(self, peer: Peer, message: p.Chat) -> None:
        hosted = peer.hosted
        if hosted is None:
            raise p.ProtocolError(p.NOT_NOW, "chat is at a table: join or watch one first")
        text = plain(message.text, p.MAX_CHAT).strip()
        if not text:
            raise p.ProtocolError(p.BAD_MESSAGE, "an empty chat line")
        limits = self.hall.limits
        into = self._chat_by_table.get(hosted.id)
        if into is None:
            into = self._chat_by_table[hosted.id] = TokenBucket(
                limits.chat_per_table_per_second, limits.chat_per_table_burst, self.hall.clock
            )
        if not self._chat_by_address.take(peer.address):
            raise p.ProtocolError(
                p.TOO_FAST,
                f"chat from one address is limited to {limits.chat_per_address_per_second:g} "
                "lines a second: wait a moment",
            )
        if not into.take():
            raise p.ProtocolError(
                p.TOO_FAST,
                f"table {hosted.id} takes at most {limits.chat_per_table_per_second:g} chat "
                "lines a second from everyone: wait a moment",
            )
        line = p.encode(p.ChatLine(table=hosted.id, name=peer.name, seat=peer.seat, text=text))
        for other in [*hosted.occupants.values(), *hosted.spectators]:
            other.send_line(line)
        peer.send(p.Ok(id=message.id))

    async def standings(self, conn: Peer, message: p.GetLeaderboard | p.GetPlayerStats) -> None:
        """A leaderboard or a player's record, from the server's saved games."""
        conn.check_bytes("standings")
        if isinstance(message, p.GetLeaderboard):
            if message.game not in games():
                raise p.ProtocolError(p.BAD_MESSAGE, f"no game {message.game!r} here")
            stats = await self.hall.store.statistics()
            board = standings.leaderboard(
                stats, message.game, message.limit, self.hall.store.is_claimed
            )
            conn.send(msgspec.convert({"id": message.id, **board}, p.Leaderboard))
            return
        name = conn.name if message.name is None else plain(message.name, p.MAX_NAME).strip()
        stats = await self.hall.store.statistics()
        record = standings.player(stats, name, message.game)
        conn.send(msgspec.convert({"id": message.id, **record}, p.PlayerRecord))


_NO_HISTORY = b'"history":[]'


def _with_history(line: bytes, history: bytes) -> bytes:
    """``line`` (encoded with an empty history) with ``history`` in it. The
    first match is the field: a name or a text holding those characters is a
    JSON string, whose quotes are escaped."""
    at = line.index(_NO_HISTORY)
    return line[:at] + b'"history":' + history + line[at + len(_NO_HISTORY) :]
