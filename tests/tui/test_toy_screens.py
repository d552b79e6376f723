"""The screens over the toy game (tests/toy_game.py, registered by
tests/conftest.py): a game of 3 to 8 seats with no screen of its own. The
new-game form is built from its options; the generic screen plays it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, OptionList, Select

from tui.games.generic import GenericGameScreen
from tui.screens.home import HomeScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.game_list import GameList

from .conftest import make_app, screen_text, settle


def _moves_played(app: Any) -> int | None:
    """Moves played at the table of the game screen on top; None: no game screen."""
    screen = app.screen
    if not isinstance(screen, GenericGameScreen):
        return None
    client: Any = screen.client
    return len(client.table.record.moves)


def _listed(screen: GenericGameScreen) -> list[str]:
    moves = screen.query_one("#moves", OptionList)
    return [str(moves.get_option_at_index(i).id) for i in range(moves.option_count)]


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_toy_new_game_form_seats_three_to_eight_and_starts_the_generic_screen(
    dirs: Any,
) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        home.query_one("#games", GameList).highlight("toy")  # a game beyond the four
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, NewGameScreen) and form.spec.id == "toy"
        # its own options, with their help, from its Config
        assert form.query_one("#opt-rounds", Input).value == "2"
        assert form.query_one("#opt-timer", Input).value == "0"
        assert form.query_one("#opt-first_player", Select).value == "random"
        help_texts = " ".join(str(s.render()) for s in form.query(".help"))
        assert "Turns each seat takes" in help_texts and "Who takes the first turn" in help_texts
        form.query_one("#preset", Select).value = "quick"
        await settle(pilot)
        assert form.query_one("#opt-rounds", Input).value == "1"
        # a seat row for each player, from 3 to 8
        players = form.query_one("#players", Select)
        assert players.value == 3
        for n in [*range(3, 9), 4]:
            players.value = n
            await settle(pilot)
            shown = [form.query_one(f"#seat-row-{i}").display for i in range(8)]
            assert shown == [i < n for i in range(8)], n
        # four seats: you and three computers, seat 1 first
        form.query_one("#opt-first_player", Select).value = "0"
        form.query_one("#seed", Input).value = "3"
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: _moves_played(app) is not None and bool(app.screen.legal))  # type: ignore[attr-defined]
        game = app.screen
        assert isinstance(game, GenericGameScreen)
        client: Any = game.client
        assert client.config["players"] == 4 and client.config["rounds"] == 1
        assert [s.kind for s in client.seats] == ["human", "bot", "bot", "bot"]
        # the bid: the move list offers exactly the seat's legal moves
        assert game.my_turn and game.legal
        assert _listed(game) == list(game.legal)
        assert all(m.startswith("bid ") for m in game.legal)
        assert "Legal moves" in screen_text(app)


async def test_toy_moves_through_the_generic_screens_list_until_the_bots_move(
    dirs: Any,
) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        from rules.registry import get_game
        from tui.seating import build_seats

        spec = get_game("toy")
        config = spec.config(players=3, first_player="0")
        seats, mine = build_seats(
            ["you", "computer:easy", "computer:hard"], spec.seat_names(config)
        )
        await app.start_game("toy", config, seats, mine, seed=8)
        await settle(pilot, lambda: _moves_played(app) == 2)  # the bots' bids
        game = app.screen
        assert isinstance(game, GenericGameScreen)
        client: Any = game.client
        record = client.table.record
        # the bots bid at once; we choose our bid from the list
        assert sorted(seat for seat, _ in record.moves) == [1, 2]
        assert game.query_one("#moves", OptionList).has_focus
        # a game that marks no rounds offers no score history
        assert game.check_action("score_history", ()) is False
        assert "Scores" not in screen_text(app).splitlines()[-1]
        first = _listed(game)[0]
        await pilot.press("enter")
        await settle(pilot, lambda: game.legal == ("draw",))
        assert (0, first) in record.moves
        assert game.view.phase == "turns" and game.view.bids[1] is not None
        # our turn: draw, then the last entry of the list ends the turn
        assert _listed(game) == ["draw"]
        await pilot.press("enter")
        await settle(pilot, lambda: "end" in game.legal)
        assert record.moves[-1] == (0, "draw") and _listed(game)[-1] == "end"
        assert len(game.view.hand) == 2
        await pilot.press("end", "enter")
        await settle(pilot, lambda: game.legal == ("draw",))
        # the bots took their turns; it is ours again
        ended = record.moves.index((0, "end"))
        assert {seat for seat, _ in record.moves[ended + 1 :]} == {1, 2}
        assert game.my_turn and _listed(game) == ["draw"]
        assert game.view.turns_taken == [1, 1, 1]
        assert "turns taken: [1, 1, 1]" in screen_text(app)
