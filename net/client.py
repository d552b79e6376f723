"""The one API through which a screen reaches a table.

A game screen holds a :class:`TableClient` and never knows whether the table
runs in this process (:class:`net.local.LocalClient`) or across the network
(the TCP transport, later). Everything is async so that both transports fit.

Flow: the screen subscribes, calls ``start()``, and then gets an
:class:`Update` for every change: after each move (its own, a bot's, the other
person's), when a bot starts or stops thinking, and when the game ends.
Updates carry views only, never the true state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.events import Event
from saves.record import SeatInfo  # defined with the record; re-exported here

__all__ = ["SeatInfo", "TableClient", "Update"]


@dataclass(frozen=True)
class Update:
    """A change at the table, as one seat (or a spectator) may see it."""

    state_id: int  # moves applied so far; monotonic
    seat: int | None  # the perspective of `view` and `events`
    view: dict[str, Any]
    events: list[Event] = field(default_factory=list)  # new since the last update
    thinking: int | None = None  # a bot seat now choosing its move
    status: str = "playing"  # playing | finished | resigned
    # seconds `seat` had left to move when this update was made (None: no timer
    # is running for it); a screen counts down from here
    time_left: float | None = None


class TableClient(ABC):
    game_id: str
    config: dict[str, Any]
    seats: list[SeatInfo]
    record_id: str
    # seats this client may act for (both seats in hot-seat; none for a spectator)
    my_seats: tuple[int, ...]

    @abstractmethod
    def subscribe(self, listener: Callable[[Update], None]) -> Callable[[], None]:
        """Call ``listener`` with every update for this client's seats; returns
        a function that unsubscribes.

        Each change produces one :class:`Update` per seat in ``my_seats``, in
        seat order, each with that seat's own view and events (a hot-seat
        screen picks the seat it shows). A client with no seats (watching bots)
        gets one update per change with ``seat=None``: the spectator's view.
        Listeners run on the event loop; they must not block."""

    @abstractmethod
    async def start(self) -> None:
        """Begin (or resume) play: bots that must act start thinking."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """The latest view for one of my seats (or None: spectator)."""

    @abstractmethod
    def history(self, seat: int | None) -> list[Event]:
        """Every event so far that ``seat`` may see (for the log after a resume)."""

    @abstractmethod
    async def play(self, seat: int, move: str) -> None:
        """Submit a move in notation. Raises rules.IllegalMove with the reason."""

    @abstractmethod
    async def resign(self, seat: int) -> None:
        """Give up the game for ``seat``."""

    @abstractmethod
    async def idle(self) -> None:
        """Return once no bot is thinking and no move is in flight (tests await
        this instead of sleeping). A running move timer does not count."""

    @abstractmethod
    async def close(self) -> None:
        """Leave the table (everything is already saved)."""
