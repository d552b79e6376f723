"""Everything the server sends, typed: the server builds these, and the JSON
Schemas in docs/protocol/ are written from them (net/schemas.py). Fields a
client does not know it must ignore, so none of these forbids unknown ones."""

from __future__ import annotations

import msgspec

from .basics import RequestId
from .summaries import (
    LeaderboardRow,
    SeatSummary,
    TableSummary,
    WireEvent,
    WireGameRecord,
    WireUpdate,
)


class _Sent(msgspec.Struct, tag_field="type", kw_only=True):
    pass


class Welcome(_Sent, tag="welcome", omit_defaults=True):
    """The answer to ``hello``: what this server is and does."""

    id: RequestId | None
    version: int
    server: str
    capabilities: list[str]
    games: list[str]
    levels: list[str]
    name: str  # the player's name as the server will show it
    # the secret that keeps this name, given to the name's first client only
    # (docs/protocol.md, "Standings"); left out otherwise
    name_secret: str | None = None
    # a server of a room: the addresses of the room's live servers (where a
    # client whose server is gone asks for its table); left out otherwise
    room: list[str] = msgspec.field(default_factory=list)


class Ok(_Sent, tag="ok"):
    id: RequestId | None


class Error(_Sent, tag="error", omit_defaults=True):
    id: RequestId | None  # of the request refused, when it could be read
    code: str
    message: str
    # with `bad_version` only: the versions this server speaks
    versions: list[int] | None = None


class Created(_Sent, tag="created"):
    id: RequestId | None
    table: TableSummary


class Tables(_Sent, tag="tables"):
    """One page of the lobby."""

    id: RequestId | None
    tables: list[TableSummary]
    total: int  # how many tables match in all
    offset: int


class Joined(_Sent, tag="joined"):
    """A seat taken (``join``, ``rejoin``, ``rematch``, ``create`` with ``sit``)."""

    id: RequestId | None
    table: TableSummary
    names: list[str]
    history: list[WireEvent]
    update: WireUpdate
    reconnecting: list[int]
    seat: int
    token: str


class Watching(_Sent, tag="watching"):
    id: RequestId | None
    table: TableSummary
    names: list[str]
    history: list[WireEvent]
    update: WireUpdate
    reconnecting: list[int]


class Game(_Sent, tag="game"):
    """A change at the table the connection sits at or watches."""

    table: str
    update: WireUpdate
    reconnecting: list[int]
    names: list[str]
    seats: list[SeatSummary]  # each seat's kind and state, as in the table's summary


class ChatLine(_Sent, tag="chat"):
    table: str
    name: str
    seat: int | None  # None: a spectator
    text: str


class RematchOffer(_Sent, tag="rematch"):
    table: str  # the finished table
    rematch: str  # the new one
    name: str  # who asked


class Closed(_Sent, tag="closed"):
    """The table this connection watched has closed: it is back in the lobby."""

    table: str
    message: str


class Ping(_Sent, tag="ping"):
    pass


class Closing(_Sent, tag="closing"):
    """The server closes this connection now, and why ("the server is
    shutting down"): the last line before its socket closes."""

    reason: str


class TableUpdate(_Sent, tag="table_update"):
    """To a subscriber: a table is new or its summary changed."""

    table: TableSummary


class TableRemoved(_Sent, tag="table_removed"):
    """To a subscriber: a table left the lobby (cancelled, expired, forgotten)."""

    table: str
    reason: str


class Leaderboard(_Sent, tag="leaderboard"):
    """The answer to ``leaderboard``: the best ``players`` of ``game`` of the
    ``total`` who played it here."""

    id: RequestId | None
    game: str
    total: int
    players: list[LeaderboardRow]


class PlayerRecord(_Sent, tag="player_stats"):
    """The answer to ``player_stats``: ``name``'s record per game id."""

    id: RequestId | None
    name: str
    games: dict[str, WireGameRecord]


# ---------------------------------------------------------------- a card room of several servers
REDIRECT = "redirect"  # the capability, of a server of a room and of a client that follows
REDIRECTED = "redirected"  # in a client's hello: another server of the room sent it here


class Elsewhere(_Sent, tag="elsewhere"):
    """The answer to ``create``, ``join``, ``rejoin``, ``watch`` or ``cancel``
    at a server of a room when the table is held (or is better placed) at
    another server: connect to ``address`` (HOST:PORT), say hello and send
    the same request again. Sent only to a client whose hello announced
    ``redirect``; another is told the address in an error's words."""

    id: RequestId | None
    address: str
    table: str | None = None  # None: a `create`, placed there
    message: str = ""


class RoomServers(_Sent, tag="room"):
    """Sent, unasked, by a server of a room to each client whose hello
    announced ``redirect``, whenever the room's live servers change (one
    joins, one stops): the addresses a client whose server is gone tries,
    as ``welcome``'s ``room`` listed them at the hello. Without it a client
    welcomed by a server that had not yet heard of the others (a room just
    starting, or grown since) would know nowhere else to go."""

    servers: list[str]


ServerMessage = (
    Welcome
    | Ok
    | Error
    | Created
    | Tables
    | Joined
    | Watching
    | Game
    | ChatLine
    | RematchOffer
    | Closed
    | Ping
    | Closing
    | TableUpdate
    | TableRemoved
    | Leaderboard
    | PlayerRecord
    | Elsewhere
    | RoomServers
)
SERVER_MESSAGES: tuple[type[_Sent], ...] = (
    Welcome,
    Ok,
    Error,
    Created,
    Tables,
    Joined,
    Watching,
    Game,
    ChatLine,
    RematchOffer,
    Closed,
    Ping,
    Closing,
    TableUpdate,
    TableRemoved,
    Leaderboard,
    PlayerRecord,
    Elsewhere,
    RoomServers,
)


def error(code: str, message: str, request_id: int | None = None) -> Error:
    return Error(id=request_id, code=code, message=message)
