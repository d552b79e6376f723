"""What a client asks a table server, typed (net/protocol/): the lobby
(list, create, join, rejoin, watch, leave, chat), a move or a
resignation at the table, and the standings
(leaderboard, a name's record, what a finished game did to one's rating).
Each request is a ``p.ClientMessage`` Struct and each answer the Struct its
type names; a :class:`~net.remote.RemoteClient` is these on one connection.
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Literal, TypeVar

import msgspec

from rules.errors import IllegalMove
from saves.ratings import DEFAULT_MU

from . import protocol as p
from .client import LinkDown, RatingChange
from .remote_wire import RemoteError, TooFast, tag

# a server saves the game's end a moment after it says so: its standings are
# asked for the rating change up to this many times, a tenth of a second apart
SERVER_SAVE_POLLS = 50
# the welcome before the server's has come: it offers nothing
NO_WELCOME = p.Welcome(id=None, version=0, server="", capabilities=[], games=[], levels=[], name="")

_Reply = TypeVar("_Reply", bound=msgspec.Struct)


class ServerRequests:
    """The typed requests of one connection (``request`` sends, the
    connection's reader answers)."""

    welcome: p.Welcome
    game_id: str
    record_id: str
    table_id: str | None
    my_seats: tuple[int, ...]

    @abstractmethod
    async def request(self, message: p.ClientMessage) -> p.ServerMessage:
        """Send a request and return its reply; RemoteError for an error reply."""

    @abstractmethod
    def _next_token(self) -> str:
        """A token for taking a seat back next time (net/remote.py)."""

    async def ask(self, message: p.ClientMessage, reply: type[_Reply]) -> _Reply:
        """A request whose answer is a ``reply`` (RemoteError if it is not)."""
        answer = await self.request(message)
        if not isinstance(answer, reply):
            wrong = f"the server answered {tag(answer)} to {tag(message)}"
            raise RemoteError(p.BAD_MESSAGE, wrong)
        return answer

    # ------------------------------------------------------------ the lobby
    async def tables(self, ids: Sequence[str] | None = None) -> list[p.TableSummary]:
        """The server's first page of tables, or, given ``ids``, those of the
        tables with these ids that it still has."""
        wanted = None if ids is None else list(ids)
        return (await self.ask(p.ListTables(tables=wanted), p.Tables)).tables

    async def create(
        self,
        game: str,
        seats: list[str],
        *,
        preset: str | None = None,
        options: Mapping[str, p.OptionValue] | None = None,
        if_gone: Literal["computer", "resign"] = "computer",
        per_move: int | None = None,
        if_late: Literal["computer", "lose"] = "computer",
    ) -> p.TableSummary:
        """A new table (seats: ``open`` or ``computer:<level>``); its summary.
        With ``per_move`` (seconds), a correspondence table."""
        message = p.Create(
            game=game,
            seats=seats,
            preset=preset,
            options=dict(options or {}),
            if_gone=if_gone,
            per_move=per_move,
            if_late=if_late,
        )
        return (await self.ask(message, p.Created)).table

    async def join(self, table: str, seat: int | None = None) -> None:
        await self.ask(p.Join(table=table, seat=seat, next_token=self._next_token()), p.Joined)

    async def rejoin(self, table: str, token: str | None) -> None:
        """Take our seat back with its token; None: by our claimed name (the
        seat it sat at, docs/protocol.md)."""
        message = p.Rejoin(table=table, token=token, next_token=self._next_token())
        await self.ask(message, p.Joined)

    async def watch(self, table: str) -> None:
        await self.ask(p.Watch(table=table), p.Watching)

    async def leave(self) -> None:
        await self.request(p.Leave())
        self.my_seats = ()
        self.table_id = None

    async def say(self, text: str) -> None:
        await self.request(p.Chat(text=text))

    # ------------------------------------------------------------ at the table
    async def act(self, message: p.ClientMessage) -> None:
        """A move or a resignation: whatever stops it (the game has not started,
        the link is down) is a refused move with its sentence, as at a local table."""
        try:
            await self.request(message)
        except RemoteError as err:
            if err.code == p.TOO_FAST:
                raise TooFast(str(err)) from None
            raise IllegalMove(str(err)) from None
        except ConnectionError:
            raise LinkDown("the connection to the server is down: wait until it is back") from None

    # ------------------------------------------------------------ standings
    async def leaderboard(self, game: str, limit: int = 20) -> p.Leaderboard:
        """The server's leaderboard of ``game`` (docs/protocol.md, "Standings")."""
        return await self.ask(p.GetLeaderboard(game=game, limit=limit), p.Leaderboard)

    async def player_stats(
        self, name: str | None = None, game: str | None = None
    ) -> p.PlayerRecord:
        """A name's record at the server (our own if ``name`` is None)."""
        return await self.ask(p.GetPlayerStats(name=name, game=game), p.PlayerRecord)

    @property
    def has_standings(self) -> bool:
        return "standings" in self.welcome.capabilities

    async def rating_change(self) -> tuple[RatingChange, ...]:
        """From the server's standings (a server without them: nothing); the
        server saves the end of the game a moment after it says so, so it is
        asked up to SERVER_SAVE_POLLS times, a tenth of a second apart."""
        if not self.has_standings or not self.record_id:
            return ()
        game = self.game_id
        for _ in range(SERVER_SAVE_POLLS):
            try:
                reply = await self.player_stats(None, game)
            except (RemoteError, OSError, ConnectionError):  # no rating line, no crash
                return ()
            record = reply.games.get(game)
            history = record.rating_history if record is not None else []
            ids = [point.id for point in history]
            if self.record_id in ids:
                at = ids.index(self.record_id)
                before = history[at - 1].mu if at else DEFAULT_MU
                return (RatingChange(reply.name, before, history[at].mu, yours=True),)
            await asyncio.sleep(0.1)
        return ()
