"""The Stress screen: its text as pure functions of a view (what may be played
on a stack, the hand grouped by rank, the opponents condensed to one line
each), and one game against the computer played by keys through the app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from textual.pilot import Pilot

from net.local import LocalClient
from rules.registry import get_game
from rules.stress import FOLLOWS, StressView
from rules.stress.state import RANK_NAMES, _ranks_text
from tui.games.stress import MovesPicker, StressScreen, describe
from tui.games.stress.groups import (
    down_faces,
    first_choice,
    group_faces,
    hand_groups,
    play_for,
    stack_faces,
)
from tui.games.stress.words import (
    allowed_text,
    blind_caption,
    choice_caption,
    clock_caption,
    for_style,
    opponent_line,
    opponent_lines,
    out_caption,
    stack_caption,
    swap_caption,
    whose,
)
from tui.screens.game_over import GameOverScreen
from tui.widgets.cards import CardStyle

from .conftest import make_app, screen_text, settle
from .shared_app import from_home, launched, shared_app

# The app tests of the default run open their games one after another from
# the home screen of one app (issue 41 item 4), as `launch=` opens them; each
# leaves home in front and its saved game deleted. They run on the module's loop.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stress_home_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("stress")) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def home(stress_home_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    async with from_home(stress_home_app) as pilot:
        yield pilot


ASCII = CardStyle(ascii=True)
UNICODE = CardStyle()


def stress_view(players: int = 2, seat: int | None = 0, **fields: Any) -> StressView:
    """A real game's view (seat 0's, after the deal) with ``fields`` changed."""
    spec = get_game("stress")
    view = spec.new(spec.config(players=players), seed=4).view(seat)
    assert isinstance(view, StressView)
    return msgspec.structs.replace(view, **fields)


def stack_view(stack: list[str], top: str | None, ten_wild: bool = False) -> StressView:
    view = stress_view(stack=stack, top=top, stock=20, cemetery=["10S"] * 3)
    return msgspec.structs.replace(view, rules={**view.rules, "ten_wild": ten_wild})


# ------------------------------------------------------------------ what may be played
def test_an_empty_stack_takes_any_card() -> None:
    view = stack_view([], None)
    assert allowed_text(view) == "any card (the stack is empty)"
    assert stack_caption(view, ASCII) == "Stack empty: any card · stock 20 · cemetery 3"


def test_a_seven_asks_for_seven_or_higher_or_a_two_or_a_three() -> None:
    view = stack_view(["4S", "7H"], "7H")
    assert allowed_text(view) == "7 or higher, or a 2 or a 3"
    assert stack_caption(view, ASCII) == (
        "Stack (2 cards): 7 or higher, or a 2 or a 3 · stock 20 · cemetery 3"
    )


def test_a_three_is_see_through_and_the_card_below_counts() -> None:
    view = stack_view(["4S", "9H", "3D", "3C"], "9H")
    assert allowed_text(view) == "below 9 (2 to 8)"
    caption = stack_caption(view, ASCII)
    assert caption.startswith("Stack (4 cards): below 9 (2 to 8) (see through the 3s to 9H)")
    # narrow: the note on the 3s goes, what may be played stays
    assert (
        stack_caption(view, ASCII, 50)
        == "Stack (4 cards): below 9 (2 to 8) · stock 20 · cemetery 3"
    )
    faces = stack_faces(view, 78)
    assert [(f.text, f.label) for f in faces] == [
        ("4S", ""), ("9H", "top"), ("3D", "see"), ("3C", "see")
    ]  # fmt: skip
    assert faces[1].playable is True and faces[2].playable is False


def test_nothing_but_threes_or_a_two_let_anything_follow() -> None:
    assert allowed_text(stack_view(["3D", "3C"], None)) == "any card (nothing but 3s on the stack)"
    assert allowed_text(stack_view(["KD", "2C"], None)) == "any card (a 2 resets the stack)"
    assert allowed_text(stack_view(["KD", "2C", "3S"], None)) == "any card (a 2 resets the stack)"


def test_ten_wild_adds_the_ten_where_it_would_not_go() -> None:
    assert allowed_text(stack_view(["QS"], "QS", ten_wild=True)) == (
        "Q or higher, or a 2, a 3 or a 10"
    )
    assert allowed_text(stack_view(["9S"], "9S", ten_wild=True)) == "below 9 (2 to 8), or a 10"
    assert allowed_text(stack_view(["7S"], "7S", ten_wild=True)) == "7 or higher, or a 2 or a 3"
    assert allowed_text(stack_view(["AS"], "AS")) == "an A, or a 2 or a 3"


ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def ranks_said(text: str) -> set[str]:
    """The ranks a statement of allowed_text names."""
    said: set[str] = set()
    head, _, rest = text.partition(", or ")
    if head.startswith("below 9"):
        said |= set(ORDER[: ORDER.index("9")])
    elif head.endswith(" or higher"):
        said |= set(ORDER[ORDER.index(head.split()[0]) :])
    elif head == "an A":
        said.add("A")
    for part in rest.replace(" or ", ", ").split(", "):
        if part.startswith(("a ", "an ")):
            said.add(part.split()[1])
    return said


def test_the_statement_names_exactly_the_ranks_the_rules_allow() -> None:
    for wild in (False, True):
        for top in range(1, 14):
            if top in (2, 3):
                continue  # never an effective top: anything follows
            card = f"{RANK_NAMES[top]}S"
            text = allowed_text(stack_view([card], card, ten_wild=wild))
            assert ranks_said(text) == set(_ranks_text(FOLLOWS[wild][top])), (text, wild)


# ------------------------------------------------------------------ the hand
def test_the_hand_is_grouped_by_rank_lowest_first_with_what_may_be_played() -> None:
    hand = ["2S", "5H", "7S", "7H", "7C", "AS"]
    legal = ["2S", "7S", "7H", "7C", "7S+7H", "7S+7C", "7H+7C", "7S+7H+7C", "AS"]
    groups = hand_groups(hand, legal)
    assert [(g.rank, g.cards, g.counts) for g in groups] == [
        ("2", ("2S",), (1,)),
        ("5", ("5H",), ()),
        ("7", ("7S", "7H", "7C"), (1, 2, 3)),
        ("A", ("AS",), (1,)),
    ]
    assert not groups[1].playable
    sevens = groups[2]
    assert play_for(sevens, 3, legal) == "7S+7H+7C"
    assert play_for(sevens, 2, legal) == "7S+7H"
    assert play_for(groups[1], 1, legal) is None


def test_the_choice_starts_on_the_lowest_rank_worth_playing_keeping_2_3_and_10() -> None:
    legal = ["2S", "3C", "7S", "10H", "AS"]
    groups = hand_groups(["2S", "3C", "5H", "7S", "10H", "AS"], legal)
    assert groups[first_choice(groups)].rank == "7"  # not the 2 or the 3 before it
    only_specials = hand_groups(["3C", "5H", "10H"], ["3C", "10H"])
    assert only_specials[first_choice(only_specials)].rank == "3"
    assert first_choice(hand_groups(["5H"], ["pickup"])) == 0


def test_the_caption_names_the_playable_ranks_and_the_choice() -> None:
    groups = hand_groups(["5H", "7S", "7H", "7C", "AS"], ["7S", "7H", "7C", "7S+7H", "AS"])
    assert choice_caption(groups, 1, 2) == "may play 7 A · 2 of 3 7s (↑↓), ⏎ plays"
    assert choice_caption(groups, 0, 1) == "may play 7 A · not 5"
    assert choice_caption(groups, 2, 1) == "may play 7 A · ⏎ plays A"
    assert choice_caption(hand_groups(["5H"], ["pickup"]), 0, 1) == (
        "nothing goes: p picks up the stack"
    )


def test_a_group_is_drawn_card_by_card_while_it_fits_else_one_card_per_rank() -> None:
    groups = hand_groups(["5H", "7S", "7H", "7C"], ["7S+7H"])
    faces = group_faces(groups, 1, 2, 78, True)
    assert [(f.text, f.selected, f.label, f.playable) for f in faces] == [
        ("5H", False, "1", False),
        ("7S", True, "2", True),
        ("7H", True, "2", True),  # every card of a group carries its key
        ("7C", False, "2", True),
    ]
    # a picked-up stack: 20 cards do not fit 78 columns, 5 ranks do
    big = [f"{r}{s}" for r in ("4", "8", "9", "J", "K") for s in "SHDC"]
    faces = group_faces(hand_groups(big), 2, 3, 78, False)
    assert [(f.text, f.label) for f in faces] == [
        ("4S", "1×4"), ("8S", "2×4"), ("9S", "3/4"), ("JS", "4×4"), ("KS", "5×4")
    ]  # fmt: skip


def test_face_down_cards_keep_their_positions_once_some_are_played() -> None:
    faces = down_faces([True, False, True, True], cursor=2, active=True)
    assert [(f.label, f.selected, f.face_down) for f in faces] == [
        ("1", False, True), ("3", True, True), ("4", False, True)
    ]  # fmt: skip
    assert all(f.text not in ("", "?") and f.playable for f in faces)


def test_the_ascii_style_spells_the_arrows_and_marks_out() -> None:
    # the ASCII style is ASCII throughout (tui/glyphs.py), separators included
    caption = "may play 7 · 2 of 3 7s (↑↓), ⏎ plays · 1×3 · Bo…"
    assert (
        for_style(caption, ASCII) == "may play 7 . 2 of 3 7s (up/down), Enter plays . 1x3 . Bo..."
    )
    assert for_style(caption, UNICODE) == caption


# ------------------------------------------------------------------ opponents
def eight_seat_view() -> StressView:
    state = get_game("stress").new(get_game("stress").config(players=8), seed=4)
    for seat in state.to_act():
        state.play(seat, get_game("stress").parse_move("ready"))
    view = state.view(0)
    assert isinstance(view, StressView)
    return view


def test_eight_seats_at_80_columns_give_one_line_per_opponent() -> None:
    view = eight_seat_view()
    names = ["You", *[f"A very long computer name {n}" for n in range(2, 9)]]
    assert view.turn is not None
    lines = opponent_lines(view, 0, names, UNICODE, 78, acting=(view.turn,))
    assert len(lines) == 7
    for seat, line in zip(range(1, 8), lines, strict=True):
        assert len(line) <= 78, line
        up = " ".join(c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]]
                      for c in view.face_up[seat])  # fmt: skip
        assert f"up {up}" in line and "hand 4" in line and "down 4" in line, line
        assert line[1:].startswith("A very long"), line
    # the seat to act is marked
    assert lines[view.turn - 1].startswith("▸") or view.turn == 0
    # a spectator sees all eight
    assert len(opponent_lines(view, None, names, ASCII, 78)) == 8


def test_finished_opponents_condense_to_their_place() -> None:
    view = msgspec.structs.replace(eight_seat_view(), finished=[3], resigned=[5])
    lines = opponent_lines(view, 0, [f"P{n}" for n in range(1, 9)], ASCII, 78)
    assert lines[2] == " P4: finished 1st"
    assert lines[4] == " P6: resigned"


def test_an_opponent_line_names_the_cards_known_to_be_in_the_hand() -> None:
    view = stress_view(known_in_hand=[[], ["5S", "6S"]], hand_sizes=[4, 4], phase="play")
    line = opponent_line(view, 1, ["You", "Bea"], ASCII, 78)
    assert line.startswith(" Bea: hand 4 (known 5S 6S) · up ")
    # no room: the known cards go before the name is cut short
    narrow = opponent_line(view, 1, ["You", "Bea"], ASCII, 40)
    assert "known" not in narrow and narrow.startswith(" Bea: hand 4 · up ")


# ------------------------------------------------------------------ whose rows
def test_the_rows_are_yours_only_when_they_are() -> None:
    names = ["You", "Computer"]
    assert whose(0, names, {0}) == "Your"
    # a replay seen by the computer: its rows, named
    assert whose(1, names, {0}) == "Computer's"
    # a hot seat addresses nobody as you: each player's rows by name
    assert whose(1, ["Ann", "Bea"], ()) == "Bea's"


def test_a_seat_out_of_the_game_says_so_over_its_rows() -> None:
    names = ["You", "Bea", "Cy"]
    view = stress_view(players=3, finished=[2, 0], resigned=[1])
    assert out_caption(view, 0, names, {0}) == "You finished 2nd: every card played."
    assert out_caption(view, 2, names, {0}) == "Cy finished 1st: every card played."
    assert out_caption(view, 1, names, {0}) == "Bea resigned: these cards are out of play."
    assert out_caption(stress_view(players=3), 0, names, {0}) == ""


def test_the_swap_prompt_says_what_to_press_next() -> None:
    view = stress_view(swaps_left=8)
    assert swap_caption(view, None, None, UNICODE) == (
        "swap: ⏎ a hand card, then a face-up card (8 left)"
    )
    assert swap_caption(view, "7H", None, UNICODE) == "7♥ marked: ⏎ on a face-up card swaps it"
    assert swap_caption(view, None, "QS", ASCII) == "QS marked: ⏎ on a hand card swaps it"
    assert swap_caption(stress_view(swaps_left=0), None, None, ASCII) == (
        "no swaps left: r when ready"
    )
    # the longest of them fits 80 columns after "Your hand (4) · "
    assert len("Your hand (4) · " + swap_caption(view, None, None, UNICODE)) <= 78


def test_the_face_down_prompt_offers_only_the_cards_left() -> None:
    assert blind_caption([0, 1, 2, 3]) == "choose one (1, 2, 3 or 4), ⏎ turns it up"
    assert blind_caption([1, 3]) == "choose one (2 or 4), ⏎ turns it up"
    assert blind_caption([3]) == "⏎ (or 4) turns up the last one"


def test_the_list_of_moves_reads_in_the_rules_words_and_the_card_style() -> None:
    spec = get_game("stress")
    state = spec.new(spec.config(players=2), seed=4)
    view = state.view(0)
    assert isinstance(view, StressView)
    swap = str(state.legal_moves(0)[0])
    hand_card, up_card = swap.split()[1:]
    picker = MovesPicker([swap, "ready"], view, UNICODE)
    assert picker.words("ready") == "ready (done swapping)"
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    shown = [c[:-1] + suits[c[-1]] for c in (hand_card, up_card)]
    assert picker.words(swap) == f"swap {shown[0]} from the hand for face-up {shown[1]}"


def test_the_list_of_moves_follows_the_hand_weakest_rank_first() -> None:
    view = stress_view(phase="play")
    legal = ["pickup", "AS", "7S+7H", "2S", "7H", "7S", "10H"]
    picker = MovesPicker(legal, view, ASCII)
    assert picker.moves == ["2S", "7S", "7H", "7S+7H", "10H", "AS", "pickup"]
    blind = MovesPicker(["pickup", "blind 4", "blind 1"], view, ASCII)
    assert blind.moves == ["blind 1", "blind 4", "pickup"]


def test_describe_reveals_hidden_cards_only_with_a_snapshot() -> None:
    spec = get_game("stress")
    state = spec.new(spec.config(players=2), seed=2)
    names = ["Ann", "Bob"]
    text = describe(state.view(0), state.scores(), names, ASCII, None).plain
    hand = state.view(0).hand
    assert hand is not None and "Ann's hand: " + " ".join(hand) in text
    assert "Revealed" not in text
    shown = describe(state.view(None), state.scores(), names, ASCII, state.snapshot()).plain
    assert (
        "Revealed" in shown and "face down " + " ".join(state.snapshot()["face_down"][1]) in shown
    )


# ------------------------------------------------------------------ through the app
def test_the_countdown_reads_minutes_and_seconds_and_only_with_a_clock() -> None:
    assert clock_caption(None, "play") == ""  # no timer: no clock
    assert clock_caption(42.3, "play") == "0:43 left"
    assert clock_caption(0.2, "play") == "0:01 left"  # not 0:00 while time remains
    assert clock_caption(75.0, "swap") == "1:15 left to swap"
    assert clock_caption(-3.0, "play") == "0:00 left"
    assert clock_caption(12.0, "over") == ""


@on_a_shared_app
async def test_the_countdown_shows_beside_the_stack_when_the_timer_is_on(home: Pilot[Any]) -> None:
    options = {"players": 2, "first_player": "0", "timer": 30, "swap_timer": 90}
    launch = {"action": "play", "game": "stress", "vs": "computer:easy", "seed": 3,
              "options": options}  # fmt: skip
    pilot = home
    app: Any = pilot.app
    await launched(pilot, launch)
    screen = app.screen
    assert isinstance(screen, StressScreen)
    assert "left to swap" in screen_text(app)
    await pilot.press("r")
    await settle(pilot)
    assert screen.my_turn and screen.phase == "play"
    left = screen.clocks.seconds_left()
    assert left is not None and 0 < left <= 30  # the turn's clock, not the swaps'
    text = screen_text(app)
    assert " left" in text and "to swap" not in text


@on_a_shared_app
async def test_a_game_against_the_computer_by_keys(home: Pilot[Any]) -> None:
    launch = {"action": "play", "game": "stress", "vs": "computer:easy", "seed": 3,
              "options": {"players": 2, "first_player": "0"}}  # fmt: skip
    pilot = home
    app: Any = pilot.app
    await launched(pilot, launch)
    screen = app.screen
    assert isinstance(screen, StressScreen)
    assert isinstance(screen.client, LocalClient)
    moves = screen.client.table.record.moves
    hand, up = screen.hand, screen.face_up
    # in the swaps the footer names ↑ (to the face-up row), at 80 columns (N23)
    footer = screen_text(app).splitlines()[-1]
    assert "↑↓ Row" in footer and "? Rules" in footer
    # the swaps: mark the first hand card, then (↑) the second face-up card
    await pilot.press("1", "enter", "up", "2", "enter")
    await settle(pilot)
    assert (0, f"swap {hand[0]} {up[1]}") in moves
    assert hand[0] in screen.face_up and up[1] in screen.hand
    await pilot.press("r")
    await settle(pilot)
    assert screen.phase == "play" and screen.my_turn
    assert "Stack (1 card):" in screen_text(app)
    # in play ↑/↓ choose how many cards (the caption says so), not a row
    assert "Row" not in screen_text(app).splitlines()[-1]
    assert screen.active_bindings["up"].binding.action == "vertical(1)"
    # a few turns: the first playable group, all its cards, or pick up
    played = 0
    for _ in range(2):
        if not screen.my_turn:
            break
        before = len(moves)
        group = next((g for g in screen.groups() if g.playable), None)
        if screen.source == "face_down":
            await pilot.press("enter")
        elif group is None:
            assert "p picks it up" in screen_text(app)
            await pilot.press("p")
        else:
            await pilot.press("enter")
            cards = moves[before][1].split("+")
            assert cards == sorted(group.cards, key=lambda c: "SHDC".index(c[-1]))
            played += 1
        await settle(pilot)
        assert len(moves) > before and moves[before][0] == 0
    assert played  # this deal gives cards to play, by Enter
    # every legal move is reachable from the list
    if screen.my_turn and not screen.over:
        legal = screen.legal
        before = len(moves)
        await pilot.press("m")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, MovesPicker) and sorted(picker.moves) == sorted(legal)
        await pilot.press("enter")
        await settle(pilot)
        assert moves[before] == (0, picker.moves[0])
    assert not isinstance(app.screen, GameOverScreen) or screen.over


@pytest.mark.slow  # a whole game through the screen (8 s): CI's slow step runs it
async def test_a_replay_names_whose_rows_they_are_and_a_spectator_has_none(dirs: Any) -> None:
    from tui.screens.replay import open_replay

    launch = {"action": "play", "game": "stress", "vs": "computer:easy", "seed": 3,
              "options": {"players": 2, "first_player": "0"}}  # fmt: skip
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StressScreen)
        while not screen.over:
            legal = screen.legal
            await screen.submit("ready" if "ready" in legal else legal[0])
            await settle(pilot)
        record = app.store.load(screen.client.record_id)
        # a finished game's replay seen by the computer: its rows by name, no play prompt
        open_replay(app, record, start=20, seat=1)
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, StressScreen) and replay.replay_keys is not None
        if not replay.my_turn:  # one move on, it is the computer's turn
            await pilot.press("right")
            await settle(pilot)
        assert replay.seat == 1 and replay.my_turn and replay.phase == "play"
        text = screen_text(app)
        assert "Computer's hand (" in text and "Computer's face up (" in text
        assert "Your" not in text and "may play" not in text and "nothing goes" not in text
        # the next eyes after the last seat's are a spectator's: no rows of its own
        await pilot.press("v")
        await settle(pilot)
        spectator = app.screen
        assert isinstance(spectator, StressScreen) and spectator.seat is None
        text = screen_text(app)
        assert "Watching: the players' hands are hidden" in text
        assert "Your" not in text and "hand (" not in text


def test_an_open_seat_is_drawn_open_not_as_a_player_swapping() -> None:
    # D30: "Player 2: hand 4 · up as dealt 7♥ Q♥ 2♥ 7♠ · down 4 · swapping"
    # for a seat nobody had taken at a table elsewhere
    state = get_game("stress").new(get_game("stress").config(players=3), seed=4)
    view = state.view(0)
    assert isinstance(view, StressView)
    names = ["You", "Player 2", "Bea"]
    lines = opponent_lines(view, 0, names, UNICODE, 78, open_seats={1})
    assert lines[0].strip() == "Player 2 (open seat)"
    assert "swapping" in lines[1] and "hand" in lines[1]  # a person who sat


@on_a_shared_app
async def test_a_seat_out_of_the_game_has_no_play_keys_hint_or_resign(home: Pilot[Any]) -> None:
    import dataclasses

    from tui.screens.pause import PauseScreen

    launch = {"action": "play", "game": "stress", "vs": "computer:easy", "seed": 3,
              "options": {"players": 3}}  # fmt: skip
    pilot = home
    app: Any = pilot.app
    await launched(pilot, launch)
    screen = app.screen
    assert isinstance(screen, StressScreen) and screen.seat_in_play()
    assert screen.check_action("moves", ()) is not False
    # as the table says once this seat has resigned (or finished) while
    # two computers play on
    view = screen.update.view
    assert isinstance(view, StressView)
    out = msgspec.structs.replace(view, resigned=[screen.seat])
    screen.update = dataclasses.replace(screen.update, view=out)
    assert not screen.seat_in_play()
    for action in ("play", "pickup", "moves", "move_cursor", "choose", "hint"):
        assert screen.check_action(action, ()) is False, action
    # the computers play on at their pace, for minutes: f lets them finish at once
    table = screen.client._table  # type: ignore[attr-defined]
    table.pace = 0.6
    assert screen.check_action("finish", ()) is True
    screen.action_finish()
    assert table.pace == 0.0 and screen.check_action("finish", ()) is False
    screen.action_pause()
    await settle(pilot)
    menu = app.screen
    assert isinstance(menu, PauseScreen) and not menu.can_resign


@on_a_shared_app
async def test_the_stack_caption_is_whole_beside_the_countdowns_room(home: Pilot[Any]) -> None:
    import dataclasses

    from textual.widgets import Static

    launch = {"action": "play", "game": "stress", "vs": "computer:easy", "seed": 3}
    pilot = home
    app: Any = pilot.app
    await launched(pilot, launch)
    screen = app.screen
    assert isinstance(screen, StressScreen)
    # a long caption: see-through 3s over an Ace, a full cemetery
    view = msgspec.structs.replace(
        screen.update.view, stack=["7S", "AS", "3D"], top="AS", stock=0, cemetery=["10S"] * 12
    )
    screen.update = dataclasses.replace(screen.update, view=view)
    screen._draw_stack()
    await settle(pilot)
    caption = screen.query_one("#stack-caption", Static)
    shown = str(caption.render())
    assert "cemetery 12" in shown
    assert caption.get_content_width(caption.size, caption.size) <= caption.content_size.width
