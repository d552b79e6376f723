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

from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from rules.errors import IllegalMove
from tui.styles import TABLE
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, display_text

if TYPE_CHECKING:
    from textual._path import CSSPathType

    from net.client import TableClient, Update
    from rules.events import Event
    from tui.app import CardTableApp


class TableUpdated(Message):
    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class GameScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "pause", "Menu", id="game.pause"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="game.rules"),
    ]

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client
        self.names = [s.name for s in client.seats]
        self.people = tuple(client.my_seats)
        # the seat whose eyes the screen shows; None for a spectator
        self.seat: int | None = self.people[0] if self.people else None
        self.view: dict[str, Any] = {}
        self.thinking: int | None = None
        self.status = "playing"
        self._views: dict[int | None, dict[str, Any]] = {}
        self._unsubscribe: Any = None
        self._handing_off = False
        self._over_shown = False
        self._closed = False
        self._resigned: int | None = None
        self._save_error_shown: str | None = None

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
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.view.get("to_act", [])

    @property
    def over(self) -> bool:
        return bool(self.view.get("over")) or self.status != "playing"

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    # ------------------------------------------------------------ to implement
    def show_view(self, view: dict[str, Any]) -> None:
        """Draw ``view`` (the game's view for ``self.seat``)."""
        raise NotImplementedError

    def note_events(self, events: list[Event]) -> None:
        """New events for the seat on screen (already in the log); a game may keep
        some in view, e.g. how the last round ended."""

    def turn_text(self) -> str:
        """The status line when nothing else needs saying."""
        if self.over:
            return "The game is over."
        if self.thinking is not None:
            return f"{self.seat_name(self.thinking)} is thinking…"
        if self.my_turn:
            return f"{self.seat_name(self.seat)}: your move."
        acting = self.view.get("to_act", [])
        if acting:
            return f"Waiting for {', '.join(self.seat_name(s) for s in acting)}."
        return ""

    # ------------------------------------------------------------ lifecycle
    async def on_mount(self) -> None:
        self.sub_title = " vs ".join(
            f"{s.name} ({s.level})" if s.kind == "bot" and s.level else s.name
            for s in self.client.seats
        )

        def deliver(update: Update) -> None:
            # any thread may call this: post_message is thread-safe
            self.post_message(TableUpdated(update))

        self._unsubscribe = self.client.subscribe(deliver)
        for seat in self.people or (None,):
            self._views[seat] = self.client.view(seat)
        first = self._person_to_act(self._views[self.seat])
        if self.hot_seat and first is not None:
            # nobody may see a hand before its owner sits down
            self.seat = first
            self._handoff(first)
        else:
            self._show_seat(self.seat)
        self.run_worker(self.client.start(), group="table", exit_on_error=False)

    def _show_seat(self, seat: int | None) -> None:
        self.seat = seat
        log = self.query_one(EventLog)
        log.clear()
        history = self.client.history(seat)
        log.add_events(history, self.names, self.card_style)
        self.note_events(history)
        self.view = self._views.get(seat) or self.client.view(seat)
        self.show_view(self.view)
        self.set_status(self.turn_text())

    def on_table_updated(self, message: TableUpdated) -> None:
        update = message.update
        self._views[update.seat] = update.view
        self._check_saved()
        if update.seat != self.seat:
            return
        self.status = update.status
        self.thinking = update.thinking
        for event in update.events:
            if event.kind == "resign" and isinstance(event.data.get("seat"), int):
                self._resigned = event.data["seat"]
        if not self._handing_off:
            self.query_one(EventLog).add_events(update.events, self.names, self.card_style)
            self.note_events(update.events)
            self.view = update.view
            self.show_view(update.view)
            self.set_status(self.turn_text())
        else:
            self.view = update.view
        self._after_update()

    def _check_saved(self) -> None:
        # a local table saves after every move; tell the player once if it cannot
        error = getattr(self.client, "save_error", None)
        if error and error != self._save_error_shown:
            self._save_error_shown = error
            self.notify(f"The game is not being saved: {error}", severity="error", timeout=15)

    def _person_to_act(self, view: dict[str, Any]) -> int | None:
        for seat in view.get("to_act", []):
            if seat in self.people:
                return int(seat)
        return None

    def _after_update(self) -> None:
        if self.over:
            if not self._over_shown:
                self._over_shown = True
                self._show_game_over()
            return
        if self.hot_seat and not self._handing_off:
            nxt = self._person_to_act(self.view)
            if nxt is not None and nxt != self.seat:
                self._handoff(nxt)

    def _handoff(self, seat: int) -> None:
        from tui.screens.handoff import HandoffScreen

        self._handing_off = True

        def sit_down(_: None = None) -> None:
            self._handing_off = False
            self._show_seat(seat)
            self._after_update()

        self.app.push_screen(HandoffScreen(self.seat_name(seat)), sit_down)

    def _show_game_over(self) -> None:
        from tui.screens.game_over import GameOverScreen

        self.app.push_screen(
            GameOverScreen(self.client.game_id, self.result(), self.names, self.status),
            self._after_game_over,
        )

    def result(self) -> dict[str, Any]:
        """The outcome (rules.Outcome as JSON): the view's, or after a resignation
        (the rules never saw it) every other seat ranked ahead of the resigner."""
        if self.view.get("outcome"):
            return dict(self.view["outcome"])
        scores = list(self.view.get("scores", []))
        quitter = self._resigned
        if self.status == "resigned" and quitter is not None:
            others = [s for s in range(len(self.names)) if s != quitter]
            return {
                "winner": others[0] if len(others) == 1 else None,
                "ranking": [others, [quitter]],
                "scores": scores,
                "reason": f"{self.seat_name(quitter)} resigned",
            }
        return {"winner": None, "ranking": [], "scores": scores, "reason": self.status}

    async def _after_game_over(self, choice: str | None) -> None:
        if choice == "rematch":
            await self.rematch()
        elif choice == "home":
            await self.leave()
        else:
            self.set_status("The game is over: Esc for the menu, g for the result.")

    async def _close_table(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
        await self.client.close()

    async def on_unmount(self) -> None:
        await self._close_table()

    async def leave(self) -> None:
        await self._close_table()
        # the app pops this screen: awaiting our own removal here would deadlock
        self.app.call_later(self.cardtable.go_home)

    async def rematch(self) -> None:
        from rules.game import Outcome
        from rules.registry import get_game

        spec = get_game(self.client.game_id)
        config = spec.Config.from_dict(self.client.config)
        result = self.result()
        if result.get("ranking"):
            outcome = Outcome(
                result["winner"],
                tuple(tuple(g) for g in result["ranking"]),
                tuple(result["scores"]),
                result["reason"],
            )
            config = spec.rematch_config(config, outcome)
        seats = list(self.client.seats)
        await self._close_table()
        self.app.call_later(
            self.cardtable.start_game, spec.id, config, seats, self.people, replace=True
        )

    # ------------------------------------------------------------ playing
    def set_status(self, text: str, problem: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(display_text(text, self.card_style))
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
            await self.client.play(self.seat, move)
        except IllegalMove as err:
            self.set_status(f"You cannot play {move}: {err}.", problem=True)
            return False
        return True

    # ------------------------------------------------------------ actions
    def action_pause(self) -> None:
        from tui.screens.pause import PauseScreen

        self.app.push_screen(PauseScreen(can_resign=not self.over), self._after_pause)

    async def _after_pause(self, choice: str | None) -> None:
        if choice == "quit":
            await self.leave()
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

            self.app.push_screen(SettingsScreen())

    async def _resign(self) -> None:
        seat = self.seat if self.seat is not None else (self.people[0] if self.people else None)
        if seat is None or self.over:
            return
        await self.client.resign(seat)

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.client.game_id))
