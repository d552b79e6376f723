"""A new table at a table server: the new-game form's game, preset and
options, and per seat: open (for a person, you first) or a computer with
its level; and what happens to a seat whose player leaves for good."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, Select

from rules.bots import LEVELS

from .new_game import NewGameScreen

if TYPE_CHECKING:
    from .lobby import LobbyScreen

OPEN = "open"
IF_GONE = [("a computer takes over", "computer"), ("the seat resigns", "resign")]


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
        with Horizontal(classes="row"):
            yield Label("If a player leaves", classes="name")
            yield Select(IF_GONE, value="computer", allow_blank=False, id="if-gone", compact=True)

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
        self._error("Creating the table…")
        try:
            summary = await self.lobby.client.create(
                spec.id, seats, preset=self.preset, options=options, if_gone=if_gone
            )
        except (RemoteError, ConnectionError) as err:
            self._error(f"The server would not create it: {err}")
            return
        self._error("")
        self.dismiss()
        lobby = self.lobby
        lobby.run_worker(lobby.sit(summary.table), group="sit", exclusive=True)
