"""What the parts of a table screen see of it, as Protocols: :class:`TableSide`,
what every part uses (the table, the seat on screen, its latest update, the
status line, a dialog with the clocks stopped), and for each part the few
things only it asks besides (:class:`ClocksSide`, :class:`RoundsSide`,
:class:`LinkSide`, :class:`EndingSide`). A part holds the screen as its own
Protocol and nothing more, and never reaches into another part's attributes;
:class:`tui.table.screen.TableScreen` implements them all (mypy checks that
where the screen builds its parts).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from net.client import TableClient, Update
    from rules.config import GameConfig
    from rules.events import Event
    from tui.services import AppServices
    from tui.table.hot_seat import HotSeat
    from tui.widgets.cards import CardStyle
    from tui.widgets.event_log import EventLog


class TableSide(Protocol):
    client: TableClient
    # the seat whose eyes the screen shows (None: a spectator), its latest update
    seat: int | None
    update: Update
    names: list[str]  # plain, as the log says them
    you: frozenset[int]  # the seats the narration calls "you"
    closed: bool  # the table is closed (left, or a rematch opened)

    @property
    def services(self) -> AppServices: ...

    @property
    def app(self) -> App[Any]: ...

    @property
    def is_mounted(self) -> bool: ...

    @property
    def is_current(self) -> bool: ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    @property
    def interactive(self) -> bool:
        """A person may play at this table (False: a replay)."""

    @property
    def card_style(self) -> CardStyle: ...

    def seat_name(self, seat: int | None) -> str: ...

    def set_status(self, text: str, problem: bool = False) -> None: ...

    def turn_status(self) -> str:
        """What the status line says when nothing else needs saying."""

    def push_paused(
        self,
        screen: Screen[Any],
        then: Callable[[Any], Any] | None = None,
        still_wanted: Callable[[], bool] | None = None,
    ) -> None:
        """Show ``screen`` with every clock stopped (tui/table/paused.py)."""

    # Textual's, as the parts use them
    def notify(
        self,
        message: str,
        *,
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def run_worker(
        self,
        work: Awaitable[Any],
        *,
        group: str = "default",
        exit_on_error: bool = True,
        exclusive: bool = False,
    ) -> object: ...


class ClocksSide(TableSide, Protocol):
    @property
    def draws_own_clock(self) -> bool:
        """The game draws its own countdown (not in the status line)."""

    def status_is_problem(self) -> bool:
        """The status line says a problem (which stays until the next move)."""

    def show_clock(self) -> None: ...

    def call_if_away(self, what: str) -> None:
        """Call a player looking at another window (a table elsewhere)."""


class RoundsSide(TableSide, Protocol):
    @property
    def event_log(self) -> EventLog: ...

    # the game's knowledge of its rounds
    def round_ended(self, event: Event) -> int | None: ...

    def round_summary(self, event: Event) -> list[str]: ...

    def scores_after(self, event: Event) -> list[int] | None: ...

    def log_names(self) -> list[str]: ...

    def after_update(self) -> None:
        """What follows an update once it is drawn (and its round's summary closed)."""

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> object: ...


class LinkSide(TableSide, Protocol):
    people: tuple[int, ...]  # the seats of the people at this screen
    labels: list[str]  # as the seat rows and title say them (who is away...)
    score_labels: list[str]  # as the score line does (shorter)
    sub_title: str | None

    @property
    def in_front(self) -> bool:
        """No dialog covers the screen (the log is in view)."""

    @property
    def event_log(self) -> EventLog: ...

    def narrate(self, event: Event) -> str: ...

    def status_is_problem(self) -> bool: ...

    def players_line(self) -> str: ...

    def redraw(self) -> None:
        """Draw the seat on screen's view again (names or labels changed)."""

    def offer_only(self, keep: Callable[[str], bool], chat: bool) -> None:
        """Offer only the game's keys whose action ``keep`` allows, and the chat's."""

    def call_if_away(self, what: str) -> None: ...

    def set_interval(self, interval: float, callback: Callable[[], Any]) -> object: ...


class EndingSide(TableSide, Protocol):
    people: tuple[int, ...]
    new_game: bool  # opened in this sitting (not resumed)
    keyboard: HotSeat  # who has the keyboard at a hot seat

    @property
    def game_config(self) -> GameConfig: ...

    def hint_words(self) -> Callable[[str], str]: ...

    def seat_in_play(self) -> bool: ...

    def stop_watching(self) -> None:
        """No more updates, link states or chat lines (the table is closing)."""
