"""The cardtable Textual app: one App, a home screen, and a screen per game.

Startup stays lean: this module imports only what the home screen needs;
the game screens, the table, the save store and the bots are imported the
first time they are used (tests/perf/bench_startup.py keeps us honest).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from net.grants import Grants
from saves.data_root import data_root

from .notify import terminal_bytes
from .plain import plain
from .settings import Settings, default_config_dir, load_settings, save_settings
from .start_heap import release_collector
from .textual_seams import AsciiDisplay, write_to_terminal
from .theme_colours import table_colours

if TYPE_CHECKING:
    from collections.abc import Iterable
    from concurrent.futures import ThreadPoolExecutor

    from textual.command import Provider

    from net.client import SeatInfo, TableClient
    from net.server import TableServer
    from saves.store import SaveStore

    from .widgets.cards import CardStyle

MIN_WIDTH, MIN_HEIGHT = 80, 24

# what guests at the tables of this app's server are told when its player quits
HOST_CLOSED = "the host closed the table"


def _screen_actions() -> type[Provider]:
    # the palette's provider of the screen's own actions, loaded when the
    # palette first opens (Textual takes a callable for that)
    from .commands import ScreenActions

    return ScreenActions


class CardTableApp(AsciiDisplay[int]):
    # absolute, so that subclasses elsewhere (tests, benchmarks) find it too
    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "cardtable"
    COMMANDS = App.COMMANDS | {_screen_actions}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
        # In a terminal game Ctrl+C means "stop now", not "copy": every move is
        # already saved, so quitting at once loses nothing.
        # (system: the keys panel names ^q, the one key for Quit)
        Binding(
            "ctrl+c", "quit", "Quit", show=False, priority=True, system=True, id="app.interrupt"
        ),
        # Esc closes the keys panel first, wherever it was opened (it covers
        # the screen's right edge); enabled only while one is shown (check_action)
        Binding(
            "escape", "hide_help_panel", "Hide the keys", show=False, priority=True, id="app.keys"
        ),
    ]

    def __init__(
        self,
        data_dir: Path | None = None,
        config_dir: Path | None = None,
        *,
        ascii: bool = False,
        launch: dict[str, Any] | None = None,
        grants: Grants | None = None,
    ) -> None:
        # what this app may do here: everything, unless ssh-host started it
        # for a visitor (net/grants.py); every screen asks this one object
        self.grants = grants if grants is not None else Grants.from_environ()
        self.config_dir = config_dir or default_config_dir()
        self.settings, self._settings_notice = load_settings(self.config_dir)
        self.data_dir = data_dir
        self.force_ascii = ascii
        self.launch = launch
        self._store: SaveStore | None = None
        # bots think in these threads, never on the event loop; made on first use
        self._bot_threads: ThreadPoolExecutor | None = None
        # the table server this app hosts (Host on the home screen), if any
        self.hosted: TableServer | None = None
        self.hosted_port = 0
        self.hosted_everyone = False  # other machines may join it
        self._asking_to_quit = False
        super().__init__()
        self._apply_settings(self.settings, initial=True)

    # ---------------------------------------------------------------- settings
    @property
    def card_style(self) -> CardStyle:
        from .widgets.cards import CardStyle  # the card widgets load with a game

        return CardStyle(ascii=self.ascii, four_colour=self.settings.four_colour)

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        return {**variables, **table_colours(self.current_theme, variables)}

    def _apply_settings(self, settings: Settings, initial: bool = False) -> None:
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        elif initial:
            self._settings_notice = (
                f"Unknown theme '{settings.theme}' in the settings; using {self.theme}."
            )
        if not initial:
            # cards and grids draw themselves from the card style: redraw every screen
            for screen in self.screen_stack:
                screen.refresh(layout=False)
                for widget in screen.query("*"):
                    widget.refresh()

    def update_settings(self, **changes: Any) -> None:
        """Change settings, apply them now, and save them (a failed save is a notice)."""
        self.settings = self.settings.with_changes(**changes)
        self._apply_settings(self.settings)
        try:
            save_settings(self.config_dir, self.settings)
        except OSError as err:
            self.notify(f"Could not save settings: {plain(err)}", severity="error", markup=False)

    def watch_theme(self, theme: str) -> None:
        # the palette's Theme command changes the theme too: remember it
        if theme != self.settings.theme and self.is_running:
            self.update_settings(theme=theme)

    # ------------------------------------------------------------------ store
    @property
    def data_root(self) -> Path:
        """The data folder, without loading the save store (for the first frame)."""
        return self._store.root if self._store is not None else data_root(self.data_dir)

    @property
    def store(self) -> SaveStore:
        if self._store is None:
            from saves.store import SaveStore

            self._store = SaveStore.default(self.data_dir)
        return self._store

    # ----------------------------------------------------------------- screens
    def get_default_screen(self) -> Screen[Any]:
        from .screens.home import HomeScreen

        return HomeScreen()

    async def on_mount(self) -> None:
        self.call_after_refresh(release_collector)  # held while it started (cli.launch_app)
        if self._settings_notice:
            self.notify(plain(self._settings_notice), severity="warning", timeout=8, markup=False)
        self._check_size()
        if self.launch:
            await self._run_launch(self.launch)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if not small and "tui.screens.too_small" not in sys.modules:
            return  # it was never shown: nothing to take down (and no import at start-up)
        from .screens.too_small import TooSmallScreen

        screen = self.screen
        showing = isinstance(screen, TooSmallScreen)
        if small and not showing:
            self.push_screen(TooSmallScreen())
        elif isinstance(screen, TooSmallScreen):
            if small:
                screen.show_size(width, height)
            else:
                self.pop_screen()

    async def go_home(self) -> None:
        """Back to the home screen, closing whatever is above it."""
        while len(self.screen_stack) > 1:
            await self.pop_screen()

    async def _run_launch(self, launch: dict[str, Any]) -> None:
        from saves.errors import SaveError

        action = launch.get("action")
        try:
            if action == "play":
                await self.start_from_launch(launch)
            elif action == "resume":
                await self.resume_game(launch.get("id"))
            elif action == "learn":  # tui/learn/screens.py
                await self.open_lessons(launch.get("game"))
            elif action == "join":  # `cardtable join HOST:PORT [--table ID]`
                from .screens.join import JoinScreen

                await self.push_screen(JoinScreen(launch.get("address"), launch.get("table")))
            else:
                shown = plain(repr(action), 40)
                self.notify(f"Unknown launch action {shown}", severity="error", markup=False)
        except (SaveError, ValueError, KeyError, OSError) as err:
            # a bad id or option from the command line: a sentence on the home screen
            self.notify(plain(err), severity="error", timeout=10, markup=False)

    # ------------------------------------------------------------------ notices
    # how the app writes to its terminal (a test replaces it to read what is sent)
    terminal_writer: ClassVar[Callable[[App[Any], str], bool]] = staticmethod(write_to_terminal)

    def call_away_player(self, what: str) -> bool:
        """Ring the bell and send a desktop notification saying ``what``, when
        the terminal does not have focus (it reports focus changes) and the
        settings allow it. True if anything was sent."""
        if self.app_focus:
            return False
        text = terminal_bytes(
            "cardtable",
            what,
            os.environ,
            bell=self.settings.away_bell,
            desktop=self.settings.away_notifications,
        )
        return bool(text) and type(self).terminal_writer(self, text)

    def notify(self, message: str, **kwargs: Any) -> None:
        """One rule for notices: over a game they are lines of its log (never a
        toast over the hand or the prompt); elsewhere one toast at a time, on
        the title bar's line (app.tcss), over nothing a player reads."""
        from .widgets.event_log import EventLog

        screen = self.screen if self.screen_stack else None
        logs = list(screen.query(EventLog)) if screen is not None else []
        if screen is not None and getattr(screen, "logs_notices", False) and logs:
            text = message if not kwargs.get("markup", True) else Text.from_markup(message).plain
            logs[0].add_notice(text, problem=kwargs.get("severity") == "error")
            return
        super().notify(message, **kwargs)

    # ------------------------------------------------------------------ ASCII
    @property
    def ascii(self) -> bool:
        """The whole screen in ASCII (tui/glyphs.py): ``--ascii``, or the ASCII
        card style (a terminal that cannot draw the suits cannot draw the rest)."""
        return self.force_ascii or self.settings.card_style == "ascii"

    def get_key_display(self, binding: Binding) -> str:
        from .glyphs import key_text

        return key_text(super().get_key_display(binding), self.ascii)

    def rewrite_frames(self) -> bool:
        # the terminal sees ASCII only; screenshots and tests read the screen
        # as drawn, before this step (tui/textual_seams.py)
        return self.ascii

    def terminal_text(self, text: str) -> str:
        from .glyphs import ascii_cells

        return ascii_cells(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hide_help_panel":
            # otherwise Esc is the screen's (the menu, back): only a shown panel takes it
            return bool(self.screen.query("HelpPanel"))
        return super().check_action(action, parameters)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        # the palette's Quit asks, as a player may pick it by mistake while
        # searching (Ctrl+Q is the key that quits at once: every move is saved)
        for command in super().get_system_commands(screen):
            if command.title == "Quit":
                asking = partial(self.action_quit, always_ask=True)
                yield command._replace(help="Quit cardtable (asks first)", callback=asking)
            else:
                yield command

    def action_show_help_panel(self) -> None:
        """The keys panel, listing the app's actions (tui/widgets/keys_panel.py)."""
        from textual.css.query import NoMatches
        from textual.widgets import HelpPanel

        from .widgets.keys_panel import AppHelpPanel

        try:
            self.screen.query_one(HelpPanel)
        except NoMatches:
            self.screen.mount(AppHelpPanel())

    # ------------------------------------------------------------------ screenshots
    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        from .screenshot import save_screenshot

        save_screenshot(self, Path(path) if path else self.store.root / "screenshots", filename)

    # ------------------------------------------------------------------ tables
    async def start_from_launch(self, launch: dict[str, Any]) -> None:
        from rules.registry import CATALOGUE, get_game

        from .seating import build_seats, coerce_options, kinds_from_vs, without_clocks

        spec = get_game(str(launch.get("game") or next(iter(CATALOGUE))))
        options = coerce_options(spec, dict(launch.get("options") or {}))
        preset = launch.get("preset")
        players = spec.config(preset, **options).players
        kinds = kinds_from_vs(str(launch.get("vs") or "computer:medium"), players)
        config = spec.config(preset, **{**without_clocks(spec, preset, kinds), **options})
        seats, mine = build_seats(kinds, spec.seat_names(config))
        await self.start_game(spec.id, config, seats, mine, seed=launch.get("seed"), preset=preset)

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
        """Open a new table here and show its screen (``replace``: instead of the top one)."""
        from net.local import open_table

        client = open_table(
            self.store,
            game_id,
            config,
            seats,
            my_seats,
            seed=seed,
            preset=preset,
            **self.table_options(),
        )
        await self.show_table(client, replace=replace, new=True)

    async def resume_game(self, record_id: str | None) -> None:
        """Resume a saved game (None: the most recently played unfinished one)."""
        from net.local import resume_table

        if record_id is None:
            record_id = self.latest_unfinished()
            if record_id is None:
                self.notify("There is no unfinished game to resume.", severity="warning")
                return
        client = resume_table(self.store, record_id, **self.table_options())
        await self.show_table(client)

    async def open_lessons(self, game_id: str | None = None) -> None:
        """Learn: the list of lessons, or straight into ``game_id``'s."""
        from .learn.screens import LearnScreen, start_lesson

        await (start_lesson(self, game_id) if game_id else self.push_screen(LearnScreen()))

    def table_options(self) -> dict[str, Any]:
        """How this app's tables run their bots: paced as the settings say, in
        a small pool of threads of their own."""
        return {"pace": self.settings.bot_pace, "executor": self.bot_threads}

    async def host_server(self, port: int, everyone: bool) -> int:
        """Start a table server in this app (once; later calls get the same
        one): on 127.0.0.1, or on every address if ``everyone``. Its tables
        are kept in the data folder's ``hosted/``. The port it listens on;
        OSError if it cannot listen (a busy port), PermissionError if this
        app may not host (an ssh-host visitor's)."""
        from net.server import TableServer
        from saves.store import SaveStore

        if not self.grants.may_host:
            raise PermissionError("this host does not let visitors open a table server")
        if self.hosted is not None:
            return self.hosted_port
        server = TableServer(
            SaveStore(self.store.root / "hosted"),
            executor=self.bot_threads,
            pace=self.settings.bot_pace,  # computer players answer as at a local table
        )
        try:
            _, bound = await server.start("0.0.0.0" if everyone else "127.0.0.1", port)
        except OSError:
            await server.close()
            raise
        self.hosted, self.hosted_port, self.hosted_everyone = server, bound, everyone
        return bound

    @property
    def bot_threads(self) -> ThreadPoolExecutor:
        if self._bot_threads is None:
            from net.thinkers import thread_pool

            self._bot_threads = thread_pool()  # lower-priority threads (docs/bots.md)
        return self._bot_threads

    def guests_at_hosted_tables(self) -> int:
        """People at the tables of the server this app hosts, other than this
        app's own seat or seat watched (quitting closes their game)."""
        if self.hosted is None:
            return 0
        own = 0
        for screen in self.screen_stack:
            client = getattr(screen, "client", None)
            at_table = getattr(client, "table_id", None) is not None
            if at_table and getattr(client, "address", "").endswith(f":{self.hosted_port}"):
                own += 1
        return self.hosted.people_at_tables(leaving_out=own)

    async def action_quit(self, always_ask: bool = False) -> None:
        """Quit, but first ask while other people play at this app's server
        (quitting closes their tables), and, ``always_ask``, anyway: the
        palette's Quit, which a player may pick while searching (N10)."""
        from .screens.confirm import ConfirmScreen

        guests = self.guests_at_hosted_tables()
        if (guests == 0 and not always_ask) or self._asking_to_quit:
            self.exit(0)  # (asked already: a second Ctrl+Q quits)
            return
        self._asking_to_quit = True
        people = "1 other person is" if guests == 1 else f"{guests} other people are"
        at_table = any(getattr(s, "client", None) is not None for s in self.screen_stack)
        question = (
            f"{people} at tables of the server you host. Quitting closes it: "
            "they are told the host closed the table. Quit anyway?"
            if guests
            else "Quit cardtable?" + (" The game is saved: Resume picks it up." if at_table else "")
        )

        def answered(quit: bool | None) -> None:
            self._asking_to_quit = False
            if quit:
                self.exit(0)

        self.push_screen(ConfirmScreen(question, yes="Quit", no="Stay"), answered)

    async def back_from_table(self) -> None:
        """Leave a table's screen for the screen it was opened from: the lobby
        of a table elsewhere, else home."""
        from .screens.lobby import LobbyScreen

        if any(isinstance(s, LobbyScreen) for s in self.screen_stack):
            while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
                await self.pop_screen()
        else:
            await self.go_home()

    async def on_unmount(self) -> None:
        if self.hosted is not None:
            # everyone at its tables is told at once (docs/protocol.md, "A
            # table that closes"); the games stay saved in hosted/
            await self.hosted.close(farewell=HOST_CLOSED)
            self.hosted = None
        if self._bot_threads is not None:
            # a bot still thinking is abandoned, not awaited: its answer is dropped
            self._bot_threads.shutdown(wait=False, cancel_futures=True)

    def latest_unfinished(self) -> str | None:
        entries = [e for e in self.store.list() if e.record is not None]
        playing = [e for e in entries if e.record.status == "playing"]  # type: ignore[union-attr]
        playing.sort(key=lambda e: e.record.updated, reverse=True)  # type: ignore[union-attr]
        return playing[0].id if playing else None

    async def show_table(
        self, client: TableClient, *, replace: bool = False, new: bool = False
    ) -> None:
        """Show ``client``'s table (``new``: a game opened in this sitting, not
        resumed: left before any move, it is not kept)."""
        from .games import screen_class
        from .learn.tips import tips_coach

        screen = screen_class(client.game_id)(client)
        screen.new_game = new
        screen.coach = tips_coach(self, client.game_id, new)  # tui/learn/tips.py
        if replace:
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)
