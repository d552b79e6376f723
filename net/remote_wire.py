"""The client's end of the wire: each line a server sends, decoded once into
the message Structs net/protocol/ declares, and a seat's update read from
one into an :class:`~net.client.Update` with its game's own view and events.

Everything above this module (net/remote.py, the screens) reads attributes:
a field renamed in the protocol is a mypy error there, not a lobby that goes
quietly blank. The one thing the message Structs cannot type alone is an
update's ``view``, whose type is the table's game's (``GameSpec.view_type``):
it is kept here as its JSON and read once the game is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from rules.errors import IllegalMove
from rules.events import Event
from rules.game import GameSpec, Outcome

from . import protocol as p
from .client import Notice, SeatInfo, StaleMove, Update

# a message that carries a seat's update (the view inside is its game's)
UPDATE_MESSAGES = (p.Game, p.Joined, p.Watching)
KNOWN_TYPES = frozenset(str(m.__struct_config__.tag) for m in p.SERVER_MESSAGES)

_messages: msgspec.json.Decoder[p.ServerMessage] = msgspec.json.Decoder(p.ServerMessage)


class _RawView(msgspec.Struct):
    view: msgspec.Raw


class _WithUpdate(msgspec.Struct):
    update: _RawView


class _Kind(msgspec.Struct):
    type: Any = None


_views = msgspec.json.Decoder(_WithUpdate)
_kinds = msgspec.json.Decoder(_Kind)


class TooFast(IllegalMove):
    """A move the server did not look at: over its message rate (``too_fast``).
    Nothing changed at the table; the same move may be sent again a little later."""


class RemoteError(Exception):
    """The server refused a request: ``code`` (docs/protocol.md) and its sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class UnknownMessage(ValueError):
    """A message of a type this client does not know (a newer server's):
    passed over, as the protocol asks (docs/protocol.md, "Compatibility")."""


@dataclass(frozen=True)
class Received:
    """One server line: the message, and for a message that carries an
    update, that update's view still as JSON (its game reads it)."""

    message: p.ServerMessage
    view: msgspec.Raw | None = None


def read_line(line: bytes) -> Received:
    """A line as a message; UnknownMessage for a type this client does not
    know, ValueError (msgspec's, saying what is wrong) for anything else."""
    try:
        message = _messages.decode(line)
    except msgspec.ValidationError:
        kind = _kinds.decode(line).type
        if isinstance(kind, str) and kind not in KNOWN_TYPES:
            raise UnknownMessage(f"a message of type {kind[:40]!r}") from None
        raise
    if isinstance(message, UPDATE_MESSAGES):
        return Received(message, _views.decode(line).update.view)
    return Received(message)


def to_update(wire: p.WireUpdate, view: msgspec.Raw, game: GameSpec[Any, Any]) -> Update:
    """A wire update as an :class:`Update`, its view and events as ``game``
    declares them (ViewError / EventError / ValueError if they are not).

    The move clocks are read from ``clocks_ms`` (whole milliseconds) as the
    seconds left when the update arrived: the screen counts down from there
    on its own clock (the server's own time, ``clocks_at_ms``, is on another
    machine's clock, so only the time left is taken)."""
    result = wire.result
    return Update(
        state_id=wire.state_id,
        seat=wire.seat,
        view=game.read_view(msgspec.json.decode(view)),
        to_act=tuple(wire.to_act),
        legal=tuple(wire.legal),
        scores=tuple(wire.scores),
        events=tuple(read_events(wire.events, game)),
        status=wire.status,
        result=None if result is None else Outcome.from_json(msgspec.to_builtins(result)),
        thinking=tuple(wire.thinking),
        connected=tuple(wire.connected),
        notices=tuple(Notice(n.kind, n.text, n.seat) for n in wire.notices),
        clocks=tuple(None if ms is None else ms / 1000 for ms in wire.clocks_ms),
        paused=wire.paused,
        hints=tuple(wire.hints),
    )


def read_events(events: list[p.WireEvent], game: GameSpec[Any, Any]) -> list[Event]:
    """Each event's data as the type ``game`` declares for its kind."""
    return [game.read_event({"kind": e.kind, "text": e.text, "data": e.data}) for e in events]


def refusal(message: p.Error) -> Exception:
    if message.code == p.STALE:
        return StaleMove(message.message)
    if message.code == p.ILLEGAL:
        return IllegalMove(message.message)
    return RemoteError(message.code, message.message)


def tag(message: msgspec.Struct) -> str:
    return str(message.__struct_config__.tag)


def seat_info(name: str, seat: p.SeatSummary) -> SeatInfo:
    """A seat as the screens know it: a computer's, or a person's (one a
    computer stands in for is still theirs: "Computer for Bea")."""
    computer = seat.kind == "computer" and not seat.stands_in
    return SeatInfo(name, "bot" if computer else "remote", seat.level)
