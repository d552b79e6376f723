"""Replay a saved game move by move, forwards and backwards, seen from one seat or,
once the game is over, with everything revealed. Rebuilt from the record with the
game's own rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from rules.errors import MoveError
from rules.events import Event, visible_events
from tui.plain import plain, plain_text
from tui.seating import addressed_as_you
from tui.styles import LISTS
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

if TYPE_CHECKING:
    from textual._path import CSSPathType

    from rules.game import GameState
    from saves.record import GameRecord


class ReplayScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [LISTS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Next", key_display="→", id="replay.next"),
        Binding("left,h", "step(-1)", "Back", key_display="←", id="replay.back"),
        Binding("home", "jump(0)", "Start", id="replay.start"),
        Binding("end", "jump(-1)", "End", id="replay.end"),
        Binding("p", "perspective", "Seen by", id="replay.perspective"),
        Binding("escape", "close", "Close", id="replay.close"),
    ]

    def __init__(
        self, record: GameRecord, start: int | None = None, seat: int | None = None
    ) -> None:
        """``start``: the position to open on (moves played; default the end);
        ``seat``: whose eyes to open with, if that seat may be shown."""
        super().__init__()
        self.record = record
        self.start = start
        self.names = [plain(s.name, 40) for s in record.seats]
        self.states: list[GameState[Any, Any]] = []
        self.events: list[list[Event]] = []  # events of the move that led to states[i]
        self.problem = ""
        self.position = 0
        # Until a game is over its replay shows only what a person who played it
        # here may see: the seats of this computer's people (hot-seat: each
        # behind the hand-off screen), or a spectator's view if there are none.
        # "Everything revealed" (None) exists only for finished games.
        self.finished = record.status == "finished"
        people = [i for i, seat in enumerate(record.seats) if seat.kind == "human"]
        self.you = addressed_as_you(self.names, people)
        self.perspectives: list[int | None] = (
            [None, *range(len(record.seats))] if self.finished else list(people) or [None]
        )
        self.secret_seats = not self.finished and len(people) > 1
        # a seat, or None: everything revealed (finished) or a spectator (unfinished)
        self.perspective: int | None = seat if seat in self.perspectives else self.perspectives[0]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="replay-head", classes="caption")
        yield VerticalScroll(Static("", id="replay-body"), id="replay-box")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = plain(f"replay: {self.record.game} {self.record.id}", 80)
        self._build()
        last = len(self.states) - 1
        self.position = last if self.start is None else max(0, min(last, self.start))
        if self.secret_seats and self.perspective is not None:
            self._draw_blank()
            self._hand_to(self.perspective)
        else:
            self._draw()

    def _hand_to(self, seat: int) -> None:
        """Hot-seat: show ``seat``'s eyes only once that person has the keyboard."""
        from tui.screens.handoff import HandoffScreen

        def ready(_: object) -> None:
            self._draw()

        self.app.push_screen(HandoffScreen(self.names[seat]), ready)

    def _draw_blank(self) -> None:
        self.query_one("#replay-head", Static).update("")
        self.query_one("#replay-body", Static).update("")

    def _build(self) -> None:
        from saves.errors import SaveError

        try:
            spec = self.record.spec()
            state = spec.new(self.record.game_config(), self.record.seed, self.record.deck_order)
        except (SaveError, ValueError) as err:
            self.problem = plain(f"This game cannot be replayed: {err}")
            return
        self.states.append(state.copy())
        self.events.append([])
        for i, (seat, text) in enumerate(self.record.moves):
            try:
                events = state.play_text(seat, text)
            except MoveError as err:
                self.problem = plain(f"Move {i + 1} ({plain(text, 40)}) does not replay: {err}")
                break
            self.states.append(state.copy())
            self.events.append(events)

    @property
    def card_style(self) -> CardStyle:
        style = getattr(self.app, "card_style", None)
        return style if isinstance(style, CardStyle) else CardStyle()

    def _draw(self) -> None:
        from tui.games import describer

        head = self.query_one("#replay-head", Static)
        body = self.query_one("#replay-body", Static)
        if not self.states:
            head.update(plain_text(self.problem))
            body.update("")
            return
        state = self.states[self.position]
        if self.perspective is not None:
            who = f"seen by {self.names[self.perspective]}"
        elif self.finished:
            who = "everything revealed"
        else:
            who = "as a spectator sees it (the game is not over)"
        total = len(self.states) - 1
        head.update(
            plain_text(
                f"Move {self.position} of {total} · {who}"
                + (f" · {self.problem}" if self.problem else ""),
                None,
            )
        )
        style = self.card_style
        happened = [
            display_text(e.render(self.names, self.you), style)
            for e in visible_events(self.events[self.position], self.perspective)
        ]
        if self.perspective is None and self.finished:
            # "revealed": the spectator's view plus every hidden card
            happened = [
                display_text(e.render(self.names, self.you), style)
                for e in self.events[self.position]
            ]
            view, snapshot = state.view(None), state.snapshot()
        else:
            view, snapshot = state.view(self.perspective), None
        describe = describer(self.record.game)
        last = "\n".join(happened) if happened else ("The deal." if self.position == 0 else "")
        body.update(
            Group(
                plain_text(last, None, newlines=True, style="bold"),
                Text(""),
                describe(view, state.scores(), self.names, style, snapshot),
            )
        )

    def action_step(self, step: int) -> None:
        if self.states:
            self.position = max(0, min(len(self.states) - 1, self.position + step))
            self._draw()

    def action_jump(self, where: int) -> None:
        if self.states:
            self.position = where if where >= 0 else len(self.states) - 1
            self._draw()

    def action_perspective(self) -> None:
        order = self.perspectives
        if len(order) == 1:
            self.notify(
                "Until the game is over, its replay shows only your own view.", markup=False
            )
            return
        self.perspective = order[(order.index(self.perspective) + 1) % len(order)]
        if self.secret_seats and self.perspective is not None:
            self._draw_blank()
            self._hand_to(self.perspective)
        else:
            self._draw()

    def action_close(self) -> None:
        self.dismiss()
