"""What the screens need of the app around them, typed: :class:`AppServices`.

``CardTableApp`` implements it (mypy checks that below). A Protocol, so that
the screens do not import the app (which imports them), and so that a screen
says by its type what of the app it uses. A screen reaches it through one
line, ``services = SERVICES``: ``self.services`` is then its app, typed, with
no cast at the screen (the one cast is here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from pathlib import Path

    from textual.dom import DOMNode

    from net.client import SeatInfo, TableClient
    from net.grants import Grants
    from saves.store import SaveStore
    from tui.settings import Settings
    from tui.widgets.cards import CardStyle


class AppServices(Protocol):
    """The app as the screens use it: settings, the save store, what this app
    may do (grants), and the ways to open and leave a table."""

    settings: Settings
    grants: Grants
    config_dir: Path
    force_ascii: bool  # --ascii on the command line
    hosted_everyone: bool  # the server this app hosts listens on every address

    @property
    def ascii(self) -> bool: ...

    @property
    def card_style(self) -> CardStyle: ...

    @property
    def store(self) -> SaveStore: ...

    @property
    def data_root(self) -> Path:
        """The data folder, without loading the save store."""

    def update_settings(self, **changes: Any) -> None:
        """Change settings, apply them now, and save them."""

    def table_options(self) -> Mapping[str, Any]:
        """How this app's tables run their bots (pace, threads)."""

    def call_away_player(self, what: str) -> bool:
        """Bell and desktop notification, if the player is looking elsewhere."""

    async def go_home(self) -> None:
        """Back to the home screen, whatever is open."""

    async def show_table(
        self, client: TableClient, *, replace: bool = False, new: bool = False
    ) -> None:
        """Open ``client``'s table on its game's screen."""

    async def back_from_table(self) -> None:
        """Leave the table's screen for where the player came from."""

    async def start_game(
        self,
        game_id: str,
        config: Any,
        seats: list[SeatInfo],
        my_seats: tuple[int, ...],
        *,
        seed: int | None = None,
        preset: str | None = None,
        replace: bool = False,
    ) -> None:
        """Open a new table here and show its screen."""

    async def open_lessons(self, game_id: str | None = None) -> None:
        """The list of lessons, or straight into ``game_id``'s."""

    async def host_server(self, port: int, everyone: bool) -> int:
        """Start (once) the table server this app hosts; the port it listens on."""


class ServicesOf:
    """``services = SERVICES`` on a screen or widget: ``self.services`` is its
    app as :class:`AppServices`. Every screen runs in a ``CardTableApp`` (the
    tests' apps are one too): this is the one place that says so."""

    def __get__(self, node: DOMNode, owner: type[Any] | None = None) -> AppServices:
        return cast("AppServices", node.app)


SERVICES = ServicesOf()

if TYPE_CHECKING:
    # the app keeps its promise: mypy fails here if CardTableApp drifts from the Protocol
    from tui.app import CardTableApp

    _APP_IMPLEMENTS: type[AppServices] = CardTableApp
