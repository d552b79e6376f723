"""What a game screen needs of the app around it, typed (``CardTableApp``
has it): the settings, the card style, the save store, and the way back
from a table. A Protocol, so that the screens do not import the app (which
imports them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from net.client import TableClient
    from saves.store import SaveStore
    from tui.settings import Settings
    from tui.widgets.cards import CardStyle


class TableHost(Protocol):
    settings: Settings

    @property
    def card_style(self) -> CardStyle: ...

    @property
    def store(self) -> SaveStore: ...

    def call_away_player(self, what: str) -> bool:
        """Bell and desktop notification, if the player is looking elsewhere."""

    async def back_from_table(self) -> None:
        """Leave the table's screen for where the player came from."""

    async def show_table(
        self, client: TableClient, *, replace: bool = False, new: bool = False
    ) -> None:
        """Open ``client``'s table on its game's screen."""
