"""The home screen's "Your turn at 2 tables": the servers where this app holds
a seat are asked in the background (never delaying the home screen: after its
first frame), again every minute while home is in front and whenever the
player comes back to it; `y` goes to the table, or to a list of them
(tui/awaited.py does the asking; docs/app.md, "Your tables")."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.plain import plain_text
from tui.screens.dialog import Dialog

if TYPE_CHECKING:
    from tui.awaited import SeatAt
    from tui.services import AppServices


def awaited_text(turns: list[SeatAt]) -> str:
    """The home screen's line; empty when no table waits for you."""
    if not turns:
        return ""
    from tui.clock_words import time_left_text

    count = len(turns)
    text = f"Your turn at {count} table{'s' if count != 1 else ''}"
    nearest = turns[0].your_clock  # the nearest clock first
    if nearest is not None:
        text += f" (the nearest clock: {time_left_text(nearest)} left)"
    return text + ": y goes there."


# a table waiting for you whose clock has less than this left is called out
# once (the bell and a notification, when the terminal is not looked at)
REMIND_SECONDS = 3600


class Caller:
    """Calls a player who is away (CardTableApp.call_away_player) once for each
    table that starts waiting for them while home is open, and once more when
    its clock is nearly out (a reminder); what was called is forgotten when
    the table no longer waits for them."""

    def __init__(self) -> None:
        self.known: set[tuple[str, str]] | None = None  # None: the first ask, nothing new yet
        self.reminded: set[tuple[str, str]] = set()

    def calls(self, turns: list[SeatAt], titles: dict[str, str]) -> list[str]:
        """What to call out for ``turns``, the latest ask's tables waiting for you."""
        from tui.awaited import seat_line
        from tui.clock_words import time_left_text

        now = {(seat.address, seat.table) for seat in turns}
        said: list[str] = []
        for seat in turns:
            key = (seat.address, seat.table)
            left = seat.your_clock
            if left is not None and left <= REMIND_SECONDS and key not in self.reminded:
                self.reminded.add(key)
                title = titles.get(seat.game, seat.game)
                said.append(f"{time_left_text(left)} left to move at {title} ({seat.address})")
            elif self.known is not None and key not in self.known:
                said.append(f"Your turn at {seat_line(seat, titles)} ({seat.address})")
        self.known = now
        self.reminded &= now
        return said


async def ask_for_turns(app: AppServices) -> list[SeatAt]:
    """The tables where it is this app's turn, at every server it holds a seat at."""
    from tui.awaited import ask_everywhere, your_turns
    from tui.network import HeldSeats
    from tui.network_connect import default_name

    held = HeldSeats.of(app.store.root)
    if not held.everywhere():
        return []
    answers = await ask_everywhere(
        held,
        default_name(app.settings.player_name),
        grants=app.grants,
        config_dir=app.config_dir,
    )
    return your_turns(answers)


class YourTurnsScreen(Dialog["SeatAt | None"]):
    """Which of the tables waiting for you to go to."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="home.turns.back"),
    ]

    def __init__(self, turns: list[SeatAt], titles: dict[str, str]) -> None:
        super().__init__()
        self.turns = turns
        self.titles = titles

    def compose(self) -> ComposeResult:
        from tui.awaited import seat_line

        with Vertical(classes="dialog", id="your-turns"):
            yield Static("Your turn at these tables", classes="title")
            yield OptionList(
                *[
                    # names come from the network: plain text, never markup
                    Option(plain_text(f"{seat.address} · {seat_line(seat, self.titles)}", None))
                    for seat in self.turns
                ]
            )

    def on_mount(self) -> None:
        super().on_mount()
        listing = self.query_one(OptionList)
        listing.highlighted = 0
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.turns[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
