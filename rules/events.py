"""Events: what happened, narrated for a person, redacted per seat.

A game's ``play`` returns events. An event may be private to one seat
(``private_to``); every other seat (and a spectator) then sees its ``redacted``
form, or nothing. :func:`visible_events` is the one function that decides.
Texts name seats as ``{p0}``, ``{p1}``...; :meth:`Event.render` fills in names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | None = None
    redacted: Event | None = None

    def for_seat(self, seat: int | None) -> Event | None:
        if self.private_to is None or self.private_to == seat:
            return self
        return self.redacted

    def render(self, names: Sequence[str]) -> str:
        """The text with seat placeholders ``{p0}``, ``{p1}``... filled in."""
        return fill_names(self.text, names)

    def to_json(self) -> dict[str, Any]:
        """The event as one seat receives it (already redacted for that seat:
        ``private_to`` and ``redacted`` stay behind)."""
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Read :meth:`to_json`'s form; KeyError/TypeError if it is not one."""
        kind, text, payload = data["kind"], data["text"], data["data"]
        if not isinstance(kind, str) or not isinstance(text, str):
            raise TypeError("an event's kind and text are text")
        if not isinstance(payload, Mapping):
            raise TypeError("an event's data is an object")
        return cls(kind, text, dict(payload))


_SEAT = re.compile(r"\{p(\d+)\}")


def fill_names(text: str, names: Sequence[str]) -> str:
    """``text`` with ``{p0}``, ``{p1}``... replaced by the seats' names; any
    other brace is left as it is (a text may quote a file name or a message)."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return _SEAT.sub(name, text)


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    out = []
    for e in events:
        seen = e.for_seat(seat)
        if seen is not None:
            out.append(seen)
    return out
