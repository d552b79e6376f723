"""What the parts of a table screen see of it (:class:`TableSide`): the table
(client, seat on screen, latest update, names), the status line, a dialog
with the clocks stopped, and the game's own hooks (how it draws a view, where
its rounds end). A Protocol: each part (``clocks``, ``rounds``, ``link``,
``ending``, ``replay_keys``) holds the screen as this and nothing more, and
no part reaches into another part's attributes; :class:`tui.table.screen.TableScreen`
implements it (mypy checks that where the screen builds its parts).
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
    from rules.views import View
    from tui.services import AppServices
    from tui.table.hot_seat import HotSeat
    from tui.widgets.cards import CardStyle
    from tui.widgets.event_log import EventLog


class TableSide(Protocol):
    # ------------------------------------------------------------ the table
    client: TableClient
    # the seat whose eyes the screen shows (None: a spectator), its latest update
    seat: int | None
    update: Update
    people: tuple[int, ...]  # the seats of the people at this screen
    names: list[str]  # plain, as the log says them
    labels: list[str]  # as the seat rows and title say them (who is away...)
    score_labels: list[str]  # as the score line does (shorter)
    you: frozenset[int]  # the seats the narration calls "you"
    new_game: bool  # opened in this sitting (not resumed)
    closed: bool  # the table is closed (left, or a rematch opened)
    keyboard: HotSeat  # who has the keyboard at a hot seat
    sub_title: str | None

    @property
    def services(self) -> AppServices: ...

    @property
    def app(self) -> App[Any]: ...

    @property
    def is_mounted(self) -> bool: ...

    @property
    def is_current(self) -> bool: ...

    @property
    def in_front(self) -> bool:
        """No dialog covers the screen (the log is in view)."""

    @property
    def my_turn(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    @property
    def interactive(self) -> bool:
        """A person may play at this table (False: a replay)."""

    @property
    def card_style(self) -> CardStyle: ...

    @property
    def game_config(self) -> GameConfig: ...

    @property
    def event_log(self) -> EventLog: ...

    def seat_name(self, seat: int | None) -> str: ...

    def narrate(self, event: Event) -> str: ...

    # ------------------------------------------------------------ what it shows
    def set_status(self, text: str, problem: bool = False) -> None: ...

    def status_is_problem(self) -> bool:
        """The status line says a problem (which stays until the next move)."""

    def turn_status(self) -> str: ...

    def players_line(self) -> str: ...

    def redraw(self) -> None:
        """Draw the seat on screen's view again (names or labels changed)."""

    def offer_only(self, keep: Callable[[str], bool], chat: bool) -> None:
        """Offer only the game's keys whose action ``keep`` allows, and the chat's."""

    def push_paused(
        self,
        screen: Screen[Any],
        then: Callable[[Any], Any] | None = None,
        still_wanted: Callable[[], bool] | None = None,
    ) -> None: ...

    def call_if_away(self, what: str) -> None: ...

    def stop_watching(self) -> None:
        """No more updates, link states or chat lines (the table is closing)."""

    def after_update(self) -> None:
        """What follows an update once it is drawn (and its round's summary closed)."""

    def show_clock(self) -> None: ...

    @property
    def draws_own_clock(self) -> bool: ...

    # ------------------------------------------------------------ the game's hooks
    def round_ended(self, event: Event) -> int | None: ...

    def round_summary(self, event: Event) -> list[str]: ...

    def scores_after(self, event: Event) -> list[int] | None: ...

    def log_names(self) -> list[str]: ...

    def hint_words(self) -> Callable[[str], str]: ...

    def seat_in_play(self) -> bool: ...

    def show_view(self, view: View) -> None: ...

    # ------------------------------------------------------------ Textual's, as parts use them
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

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> object: ...

    def set_interval(self, interval: float, callback: Callable[[], Any]) -> object: ...
