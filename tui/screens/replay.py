"""Replay a saved game move by move, forwards and backwards.

:func:`open_replay` shows it with the game's own screen (cards, table,
scoreboard) fed by a :class:`net.replay.ReplayClient`; :class:`ReplayTextScreen`
shows the same positions as text, and once the game is over it can reveal
everything (every hand, the deck). Until a game is over, a replay shows only
what a person who played it here may see: the seats of this computer's people
(hot-seat: each behind the hand-off screen), or a spectator's view if there are
none."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from net.replay import ReplayClient, ReplayGame, replay_perspectives
from rules.events import visible_events
from tui.plain import plain, plain_text
from tui.screens.handoff import HandoffScreen
from tui.seating import addressed_as_you
from tui.styles import LISTS
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from typing import Any

    from saves.record import GameRecord
    from tui.table.side import TableSide
    from tui.textual_seams import CSSPathType


def open_replay(
    app: App[Any], record: GameRecord, start: int | None = None, seat: int | None = None
) -> None:
    """Show ``record`` with its game's own screen, at ``start`` (moves played;
    default the end), through ``seat``'s eyes if that seat may be shown
    (default: the first person who played it here)."""
    game = ReplayGame.build(record)
    if not game.states:
        app.notify(plain(game.problem), severity="error", markup=False)
        return
    choices = replay_perspectives(record)
    people = [i for i, s in enumerate(record.seats) if s.kind == "human" and i in choices]
    if seat is None or seat not in choices:
        seat = people[0] if people else choices[0]
    _show(app, game, seat, game.last if start is None else start)


def replay_caption(screen: TableSide, replay: ReplayClient) -> str:
    """Where the replay on ``screen`` stands, for its status line."""
    seat = replay.perspective
    who = f"seen by {screen.seat_name(seat)}" if seat is not None else "as a spectator sees it"
    # the moves played so far, as the analysis counts them: "Move 21" there
    # opens here before it, at "20 of 22 moves played"
    parts = [f"Replay: {replay.position} of {replay.game.last} moves played", who]
    moment = _moment(replay)
    if moment:  # the game's own count, as the analysis names the moment: "Turn 71"
        parts[0] = f"Replay: {moment} · {replay.position} of {replay.game.last} moves played"
    if screen.update.over:
        parts.append("the game is over")
    elif screen.update.to_act:
        parts.append(f"{', '.join(screen.seat_name(s) for s in screen.update.to_act)} to move")
    if replay.game.problem:
        parts.append(plain(replay.game.problem, 120))
    return " · ".join(parts)


def _moment(replay: ReplayClient) -> str:
    """The game's label of the replay's position ("Turn 71", "Round 5, card
    3"), where it says more than the count of moves; none once the game is over."""
    game, position = replay.game, replay.position
    if not 0 <= position < len(game.states) or game.states[position].is_over:
        return ""
    label = game.record.spec().turn_label(game.states[position], position)
    return "" if label == f"Move {position + 1}" else label


def next_perspective(screen: TableSide, replay: ReplayClient) -> None:
    """The replay on ``screen`` through the next pair of eyes it may show."""
    choices = replay_perspectives(replay.game.record)
    if len(choices) == 1:
        screen.notify("Until the game is over, its replay shows only your own view.", markup=False)
        return
    seat = choices[(choices.index(replay.perspective) + 1) % len(choices)]
    app = screen.app
    app.pop_screen()
    _show(app, replay.game, seat, replay.position)


def open_text_view(screen: TableSide, replay: ReplayClient) -> None:
    """The replay on ``screen`` as text. Its eyes may change there (behind the
    hand-off): back from it, ``screen`` shows the same eyes, those of the
    person who has the keyboard now, not those it was left with."""

    def back(seat: int | None) -> None:
        if seat != replay.perspective and screen.is_current:
            app = screen.app
            app.pop_screen()
            _show(app, replay.game, seat, replay.position, handed_off=True)

    text_view = ReplayTextScreen(replay.game, replay.position, replay.perspective)
    screen.app.push_screen(text_view, back)


def _show(
    app: App[Any], game: ReplayGame, seat: int | None, position: int, handed_off: bool = False
) -> None:
    """``handed_off``: ``seat``'s person already has the keyboard."""
    from tui.games import screen_class  # here: tui.table imports this module (replay keys)

    screen = screen_class(game.record.game)(ReplayClient(game, seat, position))
    secret = not game.finished and len(replay_perspectives(game.record)) > 1
    if seat is None or not secret or handed_off:
        app.push_screen(screen)
        return

    # hot-seat, game not over: a seat's hand only once its owner has the keyboard
    app.push_screen(
        HandoffScreen(plain(game.record.seats[seat].name, 40)),
        lambda _: app.push_screen(screen),
    )


class ReplayTextScreen(Screen[int | None]):
    """The positions of a replay as text; once the game is over, with
    everything revealed as well. Closed, it gives the eyes it showed last."""

    CSS_PATH: ClassVar[CSSPathType | None] = [LISTS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Next", key_display="→", id="replay.next"),
        Binding("left,h", "step(-1)", "Back", key_display="←", id="replay.back"),
        Binding("home", "jump(0)", "Start", id="replay.start"),
        Binding("end", "jump(-1)", "End", id="replay.end"),
        Binding("v", "perspective", "Seen by", id="replay.perspective"),
        Binding("escape", "close", "Close", id="replay.close"),
    ]

    def __init__(self, game: ReplayGame, start: int, seat: int | None) -> None:
        """``start``: the position to open on (moves played); ``seat``: whose
        eyes to open with (the person at the keyboard already has them)."""
        super().__init__()
        record = game.record
        self.record = record
        self.start = start
        self.names = [plain(s.name, 40) for s in record.seats]
        self.states = game.states
        self.events = game.events  # events of the move that led to states[i]
        self.problem = plain(game.problem)
        self.position = 0
        self.finished = game.finished
        people = [i for i, seat in enumerate(record.seats) if seat.kind == "human"]
        self.you = addressed_as_you(self.names, people)
        # "everything revealed" (None) exists only for finished games; until
        # then None is a spectator's view
        self.perspectives: list[int | None] = (
            [None, *range(len(record.seats))] if self.finished else list(people) or [None]
        )
        self.secret_seats = not self.finished and len(people) > 1
        self.perspective: int | None = seat if seat in self.perspectives else self.perspectives[0]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="replay-head", classes="caption")
        yield VerticalScroll(Static("", id="replay-body"), id="replay-box")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = plain(f"replay: {self.record.game} {self.record.id}", 80)
        last = len(self.states) - 1
        self.position = max(0, min(last, self.start))
        self._draw()

    def _hand_to(self, seat: int) -> None:
        """Hot-seat: show ``seat``'s eyes only once that person has the keyboard."""

        def ready(_: object) -> None:
            self._draw()

        self.app.push_screen(HandoffScreen(self.names[seat]), ready)

    def _draw_blank(self) -> None:
        self.query_one("#replay-head", Static).update("")
        self.query_one("#replay-body", Static).update("")

    @property
    def card_style(self) -> CardStyle:
        style = getattr(self.app, "card_style", None)
        return style if isinstance(style, CardStyle) else CardStyle()

    def _draw(self) -> None:
        from tui.games import describer  # here: tui.games imports this module

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
        self.dismiss(self.perspective)
