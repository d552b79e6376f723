"""The end of a round is held in view (a summary until a key or a few seconds,
on an injected timer), round boundaries are marked in the log, and the end of
the game leaves no stale round line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest

from rules.domination import SPEC as DOMINATION
from rules.domination import DominationView
from rules.domination.events import RoundWon
from rules.events import Event, visible_events
from rules.registry import get_game
from tui.games.domination import DominationScreen, round_summary_lines, run_caption
from tui.games.trick.words import reveal_summary
from tui.screens.round_summary import RoundSummaryScreen
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, round_marker

from .conftest import make_app, play_launch, screen_text, settle

NAMES = ["You", "Computer"]


def test_a_won_round_says_who_how_much_why_and_the_scores() -> None:
    event = Event(
        "round_won",
        "{p1} cannot play. {p0 wins|win} round 3 for 6 points (8S is the last card).",
        RoundWon(
            seat=0,
            points=6,
            round=3,
            run=["8S"],
            multiplier=1,
            inelegant=False,
            conceded=False,
            scores=[12, 6],
        ),
    )
    lines = round_summary_lines(event, NAMES, {0}, CardStyle(ascii=True))
    assert lines == [
        "Computer cannot play. You win round 3 for 6 points (8S is the last card).",
        "Scores: You 12, Computer 6",
    ]


def test_a_revealed_round_is_summed_up_with_the_chips() -> None:
    spec = get_game("trick")
    state = spec.new(spec.config(), seed=1)
    state.play_text(0, "score+grow")
    events = visible_events(state.play_text(1, "claim+steal"), 0)
    (reveal,) = [e for e in events if e.kind == "reveal"]
    lines = reveal_summary(reveal, NAMES, {0}, CardStyle())
    assert lines[0].startswith("Round 1: You play Score + Grow; Computer plays")
    assert any(line.startswith("You score 1 chip") for line in lines), lines
    assert lines[-1].startswith("Chips: You ")


def test_the_caption_does_not_name_a_leader_once_the_game_is_over() -> None:
    view = msgspec.structs.replace(
        cast(DominationView, DOMINATION.new(seed=1).view(0)), run=[], leader=1, round=16
    )
    assert run_caption(view, NAMES, CardStyle(), {0}, over=True) == ("Round 16: the game is over.")
    assert round_marker(3) == "── end of round 3 ──"
    assert round_marker(3, ascii=True) == "-- end of round 3 --"


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_a_round_summary_stays_until_a_key_then_play_goes_on(dirs: Any) -> None:
    _data, config = dirs
    (Path(config) / "settings.json").write_text(json.dumps({"bot_pace": 0, "round_summary": 4}))
    timers: list[tuple[float, Callable[[], None]]] = []
    app = make_app(dirs, launch=play_launch(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        game.rounds.summary_schedule = lambda seconds, then: timers.append((seconds, then))
        for _ in range(20):
            if isinstance(app.screen, RoundSummaryScreen):
                break
            if game.my_turn:
                legal = game.legal
                await pilot.press(str(1 + next(i for i, c in enumerate(game.hand) if c in legal)))
            await settle(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        text = screen_text(app)
        assert "Round 1" in text and "round 1 for" in text and "Scores: You " in text
        assert "end of round 1" in "\n".join(
            str(line.text) for line in game.query_one(EventLog).lines
        )
        # the clocks stand still while it is read, and it stays: no wall clock here
        assert game.update.paused and [s for s, _ in timers] == [4.0]
        await pilot.press("x")  # any key
        await settle(pilot)
        assert app.screen is game and not game.update.paused
        # the next summary closes itself when its time is up
        timers.clear()
        while not timers and game.view.round < 4:
            if isinstance(app.screen, DominationScreen) and game.my_turn:
                legal = game.legal
                await pilot.press(str(1 + next(i for i, c in enumerate(game.hand) if c in legal)))
            await settle(pilot)
        assert isinstance(app.screen, RoundSummaryScreen)
        timers[0][1]()
        await settle(pilot)
        assert app.screen is game


async def test_the_summary_counts_down_and_says_when_its_time_ran_out(dirs: Any) -> None:
    """N06: "closes by itself in 4 s", ticking; closed by its timer, it says so."""
    timers: list[Callable[[], None]] = []
    closed: list[str | None] = []
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        summary = RoundSummaryScreen(
            "Round 3", ["You win round 3."], 4, lambda seconds, then: timers.append(then)
        )
        await app.push_screen(summary, closed.append)
        await settle(pilot)
        assert "Any key to play on; it closes by itself in 4 s." in screen_text(app)
        summary.tick()
        await settle(pilot)
        assert "closes by itself in 3 s." in screen_text(app)
        timers[0]()
        await settle(pilot)
    assert closed == ["timer"]


async def test_a_key_pressed_as_the_summary_closes_by_itself_plays_no_card(dirs: Any) -> None:
    """N06: the summary closed by its timer; the key meant to close it, a
    moment late, plays nothing; a moment later keys play again."""
    _data, config = dirs
    (Path(config) / "settings.json").write_text(json.dumps({"bot_pace": 0, "round_summary": 4}))
    timers: list[tuple[float, Callable[[], None]]] = []
    app = make_app(dirs, launch=play_launch(seed=11, first_leader="0"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen) and game.my_turn
        game.rounds.summary_schedule = lambda seconds, then: timers.append((seconds, then))
        ended = Event(
            "round_won",
            "{p0 wins|win} round 1 for 1 point.",
            RoundWon(seat=0, points=1, round=1, run=["8S"], multiplier=1, inelegant=False,
                     conceded=False, scores=[1, 0]),
        )  # fmt: skip
        assert game.rounds.show_summary([ended])
        await settle(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        timers.pop(0)[1]()  # its time is up
        await settle(pilot)
        assert app.screen is game and game.rounds.moves_held
        state = game.update.state_id
        await pilot.press("1")
        await settle(pilot)
        assert game.update.state_id == state  # nothing played
        assert "summary had just closed" in screen_text(app)
        ((_, release),) = timers
        release()
        await pilot.press("1")
        await settle(pilot)
        assert game.update.state_id != state
