"""Seats and tokens: taking a seat (`join`), taking it back (`rejoin`),
leaving it, the grace period a dropped seat is held for, the start of a
game, and a seat's moves.

Joining a seat returns a token (from :mod:`secrets`, or the client's own
``next_token``); only its SHA-256 is kept. A player who loses the connection
takes the seat back with ``rejoin`` and the token, and gets a fresh token
(the old one is dead). Meanwhile the seat is held for
``Limits.grace_seconds`` (the others see it under ``reconnecting``), then
the table's policy applies: a computer player takes over, or the seat
resigns; the token dies with it. A seat left before the game starts is open
again (and the game is dealt again as it starts: its player saw cards of the
deal). Once the game has started no seat is ever open again. A token
another seat of the table holds is refused: two seats never share one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.errors import IllegalMove, MoveError
from saves.errors import SaveError

from .. import protocol as p
from ..client import PLAYING, StaleMove
from .hall import GONE_LEVEL, Hall, one_line
from .hosted import Hosted
from .lobby import Lobby
from .peer import Peer

if TYPE_CHECKING:
    from ..table import Table


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class Seats:
    def __init__(self, hall: Hall, lobby: Lobby) -> None:
        self.hall = hall
        self.lobby = lobby
        # a waiting table left with nobody seated (the registry starts its expiry)
        self.on_empty: Callable[[Hosted], None] = lambda hosted: None

    # ------------------------------------------------------------ sitting down
    async def join(self, peer: Peer, message: p.Join) -> None:
        self.lobby.check_free(peer)
        hosted = self.lobby.table(message.table)
        free = hosted.free_seats()
        if message.seat is None:
            if not free:
                raise p.ProtocolError(p.SEAT_TAKEN, hosted.why_no_seat())
            seat = free[0]
        elif message.seat >= len(hosted.table.record.seats):
            seats = len(hosted.table.record.seats)
            raise p.ProtocolError(
                p.BAD_MESSAGE,
                f"table {hosted.id} has no seat {message.seat}: its seats are 0 to {seats - 1}",
            )
        elif message.seat not in free:
            why = hosted.why_no_seat() if not free else f"seat {message.seat} is not open"
            raise p.ProtocolError(p.SEAT_TAKEN, why)
        else:
            seat = message.seat
        self.check_token(hosted, seat, message.next_token)
        peer.check_bytes("joining")
        hosted.table.seat_person(seat, peer.name)
        if peer.name_claimed:  # its name may take the seat back, as its token may
            hosted.named.add(seat)
        else:
            hosted.named.discard(seat)
        await self.seat(peer, hosted, seat, message.id, message.next_token, may_begin=True)
        await self.hall.store.name_played(peer.name)
        await hosted.table.save()  # the name too, should the server restart before a move

    def _seat_of(self, peer: Peer, hosted: Hosted, token: str | None) -> int:
        """The seat ``token`` holds at ``hosted``; without one, the seat that
        ``peer``'s claimed name sat at (its hello proved the secret)."""
        if token is not None:
            given = digest(token)
            for held, kept in hosted.tokens.items():
                if secrets.compare_digest(given, kept):
                    return held
            raise p.ProtocolError(p.BAD_TOKEN, "that token holds no seat at this table")
        if peer.name_claimed:
            mine = peer.name.casefold()
            for held in sorted(hosted.named & set(hosted.tokens)):
                if hosted.table.record.seats[held].name.casefold() == mine:
                    return held
        raise p.ProtocolError(
            p.BAD_TOKEN,
            f"no seat at table {hosted.id} is held by the name {peer.name!r} with its secret: "
            "rejoin with the seat's token (or connect with the name's secret)",
        )

    def check_token(self, hosted: Hosted, seat: int, chosen: str | None) -> None:
        """A token the client chose that another seat here holds is refused."""
        if chosen is None:
            return
        given = digest(chosen)
        for held, kept in hosted.tokens.items():
            if held != seat and secrets.compare_digest(given, kept):
                raise p.ProtocolError(
                    p.BAD_TOKEN,
                    "that next_token holds another seat at this table: choose a new one "
                    "(a random one, e.g. 24 bytes from a secure generator)",
                )

    async def rejoin(self, peer: Peer, message: p.Rejoin) -> None:
        self.lobby.check_free(peer)
        hosted = self.lobby.table(message.table)
        seat = self._seat_of(peer, hosted, message.token)
        self.check_token(hosted, seat, message.next_token)
        peer.check_bytes("taking a seat back")
        old = hosted.occupants.get(seat)
        if old is not None:  # the same player on a new connection: the old one is dead
            self.vacate(old, hold=False)
            old.send(p.error(p.NOT_NOW, "your seat was taken back from another connection"))
            old.close()
        timer = hosted.holding.pop(seat, None)
        hosted.hold_until.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if hosted.table.stands_in(seat):  # the computer gives the seat back
            hosted.table.hand_back(seat)
            hosted.table.pace = self.hall.pace
        await self.seat(peer, hosted, seat, message.id, message.next_token)

    async def seat(
        self,
        peer: Peer,
        hosted: Hosted,
        seat: int,
        rid: int | None,
        chosen: str | None = None,
        *,
        may_begin: bool = False,
    ) -> None:
        token = chosen or secrets.token_urlsafe(24)
        hosted.tokens[seat] = digest(token)
        hosted.empty_since = None
        hosted.touch()
        self.hall.persist()
        hosted.occupants[seat] = peer
        peer.hosted, peer.seat = hosted, seat
        table = hosted.table
        table.attach([seat])  # the others hear of it; this client gets the snapshot
        began = may_begin and not hosted.started and hosted.open_seats <= set(hosted.tokens)
        if began:
            # the last open seat taken: the game begins before the reply, so
            # that `joined` shows its first position (whose turn, the legal
            # moves, the clocks), not the table waiting a moment before
            await self.begin(hosted)
        # the token is on disk before the client has it (written in a thread,
        # with the other changes of the moment): a server killed after the
        # reply still knows the seat is the client's
        await self.hall.seats_written()
        if hosted.occupants.get(seat) is not peer or hosted.tokens.get(seat) != digest(token):
            raise p.ProtocolError(p.NOT_NOW, "the seat changed hands meanwhile: try again")
        snapshot = hosted.shown(table.snapshot(seat))
        peer.note_options(snapshot)
        peer.send(
            p.Joined(
                id=rid,
                table=hosted.lobby_entry(),
                names=[s.name for s in table.record.seats],
                history=self.lobby.history(hosted, seat),
                update=p.wire_update(snapshot, self.hall.now_ms()),
                reconnecting=hosted.reconnecting(),
                seat=seat,
                token=token,
            )
        )
        peer.unwatch = table.watch([seat], self.lobby.listener(peer, hosted))
        if began:
            # and the same position as a `game`, as the others got it: a
            # client that waits for the game's first update has it too
            self.lobby.send_update(peer, hosted, table.snapshot(seat))

    async def begin(self, hosted: Hosted) -> None:
        if hosted.redeal:
            hosted.table.redeal(secrets.randbits(32))
            hosted.redeal = False
        hosted.started = True
        hosted.empty_since = None
        hosted.touch()
        self.hall.persist()
        await hosted.table.start()

    # ------------------------------------------------------------ playing
    async def act(self, peer: Peer, rid: int | None, move: str, state_id: int | None) -> None:
        hosted, seat = peer.hosted, peer.seat
        if hosted is None or seat is None:
            raise p.ProtocolError(p.NOT_NOW, "you have no seat: join a table first")
        if not hosted.started:
            raise p.ProtocolError(p.NOT_NOW, "the game has not started: seats are still open")
        table = hosted.table
        if table.status != PLAYING:
            raise p.ProtocolError(
                p.NOT_NOW, "the game is over: no move is possible (`rematch` plays again)"
            )
        if (
            state_id is not None
            and peer.seen_state == table.state_id
            and peer.options
            and peer.options_since <= state_id <= table.state_id
        ):
            # the table has moved on (another seat's hidden choice, a clock)
            # but this seat's legal moves are the same as when it chose: the
            # move is as good now as then, so it is not stale
            state_id = table.state_id
        # the move's own update to this client waits for its `ok` (after the
        # commit): one write for both, not two
        with peer.lines_held():
            await self._play(peer, table, rid, seat, move, state_id)

    async def _play(
        self, peer: Peer, table: Table, rid: int | None, seat: int, move: str, state_id: int | None
    ) -> None:
        try:
            await table.play(seat, move, state_id)
        except StaleMove as err:
            raise p.ProtocolError(p.STALE, str(err)) from None
        except MoveError as err:
            raise p.ProtocolError(p.ILLEGAL, one_line(err)) from None
        if getattr(self.hall.store, "acknowledges_after_commit", False):
            try:  # `ok` once the move is committed: a crash cannot take it back
                await table.kept(len(table.record.moves))
            except SaveError as err:
                raise p.ProtocolError(
                    p.NOT_SAVED, f"your move is played but not saved: {one_line(err)}"
                ) from None
        if state_id is not None:
            # after its own move a seat chooses anew, whatever its options:
            # a move chosen before this one is stale
            peer.options_since = max(peer.options_since, state_id + 1)
        peer.send(p.Ok(id=rid))

    # ------------------------------------------------------------ leaving
    def vacate(self, peer: Peer, *, hold: bool = True) -> None:
        """``peer`` leaves its place. A seat in a game under way is held for
        the grace period (unless ``hold`` is False: its player is back)."""
        hosted, seat = peer.hosted, peer.seat
        if peer.unwatch is not None:
            peer.unwatch()
        peer.hosted, peer.seat, peer.unwatch = None, None, None
        peer.options, peer.options_since, peer.seen_state = (), 0, -1
        peer.idle_since = self.hall.clock()  # the lobby's idle timeout starts again
        if hosted is None:
            return
        hosted.touch()
        if seat is None:
            hosted.spectators.discard(peer)
            return
        if hosted.occupants.get(seat) is not peer:
            return
        del hosted.occupants[seat]
        if hold and hosted.per_move is not None:
            # a correspondence seat is its player's from sitting down to the
            # game's end: they come back whenever they like, with the token
            hosted.table.detach([seat])
            return
        closing = self.hall.closing
        if not hosted.started:  # nothing lost yet: the seat is open again
            if not closing:  # (but kept for the next run if the server stops)
                self.open_seat(hosted, seat)
            hosted.table.detach([seat])
            return
        playing = hosted.table.status == PLAYING and not closing
        if hold and playing and not hosted.table.stands_in(seat):
            self.start_hold(hosted, seat)
        hosted.table.detach([seat])

    def pace_if_computers_only(self, hosted: Hosted) -> None:
        """Nobody but computers left at the table: their moves slow to
        ``computers_only_pace`` (a game nobody plays must not take the
        server's time from the games people play)."""
        table = hosted.table
        if all(seat.kind == "bot" for seat in table.record.seats):
            table.pace = max(table.pace, self.hall.limits.computers_only_pace)

    def open_seat(self, hosted: Hosted, seat: int) -> None:
        """Before the game has begun, a seat left is open again (and a table
        left empty so starts to expire)."""
        hosted.redeal = True  # but its player has seen cards of this deal
        hosted.tokens.pop(seat, None)
        hosted.touch()
        self.hall.persist()
        hosted.table.seat_person(seat, f"Player {seat + 1}")
        self.hall.spawn(hosted.table.save())
        self.on_empty(hosted)

    def start_hold(self, hosted: Hosted, seat: int) -> None:
        """Hold ``seat`` for its player for the grace period."""
        hosted.hold_until[seat] = self.hall.clock() + self.hall.limits.grace_seconds
        hosted.holding[seat] = self.hall.spawn(self._hold(hosted, seat))
        hosted.touch()

    async def _hold(self, hosted: Hosted, seat: int) -> None:
        await self.hall.sleep(self.hall.limits.grace_seconds)
        if hosted.holding.get(seat) is not asyncio.current_task():
            return
        del hosted.holding[seat]
        hosted.hold_until.pop(seat, None)
        if not hosted.started:  # brought back before it began: the seat is open again
            self.open_seat(hosted, seat)
            return
        table = hosted.table
        if hosted.if_gone == "computer" and table.status == PLAYING:
            # the computer plays for the player, who may take the seat back
            # with its token whenever they return (docs/protocol.md, "Absent
            # players"): the token lives on
            hosted.touch()
            table.hand_to_computer(seat, GONE_LEVEL)
            self.pace_if_computers_only(hosted)
            return
        hosted.tokens.pop(seat, None)  # the token dies with the seat
        hosted.touch()
        self.hall.persist()
        if table.status == PLAYING:
            with contextlib.suppress(IllegalMove):
                await table.resign(seat)
