"""Shared pieces of the table tests: seats, a recording listener, card scans."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec

from net.client import Update
from net.local import LocalClient
from rules.events import Event
from rules.registry import get_game
from saves.record import SeatInfo

HUMAN = SeatInfo("Ada", "human")
HUMAN2 = SeatInfo("Bo", "human")
BOT = SeatInfo("Computer", "bot", "easy")
BOT2 = SeatInfo("Robot", "bot", "medium")

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")


def domination_config(**options: Any) -> Any:
    # seat 1 leads, so tests know whose turn comes first; short matches
    return get_game("domination").config(first_leader="0", **{"target_score": 30, **options})


def cards_in(data: Any) -> Counter[str]:
    """Card texts mentioned anywhere in data as the wire would carry it (views
    are Structs: ``json.dumps`` refused them, and the refusal, inside a
    listener, was only logged, so the scan found nothing)."""
    return Counter(CARD.findall(msgspec.json.encode(data).decode()))


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


@dataclass
class Recorder:
    """Keeps every update; checks on arrival that it leaks no hidden card."""

    client: LocalClient
    updates: list[Update] = field(default_factory=list)
    acting: list[tuple[int, ...]] = field(default_factory=list)  # to_act() at each update
    leaks: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client.subscribe(self)

    def __call__(self, update: Update) -> None:
        self.updates.append(update)
        state = self.client.table.state
        self.acting.append(state.to_act())
        hidden = state.hidden_cards(update.seat)
        shown = cards_in({"view": update.view, "events": events_json(update.events)})
        leaked = sorted(set(shown) & set(hidden))
        if leaked:
            self.leaks.append(f"state {update.state_id} seat {update.seat}: {leaked}")

    def for_seat(self, seat: int | None) -> list[Update]:
        return [u for u in self.updates if u.seat == seat]
