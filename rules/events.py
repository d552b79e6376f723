"""Events: what happened, narrated for a person, redacted per seat.

A game's ``play`` returns events. An event may be private to one seat
(``private_to``); every other seat (and a spectator) then sees its ``redacted``
form, or nothing. :func:`visible_events` is the one function that decides.
Texts name seats as ``{p0}``, ``{p1}``...; :meth:`Event.render` fills in names.
"""

from __future__ import annotations

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
        return self.text.format_map({f"p{i}": n for i, n in enumerate(names)})

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    out = []
    for e in events:
        seen = e.for_seat(seat)
        if seen is not None:
            out.append(seen)
    return out
