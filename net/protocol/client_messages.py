"""The messages a client sends, declared as Structs and decoded against that
declaration (:func:`decode_client`): a message of an unknown type, with a
missing or misspelt field, a value of the wrong type or out of range, is
refused with a :class:`~net.protocol.basics.ProtocolError` whose sentence
names what was wrong, before any of it reaches a table."""

from __future__ import annotations

import re
from typing import Annotated, Literal

import msgspec

from .basics import (
    BAD_JSON,
    BAD_MESSAGE,
    MAX_DEPTH,
    MAX_LINE,
    MAX_PAGE,
    NextToken,
    Options,
    ProtocolError,
    RequestId,
    Seat,
    SeatChoice,
    ShortText,
    StateId,
    TableId,
    Token,
)

# a correspondence table's time for each move: from an hour to 30 days
PerMove = Annotated[int, msgspec.Meta(ge=3600, le=30 * 86400)]


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
    # a correspondence table (docs/protocol.md, "Correspondence tables"): the
    # seconds each seat has for each move (an hour to 30 days), counted by the
    # server across restarts; seats are kept for the whole game; ``if_late``
    # says what a clock that runs out does (the computer plays that one move
    # for the seat, or the seat loses). Absent: the game's own clocks
    per_move: PerMove | None = None
    if_late: Literal["computer", "lose"] = "computer"
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
    """Take one's seat back with the token ``joined`` gave; or, without a
    token, by one's claimed name (docs/protocol.md, "Seats, tokens, and
    dropping out"): the seat a connection whose hello proved the name's
    secret sat at under that name."""

    table: TableId
    token: Token | None = None
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


class AreYouThere(_Message, tag="ping"):
    """A client's own keep-alive (capability ``client_ping``): answered
    ``ok`` at once, wherever the client is, with no database read on the
    way. A client that has heard nothing for a few seconds sends one; no
    answer means the server (or the network to it) has gone."""

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
    | AreYouThere
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
    AreYouThere,
    Cancel,
    Subscribe,
    Unsubscribe,
    GetLeaderboard,
    GetPlayerStats,
)


_decoder: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)


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
