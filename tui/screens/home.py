"""Home: the four games, and what to do: new game, resume, join or host a
network table, rules, settings, quit."""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, Static

from rules.registry import CATALOGUE, registered_beyond_catalogue
from saves.data_root import held_seats_file
from tui.services import SERVICES
from tui.widgets.footer import FittingFooter
from tui.widgets.game_list import GameChoice, GameList

if TYPE_CHECKING:
    from tui.awaited import SeatAt
    from tui.screens.your_turns import Caller

# The games of the table come from the rules' catalogue (rules/registry.py),
# with their titles and pitches: the home screen lists them without importing
# any game (startup stays lean: tests/perf/bench_startup.py). A game whose
# module is not there yet is listed as coming soon; the registry, which imports
# every game, loads only when a game is chosen.


def game_choices(games: dict[str, tuple[str, str, bool]]) -> list[GameChoice]:
    return [GameChoice(game_id, *about) for game_id, about in games.items()]


def available_games() -> dict[str, tuple[str, str, bool]]:
    """id -> (title, one-line summary, playable now): from the catalogue, a game
    playable when its rules module exists (found, not imported)."""
    listed = {
        game_id: (title, pitch, find_spec(f"rules.{game_id}") is not None)
        for game_id, (title, pitch) in CATALOGUE.items()
    }
    # and a game registered beyond the four (a plugin's): playable, listed last
    for game_id, (title, pitch) in registered_beyond_catalogue().items():
        listed[game_id] = (title, pitch, True)
    return listed


# each action: the screen's action it clicks, and its words (plain ASCII:
# a line's width is their length, no markup parsed to measure it)
_ACTIONS = {
    "new_game": ("new_game", "New game (n)"),
    "resume": ("resume", "Resume (r)"),
    "join": ("join", "Join (j)"),
    "host": ("host", "Host (o)"),
    "learn": ("learn", "Learn (l)"),
    "rules": ("rules", "Rules (?)"),
    "settings": ("settings", "Settings (,)"),
    "stats": ("statistics", "Statistics (t)"),
    "quit": ("quit", "Quit (q)"),
}


def _action_markup(action: str, words: str) -> str:
    link = f"[@click=screen.{action}]{words}[/]"
    return f"[b]{link}[/b]" if action == "new_game" else link  # the first thing to do


# how often home asks the servers where you hold a seat again, while it is in
# front (tui/screens/your_turns.py; a move a day needs no more)
ASK_AGAIN_SECONDS = 60.0

# the columns the actions have at 80: the screen less #home's padding
ACTIONS_WIDTH = 76
ACTIONS_GAP = "   "


def actions_markup(may_host: bool, width: int = ACTIONS_WIDTH) -> str:
    """The clickable actions, Host only where this app may open a server, in as
    few lines as ``width`` allows, evenly filled, each breaking between two
    actions, never inside one ("Host" / "(o)")."""
    chosen = [act for key, act in _ACTIONS.items() if may_host or key != "host"]
    shown = [_action_markup(action, words) for action, words in chosen]
    cells = [len(words) for _, words in chosen]
    for count in range(1, len(shown) + 1):
        per_line = -(-len(shown) // count)  # ceiling
        lines = [range(i, min(i + per_line, len(shown))) for i in range(0, len(shown), per_line)]
        gaps = len(ACTIONS_GAP)
        widths = [sum(cells[i] for i in line) + gaps * (len(line) - 1) for line in lines]
        if max(widths) <= width or per_line == 1:
            break
    return "\n".join(ACTIONS_GAP.join(shown[i] for i in line) for line in lines)


class ActionsLine(Static):
    """The clickable actions, broken between actions to the width they have
    (narrower while the keys panel is open)."""

    def __init__(self, may_host: bool, **kwargs: Any) -> None:
        self.may_host = may_host
        self.markup = actions_markup(may_host)
        super().__init__(self.markup, **kwargs)

    def on_resize(self, event: events.Resize) -> None:
        markup = actions_markup(self.may_host, width=max(event.size.width, 1))
        if markup != self.markup:  # no second layout at start-up, when it fits
            self.markup = markup
            self.update(markup)


class HomeScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New game", id="home.new"),
        Binding("r", "resume", "Resume", id="home.resume"),
        Binding("j", "join", "Join", id="home.join"),
        Binding("o", "host", "Host", id="home.host"),
        Binding("l", "learn", "Learn", id="home.learn"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="home.rules"),
        Binding("comma", "settings", "Settings", key_display=",", id="home.settings"),
        Binding("t", "statistics", "Statistics", id="home.stats"),
        # shown while a table elsewhere waits for you (tui/screens/your_turns.py)
        Binding("y", "your_turn", "Your turn", id="home.turns"),
        Binding("q", "quit", "Quit", id="home.quit"),
    ]

    # the footer at 80 columns holds all but one (the actions line shows every one)
    FOOTER_SPARE: ClassVar[tuple[str, ...]] = ("statistics", "learn")

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Choose a game, then what to do with it.", id="home-intro")
            # in the intro's place while a table elsewhere waits for you
            yield Static("", id="home-awaited")
            yield GameList(game_choices(available_games()), id="games")
            # clickable words rather than Buttons: as good for a mouse, and lighter
            # at startup (tests/perf/bench_startup.py)
            yield ActionsLine(self.services.grants.may_host, id="home-actions")
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # an ssh-host visitor's app has no Host: not in the footer, not in the
        # palette (it lists enabled bindings), not by its key
        if action == "host":
            return self.services.grants.may_host
        if action == "your_turn":
            return bool(self.turns)
        return True

    def on_mount(self) -> None:
        self.sub_title = "home"
        self.turns: list[SeatAt] = []
        self._asking = False
        self._caller: Caller | None = None
        self.query_one("#home-awaited").display = False
        self.query_one("#games", GameList).focus()
        self.set_interval(ASK_AGAIN_SECONDS, self.ask_for_turns)

    def on_screen_resume(self) -> None:
        # after the frame (the first one too): asking the servers, even only
        # whether there are any to ask, never delays the home screen
        self.call_after_refresh(self.ask_for_turns)

    # ------------------------------------------------------------ your turns elsewhere
    def ask_for_turns(self) -> None:
        """Ask the servers where this app holds a seat (in the background),
        only while home is in front, and not while an ask is under way."""
        # an app that never sat at a table elsewhere has no seats file: nothing
        # to ask, and no client or screen module to import (tui.network: 8 ms)
        if not held_seats_file(self.services.data_root).exists() and not self.turns:
            return
        if self.app.screen is self and not self._asking:
            self._asking = True
            self.run_worker(self._ask(), group="turns", exit_on_error=False)

    async def _ask(self) -> None:
        from .your_turns import ask_for_turns

        try:
            self.show_turns(await ask_for_turns(self.services))
        finally:
            self._asking = False

    def show_turns(self, turns: list[SeatAt]) -> None:
        from .your_turns import Caller, awaited_text

        if self._caller is None:
            self._caller = Caller()
        titles: dict[str, str] = {}
        if turns:  # (the registry loads every game: only when needed)
            from rules.registry import games

            titles = {gid: spec.title for gid, spec in games().items()}
        for what in self._caller.calls(turns, titles):
            self.services.call_away_player(what)
        self.turns = turns
        line = self.query_one("#home-awaited", Static)
        line.update(awaited_text(turns))
        line.display = bool(turns)
        self.query_one("#home-intro").display = not turns
        self.refresh_bindings()

    def action_your_turn(self) -> None:
        from .join import JoinScreen
        from .your_turns import YourTurnsScreen

        def go(seat: SeatAt | None) -> None:
            if seat is not None:
                self.app.push_screen(JoinScreen(seat.address, seat.table))

        if len(self.turns) == 1:
            go(self.turns[0])
        elif self.turns:
            from rules.registry import games

            titles = {gid: spec.title for gid, spec in games().items()}
            self.app.push_screen(YourTurnsScreen(self.turns, titles), go)

    @property
    def selected_game(self) -> str | None:
        choice = self.query_one("#games", GameList).highlighted_choice
        return choice.id if choice is not None and choice.playable else None

    def on_game_list_chosen(self, event: GameList.Chosen) -> None:
        if event.choice.playable:
            self.action_new_game()
        else:
            self.notify("That game is coming soon: choose another.", severity="warning")

    def action_new_game(self) -> None:
        from .new_game import NewGameScreen

        game_id = self.selected_game
        if game_id is None:
            self.notify("That game is coming soon: choose another.", severity="warning")
            return
        self.app.push_screen(NewGameScreen(game_id))

    def action_resume(self) -> None:
        from .resume import ResumeScreen

        self.app.push_screen(ResumeScreen())

    def action_join(self) -> None:
        from .join import JoinScreen

        self.app.push_screen(JoinScreen())

    def action_host(self) -> None:
        from .join import HostScreen

        if not self.services.grants.may_host:  # a click or a palette entry left over
            self.notify("This host does not let visitors open a table server.", severity="error")
            return
        self.app.push_screen(HostScreen())

    def action_rules(self) -> None:
        from .rules import RulesScreen

        game_id = self.selected_game
        if game_id is None:
            self.notify("That game has no rules page yet.", severity="warning")
            return
        self.app.push_screen(RulesScreen(game_id))

    async def action_learn(self) -> None:
        await self.services.open_lessons()  # tui/learn/

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_statistics(self) -> None:
        from .stats import StatisticsScreen  # tui/screens/stats.py (issue 27)

        self.app.push_screen(StatisticsScreen(self.selected_game))

    async def action_quit(self) -> None:
        await self.app.action_quit()  # (which asks first while others play at our server)
