"""Statistics: a player's record per game, from the saved games (``t`` on
the home screen; docs/stats.md).

Four tabs: the record (games, wins, streaks, rating, the game's own
figures), the opponents (each computer level and person, head to head, and
each preset), the rating after each game (a line chart), and the results per
opponent (stacked bars): the charts are textual-plotext plots. ``p`` changes
the player, ``g`` (or the arrows) the game. The figures are computed in a
thread, from the store and its cache (saves/stats.py). Every name comes from
a file: shown through :mod:`tui.plain`, never as markup.
"""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from rules.registry import get_game
from saves.ratings import computer_ratings
from saves.stats import GameStats, Statistics, compute_store, opponent_label
from tui.glyphs import chart_marker, in_words
from tui.plain import plain, plain_text
from tui.services import SERVICES
from tui.stats_text import figure_rows, record_line, streak_line, summary_line, tally_rows
from tui.widgets.footer import FittingFooter

YOU = "You"  # the name of the one person at this screen in a local game (tui/seating.py)
NOTHING_YET = (
    "No finished games yet.\n\n"
    "Every game you finish counts here: your wins and losses, your streaks, your rating "
    "against the computer and other people, per game. Esc goes back; n on the home "
    "screen starts a new game."
)


class StatisticsScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="stats.back"),
        Binding("g,right", "next_game", "Next game", key_display="g", id="stats.game"),
        Binding("left", "previous_game", "Previous game", show=False, id="stats.game_back"),
        Binding("p", "next_player", "Next player", id="stats.player"),
        Binding("1", "tab('record')", "Record", show=False, id="stats.record"),
        Binding("2", "tab('opponents')", "Opponents", show=False, id="stats.opponents"),
        Binding("3", "tab('rating')", "Rating", show=False, id="stats.rating"),
        Binding("4", "tab('results')", "Results", show=False, id="stats.results"),
    ]
    DEFAULT_CSS = """
    StatisticsScreen #stats-choice { height: 1; padding: 0 1; text-style: bold; }
    StatisticsScreen #stats-summary { height: 1; padding: 0 1; color: $text-muted; }
    StatisticsScreen TabbedContent { height: 1fr; }
    StatisticsScreen TabPane { padding: 0 1; height: 1fr; }
    StatisticsScreen #stats-opponents { height: 1fr; }
    """

    def __init__(self, game: str | None = None, player: str | None = None) -> None:
        super().__init__()
        self.wanted_game = game
        self.player: str | None = player
        self.game: str | None = None
        self.stats: Statistics | None = None

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Reading your saved games...", id="stats-choice")
        yield Static("", id="stats-summary")
        with TabbedContent(id="stats-tabs"):
            with TabPane("Record", id="record"), VerticalScroll():
                yield Static("", id="stats-record")
            with TabPane("Opponents", id="opponents"):
                yield DataTable(id="stats-opponents", cursor_type="row", zebra_stripes=True)
            with TabPane("Rating", id="rating"):
                yield PlotextPlot(id="stats-rating")
            with TabPane("Results", id="results"):
                yield PlotextPlot(id="stats-results")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = "statistics"
        self.compute()

    @work(thread=True, exclusive=True, group="stats")
    def compute(self) -> None:
        """The figures, away from the screen's thread (a first count replays games)."""
        stats = compute_store(self.services.store)
        self.app.call_from_thread(self.show_stats, stats)

    # ------------------------------------------------------------ choosing
    def show_stats(self, stats: Statistics) -> None:
        self.stats = stats
        names = stats.names()
        if self.player not in stats.players:
            self.player = YOU if YOU in stats.players else (names[0] if names else None)
        self.game = self._game_for(self.wanted_game)
        self.refresh_view()

    def _games(self) -> list[str]:
        if self.stats is None or self.player is None:
            return []
        return sorted(self.stats.players[self.player].games)

    def _game_for(self, wanted: str | None) -> str | None:
        games = self._games()
        if wanted in games:
            return wanted
        if not games or self.stats is None or self.player is None:
            return None
        player = self.stats.players[self.player]
        return max(games, key=lambda g: player.games[g].tally.games)

    def action_next_game(self) -> None:
        self._step_game(1)

    def action_previous_game(self) -> None:
        self._step_game(-1)

    def _step_game(self, step: int) -> None:
        games = self._games()
        if not games or self.game is None:
            return
        self.game = games[(games.index(self.game) + step) % len(games)]
        self.wanted_game = self.game
        self.refresh_view()

    def action_next_player(self) -> None:
        if self.stats is None or self.player is None:
            return
        names = self.stats.names()
        if len(names) < 2:
            self.notify("Only one player in these saved games.")
            return
        self.player = names[(names.index(self.player) + 1) % len(names)]
        self.game = self._game_for(self.wanted_game)
        self.refresh_view()

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_back(self) -> None:
        self.dismiss()

    # ------------------------------------------------------------ showing
    def refresh_view(self) -> None:
        stats = self.stats
        if stats is None:
            return
        self.query_one("#stats-summary", Static).update(plain_text(summary_line(stats)))
        choice = self.query_one("#stats-choice", Static)
        if self.player is None or self.game is None:
            choice.update("Statistics")
            self.query_one("#stats-record", Static).update(plain_text(NOTHING_YET, None))
            return
        title = get_game(self.game).title
        games = self._games()
        choice.update(
            plain_text(
                f"{plain(self.player, 30)}: {title} (game {games.index(self.game) + 1} of "
                f"{len(games)} played; g: next game, p: next player)",
                None,
            )
        )
        game = stats.players[self.player].games[self.game]
        self.query_one("#stats-record", Static).update(
            plain_text(self._record_text(game), None, newlines=True)
        )
        self._fill_opponents(game)
        self._draw_rating(game)
        self._draw_results(game)

    def _record_text(self, game: GameStats) -> str:
        rating = game.rating
        levels = computer_ratings(game.game)
        lines = [
            record_line(game.tally),
            streak_line(game.tally),
            in_words(f"Rating {rating.shown}", self.services.ascii)
            if rating
            else "Rating: none yet",
            "The computer: " + ", ".join(f"{lv} {mu:.1f}" for lv, mu in levels.items()),
            "",
        ]
        rows = figure_rows(game)
        width = max((len(label) for label, _ in rows), default=0)
        lines += [f"{label:<{width}}  {value}" for label, value in rows]
        if self.stats is not None and self.player is not None:
            everything = self.stats.players[self.player].total
            lines += ["", f"Every game together: {record_line(everything)}"]
        return "\n".join(lines)

    def _fill_opponents(self, game: GameStats) -> None:
        table = self.query_one("#stats-opponents", DataTable)
        table.clear(columns=True)
        table.add_columns("Against / preset", "Won-lost-drawn", "Share")
        for name, wld, share in tally_rows(game.by_opponent, opponents=True):
            table.add_row(plain_text(name, 30), wld, share)
        for name, wld, share in tally_rows(game.by_preset, opponents=False):
            table.add_row(plain_text(f"rules: {name}", 30), wld, share)

    def _draw_rating(self, game: GameStats) -> None:
        plot = self.query_one("#stats-rating", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        points = [p.rating_after.mu for p in game.played if p.rating_after is not None]
        plt.title("Rating after each game")
        plt.xlabel("game")
        if points:
            numbers = list(range(len(points) + 1))
            # the computer's fixed ratings as level lines, named in the legend
            colours = {"easy": "green", "medium": "yellow", "hard": "red"}
            ascii = self.services.ascii
            for series, (level, mu) in enumerate(computer_ratings(game.game).items(), 1):
                plt.plot(
                    [0, len(points)],
                    [mu, mu],
                    label=f"computer {level}",
                    color=colours[level],
                    marker=chart_marker(series, ascii, "hd"),
                )
            rating = chart_marker(0, ascii)
            plt.plot(numbers, [25.0, *points], marker=rating, label="rating", color="cyan")
            plt.xticks(_whole_ticks(len(points)))
        plot.refresh()

    def _draw_results(self, game: GameStats) -> None:
        plot = self.query_one("#stats-results", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title("Results per opponent")
        rows = sorted(game.by_opponent.items(), key=lambda kv: (-kv[1].games, kv[0]))[:6]
        if rows:
            names = [plain(opponent_label(key), 16) for key, _ in rows]
            # plotext's stacked_bar takes a label and a colour per layer; the
            # stub textual-plotext ships says one of each (plotext/_figure.py)
            plt.stacked_bar(  # type: ignore[call-arg]
                names,
                [
                    [t.wins for _, t in rows],
                    [t.draws for _, t in rows],
                    [t.losses for _, t in rows],
                ],
                labels=["won", "drawn", "lost"],
                color=["green", "yellow", "red"],  # type: ignore[arg-type]
                # in ASCII a mark a layer: won, drawn and lost apart without colour
                marker=[chart_marker(n, self.services.ascii, "sd") for n in range(3)],  # type: ignore[arg-type]
                width=0.4,
            )
            plt.yticks(_whole_ticks(max(t.games for _, t in rows)))
        plot.refresh()


def _whole_ticks(top: int, most: int = 6) -> list[float]:
    """At most ``most`` whole-number ticks from 0 to ``top`` (games are whole)."""
    step = max(1, -(-top // (most - 1)))
    return [float(n) for n in range(0, top + 1, step)]
