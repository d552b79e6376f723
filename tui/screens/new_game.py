"""New game: a game's presets and options, generated from its Config, and the seats.

Nothing here knows a game: the form is built from ``spec.Config.options()``
(name, default, help, kind, choices, bounds) and ``spec.presets``; the rules
layer validates and its sentence is shown as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, Select, Static

from rules.config import RANDOM_SEAT, OptionInfo, parse_option_value
from rules.registry import get_game
from tui.plain import plain_text
from tui.seating import build_seats, default_kinds, seat_kinds, without_clocks
from tui.services import SERVICES
from tui.styles import FORMS
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType


def _choices(info: OptionInfo, players: int) -> list[tuple[str, Any]]:
    """(label, value) of an option's choices; a seat option offers the seats
    there are, shown as "Player 1"..."""
    assert info.choices is not None
    values = info.choices
    if info.seat:
        values = tuple(c for c in values if c == RANDOM_SEAT or int(str(c)) < players)
    return [(info.label(c), c) for c in values]


def _option_widget(info: OptionInfo, value: Any, players: int) -> Widget:
    wid = f"opt-{info.name}"
    if info.kind is bool:
        # words, not a tick box: readable without colour (NO_COLOR, 16 colours)
        return Select(
            [("yes", True), ("no", False)],
            value=bool(value),
            allow_blank=False,
            id=wid,
            compact=True,
        )
    if info.choices:
        return Select(
            _choices(info, players),
            value=value,
            allow_blank=False,
            id=wid,
            compact=True,
        )
    if info.kind is int:
        return Input(str(value), type="integer", id=wid, compact=True)
    if info.kind is float:
        return Input(str(value), type="number", id=wid, compact=True)
    return Input(str(value), id=wid, compact=True)


class NewGameScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [FORMS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start", id="new.start"),
        Binding("escape", "close", "Back", id="new.back"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="new.rules"),
    ]

    # a table elsewhere (the lobby's form) has no seed to choose
    CHOOSE_SEED: ClassVar[bool] = True
    SUBTITLE: ClassVar[str] = "new game"

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.spec = get_game(game_id)
        self.options = [o for o in self.spec.Config.options() if o.name != "players"]
        self.preset = next(iter(self.spec.presets))

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        spec = self.spec
        values = self.preset_values()
        yield Header()
        with VerticalScroll(id="new-game", classes="form"):
            yield Static(spec.summary, classes="hint")
            if spec.min_players != spec.max_players:
                with Horizontal(classes="row"):
                    yield Label("Players", classes="name")
                    counts = range(spec.min_players, spec.max_players + 1)
                    yield Select(
                        [(str(n), n) for n in counts],
                        value=values["players"],
                        allow_blank=False,
                        id="players",
                        compact=True,
                    )
            yield Static("Seats", classes="caption")
            names = spec.seat_names(spec.config(self.preset, players=spec.max_players))
            kinds = self.default_seats(spec.max_players)
            for i in range(spec.max_players):
                with Horizontal(classes="row seat", id=f"seat-row-{i}"):
                    yield Label(names[i], classes="name")
                    yield Select(
                        self.seat_choices(),
                        value=kinds[i],
                        allow_blank=False,
                        id=f"seat-{i}",
                        compact=True,
                    )
            yield Static("Rules", classes="caption")
            if len(spec.presets) > 1:
                with Horizontal(classes="row"):
                    yield Label("Preset", classes="name")
                    yield Select(
                        [(spec.preset_labels.get(p, p), p) for p in spec.presets],
                        value=self.preset,
                        allow_blank=False,
                        id="preset",
                        compact=True,
                    )
            for info in self.options:
                with Vertical(classes="option"):
                    with Horizontal(classes="row"):
                        yield Label(info.heading(), classes="name")
                        yield _option_widget(info, values[info.name], values["players"])
                    yield Static(info.help, classes="help")
            yield from self.more_rows()
            if self.CHOOSE_SEED:
                with Horizontal(classes="row"):
                    yield Label("Seed", classes="name")
                    yield Input(
                        "",
                        placeholder="blank: a random deal",
                        type="integer",
                        id="seed",
                        compact=True,
                    )
        yield Static("", id="form-error")
        with Horizontal(classes="buttons"):
            yield Button("Start (Ctrl+S)", id="start", variant="primary", compact=True)
            yield Button("Back (Esc)", id="back", compact=True)
        yield FittingFooter()

    def seat_choices(self) -> list[tuple[str, str]]:
        """(label, value) of each seat's selector."""
        return list(seat_kinds())

    def preset_values(self) -> dict[str, Any]:
        """The form's values for the chosen preset: against the computer (the
        default seats), without a move clock (tui/seating.py)."""
        kinds = self.default_seats(self.spec.max_players)
        quiet = without_clocks(self.spec, self.preset, kinds)
        return dict(self.spec.config(self.preset, **quiet).to_dict())

    def default_seats(self, players: int) -> list[str]:
        return default_kinds(players)

    def more_rows(self) -> ComposeResult:
        """Rows after the game's options (a subclass's own)."""
        yield from ()

    def on_mount(self) -> None:
        self.sub_title = f"{self.SUBTITLE}: {self.spec.title}"
        self._show_seats(self._players())
        # the first field, not the scrolling form around it (a focus nobody sees)
        for field in self.query_one("#new-game").query("Select, Input, Switch"):
            if field.focusable:
                field.focus()
                break

    # -------------------------------------------------------------- the form
    def _players(self) -> int:
        if self.spec.min_players == self.spec.max_players:
            return self.spec.min_players
        value = self.query_one("#players", Select).value
        return int(value) if isinstance(value, int) else self.spec.min_players

    def _offer_seats(self, players: int) -> None:
        """Seat options name only the seats there are."""
        for info in self.options:
            if info.seat:
                select = self.query_one(f"#opt-{info.name}", Select)
                value = select.value
                select.set_options(_choices(info, players))
                keep = value != RANDOM_SEAT and int(str(value)) < players
                select.value = value if keep else RANDOM_SEAT

    def _show_seats(self, players: int) -> None:
        for i in range(self.spec.max_players):
            self.query_one(f"#seat-row-{i}").display = i < players

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            self.preset = event.value
            self._fill(self.preset_values())
        elif event.select.id == "players":
            self._show_seats(self._players())
            self._offer_seats(self._players())

    def _fill(self, values: dict[str, Any]) -> None:
        for info in self.options:
            widget = self.query_one(f"#opt-{info.name}")
            value = values[info.name]
            if isinstance(widget, Select):
                widget.value = value
            elif isinstance(widget, Input):
                widget.value = str(value)

    def _read_options(self) -> dict[str, Any]:
        """The form's values that differ from the preset (ValueError on bad text)."""
        preset_values = self.spec.config(self.preset).to_dict()
        out: dict[str, Any] = {}
        for info in self.options:
            widget = self.query_one(f"#opt-{info.name}")
            if isinstance(widget, Input):
                value: Any = parse_option_value(info, widget.value)
            else:  # a choice (_option_widget): a Select
                value = self.query_one(f"#opt-{info.name}", Select).value
            if value != preset_values[info.name]:
                out[info.name] = value
        if self.spec.min_players != self.spec.max_players:
            out["players"] = self._players()
        return out

    def _error(self, text: str) -> None:
        # plain text: it may quote what was typed in the form
        self.query_one("#form-error", Static).update(plain_text(text, None))

    # -------------------------------------------------------------- actions
    async def action_start(self) -> None:
        from saves.errors import SaveError
        from saves.record import check_field

        spec = self.spec
        try:
            config = spec.config(self.preset, **self._read_options())
            kinds = [str(self.query_one(f"#seat-{i}", Select).value) for i in range(config.players)]
            seats, mine = build_seats(kinds, spec.seat_names(config))
            seed_text = self.query_one("#seed", Input).value.strip()
            seed = int(seed_text) if seed_text else None
            # what the game's record will hold must read back
            check_field("config", config.to_dict(), "an option")
            if seed is not None:
                check_field("seed", seed, "the seed")
        except (ValueError, SaveError) as err:
            self._error(f"Cannot start: {err}")
            return
        self._error("")
        # the app replaces this screen: awaiting our own removal here would deadlock
        self.app.call_later(
            self.services.start_game,
            spec.id,
            config,
            seats,
            mine,
            seed=seed,
            preset=self.preset,
            replace=True,
        )

    def action_close(self) -> None:
        self.dismiss()

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.spec.id))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            await self.action_start()
        elif event.button.id == "back":
            self.action_close()
