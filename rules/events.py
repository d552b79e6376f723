"""Events: what happened, narrated for a person, redacted per seat.

A game's ``play`` returns events. An event may be private to one seat
(``private_to``); every other seat (and a spectator) then sees its ``redacted``
form, or nothing. :func:`visible_events` is the one function that decides.
Texts name seats as ``{p0}``, ``{p1}``...; :meth:`Event.render` fills in names.

What happened is in the event's ``kind`` and its typed, frozen ``data`` (an
:class:`EventData` Struct: each game declares one per kind in
``GameSpec.event_types``); the text is the English sentence, an extra a
client may show. A client decodes an event once, where it arrives
(:meth:`Event.read`), so a malformed one fails there and a screen reads
attributes. ``docs/protocol/events.md`` lists every kind and field.

A seat may be addressed in the second person (the one person at this screen,
named "You"), so a text says how its sentence agrees with each seat:

- ``{p0}``: the seat's name ("Ann"; "you", "You" where a sentence starts);
- ``{p0's}``: its possessive ("Ann's"; "your", "Your");
- ``{p0 wins|win}``: the seat with a verb, third person then second ("Ann
  wins"; "you win");
- ``{p0:takes|take}``: the verb alone, for a second verb of the same subject
  ("{p0 uses|use} Claim Priority and {p0:takes|take} the pot").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .views import Record


class EventError(ValueError):
    """An event that is not what its game declares (a client's boundary check)."""


class EventData(Record, frozen=True, kw_only=True, omit_defaults=True):
    """What an event says happened, typed: the base of every kind's payload.
    A field left at its default (None) is left out of the JSON, as a redacted
    draw leaves out its cards."""


class NoData(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """An event whose kind says it all (a reshuffle)."""


class SeatEvent(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """Something a seat did or that happened to it (resigned, ran out of time,
    is ready, ...)."""

    seat: int


class CardsDrawn(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``draw``: a seat took cards from the stock. The seat itself is told the
    ``cards`` (private); everyone else, in the redacted form, only their
    ``count``."""

    seat: int
    cards: list[str] | None = None
    count: int | None = None


# The kinds every game may emit: resigning is a move of every game, and a
# table narrates a seat whose move clock ran out.
COMMON_EVENT_TYPES: Mapping[str, type[EventData]] = {
    "resign": SeatEvent,
    "timeout": SeatEvent,
}


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str
    data: EventData = field(default_factory=NoData)
    private_to: int | None = None
    redacted: Event | None = None

    def for_seat(self, seat: int | None) -> Event | None:
        if self.private_to is None or self.private_to == seat:
            return self
        return self.redacted

    def render(self, names: Sequence[str], you: Collection[int] = ()) -> str:
        """The text with seat placeholders ``{p0}``, ``{p1}``... filled in; the
        seats in ``you`` are addressed in the second person."""
        return fill_names(self.text, names, you)

    def to_json(self) -> dict[str, Any]:
        """The event as one seat receives it (already redacted for that seat:
        ``private_to`` and ``redacted`` stay behind)."""
        return {"kind": self.kind, "text": self.text, "data": self.data.to_json()}

    @classmethod
    def read(cls, data: object, types: Mapping[str, type[EventData]]) -> Event:
        """Read :meth:`to_json`'s form, its data as the type ``types`` declares
        for its kind (a game's ``GameSpec.event_types``); EventError, saying
        what is wrong, for anything else (an unknown kind among them: a
        client and its server speak the same protocol version)."""
        if not isinstance(data, Mapping):
            raise EventError(f"an event is an object, not {type(data).__name__}")
        kind, text, payload = data.get("kind"), data.get("text"), data.get("data")
        if not isinstance(kind, str) or not isinstance(text, str):
            raise EventError("an event's kind and text are text")
        data_type = types.get(kind)
        if data_type is None:
            raise EventError(f"no event of kind {kind!r} in this game")
        try:
            return cls(kind, text, msgspec.convert(payload, data_type))
        except msgspec.ValidationError as err:
            raise EventError(f"not a {kind} event ({data_type.__name__}): {err}") from None


# {p0}, {p0's}, {p0 wins|win}, {p0:takes|take}
_SEAT = re.compile(
    r"\{p(\d+)(?:(?P<own>'s)|(?P<sep>[ :])(?P<third>[^{}|]+)\|(?P<second>[^{}|]+))?\}"
)
# where a sentence starts: the text's start, or after . ! ? or : and a space
_SENTENCE_END = re.compile(r"(?:^|[.!?:]\s+)$")


def cards_drawn(seat: int, cards: list[str], words: str | None = None) -> Event:
    """A draw from the stock: ``seat`` is told the ``cards`` (in ``words`` where
    the game names them its own way), everyone else, in the redacted form,
    only how many; one kind and one type for both."""
    n = len(cards)
    return Event(
        "draw",
        f"{{p{seat} draws|draw}} {words or ' '.join(cards)}.",
        CardsDrawn(seat=seat, cards=cards),
        private_to=seat,
        redacted=Event(
            "draw",
            f"{{p{seat} draws|draw}} {n} card{'s' if n != 1 else ''}.",
            CardsDrawn(seat=seat, count=n),
        ),
    )


def fill_names(text: str, names: Sequence[str], you: Collection[int] = ()) -> str:
    """``text`` with ``{p0}``, ``{p1}``... replaced by the seats' names, the
    seats in ``you`` in the second person (the forms are in the module's
    docstring); any other brace is left as it is (a text may quote a file name
    or a message)."""
    out: list[str] = []
    end = 0
    for match in _SEAT.finditer(text):
        out.append(text[end : match.start()])
        end = match.end()
        seat = int(match.group(1))
        if seat >= len(names):
            out.append(match.group(0))
            continue
        second = seat in you
        if match.group("sep") == ":":
            out.append(match.group("second") if second else match.group("third"))
            continue
        if second:
            starts = _SENTENCE_END.search("".join(out)) is not None
            word = "your" if match.group("own") else "you"
            word = word.capitalize() if starts else word
        else:
            word = names[seat] + ("'s" if match.group("own") else "")
        if match.group("sep") == " ":
            word += " " + (match.group("second") if second else match.group("third"))
        out.append(word)
    out.append(text[end:])
    return "".join(out)


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    out = []
    for e in events:
        seen = e.for_seat(seat)
        if seen is not None:
            out.append(seen)
    return out
