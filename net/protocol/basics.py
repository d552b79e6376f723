"""What every message of the protocol shares: the version, the limits, the
capabilities, the error codes, the field types both directions use, and the
encoding of a line (docs/protocol.md is the reference)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

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
    "client_ping",  # a client's `ping` is answered `ok` (a client may check the server is there)
)
CLIENT_PING = "client_ping"
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

MAX_PAGE = 200  # tables in one `tables` reply at most


class ProtocolError(Exception):
    """A message the server cannot take: ``code`` (see above) and a sentence;
    ``request_id`` if the message's id could be read."""

    def __init__(self, code: str, message: str, request_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


_encoder = msgspec.json.Encoder()


def encode(message: dict[str, Any] | msgspec.Struct) -> bytes:
    """A server message as one line, newline included (a value may be a
    :class:`msgspec.Raw`: JSON encoded already, put in as it is)."""
    return _encoder.encode(message) + b"\n"
