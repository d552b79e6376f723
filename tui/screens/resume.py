"""Saved games, last played first: resume, delete (confirmed), replay finished ones.

A file that cannot be read is listed with the reason, never hidden and never a crash.
Every text from a file reaches the screen through :mod:`tui.plain` (a DataTable
reads a ``str`` cell as markup: ``[/]`` in a name would crash it).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from rules.errors import UnknownGame
from rules.registry import get_game
from tui.glyphs import in_words
from tui.plain import plain, plain_text
from tui.players_title import players_title
from tui.save_words import STATUS_ROOM, result_sentence, result_words
from tui.services import SERVICES
from tui.styles import LISTS
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from saves.store import SaveEntry
    from tui.textual_seams import CSSPathType

# "Started" is in the line under the table: at 80 columns every column fits whole
COLUMNS = ("Game", "Seats", "Last played", "Moves", "Status")
NO_SAVES = (
    "No saved games yet.\n\n"
    "Every game you start is saved as you play, and listed here to resume or "
    "replay. Esc goes back; n on the home screen starts a new game."
)


def when(text: str | float | None) -> str:
    """A record time (ISO 8601 UTC) or a file time, local and short enough for
    80 columns: ``22 Nov 05:57`` this year, ``2025-11-22`` before."""
    try:
        if isinstance(text, int | float):
            moment = datetime.fromtimestamp(text)
        elif text:
            moment = datetime.fromisoformat(text).astimezone()
        else:
            return "-"
    except (ValueError, OSError, OverflowError):
        return "?"
    if moment.year != datetime.now().year:
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%d %b %H:%M")


# The list fits 80 columns whole: each cell has a column of padding either side
# and the scrollbar one (lists.tcss); "Last played" and "Moves" keep their
# width, the game (with its preset) and the status are cut to their rooms, and
# the Seats column gets what is left (players_title shortens the names).
LIST_WIDTH = 80
CONTENT_ROOM = LIST_WIDTH - 2 * len(COLUMNS) - 1
WHEN_WIDTH = len("22 Nov 05:57")
GAME_ROOM = 24
# the Seats column's room beside the widest game, status and move count
SEATS_ROOM = 30


def entry_row(entry: SaveEntry, seats_room: int = SEATS_ROOM) -> tuple[Text, ...]:
    """The table's cells for a save: plain Text, never markup."""
    record = entry.record
    if record is None:
        cells = (
            "?",
            plain(entry.path.name, seats_room),
            when(entry.modified),
            "-",
            "unreadable",
        )
        return tuple(Text(cell) for cell in cells)
    # short where the names would push the status off an 80-column list
    names = [plain(s.name, 40) for s in record.seats]
    seats = players_title(names, record.seats, room=seats_room)
    # the rules named where they are not the game's usual ones: a game started
    # from the form (preset "standard") and one from the command line (none)
    # read alike
    preset = record.preset if record.preset not in _default_presets(record.game) else None
    game = plain(record.game, 40) + (f" ({plain(preset, 20)})" if preset else "")
    return (
        plain_text(game, GAME_ROOM),
        plain_text(seats, seats_room),
        Text(when(record.updated)),
        Text(str(len(record.moves))),
        plain_text(result_words(record, STATUS_ROOM), STATUS_ROOM),
    )


def _default_presets(game_id: str) -> tuple[str | None, ...]:
    """None and the game's first preset (its default): a preset not worth naming."""
    try:
        presets = list(get_game(game_id).presets)
    except UnknownGame:  # a game not installed here: every preset named
        return (None,)
    return (None, *presets[:1])


def entry_rows(entries: list[SaveEntry]) -> list[tuple[Text, ...]]:
    """Every save's cells, the Seats column as wide as the others leave it
    within 80 columns (their widths are the widest cell of each)."""
    first = [entry_row(entry) for entry in entries]
    widths = [
        max([len(heading), *(len(row[i].plain) for row in first)])
        for i, heading in enumerate(COLUMNS)
    ]
    room = CONTENT_ROOM - widths[0] - max(widths[2], WHEN_WIDTH) - widths[3] - widths[4]
    seats_room = max(room, len(COLUMNS[1]))
    return [entry_row(entry, seats_room) for entry in entries]


def detail_text(entry: SaveEntry, ascii: bool) -> str:
    """The line under the list: the highlighted save's id, seed and keys, and
    a finished game's result in a sentence (the Status column's few words
    leave out the reason)."""
    if entry.record is None:
        return f"{plain(entry.path.name, 60)} cannot be read: {plain(entry.error)}"
    r = entry.record
    extra = f", preset {plain(r.preset, 40)}" if r.preset else ""
    hint = in_words("⏎ resume" if r.status == "playing" else "⏎ replay", ascii)
    game = plain(r.game, 40)
    text = (
        f"Game {r.id} ({game}{extra}), seed {r.seed}, started {when(r.created)}: {hint}, d delete."
    )
    if r.status != "playing":
        text = f"{result_sentence(r)}.\n{text}"
    return text


class ResumeScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [LISTS]
    BINDINGS: ClassVar[list[BindingType]] = [
        # r resumes, as on the home screen (one key for one thing); Enter too
        Binding("enter,r", "resume", "Resume", key_display="⏎", id="resume.resume", priority=True),
        # Enter on a finished game opens its replay, and the footer says so
        Binding(
            "enter", "replay", "Replay", key_display="⏎", id="resume.enter.replay", priority=True
        ),
        Binding("v", "replay", "Replay", id="resume.replay"),
        Binding("d,delete", "delete", "Delete", key_display="d", id="resume.delete"),
        Binding("escape", "close", "Back", id="resume.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[SaveEntry] = []

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(NO_SAVES, id="no-saves")
        yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
        yield Static("", id="save-detail")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = "saved games"
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self.reload()

    def reload(self) -> None:
        from saves.errors import SaveError

        table = self.query_one(DataTable)
        table.clear()
        try:
            self.entries = self.services.store.list()
        except (SaveError, OSError) as err:
            self.entries = []
            self.query_one("#save-detail", Static).update(
                plain_text(f"Cannot read the saves: {err}", None)
            )
            return
        for entry, row in zip(self.entries, entry_rows(self.entries), strict=True):
            table.add_row(*row, key=entry.id)
        # an empty list says so where the list would be, not under an empty table
        table.display = bool(self.entries)
        self.query_one("#no-saves", Static).display = not self.entries
        if self.entries:
            table.focus()
        self.refresh_bindings()

    @property
    def current(self) -> SaveEntry | None:
        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row is None:
            return None
        if 0 <= table.cursor_row < len(self.entries):
            return self.entries[table.cursor_row]
        return None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        entry = self.current
        detail = self.query_one("#save-detail", Static)
        if entry is None:
            return
        detail.update(plain_text(detail_text(entry, self.services.ascii), None, newlines=True))
        self.refresh_bindings()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.run_action_later("resume")

    def run_action_later(self, action: str) -> None:
        self.call_later(self.run_action, action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("resume", "replay", "delete"):
            if not self.entries:
                return False  # nothing to act on: the keys leave the footer
            entry = self.current
            if entry is None:
                return None
            if action == "resume":
                # a finished game: Enter is "Replay" (the binding after this one)
                return entry.record is None or entry.record.status == "playing"
            if action == "replay":
                return True if entry.record is not None else None
        return True

    async def action_resume(self) -> None:
        entry = self.current
        if entry is None:
            return
        if entry.record is None:
            self.notify(
                plain(f"This file cannot be read: {entry.error}"), severity="error", markup=False
            )
            return
        if entry.record.status != "playing":
            self.action_replay()
            return
        await self._resume(entry.id)

    async def _resume(self, record_id: str) -> None:
        from net.local import resume_table
        from saves.errors import SaveError

        try:
            client = resume_table(self.services.store, record_id, **self.services.table_options())
        except (SaveError, ValueError, OSError) as err:
            self.notify(plain(f"Cannot resume: {err}"), severity="error", timeout=10, markup=False)
            return
        self.app.call_later(self.services.show_table, client, replace=True)

    def action_replay(self) -> None:
        from .replay import open_replay

        entry = self.current
        if entry is None or entry.record is None:
            return
        open_replay(self.app, entry.record)

    def action_delete(self) -> None:
        from .confirm import ConfirmScreen

        entry = self.current
        if entry is None:
            return
        what = entry_row(entry)  # plain already
        question = (
            f"Delete saved game {plain(entry.id, 40)} ({what[0].plain}, {what[1].plain})? "
            "This cannot be undone."
        )

        def answer(yes: bool | None) -> None:
            if yes:
                self._delete(entry.id)

        self.app.push_screen(ConfirmScreen(question, yes="Delete"), answer)

    def _delete(self, record_id: str) -> None:
        from saves.errors import SaveError

        try:
            self.services.store.delete(record_id)
        except SaveError as err:
            self.notify(plain(err), severity="error", markup=False)
        self.reload()

    def action_close(self) -> None:
        self.dismiss()
