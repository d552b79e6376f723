"""The one API through which a screen reaches a table: a wire API.

A game screen holds a :class:`TableClient` and never knows whether the table
runs in this process (:class:`net.local.LocalClient`) or across the network.
Everything the screen learns arrives as an :class:`Update`, which is plain
data that round-trips through JSON, so a TCP client can implement this API
with nothing local behind it.

Flow: the screen subscribes, calls ``start()``, reads ``snapshot(seat)`` for
where things stand, and then gets an :class:`Update` for every change: after
each move (its own, a bot's, another person's), when bots start or stop
thinking, when someone leaves or comes back, and when the game ends. Updates
carry views only, never the true state.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rules.bots.advice import Choice
from rules.errors import IllegalMove
from rules.events import Event
from rules.game import GameSpec, Outcome
from rules.views import View
from saves.record import SeatInfo  # defined with the record; re-exported here

if TYPE_CHECKING:
    from .protocol import SeatSummary

log = logging.getLogger(__name__)

__all__ = [
    "Hint",
    "HintEstimate",
    "LinkDown",
    "NoHints",
    "Notice",
    "RatingChange",
    "SeatInfo",
    "StaleMove",
    "TableClient",
    "Update",
    "UpdateListeners",
]

PLAYING = "playing"
FINISHED = "finished"


class StaleMove(IllegalMove):
    """A move chosen at an earlier state than the table's: something happened
    meanwhile (another seat moved, a clock ran out). Nothing was changed."""


class LinkDown(IllegalMove):
    """A move or a resignation not sent: the connection to the table is down
    (a network table reconnecting, or closed). Nothing was changed; the message
    says what to do."""


class NoHints(Exception):
    """This table gives no hints now (not this seat's turn; a network table
    that does not allow them): the message says why, in a sentence."""


# One choice as the engine judges it (its chance to win, the error of that
# chance, what it amounts to): the advice's own type, built in rules/ so that
# every front end shows the same advice.
HintEstimate = Choice


@dataclass(frozen=True)
class Hint:
    """The engine's view of a seat's legal moves, best first, asked at
    ``state_id``; ``used`` counts the hints this seat has taken in the game,
    this one included (it is saved with the game and shown with the result)."""

    state_id: int
    seat: int
    moves: tuple[HintEstimate, ...]
    used: int

    @property
    def best(self) -> str:
        return self.moves[0].move

    def to_json(self) -> dict[str, Any]:
        return {
            "state_id": self.state_id,
            "seat": self.seat,
            "moves": [m.to_json() for m in self.moves],
            "used": self.used,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Hint:
        return cls(
            int(data["state_id"]),
            int(data["seat"]),
            tuple(HintEstimate.from_json(m) for m in data["moves"]),
            int(data["used"]),
        )


@dataclass(frozen=True)
class RatingChange:
    """What one finished game did to a person's rating (openskill's mu):
    ``yours`` for the person at this screen."""

    name: str
    before: float
    after: float
    yours: bool = False


@dataclass(frozen=True)
class Notice:
    """Something a player should be told that is not a move: ``kind`` is one of
    ``save_failed``, ``saved`` (saving works again), ``left``, ``back``,
    ``hurried`` (a busy server cut a computer's thinking short);
    ``text`` is a sentence (seats named ``{p0}``... as in events)."""

    kind: str
    text: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Notice:
        seat = data.get("seat")
        return cls(str(data["kind"]), str(data["text"]), seat if type(seat) is int else None)


@dataclass(frozen=True)
class Update:
    """A change at the table, as one seat (or a spectator) may see it.

    ``view`` is the game's own part (its spec's ``view_type``, decoded once
    where an update arrives: :meth:`from_json`); what every game shares is
    typed here: who must act, the legal moves of ``seat`` (only while
    it must act: sent once per change, for that seat alone), the scores, and
    the result once the game has ended."""

    state_id: int  # moves applied so far; only grows
    seat: int | None  # the perspective of `view`, `events` and `legal`
    view: View
    to_act: tuple[int, ...] = ()
    legal: tuple[str, ...] = ()  # notation of `seat`'s legal moves, if it must act
    scores: tuple[int, ...] = ()
    events: tuple[Event, ...] = ()  # new since the last update, redacted for `seat`
    status: str = PLAYING  # playing | finished
    result: Outcome | None = None  # once the game is over
    thinking: tuple[int, ...] = ()  # bot seats now choosing their moves
    connected: tuple[int, ...] = ()  # seats with a player there (bots always)
    notices: tuple[Notice, ...] = ()
    # seconds each seat had left on its move clock when this update was made
    # (None: no clock runs for it); a screen counts down from here
    clocks: tuple[float | None, ...] = ()
    paused: bool = False  # the clocks are stopped (local play: a menu is open)
    hints: tuple[int, ...] = ()  # hints each seat has taken in this game

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def time_left(self) -> float | None:
        """The clock of ``seat``, if one runs for it."""
        if self.seat is None or not 0 <= self.seat < len(self.clocks):
            return None
        return self.clocks[self.seat]

    def must_act(self, seat: int | None) -> bool:
        return seat is not None and seat in self.to_act

    def to_json(self) -> dict[str, Any]:
        return {
            "state_id": self.state_id,
            "seat": self.seat,
            "view": self.view.to_json(),
            "to_act": list(self.to_act),
            "legal": list(self.legal),
            "scores": list(self.scores),
            "events": [e.to_json() for e in self.events],
            "status": self.status,
            "result": self.result.to_json() if self.result is not None else None,
            "thinking": list(self.thinking),
            "connected": list(self.connected),
            "notices": [n.to_json() for n in self.notices],
            "clocks": list(self.clocks),
            "paused": self.paused,
            "hints": list(self.hints),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], game: GameSpec[Any, Any]) -> Update:
        """Read :meth:`to_json`'s form, the view as ``game``'s view type and
        each event's data as the type ``game`` declares for its kind (a
        transport validates the message's shape first; KeyError/TypeError/
        ValueError, ViewError and EventError among them, for one that is not)."""
        result = data.get("result")
        return cls(
            state_id=int(data["state_id"]),
            seat=data["seat"],
            view=game.read_view(data["view"]),
            to_act=tuple(int(s) for s in data["to_act"]),
            legal=tuple(str(m) for m in data["legal"]),
            scores=tuple(int(s) for s in data["scores"]),
            events=tuple(game.read_event(e) for e in data["events"]),
            status=str(data["status"]),
            result=Outcome.from_json(result) if result is not None else None,
            thinking=tuple(int(s) for s in data["thinking"]),
            connected=tuple(int(s) for s in data["connected"]),
            notices=tuple(Notice.from_json(n) for n in data["notices"]),
            clocks=tuple(None if c is None else float(c) for c in data["clocks"]),
            paused=bool(data["paused"]),
            hints=tuple(int(h) for h in data.get("hints", ())),
        )


Listener = Callable[[Update], None]


class UpdateListeners:
    """The listeners a client hands its updates to (``TableClient.subscribe``).
    One that fails is logged, and the others still hear of the update."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> Callable[[], None]:
        """Add ``listener``; returns a function that removes it."""
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    def tell(self, update: Update) -> None:
        for listener in list(self._listeners):
            try:
                listener(update)
            except Exception:  # one broken listener must not starve the others
                log.exception("an update listener failed")

    def clear(self) -> None:
        self._listeners.clear()


class TableClient(ABC):
    """A seat (or several, hot-seat; or none, a spectator) at one table."""

    game_id: str
    config: dict[str, Any]
    preset: str | None
    seats: list[SeatInfo]
    record_id: str
    # seats this client may act for (every person's seat in hot-seat; none for a spectator)
    my_seats: tuple[int, ...]
    # a person may play here; False for a replay, whose moves are its record's
    # (the screen then offers the replay's keys and none of the game's)
    interactive: bool = True
    # the table lets this client stop the clocks (local play only)
    can_pause: bool = False
    # the game is saved as it goes (here or at the server); a lesson's table
    # saves nothing
    keeps_record: bool = True
    # where the table is, for people: "" for a table in this process
    address: str = ""
    # the table has a chat (``say``; lines reach ``chat_listeners`` as
    # (name, text), both plain text from outside)
    can_chat: bool = False
    # the table answers ``hint`` (a server's tables give none)
    gives_hints: bool = True
    # the table lets this client drop the computers' pace (``hurry``: local play)
    can_hurry: bool = False
    # a correspondence table elsewhere: its seconds for each move (its seats
    # are kept for the whole game); None for any other table
    per_move: int | None = None
    # a table elsewhere: each seat as the server last described it (the
    # protocol's seat summary: ``state`` "reconnecting" with the seconds of
    # ``grace`` left, ``stands_in`` for a computer playing a person's seat),
    # and when that was (on the event loop's clock); empty for a table here
    seat_states: tuple[SeatSummary, ...] = ()
    seat_states_at: float = 0.0
    # a rematch elsewhere: the open seats kept for the people of the last
    # game who have not accepted yet, and their names
    invited: Mapping[int, str] = MappingProxyType({})
    # why the table closed under us, in the server's words ("the host closed
    # the table"): said once the connection is ``closed`` for that reason
    farewell: str | None = None

    @property
    def connection(self) -> str | None:
        """The link to a table elsewhere: ``connected``, ``reconnecting`` or
        ``closed``; None for a table in this process (no link to lose)."""
        return None

    def watch_connection(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call ``listener`` with each new ``connection`` state; returns a
        function that stops it. A table in this process never changes."""
        return lambda: None

    def watch_chat(self, listener: Callable[[str, str], None]) -> Callable[[], None]:
        """Call ``listener(name, text)`` for each chat line at the table."""
        return lambda: None

    def watch_offers(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call ``listener(name)`` when someone at the table asks for a rematch
        (a name from outside: plain it before showing it)."""
        return lambda: None

    async def say(self, text: str) -> None:
        """A chat line to everyone at the table (where ``can_chat``)."""
        raise RuntimeError("this table has no chat")

    @abstractmethod
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every update for this client's seats; returns
        a function that unsubscribes.

        Each change produces one :class:`Update` per seat in ``my_seats``, in
        seat order, each with that seat's own view, legal moves and events (a
        hot-seat screen picks the seat it shows). A client with no seats gets
        one update per change with ``seat=None``: the spectator's view.
        Listeners run on the event loop; they must not block."""

    @abstractmethod
    async def start(self) -> None:
        """Begin (or resume) play: bots that must act start thinking."""

    @abstractmethod
    def snapshot(self, seat: int | None) -> Update:
        """Where things stand now for one of my seats (or None: spectator), as
        an update with no new events."""

    @abstractmethod
    def history(self, seat: int | None) -> list[Event]:
        """Every event so far that ``seat`` may see (for the log after a resume)."""

    @abstractmethod
    async def play(self, seat: int, move: str, state_id: int) -> None:
        """Submit a move in notation, chosen at ``state_id``. Raises
        :class:`rules.errors.MoveError` with the reason (:class:`StaleMove` if
        the table has moved on since); nothing changes then."""

    @abstractmethod
    async def resign(self, seat: int) -> None:
        """Give up for ``seat`` (the ``resign`` move; accepted out of turn)."""

    @abstractmethod
    async def rematch(self) -> TableClient:
        """A new game with the same seats, once this one is over (the rules say
        who starts); this client is closed and the new one returned."""

    async def rating_change(self) -> tuple[RatingChange, ...]:
        """What this game, once over and counted, did to each person's rating
        (docs/stats.md): at a table here from the saved games, at a server
        from its standings; nothing for a game not counted."""
        return ()

    async def hint(self, seat: int) -> Hint:
        """The engine's view of ``seat``'s legal moves now, from what that seat
        has seen (never the hidden cards), within the hard bot's budget; the
        hint is counted and saved. :class:`NoHints` where the table gives none
        (not the seat's turn; a network table that does not allow them)."""
        raise NoHints("this table gives no hints")

    def hurry(self) -> None:  # noqa: B027  (optional, not abstract)
        """The computers play the rest of the game without their pace (it is
        there so a person can follow their moves: one who has left the game
        need not wait minutes for the end), where ``can_hurry``."""

    async def pause(self, paused: bool) -> None:  # noqa: B027  (optional, not abstract)
        """Stop (True) or restart (False) every move clock, where the table
        lets this client (``can_pause``); otherwise nothing happens."""

    @abstractmethod
    async def idle(self) -> None:
        """Return once no bot is thinking and no move or save is in flight (tests
        await this instead of sleeping). A running move clock does not count."""

    @abstractmethod
    async def close(self) -> None:
        """Leave the table (returns once everything is saved)."""

    def unplayed(self) -> bool:
        """No move is in the game's record yet and this app keeps that record
        (a table in this process): leaving now would keep an empty save. A
        table elsewhere keeps its own record: False."""
        return False

    def forget_unplayed(self) -> bool:
        """Delete the record of an :meth:`unplayed` game (after :meth:`close`),
        so that the saved games do not fill with empty ones; True if deleted.
        Whoever opened the game decides whether to ask: a resumed record (a
        puzzle, a bug report) is never forgotten this way."""
        return False
