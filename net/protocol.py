"""The wire protocol of the table server (docs/protocol.md is its reference).

Newline-delimited JSON over TCP: UTF-8, one JSON object per line; a blank
line is a keep-alive. A client's line is at most :data:`MAX_LINE` bytes; the
server's lines may be longer (a whole game's history), up to
:data:`MAX_SERVER_LINE`.

Every message is an object with a ``type``. Every message a client sends is
declared here as a :class:`msgspec.Struct` and decoded against that
declaration (:func:`decode_client`): a message of an unknown type, with a
missing or misspelt field, a value of the wrong type or out of range, is
refused with a :class:`ProtocolError` whose sentence names what was wrong,
before any of it reaches a table. The client's ``id`` (a request id) is
echoed by the reply; the server's own messages (game updates, chat, notices
of a seat going away) carry no id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from rules.events import Event
from rules.views import View

if TYPE_CHECKING:
    from .client import Update

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_LINE",
    "MAX_SERVER_LINE",
    "VERSION",
    "ClientMessage",
    "ProtocolError",
    "decode_client",
    "encode",
]

VERSION = 1
VERSIONS = (VERSION,)  # the versions this server speaks
MAX_LINE = 16 * 1024  # bytes of one client line, newline excluded
MAX_SERVER_LINE = 1024 * 1024  # bytes of one server line (a client's reader limit)
MAX_NAME = 32  # characters of a player's name, after cleaning
MAX_CHAT = 200  # characters of one chat line, after cleaning
# What this server does beyond the first release of version 1, each a word a
# client may look for in `welcome` (docs/protocol.md, "Compatibility"): a
# capability, once announced, keeps its meaning for as long as version 1 lives.
CAPABILITIES = (
    "lobby",
    "chat",
    "watch",
    "rejoin",
    "clocks",
    "rematch",
    "pages",  # `list` takes game, status, tables, offset, limit
    "ping",  # the server pings; a client need send nothing to stay
    "cancel",  # `cancel` closes a waiting table its creator made
    "subscribe",  # `subscribe`: the lobby's changes pushed as `table_update`/`table_removed`
    "sit",  # `create` with `sit`: the creator is seated in the same request
    "clocks_ms",  # updates carry `clocks_ms` and `clocks_at_ms`
    "own_stale",  # a move is stale only if the seat's own legal moves changed since
    "standings",  # `leaderboard`, `player_stats`; names kept by a secret (net/standings.py)
)
MAX_DEPTH = 16  # arrays and objects inside one another in a client's line

# error codes (docs/protocol.md lists what each means)
BAD_JSON = "bad_json"  # not JSON, not UTF-8, not an object, too long
BAD_MESSAGE = "bad_message"  # JSON, but not a message this protocol knows
BAD_VERSION = "bad_version"
NOT_NOW = "not_now"  # a request that does not fit where the client is
NO_TABLE = "no_table"
SEAT_TAKEN = "seat_taken"
BAD_TOKEN = "bad_token"
STALE = "stale"  # a move chosen at an older state id
ILLEGAL = "illegal"  # the rules refuse the move (out of turn, not legal, bad notation)
BAD_OPTIONS = "bad_options"
TOO_FAST = "too_fast"  # over the message rate, or over the bytes of table lists
LIMIT = "limit"  # a connection limit: the connection closes
QUOTA = "quota"  # too many unfinished tables (the address's, the name's, the server's)
NAME_TAKEN = "name_taken"  # the hello's name is claimed by another client (standings)
NOT_SAVED = "not_saved"  # a move played but not committed: the server's database failed

RequestId = Annotated[int, msgspec.Meta(ge=0, le=2**53)]
StateId = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=63)]
ShortText = Annotated[str, msgspec.Meta(max_length=64)]
# table ids are lower-case hex; an upper-case one names the same table
TableId = Annotated[str, msgspec.Meta(pattern="^[0-9a-fA-F]{6,32}$")]
Hex64 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]  # a SHA-256
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
# a token the client chose for its next rejoin: long enough to be a secret
NextToken = Annotated[str, msgspec.Meta(min_length=16, max_length=128)]
OptionValue = bool | int | float | str
Options = Annotated[dict[ShortText, OptionValue], msgspec.Meta(max_length=32)]
SeatChoice = Annotated[str, msgspec.Meta(pattern="^(open|computer:[a-z]{1,16})$")]


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class Hello(_Message, tag="hello"):
    """The first message: the protocol version, the client program, the player."""

    version: Annotated[int, msgspec.Meta(ge=0, le=2**31)]
    client: ShortText
    name: Annotated[str, msgspec.Meta(max_length=256)]
    id: RequestId | None = None
    # standings (docs/protocol.md, "Standings"): the secret that keeps the
    # name, "" to claim a free one; absent: the name is played, never claimed
    name_secret: Annotated[str, msgspec.Meta(max_length=128)] | None = None
    # what the client does beyond the first release (e.g. "redirect": it
    # follows `elsewhere`); absent: nothing
    capabilities: Annotated[list[ShortText], msgspec.Meta(max_length=32)] | None = None


MAX_PAGE = 200  # tables in one `tables` reply at most


class ListTables(_Message, tag="list"):
    """One page of the lobby: the tables of ``game`` (every game if None)
    whose status is ``status`` (any if None) and, if ``tables`` is given,
    whose id is one of those (a client's own tables, wherever they are in the
    list), from the ``offset``-th on, at most ``limit`` of them (the server's
    page size if None)."""

    game: ShortText | None = None
    tables: Annotated[list[TableId], msgspec.Meta(max_length=MAX_PAGE)] | None = None
    status: Literal["waiting", "playing", "finished"] | None = None
    offset: Annotated[int, msgspec.Meta(ge=0, le=2**31)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE)] | None = None
    id: RequestId | None = None


class Create(_Message, tag="create"):
    """A new table: the game, a preset and options, each seat ``open`` or
    ``computer:<level>``, and what happens to a seat whose player has gone
    for good (``computer``: a computer player takes over; ``resign``)."""

    game: ShortText
    seats: Annotated[list[SeatChoice], msgspec.Meta(min_length=1, max_length=16)]
    preset: ShortText | None = None
    options: Options = msgspec.field(default_factory=dict)
    if_gone: Literal["computer", "resign"] = "computer"
    # seat the creator at once (``joined`` answers, not ``created``), at
    # ``seat`` or the first open one: nobody can take it in between
    sit: bool = False
    seat: Seat | None = None
    next_token: NextToken | None = None  # as for Join, with ``sit``
    id: RequestId | None = None


class Join(_Message, tag="join"):
    """Sit at an open seat (``seat`` None: the first one open)."""

    table: TableId
    seat: Seat | None = None
    # the token for taking this seat back, chosen (at random) by the client,
    # so that a reply lost on the way cannot lose the seat; else the server's
    next_token: NextToken | None = None
    id: RequestId | None = None


class Rejoin(_Message, tag="rejoin"):
    """Take one's seat back with the token ``joined`` gave."""

    table: TableId
    token: Token
    next_token: NextToken | None = None  # as for Join
    id: RequestId | None = None


class Watch(_Message, tag="watch"):
    table: TableId
    id: RequestId | None = None


class Leave(_Message, tag="leave"):
    id: RequestId | None = None


class Move(_Message, tag="move"):
    """A move in the game's notation, chosen at ``state_id``."""

    move: Annotated[str, msgspec.Meta(max_length=200)]
    state_id: StateId
    id: RequestId | None = None


class Resign(_Message, tag="resign"):
    id: RequestId | None = None


class Rematch(_Message, tag="rematch"):
    """Once the game is over: the same seats again at a new table (the first
    to ask creates it; each player who asks sits at their own seat there)."""

    next_token: NextToken | None = None  # as for Join
    id: RequestId | None = None


class Chat(_Message, tag="chat"):
    text: Annotated[str, msgspec.Meta(max_length=1000)]
    id: RequestId | None = None


class Pong(_Message, tag="pong"):
    """The answer to the server's ``ping``; it gets no reply. A client that
    has answered one is expected to answer them all (the server takes its
    silence for a connection gone)."""

    id: RequestId | None = None


# ---------------------------------------------------------------- the lobby's life


class Cancel(_Message, tag="cancel"):
    """Close a waiting table this connection created, while nobody else sits
    there (the creator's own seat, if it sat, goes with it)."""

    table: TableId
    id: RequestId | None = None


class Subscribe(_Message, tag="subscribe"):
    """Be sent the lobby's changes (``table_update``, ``table_removed``) until
    ``unsubscribe`` or the connection ends, wherever the connection is."""

    id: RequestId | None = None


class Unsubscribe(_Message, tag="unsubscribe"):
    id: RequestId | None = None


# ------------------------------------------------------------ standings
# The statistics and ratings of the names that play at this server
# (net/standings.py; docs/protocol.md, "Standings").


class GetLeaderboard(_Message, tag="leaderboard"):
    """The players of ``game``, best rating first, at most ``limit`` of them."""

    game: ShortText
    limit: Annotated[int, msgspec.Meta(ge=1, le=50)] = 20
    id: RequestId | None = None


class GetPlayerStats(_Message, tag="player_stats"):
    """One name's record (the connection's own if ``name`` is None), every
    game or one."""

    name: Annotated[str, msgspec.Meta(max_length=256)] | None = None
    game: ShortText | None = None
    id: RequestId | None = None


ClientMessage = (
    Hello
    | ListTables
    | Create
    | Join
    | Rejoin
    | Watch
    | Leave
    | Move
    | Resign
    | Rematch
    | Chat
    | Pong
    | Cancel
    | Subscribe
    | Unsubscribe
    | GetLeaderboard
    | GetPlayerStats
)
CLIENT_MESSAGES: tuple[type[_Message], ...] = (
    Hello,
    ListTables,
    Create,
    Join,
    Rejoin,
    Watch,
    Leave,
    Move,
    Resign,
    Rematch,
    Chat,
    Pong,
    Cancel,
    Subscribe,
    Unsubscribe,
    GetLeaderboard,
    GetPlayerStats,
)

_decoder: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(Exception):
    """A message the server cannot take: ``code`` (see above) and a sentence;
    ``request_id`` if the message's id could be read."""

    def __init__(self, code: str, message: str, request_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


def decode_client(line: bytes) -> ClientMessage:
    """One client line (no newline) as a message; ProtocolError if it is none."""
    if len(line) > MAX_LINE:
        raise ProtocolError(BAD_JSON, f"a line may be at most {MAX_LINE} bytes")
    if _depth(line) > MAX_DEPTH:
        # checked before the fields: an unknown field holding a deep tower
        # would otherwise be refused for its name, hiding what is wrong
        raise ProtocolError(BAD_JSON, f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        return _decoder.decode(line)
    except msgspec.ValidationError as err:
        raise ProtocolError(BAD_MESSAGE, _sentence(err), request_id(line)) from None
    except msgspec.DecodeError as err:
        raise ProtocolError(BAD_JSON, f"not a JSON object: {_sentence(err)}") from None
    except UnicodeDecodeError as err:  # a string's bytes that are no UTF-8
        raise ProtocolError(
            BAD_JSON, f"not UTF-8: byte {err.start} of a string cannot be read"
        ) from None
    except RecursionError:  # msgspec's own guard against nesting too deep
        raise ProtocolError(BAD_JSON, "the JSON is nested too deeply") from None


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(rb"[^\[\]{}]")


def _depth(line: bytes) -> int:
    """How deep arrays and objects nest in ``line`` (brackets inside strings
    do not count). Cheap for every real message: only a line with more
    brackets than :data:`MAX_DEPTH` is scanned."""
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:
        return 0
    depth = deepest = 0
    for bracket in _NOT_BRACKET.sub(b"", _STRING.sub(b"", line)):
        if bracket in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _sentence(err: Exception) -> str:
    text = str(err)
    if "Expected `object`" in text and "`$`" not in text and "at `$" not in text:
        return "a message must be a JSON object with a `type`"
    return text[:300]


def request_id(line: bytes) -> int | None:
    """The id of a message refused for its shape, so that the error can echo
    it: read with a schema of its own that ignores everything else."""
    try:
        found = msgspec.json.decode(line, type=_JustId)
    except (msgspec.MsgspecError, RecursionError, UnicodeDecodeError):
        return None
    return found.id


class _JustId(msgspec.Struct):
    id: RequestId | None = None


def encode(message: dict[str, Any] | msgspec.Struct) -> bytes:
    """A server message as one line, newline included (a value may be a
    :class:`msgspec.Raw`: JSON encoded already, put in as it is)."""
    return _encoder.encode(message) + b"\n"


def error(code: str, message: str, request_id: int | None = None) -> Error:
    return Error(id=request_id, code=code, message=message)


# ---------------------------------------------------------------- server messages
# Everything the server sends, typed: the server builds these, and the JSON
# Schemas in docs/protocol/ are written from them (net/schemas.py). Fields a
# client does not know it must ignore, so none of these forbids unknown ones.


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


class SeatSummary(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One seat of a table summary: ``kind`` open, person or computer; a
    person's ``state`` (absent for the others)."""

    seat: int
    kind: Literal["open", "person", "computer"]
    name: str | None
    level: str | None
    state: Literal["connected", "reconnecting", "gone"] | None = None
    # a person away: the whole seconds of grace left when this was sent
    grace: int | None = None
    # a computer that plays a person's seat since the person's grace ran out
    # (``name`` is the person's, who may take the seat back); absent: false
    stands_in: bool = False


class TableSummary(msgspec.Struct, kw_only=True):
    """A table as the lobby shows it."""

    table: str
    game: str
    preset: str  # the preset's name (the game's first when the create named none)
    options: dict[str, OptionValue]
    status: Literal["waiting", "playing", "finished"]
    seats: list[SeatSummary]
    if_gone: Literal["computer", "resign"]
    spectators: int


class Created(_Sent, tag="created"):
    id: RequestId | None
    table: TableSummary


class Tables(_Sent, tag="tables"):
    """One page of the lobby."""

    id: RequestId | None
    tables: list[TableSummary]
    total: int  # how many tables match in all
    offset: int


class WireEvent(msgspec.Struct):
    """Something that happened, as the seat may see it: ``kind`` and ``data``
    for a program (docs/protocol/events.md), ``text`` for a person."""

    kind: str
    text: str
    data: dict[str, Any]


class WireNotice(msgspec.Struct):
    """Something at the table that is not a move (a seat left, came back,
    went to a computer; saving failed or works again)."""

    kind: str
    text: str
    seat: int | None


class WireResult(msgspec.Struct):
    """How the game ended: the winner (None: shared or no winner), the
    seats from first to last (seats tied share a group), the final scores
    and a sentence why."""

    winner: int | None
    ranking: list[list[int]]
    scores: list[int]
    reason: str


class WireUpdate(msgspec.Struct, kw_only=True):
    """The table as one seat (``seat`` None: a spectator) may see it."""

    state_id: int
    seat: int | None
    view: View  # the game's own view: docs/protocol/views/<game>.json
    to_act: list[int]
    legal: list[str]
    scores: list[int]
    events: list[WireEvent]
    status: Literal["playing", "finished"]
    result: WireResult | None
    thinking: list[int]
    connected: list[int]
    notices: list[WireNotice]
    # seconds left on each seat's move clock (None: none runs); kept for the
    # clients of before `clocks_ms`, which says the same in milliseconds
    clocks: list[float | None]
    clocks_ms: list[int | None]
    clocks_at_ms: int  # the server's time (Unix ms) when the clocks were read
    paused: bool
    hints: list[int]


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


# ------------------------------------------------------------ standings' replies
# (net/standings.py builds them from saves/stats.py; docs/protocol.md, "Standings")


class WireRating(msgspec.Struct, kw_only=True):
    """An openskill rating: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: float
    sigma: float


class WireTally(msgspec.Struct, kw_only=True):
    """Games, wins, losses, draws, resignations and the runs of wins."""

    games: int
    wins: int
    losses: int
    draws: int
    resignations: int
    streak: int  # wins in a row up to the last game
    best_streak: int


class RatingPoint(msgspec.Struct, kw_only=True):
    """The rating after one game (``id`` the table's saved game)."""

    id: str
    when: str  # ISO 8601, UTC
    mu: float
    sigma: float


class WireGameRecord(WireTally, kw_only=True):
    """One name's record in one game."""

    game: str
    rating: WireRating | None
    by_opponent: dict[str, WireTally]  # a name, or computer:<level>
    by_preset: dict[str, WireTally]
    figures: dict[str, float | None]  # the game's own figures, by label
    rating_history: list[RatingPoint]  # oldest first


class LeaderboardRow(msgspec.Struct, kw_only=True):
    place: int  # from 1
    name: str
    games: int
    wins: int
    losses: int
    draws: int
    rating: WireRating | None
    claimed: bool  # a secret keeps the name


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
)


def wire_update(update: Update, at_ms: int) -> WireUpdate:
    """``update`` as the wire carries it, its clocks read at ``at_ms``."""
    return WireUpdate(
        state_id=update.state_id,
        seat=update.seat,
        view=update.view,
        to_act=list(update.to_act),
        legal=list(update.legal),
        scores=list(update.scores),
        events=wire_events(update.events),
        status="finished" if update.over else "playing",
        result=None
        if update.result is None
        else msgspec.convert(update.result.to_json(), WireResult),
        thinking=list(update.thinking),
        connected=list(update.connected),
        notices=[WireNotice(n.kind, n.text, n.seat) for n in update.notices],
        clocks=list(update.clocks),
        clocks_ms=[None if left is None else round(left * 1000) for left in update.clocks],
        clocks_at_ms=at_ms,
        paused=update.paused,
        hints=list(update.hints),
    )


def wire_events(events: Iterable[Event]) -> list[WireEvent]:
    # through the event's own JSON form, so that fields it gains reach the wire
    return [msgspec.convert(event.to_json(), WireEvent) for event in events]
