"""Secrets stay at their seat: at a hot seat, a key typed for the table just
before a screen appeared never takes that screen away, so the person who just
moved never sees the next person's hand.

Every path on which the screen changes seat (a move, a round's end, Trick's
reveal, a Stress pick-up, resuming, a replay's "seen by") plays the race: a key,
then at once another while the hand-off shows. The guard's timer is held
(``guard_timer.holding``): it ends when the test says the moment has passed,
never on the wall clock.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo
from tests.saves.helpers import played_record
from tui.games.domination import DominationScreen
from tui.games.stress import StressScreen
from tui.games.trick import TrickScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.hint import HintScreen
from tui.screens.home import HomeScreen
from tui.screens.input_guard import GUARD_SECONDS
from tui.screens.replay import open_replay
from tui.screens.round_summary import RoundSummaryScreen
from tui.table.screen import TableScreen

from .conftest import GuardTimer, make_app, play_launch, screen_text, settle
from .shared_app import Shared, module_app
from .test_trick_screen import trick_launch, type_choice

CARD = re.compile(r"\b(?:10|[2-9AJQK])[♠♥♦♣]")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card: str) -> str:
    """A card as the table draws it: 10D is 10♦."""
    return card[:-1] + SUITS[card[-1]]


def hand_of(game: TableScreen, seat: int) -> list[str]:
    return [label(c) for c in game.client.snapshot(seat).view.hand]


def game_under(app: Any) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no game screen")


def assert_nothing_of_a_hand(app: Any) -> None:
    text = screen_text(app)
    assert isinstance(app.screen, HandoffScreen), text
    assert not CARD.search(text), text
    assert "'s hand" not in text, text


async def take_the_keyboard(pilot: Pilot[Any], guard_timer: GuardTimer) -> None:
    """The next person sits down: the moment passes, then Enter."""
    assert isinstance(pilot.app.screen, HandoffScreen)
    guard_timer.elapse()
    await pilot.press("enter")
    await settle(pilot)


async def press_during_the_hand_off(pilot: Pilot[Any], *keys: str) -> None:
    """Keys that land while the hand-off is up and its guard runs: each is
    dropped (and starts the wait again)."""
    for key in keys:
        assert isinstance(pilot.app.screen, HandoffScreen)
        assert pilot.app.screen.input_guarded
        await pilot.press(key)
        await settle(pilot)


def record_until(
    game_id: str,
    seats: list[SeatInfo],
    seed: int,
    stop: Callable[[Any], bool],
    **options: Any,
) -> GameRecord:
    """A record of random legal moves (no resigning) up to the first position
    where ``stop(state)`` holds."""
    spec = get_game(game_id)
    config = spec.config(**options)
    state = spec.new(config, seed)
    record = GameRecord.new(game_id, config, seed, seats, record_id=f"{seed:08x}")
    rng = random.Random(seed)
    for _ in range(2000):
        if stop(state):
            return record
        seat = state.to_act()[0]
        move = rng.choice([m for m in state.legal_moves(seat) if str(m) != "resign"])
        state.play(seat, move)
        record.moves.append((seat, str(move)))
    raise AssertionError("never reached the position asked for")


# ---------------------------------------------------------------- the guard itself
# The two tests of the guard itself share one app at its home screen
# (tests/tui/shared_app.py): each pushes its hand-off and closes it again.
home_app = module_app()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_hand_off_goes_only_on_enter_once_the_keyboard_was_quiet(
    home_app: Shared, guard_timer: GuardTimer
) -> None:
    guard_timer.holding = True
    app, pilot = home_app
    home = app.screen
    assert isinstance(home, HomeScreen), home
    handoff = HandoffScreen("Bea")
    await app.push_screen(handoff)
    await settle(pilot)
    # the moment starts when it is shown, on the timer given
    assert [seconds for seconds, _ in guard_timer.waiting] == [GUARD_SECONDS]
    assert "One moment" in screen_text(app)
    assert "press Enter" not in screen_text(app)
    first_timer = guard_timer.waiting[0][1]
    # a key held down: every repeat starts the wait again
    await pilot.press("enter", "enter", "space")
    await settle(pilot)
    assert app.screen is handoff and len(guard_timer.waiting) == 4
    first_timer()  # an overtaken timer ends nothing
    assert handoff.input_guarded
    guard_timer.elapse()
    assert "Bea: press Enter when you have the keyboard." in screen_text(app)
    # a key it does not name does nothing, and someone may still be typing
    await pilot.press("1")
    await settle(pilot)
    assert app.screen is handoff and handoff.input_guarded
    guard_timer.elapse()
    await pilot.press("space")
    await settle(pilot)
    assert app.screen is home


@pytest.mark.asyncio(loop_scope="module")
async def test_a_key_typed_before_the_hand_off_appeared_never_counts(
    home_app: Shared,
) -> None:
    # the guard ends as soon as it is shown here: only the timestamp stops the key
    app, pilot = home_app
    home = app.screen
    assert isinstance(home, HomeScreen), home
    typed_earlier = events.Key("enter", "\r")  # typed now, delivered late
    handoff = HandoffScreen("Bea")
    await app.push_screen(handoff)
    await settle(pilot)
    assert not handoff.input_guarded
    app.post_message(typed_earlier)
    await settle(pilot)
    assert app.screen is handoff
    await pilot.press("enter")
    await settle(pilot)
    assert app.screen is home


# ---------------------------------------------------------------- a move
async def test_a_second_card_key_does_not_show_the_next_hand(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    """Also two keys in one burst (the former
    ``test_two_keys_in_one_burst_leave_the_hand_off_up``), at the next move."""
    guard_timer.holding = True
    app = make_app(dirs, launch=play_launch(seed=9, vs="human"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        game = app.screen
        assert isinstance(game, DominationScreen)
        mover = game.seat
        assert mover is not None
        nxt = 1 - mover
        card = str(game.hand.index(game.legal[0]) + 1)
        # the card key twice, as a hurried player does: the second lands on the hand-off
        await pilot.press(card)
        await settle(pilot)
        await press_during_the_hand_off(pilot, card, "enter", "space")
        assert_nothing_of_a_hand(app)
        assert game.seat == mover  # nothing of the next seat was drawn behind it either
        await take_the_keyboard(pilot, guard_timer)
        assert app.screen is game and game.seat == nxt
        text = screen_text(app)
        assert f"{game.seat_name(nxt)}'s hand" in text
        for shown in hand_of(game, nxt):
            assert shown in text, text
        # formerly test_two_keys_in_one_burst_leave_the_hand_off_up, in a game of
        # its own (the same deal): now the next player's move, one app for both
        card = str(game.hand.index(game.legal[0]) + 1)
        await pilot.press(card, "enter")  # the second before or after it shows
        await settle(pilot)
        assert_nothing_of_a_hand(app)


# ---------------------------------------------------------------- a round's end
async def test_the_round_summary_then_the_hand_off_take_no_stray_key(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    def round_ends_next(state: Any) -> bool:
        """Whatever card the player to act plays, the round ends with it."""
        acting = state.to_act()
        if len(acting) != 1:
            return False
        seat = acting[0]
        moves = [m for m in state.legal_moves(seat) if str(m) != "resign"]
        for move in moves:
            after = state.copy()
            after.play(seat, move)
            if after.view(seat).round == state.view(seat).round:
                return False
        return bool(moves)

    # the last card of round 1 opened from a saved game, not played card by
    # card through the hand-offs (the moves on the way are the tests above)
    people = [SeatInfo("Player 1", "human"), SeatInfo("Player 2", "human")]
    record = record_until("domination", people, 11, round_ends_next)
    _data, config = dirs
    (Path(config) / "settings.json").write_text(json.dumps({"bot_pace": 0, "round_summary": 4}))
    guard_timer.holding = True
    app = make_app(dirs, launch={"action": "resume", "id": record.id})
    app.store.save(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_under(app)
        assert isinstance(game, DominationScreen)
        game.rounds.summary_schedule = lambda seconds, then: None  # it stays until a key
        await take_the_keyboard(pilot, guard_timer)
        card = str(game.hand.index(game.legal[0]) + 1)
        mover = game.seat
        await pilot.press(card)  # the round's last card
        await settle(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        # the card key again: the summary is not closed unread
        await pilot.press(card)
        await settle(pilot)
        assert app.screen is summary
        guard_timer.elapse()
        await pilot.press("x")  # any key, once it has been read
        await settle(pilot)
        # whoever plays a round's last card leads the next: the keyboard stays
        # with the same player, so no hand-off follows, and the key that
        # closed the summary played nothing
        assert app.screen is game and game.seat == mover
        assert game.view.round == 2 and not game.view.run


# ---------------------------------------------------------------- Trick's reveal
async def test_a_second_enter_after_locking_in_does_not_show_the_other_choice(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    """Also what tests/tui/test_trick_screen.py's former
    ``test_hot_seat_shows_nobody_the_other_choice_before_the_reveal`` checked, in
    the same game (seed 3, the same choices): what each hand-off and each player
    sees before the reveal, and the reveal itself. One game for both: 2 CPU s less."""
    guard_timer.holding = True
    app = make_app(dirs, launch=trick_launch("standard", "human", seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Player 1"
        await take_the_keyboard(pilot, guard_timer)
        screen = app.screen
        assert isinstance(screen, TrickScreen) and screen.seat == 0
        # Player 2 is not choosing yet: they wait for the keyboard
        assert "Player 2: chooses next" in screen_text(app)
        await type_choice(pilot, [2, 4], 3)  # Claim, and a Block naming Steal
        assert "Block (on Steal)" in screen_text(app)
        await pilot.press("enter")  # lock in
        await settle(pilot)
        await press_during_the_hand_off(pilot, "enter")  # "lock in" again
        # the hand-off shows nothing of it
        text = screen_text(app)
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Player 2"
        assert "Pass the keyboard to Player 2" in text
        for word in ("Claim", "Block", "Steal", "Locked", "✓", "╔"):
            assert word not in text, text
        guard_timer.elapse()
        await pilot.press("space")  # Space takes the keyboard as Enter does
        await settle(pilot)
        assert app.screen is screen and screen.seat == 1
        text = screen_text(app)
        # Player 2 learns only that Player 1 has locked in
        assert "Player 1: locked in" in text
        assert "Player 1 has submitted." in text
        for leak in ("on Steal", "Locked in", "submits", "✓", "╔", "Claim +"):
            assert leak not in text, text
        assert screen.submission().cards == 0
        # Player 2: Grow, and a Block naming Score: both Blocks collide; locking
        # in reveals the round to Player 1, behind a hand-off
        await type_choice(pilot, [1, 4], 0)
        await pilot.press("enter")
        await settle(pilot)
        await press_during_the_hand_off(pilot, "enter")
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Player 1"
        assert "revealed" not in screen_text(app)
        await take_the_keyboard(pilot, guard_timer)
        assert screen.seat == 0
        text = screen_text(app)
        assert "Round 1 revealed" in text
        assert "Player 1: Claim + Block (on Steal)" in text
        # a Block that did not go live keeps its target from the other player
        assert "Player 2: Grow + Block (target hidden)" in text
        assert "collided: both played it" in text
        assert "+1 chip to the pot, now 2" in text


# ---------------------------------------------------------------- a Stress pick-up
async def test_a_pick_up_then_a_play_key_does_not_show_the_next_hand(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    def pickup_due(state: Any) -> bool:
        acting = state.to_act()
        return len(acting) == 1 and "pickup" in [str(m) for m in state.legal_moves(acting[0])]

    people = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    record = record_until("stress", people, 5, pickup_due, players=2)
    guard_timer.holding = True
    app = make_app(dirs, launch={"action": "resume", "id": record.id})
    app.store.save(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        game = app.screen
        assert isinstance(game, StressScreen)
        picker = game.seat
        assert picker is not None and "pickup" in game.legal
        await pilot.press("p")
        await settle(pilot)
        # Enter and Space play at the table: pressed at once, they land on the hand-off
        await press_during_the_hand_off(pilot, "space", "enter", "p")
        assert_nothing_of_a_hand(app)
        assert game.seat == picker
        await take_the_keyboard(pilot, guard_timer)
        assert game.seat == 1 - picker
        assert f"{game.seat_name(1 - picker)}'s" in screen_text(app)


# ---------------------------------------------------------------- resuming
async def test_resuming_where_a_computer_moves_first_hands_off_before_any_hand(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    def computer_to_move(state: Any) -> bool:
        return state.to_act() == (1,) and state.view(1).phase == "play"

    seats = [SeatInfo("Ada", "human"), SeatInfo("Robo", "bot", "easy"), SeatInfo("Bea", "human")]
    record = record_until("stress", seats, 2, computer_to_move, players=3)
    _data, config = dirs
    # the computer takes its time: the screen is looked at before it moves
    (Path(config) / "settings.json").write_text(json.dumps({"bot_pace": 10, "round_summary": 0}))
    guard_timer.holding = True
    app = make_app(dirs, launch={"action": "resume", "id": record.id})
    app.store.save(record)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
            await app.screen.wait_for_refresh()
        game = game_under(app)
        assert game.client.table.thinking() == (1,)  # type: ignore[attr-defined]
        # nobody's hand before its owner sits down, even while the computer moves
        assert_nothing_of_a_hand(app)
        assert app.screen.player == "Ada"  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert_nothing_of_a_hand(app)


async def test_enter_twice_on_the_resume_list_does_not_pass_the_hand_off(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    record = played_record(moves=4)
    record.seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    guard_timer.holding = True
    app = make_app(dirs)
    app.store.save(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")  # resume the game
        await settle(pilot)
        await press_during_the_hand_off(pilot, "enter")
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        assert isinstance(app.screen, DominationScreen)
        assert "'s hand" in screen_text(app)


# ---------------------------------------------------------------- replays
async def test_the_replays_seen_by_switch_takes_no_stray_key(
    dirs: Any, guard_timer: GuardTimer
) -> None:
    record = played_record(moves=6)
    record.seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    guard_timer.holding = True
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        open_replay(app, record)
        await settle(pilot)
        await press_during_the_hand_off(pilot, "space")
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        assert "seen by Ada" in screen_text(app)
        # v twice: the second would have passed the hand-off and shown Bea's cards
        await pilot.press("v")
        await settle(pilot)
        await press_during_the_hand_off(pilot, "v", "enter")
        assert "Pass the keyboard to Bea" in screen_text(app)
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        assert "seen by Bea" in screen_text(app)
        # the text view's switch goes through the same hand-off
        await pilot.press("t")
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        await press_during_the_hand_off(pilot, "v")
        assert "Pass the keyboard to Ada" in screen_text(app)
        await take_the_keyboard(pilot, guard_timer)
        assert "seen by Ada" in screen_text(app)
        # back to the table: Ada has the keyboard now, so the table is hers, not Bea's
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DominationScreen)
        assert "seen by Ada" in screen_text(app) and "Bea's hand" not in screen_text(app)


# ---------------------------------------------------------------- dialogs
async def test_a_hint_that_arrives_after_the_hand_off_is_not_shown(
    dirs: Any, guard_timer: GuardTimer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Then the result screen (the former
    ``test_the_result_takes_no_key_typed_before_it_appeared``), in the same game."""
    import asyncio

    import net.table
    from rules.bots.advice import advise
    from rules.bots.search import Budget

    # the advice as at the table, with a small budget, as in
    # test_game_flows.py's hint test: when a hint shows is tested here, not
    # what it says (two searches at the hard level's budget were 2 of this
    # test's 3 CPU s)
    monkeypatch.setattr(net.table, "_hint", lambda s, r: advise(s, Budget(16)).choices)
    guard_timer.holding = True
    app = make_app(dirs, launch=play_launch(seed=9, vs="human"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await take_the_keyboard(pilot, guard_timer)
        game = app.screen
        assert isinstance(game, DominationScreen)
        asked = game.client.hint
        answer = asyncio.Event()

        async def slow_hint(seat: int) -> Any:
            hint = await asked(seat)
            await answer.wait()  # the engine is still weighing
            return hint

        game.client.hint = slow_hint  # type: ignore[method-assign]
        await pilot.press("h")
        await pilot.pause()
        await pilot.press(str(game.hand.index(game.legal[0]) + 1))  # played meanwhile
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        answer.set()
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        assert not any(isinstance(s, HintScreen) for s in app.screen_stack)
        # a hint in time shows, and a key meant for the table does not close it unread
        await take_the_keyboard(pilot, guard_timer)
        game.client.hint = asked  # type: ignore[method-assign]
        await pilot.press("h")
        await settle(pilot, lambda: isinstance(app.screen, HintScreen))
        assert isinstance(app.screen, HintScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, HintScreen)
        guard_timer.elapse()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is game
        # formerly test_the_result_takes_no_key_typed_before_it_appeared, in a
        # game of its own (the same deal): the person at the keyboard resigns
        await pilot.press("escape", "r")
        await settle(pilot)
        await pilot.press("y", "h")  # resign, and a key right behind it
        await settle(pilot)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        guard_timer.elapse()
        await pilot.press("r")  # a rematch: the new game opens behind a hand-off
        await settle(pilot)
        assert app.screen is not over
        await press_during_the_hand_off(pilot, "enter")
        assert_nothing_of_a_hand(app)
        await take_the_keyboard(pilot, guard_timer)
        assert isinstance(app.screen, DominationScreen) and "'s hand" in screen_text(app)
