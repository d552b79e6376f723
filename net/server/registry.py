"""The tables the server holds: creating one (with the quotas), its entry
into the lobby and its leaving (cancelled, expired unused, forgotten after
its end)."""

from __future__ import annotations

import logging
import secrets

from rules.bots import LEVELS
from rules.errors import MoveError, UnknownGame
from rules.registry import get_game
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo, check_field, numbered_alike

from .. import protocol as p
from ..client import PLAYING
from ..table import Table
from .hall import Hall, one_line
from .hosted import Hosted
from .lobby import Lobby
from .peer import Peer
from .seats import Seats

log = logging.getLogger(__name__)


class Registry:
    def __init__(self, hall: Hall, lobby: Lobby, seats: Seats) -> None:
        self.hall = hall
        self.lobby = lobby
        self.seats = seats
        seats.on_empty = self.expire_if_empty

    # ------------------------------------------------------------ in and out of the lobby
    def host(self, hosted: Hosted) -> None:
        """A table enters the lobby: its changes are pushed to subscribers,
        and its end starts the time after which it leaves."""
        self.hall.tables[hosted.id] = hosted
        hosted.on_change = self.lobby.changed
        ended = False

        def follow() -> None:
            nonlocal ended
            if hosted.per_move is not None:
                self.hall.persist()  # the deadlines of its clocks, kept for a restart
            if hosted.table.status != PLAYING and not ended:
                ended = True
                hosted.touch()  # the summary's status changes
                self.hall.spawn(self._forget_later(hosted))

        # only the end matters here (moves do not change the summary): told
        # of every change, but no spectator's view is built for it
        hosted.table.follow(follow)
        self.lobby.changed(hosted)

    def unhost(self, hosted: Hosted, why: str) -> None:
        """A table leaves the lobby; subscribers are told at once."""
        if self.hall.tables.get(hosted.id) is not hosted:
            return
        del self.hall.tables[hosted.id]
        hosted.on_change = None
        self.lobby.removed(hosted, why)

    async def _forget_later(self, hosted: Hosted) -> None:
        """A finished table leaves the lobby ``finished_table_seconds`` after
        its end, once nobody sits at it or watches it (its game stays saved)."""
        while self.hall.tables.get(hosted.id) is hosted:
            await self.hall.sleep(self.hall.limits.finished_table_seconds)
            if not hosted.occupants and not hosted.spectators:
                self.unhost(hosted, "the game is over")
                self.hall.persist()
                return

    def forget_finished(self) -> None:
        """Make room: finished tables nobody is at any more leave the lobby
        (their games stay saved)."""
        for hosted in list(self.hall.tables.values()):
            if hosted.table.status != PLAYING and not hosted.occupants and not hosted.spectators:
                self.unhost(hosted, "the game is over")
        self.hall.persist()

    # ------------------------------------------------------------ creating
    def check_quotas(self, peer: Peer) -> None:
        """Refuse a new table (``quota``) to an address or a name that has
        as many unfinished tables as it may, or when the server has."""
        limits, tables = self.hall.limits, self.hall.tables
        if len(tables) >= limits.tables:
            self.forget_finished()
        if len(tables) >= limits.tables:
            raise p.ProtocolError(
                p.QUOTA,
                f"the server holds as many tables as it can ({limits.tables}): "
                "join one of them, or try again later",
            )
        unfinished = [
            hosted.creator_name
            for hosted in tables.values()
            if hosted.creator_address == peer.address and hosted.table.status == PLAYING
        ]
        unfinished += self.hall.created_elsewhere(peer.address)  # a room's other servers
        expiry = f"a table nobody sits at closes after {limits.empty_table_seconds:g} s"
        if len(unfinished) >= limits.tables_per_address:
            raise p.ProtocolError(
                p.QUOTA,
                f"your address has created {len(unfinished)} tables not yet finished, the "
                f"most one address may have: play them out first ({expiry})",
            )
        by_name = sum(1 for name in unfinished if name == peer.name)
        if by_name >= limits.tables_per_name:
            raise p.ProtocolError(
                p.QUOTA,
                f"{peer.name} has created {by_name} tables not yet finished, the most one "
                f"name may have: play them out first ({expiry})",
            )

    async def create(self, message: p.Create, peer: Peer) -> Hosted:
        self.check_quotas(peer)
        try:
            spec = get_game(message.game)
            config = spec.config(message.preset, **message.options)
            # the table's save must read back, or the game is lost at a restart
            # (the Config holds options to what a save holds; this says so again)
            check_field("config", config.to_dict(), "the options")
        except (UnknownGame, MoveError, ValueError, TypeError, SaveError) as err:
            raise p.ProtocolError(p.BAD_OPTIONS, one_line(err)) from None
        if len(message.seats) != config.players:
            given = len(message.seats)
            hint = (
                f" (for {given} players send the option `players`: {given})"
                if spec.min_players <= given <= spec.max_players
                and "players" not in message.options
                else ""
            )
            raise p.ProtocolError(
                p.BAD_OPTIONS, f"{given} seats given for a {config.players}-player game{hint}"
            )
        levels = {lv.id for lv in LEVELS}
        seats = []
        for i, choice in enumerate(message.seats):
            if choice == "open":
                seats.append(SeatInfo(f"Player {i + 1}", "remote"))
                continue
            level = choice.removeprefix("computer:")
            if level not in levels:
                raise p.ProtocolError(
                    p.BAD_OPTIONS, f"no computer level {level!r}; levels: {', '.join(levels)}"
                )
            seats.append(SeatInfo("Computer", "bot", level))
        # named as at a local table: "Computer" alone, several numbered from 1
        seats = numbered_alike(seats)
        seed = secrets.randbits(32)
        state = spec.new(config, seed)
        # the preset by name even when the create named none (its first): a
        # lobby shows what the table plays, never a null
        preset = message.preset or next(iter(spec.presets))
        hall = self.hall
        record = GameRecord.new(
            spec.id, config, seed, seats, preset=preset, record_id=hall.store.unused_id()
        )
        computers_only = all(seat.kind == "bot" for seat in seats)
        table = Table(
            spec,
            state,
            record,
            hall.store.records,
            executor=hall.executor,
            pace=max(hall.pace, hall.limits.computers_only_pace) if computers_only else hall.pace,
            clock=hall.clock,
            sleep=hall.sleep,
            hints=False,
        )
        try:
            await hall.store.record_move(record.copy())
        except SaveError as err:
            table.save_failed(err)
        open_seats = frozenset(i for i, s in enumerate(seats) if s.kind == "remote")
        hosted = Hosted(
            record.id,
            table,
            message.if_gone,
            open_seats,
            creator_address=peer.address,
            creator_name=peer.name,
            creator=peer,
            clock=hall.clock,
        )
        if message.per_move is not None:
            hosted.correspond(message.per_move, message.if_late, hall.wall)
        self.host(hosted)
        hall.persist()
        if open_seats:
            self.expire_if_empty(hosted)
        else:
            await self.seats.begin(hosted)
        return hosted

    async def create_and_sit(self, peer: Peer, message: p.Create) -> None:
        """``create``; with ``sit``, the creator sits at once (``joined``)."""
        if not message.sit:
            if message.seat is not None or message.next_token is not None:
                raise p.ProtocolError(
                    p.BAD_MESSAGE, "`seat` and `next_token` go with `sit`: true (or send `join`)"
                )
            hosted = await self.create(message, peer)
            peer.send(p.Created(id=message.id, table=hosted.lobby_entry()))
            return
        self.lobby.check_free(peer)
        open_seats = [i for i, choice in enumerate(message.seats) if choice == "open"]
        seat = open_seats[0] if open_seats and message.seat is None else message.seat
        if seat is None or seat not in open_seats:
            raise p.ProtocolError(
                p.BAD_MESSAGE,
                "`sit` needs an open seat: "
                + (
                    f"seat {seat} is not one of the open seats {open_seats}"
                    if open_seats
                    else "every seat is a computer's"
                ),
            )
        hosted = await self.create(message, peer)
        hosted.creator_seat = seat
        join = p.Join(table=hosted.id, seat=seat, next_token=message.next_token, id=message.id)
        await self.seats.join(peer, join)

    # ------------------------------------------------------------ closing a table
    async def cancel(self, peer: Peer, message: p.Cancel) -> None:
        """Close a waiting table its creator made, while nobody else sits."""
        hosted = self.lobby.table(message.table)
        mine = hosted.creator is peer or (
            peer.hosted is hosted and peer.seat is not None and peer.seat == hosted.creator_seat
        )
        if not mine:
            raise p.ProtocolError(p.NOT_NOW, f"only who created table {hosted.id} may cancel it")
        if hosted.started:
            raise p.ProtocolError(
                p.NOT_NOW,
                f"the game at table {hosted.id} has begun: it cannot be cancelled (resign instead)",
            )
        own = {peer.seat} if peer.hosted is hosted else set()
        if set(hosted.tokens) - own:
            raise p.ProtocolError(
                p.NOT_NOW, f"someone else sits at table {hosted.id}: it cannot be cancelled now"
            )
        if peer.hosted is hosted and peer.seat is not None:
            # the creator's own seat goes with the table (not opened again:
            # there is nothing left to open it at)
            if peer.unwatch is not None:
                peer.unwatch()
            hosted.occupants.pop(peer.seat, None)
            hosted.tokens.pop(peer.seat, None)
            peer.hosted, peer.seat, peer.unwatch = None, None, None
            peer.idle_since = self.hall.clock()
        await self.drop_table(hosted, "its creator cancelled it")
        peer.send(p.Ok(id=message.id))

    def expire_if_empty(self, hosted: Hosted) -> None:
        """A waiting table nobody sits at closes after ``empty_table_seconds``
        (unless someone sits down meanwhile): tables cannot pile up unused."""
        if not hosted.nobody_seated():
            hosted.empty_since = None
            return
        hosted.empty_since = self.hall.clock()
        if hosted.expiry is None:
            hosted.expiry = self.hall.spawn(self._expire(hosted))

    async def _expire(self, hosted: Hosted) -> None:
        try:
            while hosted.empty_since is not None and hosted.nobody_seated():
                wait = hosted.empty_since + self.hall.limits.empty_table_seconds
                wait -= self.hall.clock()
                if wait <= 0:
                    await self.drop_table(hosted, "nobody sat at it")
                    return
                await self.hall.sleep(wait)
        finally:
            hosted.expiry = None

    async def drop_table(self, hosted: Hosted, why: str) -> None:
        """Close a table that never began: its spectators are back in the
        lobby, told so; its record (no move in it) is deleted."""
        if self.hall.tables.get(hosted.id) is not hosted:
            return
        self.unhost(hosted, why)
        self.hall.persist()
        watchers = list(hosted.spectators)
        for watcher in watchers:
            self.seats.vacate(watcher)
        await hosted.table.close()
        try:
            await self.hall.store.delete_record(hosted.table.record.id)
        except (SaveError, OSError) as err:
            log.info("cannot delete the record of table %s: %s", hosted.id, err)
        closed = p.Closed(table=hosted.id, message=f"the table closed: {why}")
        for watcher in watchers:  # told once it is all done
            watcher.send(closed)
