"""What every game screen shares: the table client, whose eyes the screen shows
(hot-seat hand-offs), the event log, the status line, pause, rules, game over.

A game's screen subclasses :class:`GameScreen`, composes its widgets and
implements :meth:`GameScreen.show_view`; it plays with :meth:`submit`. The
screen never knows whether the table is local or across the network: it only
has a :class:`net.client.TableClient`, and every change arrives as an
:class:`net.client.Update` (posted as a message, so a transport may call from
any thread).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingsMap, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from net.client import StaleMove, Update
from net.replay import ReplayClient
from rules.errors import MoveError
from rules.events import fill_names
from rules.game import Outcome
from rules.registry import get_game
from rules.views import View
from tui.games.hot_seat import HotSeat
from tui.plain import plain
from tui.seating import addressed_as_you
from tui.styles import TABLE
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, display_text, round_marker

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual._path import CSSPathType

    from net.client import TableClient
    from rules.events import Event
    from tui.app import CardTableApp
    from tui.screens.round_summary import Schedule


URGENT_SECONDS = 10  # a countdown turns urgent below this


def clock_text(seconds: float | None) -> str:
    """A move clock's countdown, "1:05 left"; nothing without a clock."""
    if seconds is None:
        return ""
    whole = max(0, int(seconds + 0.999))  # 0.2 s left still reads 0:01
    return f"{whole // 60}:{whole % 60:02d} left"


class TableUpdated(Message):
    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


# A replay shows the game's own screen with these keys instead of the game's:
# nothing can be played, and the arrows move through the game.
REPLAY_BINDINGS: list[BindingType] = [
    Binding("right,l", "replay_step(1)", "Next", key_display="→", id="replay.next"),
    Binding("left", "replay_step(-1)", "Back", key_display="←", id="replay.back"),
    Binding("home", "replay_jump(0)", "Start", show=False, id="replay.start"),
    Binding("end", "replay_jump(-1)", "End", show=False, id="replay.end"),
    Binding("v", "replay_perspective", "Seen by", id="replay.perspective"),
    Binding("t", "replay_text", "As text", id="replay.text"),
    Binding("s", "score_history", "Scores", id="replay.scores"),
    Binding("question_mark,f1", "rules", "Rules", key_display="?", id="replay.rules"),
    Binding("escape", "replay_close", "Close", id="replay.close"),
]


class GameScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "pause", "Menu", id="game.pause"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="game.rules"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("s", "score_history", "Scores", id="game.scores"),
    ]
    # Keys that leave a footer too narrow for them (tui/widgets/footer.py),
    # least needed first; they still work, and the ^p palette lists them.
    # Rules is also in the Menu. Subclasses add their own.
    FOOTER_SPARE: ClassVar[tuple[str, ...]] = ("rules", "score_history", "hint")

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client
        # names come from outside (a save, the network): plain, whatever they hold
        self.names = [plain(s.name, 40) for s in client.seats]
        self.people = tuple(client.my_seats)
        # the seats the narration addresses as "you" (the one person named You)
        self.you = addressed_as_you(self.names, self.people)
        # the seat whose eyes the screen shows; None for a spectator
        self.seat: int | None = self.people[0] if self.people else None
        # the latest update for that seat: its view, legal moves, scores, result
        self.update = Update(state_id=0, seat=self.seat, view=View(game="", seat=self.seat))
        self._updates: dict[int | None, Update] = {}
        self._unsubscribe: Any = None
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
        # the countdown's clock (a test gives the screen and its table one fake clock)
        self.clock: Callable[[], float] = time.monotonic
        # a saved game played back: its own keys, nothing to play
        self.replay = client if isinstance(client, ReplayClient) else None
        if self.replay is not None:
            self._bindings = BindingsMap(REPLAY_BINDINGS)
            self.you = addressed_as_you(self.names, self.replay.people)

    # ------------------------------------------------------------ properties
    @property
    def cardtable(self) -> CardTableApp:
        return self.app  # type: ignore[return-value]

    @property
    def card_style(self) -> CardStyle:
        style = getattr(self.app, "card_style", None)
        return style if isinstance(style, CardStyle) else CardStyle()

    @property
    def hot_seat(self) -> bool:
        return len(self.people) > 1

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

    def round_summary(self, event: Event) -> list[str]:
        """The summary of the round ``event`` ended, line by line: who won, how
        much and why, the new scores. By default the event's own narration."""
        return [self.narrate(event)]

    def scores_after(self, event: Event) -> list[int] | None:
        """Every seat's score after the round ``event`` ended (default: the
        event's ``scores``)."""
        scores = event.data.get("scores")
        if isinstance(scores, list) and all(isinstance(s, int) for s in scores):
            return scores
        return None

    def round_scores(self) -> list[tuple[int, list[int]]]:
        """(round, scores after it) for every round ended so far, from the
        events the seat on screen has seen."""
        rounds = []
        for event in self.client.history(self.seat):
            number = self.round_ended(event)
            scores = self.scores_after(event) if number is not None else None
            if number is not None and scores is not None:
                rounds.append((number, scores))
        return rounds

    def action_score_history(self) -> None:
        from tui.screens.score_history import ScoreHistoryScreen

        self._push_paused(ScoreHistoryScreen(self.round_scores(), self.names))

    def narrate(self, event: Event) -> str:
        """``event`` in words for the person at the screen."""
        return display_text(event.render(self.names, self.you), self.card_style)

    def add_to_log(self, events: Sequence[Event]) -> None:
        """Events into the log, with a line where a round ends."""
        log = self.query_one(EventLog)
        for event in events:
            log.add_events([event], self.names, self.card_style, self.you)
            number = self.round_ended(event)
            if number is not None:
                log.add_line(round_marker(number, self.card_style.ascii))

    def turn_text(self) -> str:
        """The status line when nothing else needs saying."""
        if self.replay is not None:
            return self.replay_caption()
        if self.over:
            return "The game is over."
        if self.thinking:
            names = ", ".join(self.seat_name(s) for s in self.thinking)
            return f"{names} {'is' if len(self.thinking) == 1 else 'are'} thinking…"
        connected = self.update.connected
        empty = [s for s in range(len(self.names)) if connected and s not in connected]
        if empty and self.update.state_id == 0:
            # a table elsewhere starts once every seat is taken
            who = ", ".join(self.seat_name(s) for s in empty)
            return f"Waiting for {who} to sit down: the game starts when every seat is taken."
        if self.my_turn:
            return f"{self.seat_name(self.seat)}: your move."
        acting = self.update.to_act
        away = [s for s in acting if connected and s not in connected]
        if away:
            # a table elsewhere: a seat nobody has taken yet, or whose player dropped
            who = ", ".join(self.seat_name(s) for s in away)
            return f"Waiting for {who}: nobody is at that seat yet (or they dropped)."
        if acting:
            return f"Waiting for {', '.join(self.seat_name(s) for s in acting)}."
        return ""

    # ------------------------------------------------------------ move clocks
    def seconds_left(self) -> float | None:
        """The seat on screen's time left to move, if its clock runs."""
        seat = self.seat
        deadline = self.deadlines.get(seat) if seat is not None else None
        if deadline is None or self.over:
            return None
        if self.update.paused:  # a menu is open: the table has stopped the clocks
            return self.time_left_given.get(seat) or 0.0  # type: ignore[arg-type]
        return deadline - self.clock()

    def show_clock(self) -> None:
        """Draw the countdown (every second, and with each update); a game
        whose rules have move clocks shows it."""

    def _keep_time_left(self, update: Update) -> None:
        # the view does not carry the seat's time left: the update does
        if update.seat is None:
            return
        left = update.time_left
        self.time_left_given[update.seat] = left
        self.deadlines[update.seat] = None if left is None else self.clock() + left

    # ------------------------------------------------------------ lifecycle
    async def on_mount(self) -> None:
        # the countdown ticks on the wall clock; the time left comes from the table
        self.set_interval(1.0, self.show_clock)
        self._players = " vs ".join(
            f"{name} ({s.level})" if s.kind == "bot" and s.level else name
            for name, s in zip(self.names, self.client.seats, strict=True)
        )
        self.sub_title = self._players
        if self.replay is not None:
            self.sub_title = f"replay · {self.sub_title}"
        if self.client.connection is not None:
            # a table elsewhere: the state of the link is always in view
            self._unwatch.append(self.client.watch_connection(self._connection_changed))
            self._show_connection()
        if self.client.can_chat and self.replay is None:
            self._unwatch.append(self.client.watch_chat(self._chat_line))
            # only a table with a chat (a network table) has the key at all
            self._bindings.bind("ctrl+t", "chat", "Chat", key_display="^t")
            self.refresh_bindings()
        self._fit(self.size.width, self.size.height)

        def deliver(update: Update) -> None:
            # any thread may call this: post_message is thread-safe
            self.post_message(TableUpdated(update))

        self._unsubscribe = self.client.subscribe(deliver)
        for seat in self.people or (None,):
            self._updates[seat] = self.client.snapshot(seat)
        first = self.keyboard.opening_seat(self._updates[self.seat])
        if first is not None:
            # nobody may see a hand before its owner sits down
            self.seat = first
            self.keyboard.hand_to(first)
        else:
            self._show_seat(self.seat)
        self.run_worker(self.client.start(), group="table", exit_on_error=False)

    # ------------------------------------------------------------ a table elsewhere
    def _rename(self) -> None:
        """Someone sat down at a table elsewhere: their name, not the seat's."""
        names = [plain(s.name, 40) for s in self.client.seats]
        if names != self.names and self.replay is None:
            self.names = names
            self._players = " vs ".join(
                f"{name} ({s.level})" if s.kind == "bot" and s.level else name
                for name, s in zip(self.names, self.client.seats, strict=True)
            )
            self._show_connection()

    def _show_connection(self) -> None:
        from tui.network import connection_text

        link = connection_text(self.client.connection, self.client.address)
        self.sub_title = f"{link} · {self._players}" if link else self._players

    def _connection_changed(self, state: str) -> None:
        if self._closed or not self.is_mounted:
            return
        self._show_connection()
        if state == "reconnecting":
            self.set_status(
                "The connection dropped: reconnecting… (your seat is held)", problem=True
            )
        elif state == "connected":
            self.set_status(self.turn_text())
        elif not self.over:
            self.set_status(
                "The connection to the server is lost: Esc, then leave the table.", problem=True
            )

    def _chat_line(self, name: str, text: str) -> None:
        if not self._closed and self.is_mounted:
            line = f"{plain(name, 32)}: {plain(text, 200)}"
            self.query_one(EventLog).add_line(line)
            # also above a dialog (the result's, where a rematch is asked for)
            self.notify(line, timeout=6, markup=False)

    def action_chat(self) -> None:
        from tui.screens.chat import ChatScreen

        async def send(text: str | None) -> None:
            if not text or self._closed:
                return
            try:
                await self.client.say(text)
            except Exception as err:  # the server's refusal, a dropped link: one line
                self.set_status(f"Not sent: {plain(err, 120)}", problem=True)

        self.app.push_screen(ChatScreen(), send)

    def _stop_watching(self) -> None:
        for stop in self._unwatch:
            stop()
        self._unwatch.clear()

    # a terminal at least this large draws the table roomier (large cards, centred)
    ROOMY = (120, 40)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.set_class(width >= self.ROOMY[0] and height >= self.ROOMY[1], "-roomy")

    def _show_seat(self, seat: int | None) -> None:
        self.seat = seat
        self.query_one(EventLog).clear()
        history = self.client.history(seat)
        self.add_to_log(history)
        self.note_events(history)
        self.update = self._updates.get(seat) or self.client.snapshot(seat)
        self.show_view(self.view)
        self.set_status(self.turn_text())

    def on_table_updated(self, message: TableUpdated) -> None:
        update = message.update
        self._updates[update.seat] = update
        self._keep_time_left(update)
        if update.seat != self.seat:
            return
        if self.replay is not None:
            # a replay may jump back: the log is what was seen up to the position
            self._show_seat(self.seat)
            return
        self._tell(update)
        self._rename()
        self.update = update
        if not self.keyboard.handing_off:
            self.add_to_log(update.events)
            self.note_events(list(update.events))
            self.show_view(update.view)
            self.set_status(self.turn_text())
            if not update.over and self._show_round_summary(update.events):
                return  # the hand-off (or whatever comes next) waits for the summary
        if not self._summary_open:
            self._after_update()

    def _show_round_summary(self, events: Sequence[Event]) -> bool:
        """Hold the end of a round in view (clocks stopped) until a key or a
        few seconds; True if a summary opened."""
        seconds = getattr(getattr(self.app, "settings", None), "round_summary", 0.0)
        ended = [(e, n) for e in events if (n := self.round_ended(e)) is not None]
        if not ended or not seconds or self._summary_open:
            return False
        event, number = ended[-1]
        from tui.screens.round_summary import RoundSummaryScreen

        self._summary_open = True

        def closed(_: None = None) -> None:
            self._summary_open = False
            if not self._closed:
                self._after_update()

        summary = RoundSummaryScreen(
            f"Round {number}", self.round_summary(event), seconds, self.summary_schedule
        )
        self._push_paused(summary, closed)
        return True

    def _tell(self, update: Update) -> None:
        """Notices (a save failed, someone left) as notifications, once each:
        every seat's update carries them, and the screen shows one seat."""
        for notice in update.notices:
            problem = notice.kind == "save_failed"
            self.notify(
                fill_names(notice.text, self.names, self.you),
                severity="error" if problem else "information",
                timeout=15 if problem else 5,
                markup=False,
            )

    def _after_update(self) -> None:
        if self.over:
            if not self._over_shown:
                self._over_shown = True
                self._show_game_over()
            return
        self.keyboard.pass_on(self.update, self.seat)

    def _sit_down(self, seat: int) -> None:
        """``seat``'s person has the keyboard (behind the hand-off): their eyes."""
        self._show_seat(seat)
        self._after_update()

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("replay_"):
            return self.replay is not None
        if action == "hint":
            return not self.over  # hidden once the game is over
        if action == "score_history":
            # only where the game marks its rounds: elsewhere there is no history
            return type(self).round_ended is not GameScreen.round_ended
        return True

    # ------------------------------------------------------------ hints
    def action_hint(self) -> None:
        seat = self.seat
        if seat is None or not self.my_turn or self.over:
            self.set_status("A hint is for your own turn.", problem=True)
            return
        self.set_status("Weighing your moves…")
        self.run_worker(self._ask_hint(seat), group="hint", exclusive=True, exit_on_error=False)

    async def _ask_hint(self, seat: int) -> None:
        from net.client import NoHints
        from tui.screens.hint import HintScreen

        asked_at = self.update.state_id

        def same_position() -> bool:
            # at a hot seat, another person may be at the keyboard by now
            return (
                not self._closed
                and self.seat == seat
                and self.update.state_id == asked_at
                and not self.keyboard.handing_off
            )

        try:
            hint = await self.client.hint(seat)
        except NoHints as err:
            self.set_status(f"No hint: {err}.", problem=True)
            return
        if not same_position():
            return  # the game moved on meanwhile: that hint is about another position
        self.set_status(self.turn_text())
        spec, config = get_game(self.client.game_id), self.client.config
        words = functools.partial(spec.move_words, spec.Config.from_dict(dict(config)))
        self._push_paused(HintScreen(hint, self.card_style, words), still_wanted=same_position)

    def _show_game_over(self) -> None:
        from tui.screens.game_over import GameOverScreen

        self.app.push_screen(
            GameOverScreen(
                self.client.game_id,
                self.result(),
                self.names,
                hints=self.update.hints,
                you=self.you,
                back="Lobby" if self.client.connection is not None else "Home",
            ),
            self._after_game_over,
        )

    def result(self) -> Outcome:
        """How the game ended, as the rules decided (the update carries it)."""
        if self.update.result is not None:
            return self.update.result
        return Outcome(None, (), self.update.scores, "the game is over")

    async def _after_game_over(self, choice: str | None) -> None:
        if choice == "rematch":
            await self.rematch()
        elif choice == "home":
            await self.leave()
        elif choice == "analyse":
            await self._analyse()
        elif choice == "scores":
            from tui.screens.score_history import ScoreHistoryScreen

            # the scores, then the result again: the player has not chosen yet
            self.app.push_screen(
                ScoreHistoryScreen(self.round_scores(), self.names),
                lambda _: self._show_game_over(),
            )
        else:
            self.set_status("The game is over: Esc for the menu, g for the result.")

    async def _analyse(self) -> None:
        from tui.screens.analysis import analyse

        await analyse(self)

    async def _close_table(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop_watching()
        if self._unsubscribe is not None:
            self._unsubscribe()
        await self.client.close()
        self._forget_if_unplayed()

    def quitting_keeps_nothing(self) -> bool:
        """A game opened in this sitting and left before anyone moved is not
        kept: there is nothing to resume, and the saved-games list would fill
        with empty games. A resumed record never goes this way, moves or not (a
        puzzle, a bug report, a game that stopped before its first move).
        Local play only: this app keeps the record."""
        from net.local import LocalClient

        return (
            self.new_game
            and isinstance(self.client, LocalClient)
            and not self.client.table.record.moves
        )

    def _forget_if_unplayed(self) -> bool:
        """Remove the record of a game :meth:`quitting_keeps_nothing`; True if removed."""
        from saves.errors import SaveError

        store = getattr(self.app, "store", None)
        if store is None or not self.quitting_keeps_nothing():
            return False
        try:
            store.delete(self.client.record_id)
        except SaveError:
            return False  # never written, or already gone: nothing kept either way
        self.forgotten = True
        return True

    async def on_unmount(self) -> None:
        await self._close_table()

    async def leave(self) -> None:
        await self._close_table()
        # the app pops this screen: awaiting our own removal here would deadlock
        self.app.call_later(self.cardtable.back_from_table)

    async def rematch(self) -> None:
        """The same seats again, through the client: the table decides the
        options (the rules say who starts) and opens the new game."""
        try:
            client = await self.client.rematch()
        except MoveError as err:
            self.set_status(f"No rematch: {err}.", problem=True)
            return
        self._closed = True  # the client closed itself (or moved to the new table)
        self._stop_watching()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.app.call_later(self.cardtable.show_table, client, replace=True, new=True)

    # ------------------------------------------------------------ playing
    def set_status(self, text: str, problem: bool = False) -> None:
        if self.replay is not None:
            # what a live table would say (waiting, your move) is not so here
            text, problem = self.replay_caption(), False
        status = self.query_one("#status", Static)
        status.update(Text(display_text(text, self.card_style)))  # never markup
        status.set_class(problem, "-problem")

    async def submit(self, move: str) -> bool:
        """Play ``move`` for the seat on screen; an illegal one is explained. True if played."""
        if self.over:
            self.set_status("The game is over.", problem=True)
            return False
        if self.seat is None:
            self.set_status("You are watching: there is no seat to play.", problem=True)
            return False
        if not self.my_turn:
            self.set_status(f"It is not your turn. {self.turn_text()}", problem=True)
            return False
        try:
            await self.client.play(self.seat, move, self.update.state_id)
        except StaleMove:
            self.set_status(
                "The game moved on while you chose: look again and choose anew.", problem=True
            )
            return False
        except MoveError as err:
            self.set_status(f"You cannot play {move}: {err}.", problem=True)
            return False
        return True

    # ------------------------------------------------------------ actions
    def action_pause(self) -> None:
        from tui.screens.pause import PauseScreen

        menu = PauseScreen(
            can_resign=not self.over,
            can_pause=self.client.can_pause,
            keeps_game=not self.quitting_keeps_nothing(),
        )
        self._push_paused(menu, self._after_pause)

    async def _after_pause(self, choice: str | None) -> None:
        if choice == "quit":
            link = self.client.connection  # before leaving closes it
            await self.leave()
            if link == "closed":
                self.notify("You left the table (its connection was lost).")
            elif link is not None:
                self.notify(
                    "You left the table: your seat is held for a while; "
                    "take it back from the lobby."
                )
            elif not self.forgotten:  # a forgotten game: the menu said so
                self.notify("Game saved: pick it up again from Resume.")
        elif choice == "resign":
            from tui.screens.confirm import ConfirmScreen

            async def confirmed(yes: bool | None) -> None:
                if yes:
                    await self._resign()

            self.app.push_screen(
                ConfirmScreen("Resign this game? It counts as a loss.", yes="Resign"), confirmed
            )
        elif choice == "rules":
            self.action_rules()
        elif choice == "settings":
            from tui.screens.settings import SettingsScreen

            self._push_paused(SettingsScreen())

    async def _resign(self) -> None:
        seat = self.seat if self.seat is not None else (self.people[0] if self.people else None)
        if seat is None or self.over:
            return
        await self.client.resign(seat)

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self._push_paused(RulesScreen(self.client.game_id))

    # ------------------------------------------------------------ replay
    def replay_caption(self) -> str:
        """Where a replay stands, for the status line."""
        from tui.screens.replay import replay_caption

        return replay_caption(self, self.replay) if self.replay is not None else ""

    def action_replay_step(self, step: int) -> None:
        if self.replay is not None:
            self.replay.go(self.replay.position + step)

    def action_replay_jump(self, where: int) -> None:
        if self.replay is not None:
            self.replay.go(where if where >= 0 else self.replay.game.last)

    def action_replay_perspective(self) -> None:
        from tui.screens.replay import next_perspective

        if self.replay is not None:
            next_perspective(self, self.replay)

    def action_replay_text(self) -> None:
        from tui.screens.replay import open_text_view

        if self.replay is not None:
            open_text_view(self, self.replay)

    def action_replay_close(self) -> None:
        self.app.pop_screen()
