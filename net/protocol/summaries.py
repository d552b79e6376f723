"""The parts of server messages that are not messages themselves: a table
and its seats as the lobby shows them, a seat's update (its view, events and
clocks), and the standings' records. Fields a client does not know it must
ignore, so none of these forbids unknown ones."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from rules.events import Event
from rules.views import View

from .basics import OptionValue

if TYPE_CHECKING:
    from ..client import Update


class SeatSummary(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One seat of a table summary: ``kind`` open, person or computer; a
    person's ``state`` (absent for the others)."""

    seat: int
    kind: Literal["open", "person", "computer"]
    name: str | None
    level: str | None
    # (``away``: a correspondence table's player not connected now, whose
    # seat is theirs for the whole game)
    state: Literal["connected", "reconnecting", "away", "gone"] | None = None
    # a person away: the whole seconds of grace left when this was sent
    grace: int | None = None
    # a computer that plays a person's seat since the person's grace ran out
    # (``name`` is the person's, who may take the seat back); absent: false
    stands_in: bool = False
    # the seat must act now (the game is waiting for it); absent: false
    acts: bool = False
    # whole seconds left on the seat's move clock when this was sent (absent:
    # no clock runs for it)
    clock: int | None = None
    # the person sat with a claimed name (their hello proved its secret): a
    # `rejoin` by that name takes the seat back, as its token does; absent: false
    named: bool = False


class TableSummary(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A table as the lobby shows it."""

    table: str
    game: str
    preset: str  # the preset's name (the game's first when the create named none)
    options: dict[str, OptionValue]
    status: Literal["waiting", "playing", "finished"]
    seats: list[SeatSummary]
    if_gone: Literal["computer", "resign"]
    spectators: int
    # a correspondence table: the seconds each seat has for each move, and
    # what a clock that runs out does (absent: the game's own clocks)
    per_move: int | None = None
    if_late: Literal["computer", "lose"] | None = None


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
