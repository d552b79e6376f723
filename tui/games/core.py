"""The state every part of a game screen shares (:class:`TableScreenCore`):
the client, whose eyes the screen shows, the latest update, and the few
things every concern uses (the status line, a dialog with the clocks
stopped, names). :class:`tui.games.base.GameScreen` adds the update loop; the
other concerns (clocks, rounds, connection and chat, the end of a game,
replay keys) are mixins on this core, one module each.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from net.client import Update
from net.replay import ReplayClient
from rules.config import GameConfig
from rules.registry import get_game
from rules.views import View
from tui.games.hot_seat import HotSeat
from tui.plain import plain
from tui.seating import addressed_as_you
from tui.services import SERVICES
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

if TYPE_CHECKING:
    from net.client import TableClient
    from rules.events import Event
    from tui.games.coach import Coach
    from tui.screens.round_summary import Schedule


class TableScreenCore(Screen[None]):
    services = SERVICES  # the app, typed (tui/services.py)

    @property
    def logs_notices(self) -> bool:
        """Notices go to this screen's log (CardTableApp.notify): while its
        table is open; a screen that is leaving lets the next one show them."""
        return not self._closed and self.is_mounted

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client
        # names come from outside (a save, the network): plain, whatever they hold
        self.names = [plain(s.name, 40) for s in client.seats]
        # each seat as the seat rows and the title show it, and as the score
        # line does (shorter): at a table elsewhere the name says who is away
        # or not there yet (tui/games/connection.py). The log, and anything
        # kept, says only the name: a countdown frozen in a line is wrong a
        # second later.
        self.labels = list(self.names)
        self.score_labels = list(self.names)
        self.people = tuple(client.my_seats)
        # the seats the narration addresses as "you" (the one person named You)
        self.you = addressed_as_you(self.names, self.people)
        # the seat whose eyes the screen shows; None for a spectator
        self.seat: int | None = self.people[0] if self.people else None
        # the latest update for that seat: its view, legal moves, scores, result
        self.update = Update(state_id=0, seat=self.seat, view=View(game="", seat=self.seat))
        self._updates: dict[int | None, Update] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self._unwatch: list[Callable[[], None]] = []  # connection and chat listeners
        self._players = ""  # who plays, for the subtitle
        # at a hot seat, who has the keyboard; the screen changes seat only through it
        self.keyboard = HotSeat(self.people, self.seat_name, self._push_paused, self._sit_down)
        self._over_shown = False
        self._closed = False
        # a round's summary is on screen: the hand-off or game over waits for it
        self._summary_open = False
        # opened in this sitting (a new game or a rematch), not resumed: only
        # such a game, left before any move, is not kept (the menu says so first)
        self.new_game = False
        self.forgotten = False  # it was: its record was removed
        # how the summary's timer is started (None: the summary's own set_timer)
        self.summary_schedule: Schedule | None = None
        # per seat: when its move clock runs out (on self.clock), and the time
        # left as the table last said (shown as it stands while the clocks stop)
        self.deadlines: dict[int, float | None] = {}
        self.time_left_given: dict[int, float | None] = {}
        # the deadline whose running out a player looking elsewhere was told of
        self._warned_for: float | None = None
        # the countdown's clock (a test gives the screen and its table one fake clock)
        self.clock: Callable[[], float] = time.monotonic
        # a lesson's guide or a real game's tips (tui/games/coach.py), if any
        self.coach: Coach | None = None
        # a saved game played back: its own keys, nothing to play
        self.replay = client if isinstance(client, ReplayClient) else None
        if self.replay is not None:
            self.you = addressed_as_you(self.names, self.replay.people)

    # ------------------------------------------------------------ properties
    @property
    def card_style(self) -> CardStyle:
        return self.services.card_style

    @property
    def hot_seat(self) -> bool:
        return len(self.people) > 1

    @property
    def game_config(self) -> GameConfig:
        """The table's options, typed: its game's own Config (the client
        carries them as the JSON the table was opened with)."""
        config: GameConfig = get_game(self.client.game_id).Config.from_dict(
            dict(self.client.config)
        )
        return config

    @property
    def view(self) -> View:
        """The game's own view for the seat on screen."""
        return self.update.view

    @property
    def thinking(self) -> tuple[int, ...]:
        return self.update.thinking

    @property
    def legal(self) -> tuple[str, ...]:
        """The legal moves of the seat on screen, if it must act now."""
        return self.update.legal

    @property
    def my_turn(self) -> bool:
        return self.update.must_act(self.seat)

    @property
    def over(self) -> bool:
        return self.update.over

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def _call_if_away(self, what: str) -> None:
        """Tell a player in another window that this table wants them (a table
        elsewhere only: here, the computers answer before anyone looks away)."""
        if self.client.address and self.replay is None:
            title = get_game(self.client.game_id).title
            # the first letter only: a name inside keeps its capitals
            said = what[:1].upper() + what[1:]
            self.services.call_away_player(f"{said} at {title}: {self.players_line()}")

    # ------------------------------------------------------------ to implement
    def show_view(self, view: View) -> None:
        """Draw ``view`` (the game's view for ``self.seat``; the rest of the
        update, such as scores and legal moves, is ``self.update``)."""
        raise NotImplementedError

    def note_events(self, events: list[Event]) -> None:
        """New events for the seat on screen (already in the log); a game may keep
        some in view, e.g. how the last round ended."""

    def round_ended(self, event: Event) -> int | None:
        """The number of the round ``event`` ends, if it ends one: the log marks
        the boundary and the player gets a summary. A game without rounds: None."""
        return None

    def turn_text(self) -> str:
        """The status line when nothing else needs saying (GameScreen's)."""
        return ""

    def turn_status(self) -> str:
        """:meth:`turn_text` with a running clock's time left where the
        screen draws none of its own (the move clocks' concern)."""
        return self.turn_text()

    def players_line(self) -> str:
        """Who plays, for the title (GameScreen's)."""
        return " vs ".join(self.labels)

    def replay_caption(self) -> str:
        """Where a replay stands, for the status line (the replay mixin's)."""
        return ""

    def _sit_down(self, seat: int) -> None:
        """``seat``'s person has the keyboard (GameScreen's)."""

    def log_names(self) -> list[str]:
        """The seats' names as the log tells what they did (a table elsewhere
        names a computer playing for an absent person: tui/games/connection.py)."""
        return self.names

    def narrate(self, event: Event) -> str:
        """``event`` in words for the person at the screen."""
        return display_text(event.render(self.log_names(), self.you), self.card_style)

    # ------------------------------------------------------------ shared by every concern
    def set_status(self, text: str, problem: bool = False) -> None:
        if self.replay is not None:
            # what a live table would say (waiting, your move) is not so here
            text, problem = self.replay_caption(), False
        status = self.query_one("#status", Static)
        status.update(Text(display_text(text, self.card_style)))  # never markup
        status.set_class(problem, "-problem")

    def _stop_watching(self) -> None:
        for stop in self._unwatch:
            stop()
        self._unwatch.clear()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _push_paused(
        self,
        screen: Screen[Any],
        then: Callable[[Any], Any] | None = None,
        still_wanted: Callable[[], bool] | None = None,
    ) -> None:
        """Show ``screen`` with every clock stopped (where the table lets us:
        local play), and start them again when it closes. ``still_wanted``:
        asked once the clocks stand, since the game may move meanwhile; False
        drops the screen."""

        async def closed(result: Any) -> None:
            if not self._closed and not self.over:
                await self.client.pause(False)
            if then is not None:
                outcome = then(result)
                if inspect.isawaitable(outcome):
                    await outcome

        async def show() -> None:
            if not self._closed and not self.over:
                await self.client.pause(True)
            if still_wanted is not None and not still_wanted():
                await closed(None)
                return
            await self.app.push_screen(screen, closed)

        self.run_worker(show(), group="pause", exit_on_error=False)
