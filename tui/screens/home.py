"""Home: the four games, and what to do: new game, resume, join or host a
network table, rules, settings, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.registry import CATALOGUE

if TYPE_CHECKING:
    from tui.app import CardTableApp

# The games of the table come from the rules' catalogue (rules/registry.py): a
# game not registered yet is listed as coming soon. The first paint uses the
# catalogue's texts; the registry (which imports every game) is loaded right
# after it, keeping startup lean (tests/perf/bench_startup.py).


def game_options(games: dict[str, tuple[str, str, bool]]) -> list[Option]:
    options = []
    for game_id, (title, summary, playable) in games.items():
        label = Text(title, style="bold")
        if not playable:
            label.append(" · coming soon", style="italic")
        label.append("\n" + summary)
        options.append(Option(label, id=game_id, disabled=not playable))
    return options


def available_games() -> dict[str, tuple[str, str, bool]]:
    """id -> (title, one-line summary, playable now)."""
    from rules.registry import games

    registered = games()
    out: dict[str, tuple[str, str, bool]] = {}
    for game_id in CATALOGUE:
        spec = registered.get(game_id)
        if spec is not None:
            out[game_id] = (spec.title, spec.summary, True)
        else:
            title, pitch = CATALOGUE[game_id]
            out[game_id] = (title, pitch, False)
    for game_id, spec in registered.items():  # a game added beyond the four
        out.setdefault(game_id, (spec.title, spec.summary, True))
    return out


_ACTIONS = {
    "new_game": "[b][@click=screen.new_game]New game (n)[/][/b]",
    "resume": "[@click=screen.resume]Resume (r)[/]",
    "join": "[@click=screen.join]Join (j)[/]",
    "host": "[@click=screen.host]Host (o)[/]",
    "rules": "[@click=screen.rules]Rules (?)[/]",
    "settings": "[@click=screen.settings]Settings (s)[/]",
    "quit": "[@click=screen.quit]Quit (q)[/]",
}


def actions_markup(may_host: bool) -> str:
    """The clickable actions: Host only where this app may open a server."""
    return "   ".join(text for action, text in _ACTIONS.items() if may_host or action != "host")


class HomeScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New game", id="home.new"),
        Binding("r", "resume", "Resume", id="home.resume"),
        Binding("j", "join", "Join", id="home.join"),
        Binding("o", "host", "Host", id="home.host"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="home.rules"),
        Binding("s", "settings", "Settings", id="home.settings"),
        Binding("q", "quit", "Quit", id="home.quit"),
    ]

    @property
    def cardtable(self) -> CardTableApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Choose a game, then what to do with it.", id="home-intro")
            first_paint = {g: (*CATALOGUE[g], True) for g in CATALOGUE}
            yield OptionList(*game_options(first_paint), id="games")
            # clickable words rather than Buttons: as good for a mouse, and lighter
            # at startup (tests/perf/bench_startup.py)
            yield Static(actions_markup(self.cardtable.grants.may_host), id="home-actions")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # an ssh-host visitor's app has no Host: not in the footer, not in the
        # palette (it lists enabled bindings), not by its key
        if action == "host":
            return self.cardtable.grants.may_host
        return True

    def on_mount(self) -> None:
        self.sub_title = "home"
        games = self.query_one("#games", OptionList)
        games.highlighted = 0
        games.focus()
        self.call_after_refresh(self.load_games)

    def load_games(self) -> None:
        """The registered games: their own summaries; the others coming soon."""
        games = self.query_one("#games", OptionList)
        highlighted = games.highlighted
        games.clear_options()
        games.add_options(game_options(available_games()))
        games.highlighted = highlighted

    @property
    def selected_game(self) -> str | None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return None
        option = games.get_option_at_index(games.highlighted)
        return None if option.disabled else option.id

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_new_game()

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

        if not self.cardtable.grants.may_host:  # a click or a palette entry left over
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

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    async def action_quit(self) -> None:
        await self.app.action_quit()  # (which asks first while others play at our server)
