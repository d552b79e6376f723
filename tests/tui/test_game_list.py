"""The home screen's list of games (tui/widgets/game_list.py): keys and clicks
choose as in any list, a game not yet playable is passed over, and each game's
summary wraps whole at 80 columns."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tui.screens.home import HomeScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.game_list import GameChoice, GameList

from .conftest import make_app, screen_text, settle

CHOICES = [
    GameChoice("a", "Alpha", "The first game.", True),
    GameChoice("b", "Beta", "Not written yet.", False),
    GameChoice("c", "Gamma", "The third game.", True),
    GameChoice("d", "Delta", "The last game.", True),
]


class ListApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[str] = []

    def compose(self) -> ComposeResult:
        yield GameList(CHOICES, id="games")

    def on_mount(self) -> None:
        self.query_one(GameList).focus()

    def on_game_list_chosen(self, event: GameList.Chosen) -> None:
        self.chosen.append(event.choice.id)


async def test_keys_move_over_a_game_not_yet_playable_and_stop_at_the_ends() -> None:
    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        games = app.query_one(GameList)
        assert games.highlighted_choice == CHOICES[0]
        await pilot.press("down")
        assert games.highlighted_choice == CHOICES[2]  # Beta passed over
        await pilot.press("down", "down", "down")
        assert games.highlighted_choice == CHOICES[3]  # stays at the end
        await pilot.press("up", "up")
        assert games.highlighted_choice == CHOICES[0]
        await pilot.press("end")
        assert games.highlighted_choice == CHOICES[3]
        await pilot.press("home", "enter")
        assert app.chosen == ["a"]


async def test_a_click_on_a_games_summary_chooses_that_game() -> None:
    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        games = app.query_one(GameList)
        # the border's row, then two lines a game: Gamma's summary is content row 5
        await pilot.click(GameList, offset=(5, 1 + 5))
        assert app.chosen == ["c"]
        assert games.highlighted_choice == CHOICES[2]
        # a game not yet playable is reported chosen (the screen says so), not highlighted
        await pilot.click(GameList, offset=(5, 1 + 2))
        assert app.chosen == ["c", "b"]
        assert games.highlighted_choice == CHOICES[2]


async def test_home_wraps_each_summary_whole_and_enter_opens_its_form(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        # Territory's summary is longer than the list is wide: it wraps, nothing cut
        assert "Schmiedekamp's Domination: explore and conquer a grid until one region" in text
        assert "holds A to 10." in text
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.spec.id == "territory"
