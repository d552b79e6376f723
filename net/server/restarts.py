"""Tables that begin again: after a restart of the server (the unfinished
games brought back from their saves, every seated player held as after a
drop), and a rematch after a game's end (one table, however many ask)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from rules.registry import get_game
from saves.errors import SaveError
from saves.record import GameRecord

from .. import protocol as p
from ..client import PLAYING
from ..table import Table
from ..table_parts.clocks import Deadline
from .hall import GONE_LEVEL, Hall
from .hosted import Hosted
from .peer import Peer
from .registry import Registry
from .seats import Seats
from .store import KeptTable

log = logging.getLogger(__name__)


class Restarts:
    def __init__(self, hall: Hall, registry: Registry, seats: Seats) -> None:
        self.hall = hall
        self.registry = registry
        self.seats = seats

    async def restore(self) -> None:
        """The unfinished tables of an earlier run, from their saves: every
        seated player is held for the grace period, as after a drop."""
        hall = self.hall
        kept = await hall.store.load_seats()
        for table_id, entry in kept.items():
            if not entry.started and not entry.tokens:
                # a table nobody sat at: not worth bringing back (it would only
                # fill the lobby again), nor its record (it has no move)
                with contextlib.suppress(SaveError, OSError):
                    await hall.store.delete_record(table_id)
                continue
            await self.bring_back(table_id, entry)
        hall.persist()

    async def bring_back(
        self, table_id: str, entry: KeptTable, *, record: GameRecord | None = None
    ) -> bool:
        """One unfinished table from its record (read here unless given: a
        take-over reads many at once), with every move kept, its seated
        players held as after a drop (a restart, or a table taken over from
        another server of a room): False if it cannot be."""
        hall = self.hall
        try:
            if record is None:
                record = await hall.store.load_record(table_id)
            # in a thread: a long game's replay must not stall the tables
            # played meanwhile (a server taking many tables over at once)
            state, events = await asyncio.to_thread(record.replay_with_events)
        except SaveError as err:
            log.error("cannot bring table %s back: %s", table_id, err)
            return False
        if record.status != PLAYING:
            return False
        table = Table(
            record.spec(),
            state,
            record,
            hall.store.records,
            events=events,
            executor=hall.executor,
            pace=hall.pace,
            clock=hall.clock,
            sleep=hall.sleep,
            hints=False,
        )
        seats = len(record.seats)
        hosted = Hosted(
            table_id,
            table,
            entry.if_gone,
            frozenset(s for s in entry.open_seats if s < seats),
            tokens={int(s): bytes.fromhex(d) for s, d in entry.tokens.items() if int(s) < seats},
            clock=hall.clock,
            named={s for s in entry.named if s < seats},
        )
        for seat in hosted.open_seats:  # a person's seat a computer plays for them
            table.stood_in(seat)
        if entry.per_move is not None:
            # a correspondence table: its clocks run on from where they were
            # (a clock whose turn has passed meanwhile starts afresh)
            hosted.correspond(entry.per_move, entry.if_late, hall.wall)
            table.clocks.restore(
                {
                    int(seat): Deadline(turn, ends_at)
                    for seat, (turn, ends_at) in entry.deadlines.items()
                    if int(seat) < seats
                }
            )
        self.registry.host(hosted)
        self.seats.pace_if_computers_only(hosted)
        # every seated player is held as after a drop (before the game
        # began, the seat opens again if nobody comes back for it); at a
        # correspondence table the seats are theirs, held for the whole game
        for seat in hosted.tokens:
            if not table.stands_in(seat) and hosted.per_move is None:
                self.seats.start_hold(hosted, seat)
        if entry.started:
            await self.seats.begin(hosted)
        return True

    async def rematch(self, peer: Peer, message: p.Rematch) -> None:
        """Sit at the rematch of the finished table: the first request makes
        it, every other (from any seat, at any moment) joins the same one."""
        hosted, seat = peer.hosted, peer.seat
        if hosted is None or seat is None:
            raise p.ProtocolError(p.NOT_NOW, "a rematch is for a player at a table")
        if hosted.table.status == PLAYING:
            raise p.ProtocolError(p.NOT_NOW, "the game is not over yet")
        again = self.hall.tables.get(hosted.rematch or "")
        if again is None:
            making = hosted.rematch_making
            failed = (
                making is not None
                and making.done()
                and (making.cancelled() or making.exception() is not None)
            )
            if making is None or failed:
                making = hosted.rematch_making = asyncio.get_running_loop().create_future()
                try:
                    again = await self._make(peer, hosted)
                except asyncio.CancelledError:
                    making.cancel()
                    raise
                except Exception as err:
                    making.set_exception(err)
                    making.exception()  # (retrieved: the next request tries again)
                    raise
                making.set_result(again)
            else:
                await asyncio.wait([making])
                if making.cancelled():
                    raise p.ProtocolError(p.NOT_NOW, "the rematch was not made: ask again")
                again = making.result()
        if peer.hosted is not hosted or peer.seat != seat:
            raise p.ProtocolError(p.NOT_NOW, "you left the table meanwhile")
        self.seats.vacate(peer, hold=False)
        free = again.free_seats()
        if not free:
            raise p.ProtocolError(p.SEAT_TAKEN, "the rematch has no open seat left")
        await self.seats.join(
            peer,
            p.Join(
                table=again.id,
                seat=seat if seat in free else free[0],
                next_token=message.next_token,
                id=message.id,
            ),
        )

    async def _make(self, peer: Peer, hosted: Hosted) -> Hosted:
        record = hosted.table.record
        outcome = hosted.table.state.outcome()
        spec = get_game(record.game)
        config = spec.config(record.preset, **record.config)
        if outcome is not None:
            config = spec.rematch_config(config, outcome)
        # every option, the number of players too: where it is an option
        # (stress) the preset's default need not be this table's
        options = config.to_dict()
        seats = [
            "open" if i in hosted.open_seats else f"computer:{s.level or GONE_LEVEL}"
            for i, s in enumerate(record.seats)
        ]
        create = p.Create(
            game=record.game,
            seats=seats,
            preset=record.preset,
            options=options,
            if_gone="resign" if hosted.if_gone == "resign" else "computer",
            per_move=hosted.per_move,  # a correspondence game's rematch is one too
            if_late=hosted.if_late,
        )
        again = await self.registry.create(create, peer)
        hosted.rematch = again.id
        offer = p.RematchOffer(table=hosted.id, rematch=again.id, name=peer.name)
        for other in [*hosted.occupants.values(), *hosted.spectators]:
            if other is not peer:
                other.send(offer)
        return again
