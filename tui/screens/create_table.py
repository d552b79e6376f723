"""A new table at a table server: the new-game form's game, preset and
options, and per seat: open (for a person, you first) or a computer with
its level; and what happens to a seat whose player leaves for good, or,
for a correspondence table (a time per move in hours or days), to a seat
whose time runs out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, Select, Static

from rules.bots import LEVELS
from tui.clock_words import DAY, HOUR

from .new_game import NewGameScreen

if TYPE_CHECKING:
    from .lobby import LobbyScreen

OPEN = "open"
IF_GONE = [("a computer takes over", "computer"), ("the seat resigns", "resign")]
# a correspondence table's time for each move (docs/protocol.md): None, the
# game's own clocks and a seat held for the grace period after a drop
PER_MOVE: list[tuple[str, int | None]] = [
    ("as the game says (play now)", None),
    ("an hour a move", HOUR),
    ("a day a move", DAY),
    ("3 days a move", 3 * DAY),
    ("a week a move", 7 * DAY),
]
IF_LATE = [("the computer plays that move", "computer"), ("that player loses", "lose")]


def table_seats(kinds: list[str]) -> list[str]:
    """The seats as the protocol names them; ValueError with a sentence if
    nobody could sit down."""
    if OPEN not in kinds:
        raise ValueError("leave at least one seat open for a person (the first is yours)")
    return list(kinds)


class CreateTableScreen(NewGameScreen):
    CHOOSE_SEED: ClassVar[bool] = False  # the server deals
    SUBTITLE: ClassVar[str] = "new table"

    def __init__(self, game_id: str, lobby: LobbyScreen) -> None:
        super().__init__(game_id)
        self.lobby = lobby

    def seat_choices(self) -> list[tuple[str, str]]:
        levels = [(f"Computer: {lv.label.lower()}", f"computer:{lv.id}") for lv in LEVELS]
        return [("Open: a person (you take the first)", OPEN), *levels]

    def default_seats(self, players: int) -> list[str]:
        return [OPEN] + ["computer:medium"] * (players - 1)

    def more_rows(self) -> ComposeResult:
        yield Static("Table", classes="caption")  # the server's terms, after the game's rules
        with Horizontal(classes="row"):
            yield Label("Time per move", classes="name")
            yield Select(PER_MOVE, value=None, allow_blank=False, id="per-move", compact=True)
        # at a correspondence table seats are kept for the whole game: the
        # row that says what a player who leaves gets becomes what a late one gets
        with Horizontal(classes="row", id="if-gone-row"):
            yield Label("If a player leaves", classes="name")
            yield Select(IF_GONE, value="computer", allow_blank=False, id="if-gone", compact=True)
        with Horizontal(classes="row", id="if-late-row"):
            yield Label("If time runs out", classes="name")
            yield Select(IF_LATE, value="computer", allow_blank=False, id="if-late", compact=True)

    def on_mount(self) -> None:  # (after NewGameScreen's: Textual calls each class's)
        self._show_terms()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "per-move":
            self._show_terms()

    def _per_move(self) -> int | None:
        chosen = self.query_one("#per-move", Select).value
        return chosen if isinstance(chosen, int) else None

    def _show_terms(self) -> None:
        correspondence = self._per_move() is not None
        self.query_one("#if-gone-row").display = not correspondence
        self.query_one("#if-late-row").display = correspondence

    async def action_start(self) -> None:
        from net.remote import RemoteError

        spec = self.spec
        try:
            options: dict[str, Any] = self._read_options()
            config = spec.config(self.preset, **options)
            kinds = [str(self.query_one(f"#seat-{i}", Select).value) for i in range(config.players)]
            seats = table_seats(kinds)
        except ValueError as err:
            self._error(f"Cannot create: {err}")
            return
        chosen = self.query_one("#if-gone", Select).value
        if_gone: Literal["computer", "resign"] = "resign" if chosen == "resign" else "computer"
        late = self.query_one("#if-late", Select).value
        if_late: Literal["computer", "lose"] = "lose" if late == "lose" else "computer"
        self._error("Creating the table…")
        try:
            summary = await self.lobby.client.create(
                spec.id,
                seats,
                preset=self.preset,
                options=options,
                if_gone=if_gone,
                per_move=self._per_move(),
                if_late=if_late,
            )
        except (RemoteError, ConnectionError) as err:
            self._error(f"The server would not create it: {err}")
            return
        self._error("")
        self.dismiss()
        lobby = self.lobby
        lobby.run_worker(lobby.sit(summary.table), group="sit", exclusive=True)
