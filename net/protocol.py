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

from typing import Annotated, Any, Literal

import msgspec

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
CAPABILITIES = ("lobby", "chat", "watch", "rejoin", "clocks", "rematch", "standings")

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

RequestId = Annotated[int, msgspec.Meta(ge=0, le=2**53)]
StateId = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=63)]
ShortText = Annotated[str, msgspec.Meta(max_length=64)]
TableId = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{6,32}$")]
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
    try:
        return _decoder.decode(line)
    except msgspec.ValidationError as err:
        raise ProtocolError(BAD_MESSAGE, _sentence(err), request_id(line)) from None
    except msgspec.DecodeError as err:
        raise ProtocolError(BAD_JSON, f"not a JSON object: {_sentence(err)}") from None
    except RecursionError:  # msgspec's own guard against nesting too deep
        raise ProtocolError(BAD_JSON, "the JSON is nested too deeply") from None


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
    except (msgspec.MsgspecError, RecursionError):
        return None
    return found.id


class _JustId(msgspec.Struct):
    id: RequestId | None = None


def encode(message: dict[str, Any]) -> bytes:
    """A server message as one line, newline included (a value may be a
    :class:`msgspec.Raw`: JSON encoded already, put in as it is)."""
    return _encoder.encode(message) + b"\n"


def error(code: str, message: str, request_id: int | None = None) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "message": message}
