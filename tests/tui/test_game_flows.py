"""Whole flows through the real app: a game against the computer to the end,
illegal moves explained, hot-seat hand-offs, pause, resign, rematch."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot

from tui.games.domination import DominationScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.pause import PauseScreen
from tui.screens.rules import RulesScreen
from tui.widgets.cards import CardRow

from .conftest import make_app, play_launch, screen_text, settle
from .shared_app import at_the_table, shared_app

CARD = re.compile(r"\b(?:10|[2-9AJQK])[♠♥♦♣]")

# Tests that only look at a game, or play a move and look, share one app per
# launch (issue 41 item 4): `table5` (seed 5 against the computer; a test
# may play on, as long as the game goes on) and
# `no_colour` (seed 3 with NO_COLOR set). Each finds its game in front and
# still being played, and leaves it in front; a test that ends its game keeps
# its own app. They run on the module's loop.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table5_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("seed5"), launch=play_launch(seed=5)) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def table5(table5_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    async with at_the_table(table5_app) as pilot:
        yield pilot


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def no_colour_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    folder = tmp_path_factory.mktemp("no-colour")
    launch = play_launch(seed=3)
    async with shared_app(folder, launch=launch, environ={"NO_COLOR": "1"}) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def no_colour(no_colour_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    async with at_the_table(no_colour_app) as pilot:
        yield pilot


async def play_first_legal(pilot: Pilot[Any]) -> bool:
    """Press the number key of the first legal card; False if it is not our turn."""
    screen = pilot.app.screen
    assert isinstance(screen, DominationScreen)
    if not screen.my_turn:
        return False
    legal = screen.legal
    index = next(i for i, c in enumerate(screen.hand) if c in legal)
    await pilot.press(str(index + 1))
    await settle(pilot)
    return True


async def test_whole_game_against_the_computer_reaches_game_over(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=11, target_score=20))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DominationScreen)
        for _ in range(400):
            if isinstance(app.screen, GameOverScreen):
                break
            assert await play_first_legal(pilot), "the table waits on nobody"
        assert isinstance(app.screen, GameOverScreen)
        update = screen.update
        scores = update.scores
        assert update.over and max(scores) >= 20 and update.result is not None
        text = screen_text(app)
        assert update.result.winner is not None
        winner = screen.names[update.result.winner]
        assert f"{winner} wins." in text or (winner == "You" and "You win." in text)
        # behind the result the footer offers no play keys
        footer = text.splitlines()[-1]
        assert "Play" not in footer and "Choose" not in footer and "Hint" not in footer
        assert f"Difference{abs(scores[0] - scores[1]):>22}" in text  # under the points
        # the record on disk says finished, with the result
        record = app.store.load(screen.client.record_id)
        assert record.status == "finished" and record.result is not None
        # the result stays until the player chooses: Enter (the play key) chooses nothing
        await pilot.press("enter", "space")
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen) and app.screen.focused is None
        # rematch: a new table, the loser leads the first round
        loser = 1 - update.result.winner
        await pilot.press("r")
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, DominationScreen) and rematch is not screen
        assert rematch.client.config["first_leader"] == str(loser)
        assert rematch.view.leader == loser
        assert len(app.screen_stack) == 2  # home, the new game


@on_a_shared_app
async def test_an_illegal_card_is_explained_and_changes_nothing(table5: Pilot[Any]) -> None:
    pilot = table5
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, DominationScreen)
    # play until a hand holds a card that may not follow
    for _ in range(200):
        if screen.my_turn and set(screen.hand) - set(screen.legal):
            break
        await play_first_legal(pilot)
    bad = next(c for c in screen.hand if c not in screen.legal)
    before = screen.update.state_id
    await pilot.press(str(screen.hand.index(bad) + 1))
    await settle(pilot)
    assert screen.update.state_id == before
    status = str(screen.query_one("#status").render())
    assert ("cannot play" in status and "lower than" in status) or "Domination" in status
    assert status.startswith("You cannot play")


async def test_keys_move_the_choice_and_enter_plays_it(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=5, vs="human"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("space")  # past the first hand-off
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DominationScreen)
        start = screen.cursor
        await pilot.press("right")
        assert screen.cursor == (start + 1) % len(screen.hand)
        await pilot.press("left", "left")
        assert screen.cursor == (start - 1) % len(screen.hand)
        card = screen.hand[screen.cursor]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.update.state_id == 1
        assert screen.client.table.record.moves[0][1] == card


@on_a_shared_app
async def test_clicking_a_card_plays_it(table5: Pilot[Any]) -> None:
    pilot = table5
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, DominationScreen)
    for _ in range(20):
        if screen.my_turn:
            break
        await settle(pilot)
    hand = screen.hand
    target = next(i for i, c in enumerate(hand) if c in screen.legal)
    before = screen.update.state_id
    # each card is 5 columns and a gap; the row is centred, with one column
    # of padding
    row = screen.query_one("#hand", CardRow)
    await pilot.click("#hand", offset=(1 + row._indent() + target * 6 + 2, 1))
    await settle(pilot)
    assert screen.update.state_id > before
    moves = screen.client.table.record.moves
    assert (0, hand[target]) in moves


async def test_hot_seat_hands_off_without_showing_a_hand(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=9, vs="human"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # before anyone sits down, the hand-off hides everything
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass the keyboard to Player" in text
        assert not CARD.search(text), text
        first = app.screen.player
        assert f"{first}: press Enter when you have the keyboard." in text
        await pilot.press("x")  # only the key it names takes it away
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        assert game.seat_name(game.seat) == first
        shown = screen_text(app)
        for card in game.hand:
            assert card[:-1] in shown  # the hand is on screen now
        assert f"{first}'s hand" in shown
        # a move passes the turn to the other person: hand-off again
        await pilot.press(str(game.hand.index(game.legal[0]) + 1))
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        second = app.screen.player
        assert second != first
        text = screen_text(app)
        assert not CARD.search(text), text
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is game and game.seat_name(game.seat) == second
        # the log was rebuilt for the new seat: the other player's draws stay secret
        assert game.view.hand == game.client.snapshot(game.seat).view.hand


async def test_pause_menu_resign_ends_the_game(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PauseScreen)
        text = screen_text(app)
        for word in ("Back to the game", "Save and quit", "Resign", "Rules", "Settings"):
            assert word in text
        await pilot.press("escape")  # resume
        await settle(pilot)
        assert app.screen is game
        await pilot.press("escape", "r")
        await settle(pilot)
        assert "Resign this game?" in screen_text(app)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        assert "Computer wins." in screen_text(app)
        assert "(You resigned)" in screen_text(app)
        record = app.store.load(game.client.record_id)
        assert record.status == "finished" and record.moves[-1] == (0, "resign")
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 1  # home


@on_a_shared_app
async def test_rules_open_from_the_game_with_question_mark_and_f1(table5: Pilot[Any]) -> None:
    pilot = table5
    app = pilot.app
    game = app.screen
    for key in ("question_mark", "f1"):
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.game_id == "domination"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game


@on_a_shared_app
async def test_no_color_keeps_every_state_visible_by_shape(no_colour: Pilot[Any]) -> None:
    pilot = no_colour
    app = pilot.app
    assert app.no_color
    game = app.screen
    assert isinstance(game, DominationScreen)
    text = screen_text(app)
    # the chosen card has a double edge, the others a rounded one; suits are symbols
    assert text.count("╔═") == 1 and "╭─" in text
    assert any(s in text for s in "♠♥♦♣")


async def test_the_last_round_stays_in_view_when_the_table_clears(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        while game.view.round == 1:
            await play_first_legal(pilot)
        if not game.view.run:
            assert "Last round:" in screen_text(app)
        assert re.search(r"wins? round 1 for \d+ point", game.last_round)


def test_a_large_card_shows_its_rank_in_two_corners_and_its_suit_between() -> None:
    from rich.style import Style

    from tui.widgets.cards import CardFace, CardStyle, draw_card

    styles = {n: Style() for n in ["border", "playable", "unplayable", "selected"]}
    styles.update({n: Style() for n in ["selected-body", "sideways", "black", "red", "back"]})
    lines = [t.plain for t in draw_card(CardFace("10H", label="3"), CardStyle(), styles, True)]
    assert lines == ["╭─────╮", "│10   │", "│  ♥  │", "│   10│", "╰──3──╯"]
    small = [t.plain for t in draw_card(CardFace("10H"), CardStyle(ascii=True), styles)]
    assert small == ["+---+", "|10H|", "+---+"]


@on_a_shared_app
@pytest.mark.parametrize(("size", "large"), [((80, 24), False), ((160, 50), True)])
async def test_a_large_terminal_draws_large_centred_cards(
    table5: Pilot[Any], dirs: Any, size: tuple[int, int], large: bool
) -> None:
    if table5.app.size == size:  # 80x24: the shared app of the same launch
        _cards_are_centred(table5.app, large)
        return
    app = make_app(dirs, launch=play_launch(seed=5))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        _cards_are_centred(app, large)


def _cards_are_centred(app: Any, large: bool) -> None:
    screen = app.screen
    assert isinstance(screen, DominationScreen)
    hand = screen.query_one("#hand", CardRow)
    assert screen.has_class("-roomy") == large and hand.large == large
    # centred: as much room on the left of the cards as on the right
    used = sum(5 + (2 if large else 0) + 1 for _ in hand.faces) - 1
    free = hand.content_region.width - used
    assert hand._indent() == free // 2 and free > 10


@on_a_shared_app
async def test_without_colour_red_suits_are_underlined(no_colour: Pilot[Any]) -> None:
    pilot = no_colour
    app = pilot.app
    hand = app.screen.query_one("#hand", CardRow)
    red = hand.get_component_rich_style("cardrow--red", partial=True)
    black = hand.get_component_rich_style("cardrow--black", partial=True)
    unplayable = hand.get_component_rich_style("cardrow--unplayable", partial=True)
    assert red.underline and not black.underline and not unplayable.underline


def test_hint_text_lists_the_best_move_first_with_its_chances() -> None:
    from net.client import Hint, HintEstimate
    from tui.screens.hint import hint_lines
    from tui.widgets.cards import CardStyle

    hint = Hint(3, 0, (HintEstimate("10H", 0.62, 4.0), HintEstimate("2C", 0.3)), 2)
    lines = hint_lines(hint, CardStyle())
    assert lines[0] == "Best: 10♥"
    assert lines[2].startswith("→ 10♥") and "62% to win" in lines[2] and "+4.0 points" in lines[2]
    assert "30% to win" in lines[3] and "points" not in lines[3]
    assert lines[-1].startswith("Hints taken this game: 2.")
    assert hint_lines(hint, CardStyle(ascii=True))[0] == "Best: 10H"
    # the judge's order stands (its best is the hard computer's move), in the
    # game's words, each chance with its error
    judged = Hint(3, 0, (HintEstimate("2C", 0.6, None, 0.05), HintEstimate("10H", 0.62)), 1)
    lines = hint_lines(judged, CardStyle(), lambda move: f"play {move}")
    assert lines[0] == "Best: play 2♣"
    assert lines[2].startswith("→ play 2♣") and "60% ± 5 to win" in lines[2]
    assert lines[3].startswith("  play 10♥")


def test_the_result_says_how_many_hints_each_player_took() -> None:
    from rules.game import Outcome
    from tui.screens.game_over import result_text

    outcome = Outcome(0, ((0,), (1,)), (100, 40), "")
    text = result_text(outcome, ["You", "Computer"], (2, 0))
    assert "Hints taken: You: 2 hints." in text
    assert "Hints taken" not in result_text(outcome, ["You", "Computer"], (0, 0))


@on_a_shared_app
async def test_h_shows_the_engines_view_of_your_moves(
    table5: Pilot[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import net.table
    from rules.bots.advice import advise
    from rules.bots.search import Budget
    from tui.screens.hint import HintScreen

    # the advice as at the table, with a small budget (the hint's words are tested here)
    monkeypatch.setattr(net.table, "_hint", lambda s, r: advise(s, Budget(16)).choices)
    pilot = table5
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, DominationScreen) and screen.my_turn
    await pilot.press("h")
    for _ in range(50):
        await pilot.pause()
        if isinstance(app.screen, HintScreen):
            break
    assert isinstance(app.screen, HintScreen)
    await settle(pilot)  # the dialog drawn
    text = screen_text(app)
    # each chance with the engine's margin: "57% ± 2 to win"
    assert "Best: " in text and re.search(r"\d+% ± \d+ to win", text)
    await pilot.press("escape")
    await settle(pilot)
    assert app.screen is screen and screen.update.hints == (1, 0)


def test_analysis_names_the_costliest_moves_in_words() -> None:
    from rules.bots.review import Moment
    from tui.screens.analysis import moment_text, moments_summary
    from tui.widgets.cards import CardStyle

    style = CardStyle()
    dear = Moment(11, "4S", "KS", 0.30, 0.55)
    assert moment_text(dear, style) == (
        "Move 12: your move: 4♠; best: K♠ (cost: 25% of your chance to win)"
    )
    assert moment_text(dear, style, lambda v: v * 100) == (
        "Move 12: your move: 4♠; best: K♠ (cost: 25.0 points)"
    )
    free = Moment(3, "2C", "2C", 0.5, 0.5)
    assert moments_summary([free], style) == [
        "The engine found no move of yours it would have changed."
    ]
    assert moments_summary([dear, free], style) == [moment_text(dear, style)]
    # in the game's words and unit, cards in the table's style (not 5S+5H beside 10♣)
    words = moment_text(dear, style, words=lambda m: f"play {m}", label="Round 3, card 2")
    assert (
        words
        == "Round 3, card 2: your move: play 4♠; best: play K♠ (cost: 25% of your chance to win)"
    )


def test_the_analysis_names_the_card_a_territory_move_took_as_the_grid_shows_it() -> None:
    """N19: "conquer 9| at 2,1 with a 9", not "conquer 2,1 with 9♣"."""
    import random

    from rules.bots.review import Moment
    from rules.registry import get_game
    from rules.territory.board import xy_of
    from rules.territory.notation import Conquer
    from saves.record import GameRecord, SeatInfo
    from tui.screens.analysis import moments_summary, words_seen
    from tui.widgets.cards import CardStyle

    spec = get_game("territory")
    config = spec.config()
    state = spec.new(config, 5)
    rng = random.Random(1)
    moves: list[tuple[int, str]] = []
    while True:  # random moves until a seat may conquer
        seat = state.to_act()[0]
        legal = state.legal_moves(seat)
        conquers = [m for m in legal if isinstance(m, Conquer)]
        move = conquers[0] if conquers else rng.choice(legal)
        if conquers:
            break
        state.play(seat, move)
        moves.append((seat, str(move)))
    taken = next(c for c in state.view(seat).cells if (c.x, c.y) == xy_of(move.at))
    label = f"{taken.card[:-1]}{'-|'[taken.owner]}"
    record = GameRecord.new(
        "territory", config, 5, [SeatInfo("A", "human"), SeatInfo("B", "human")]
    )
    record.moves = [*moves, (seat, str(move))]
    ply = len(moves)
    words = words_seen(record, [ply], seat)
    said = words[ply](str(move))
    assert said.startswith(f"conquer {label} at ") and taken.card not in said
    dear = Moment(ply, str(move), str(move), 0.2, 0.6)
    line = moments_summary([dear], CardStyle(), words_at=words)[0]
    assert f"your move: conquer {label} at " in line


@pytest.mark.slow  # a whole game first; the text is tested as a pure function above
async def test_after_a_game_analyse_lists_moments_that_open_the_replay(
    dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.screens.analysis import AnalysisScreen

    app = make_app(dirs, launch=play_launch(seed=11, target_score=20))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(400):
            if isinstance(app.screen, GameOverScreen):
                break
            assert await play_first_legal(pilot), "the table waits on nobody"
        await pilot.press("a")
        for _ in range(200):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, AnalysisScreen) and screen.query_one("#moments").option_count:
                break
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        text = screen_text(app)
        assert "Round " in text or "no move of yours" in text
        if screen.moments:  # Enter on the first opens the replay there, as You saw it
            await pilot.press("enter")
            await settle(pilot)
            keys = getattr(app.screen, "replay_keys", None)
            assert keys is not None  # the game's own screen, playing the record back
            replay = keys.replay
            assert replay.position == screen.moments[0].ply and replay.perspective == 0
