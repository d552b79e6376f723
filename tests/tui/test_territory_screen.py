"""The Territory screen as pure functions of a view (the grid through a
viewport with its marks, following play and panning, the regions' checklists,
a card and a cell to the legal move), and one game against the computer in
which a card is placed with the keys."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from rules.cards import parse_card
from rules.game import Outcome
from rules.territory import SPEC, TerritoryState
from rules.territory.notation import parse_move
from rules.territory.view import TerritoryView
from rules.territory.words import a_value, move_words_on
from tui.games.territory import (
    AXIS_HEIGHT,
    AXIS_WIDTH,
    Bounds,
    Marks,
    MoveChooser,
    TerritoryGrid,
    TerritoryScreen,
    Viewport,
    cells_of,
    checklist,
    describe,
    follow,
    grid_bounds,
    grid_lines,
    line_text,
    matching_cells,
    moves_at,
    pan,
    region_lines,
    result_text,
    target_cells,
)
from tui.games.territory.grid import card_grid
from tui.widgets.cards import CardStyle, card_label
from tui.widgets.event_log import EventLog, display_text

from .conftest import make_app, settle

# the seed's figure: horizontal (seat 0) holds 3-8 and 4-10-7-A, vertical the 9, 6, 2, 5
FIGURE = """
.    .    2S|  .    .    .
3C-  8D-  9H|  6S|  4H-  10C-
5D|  .    .    .    AS-  7H-
"""


def position(diagram: str, hand0: str, hand1: str, **options: Any) -> TerritoryState:
    return SPEC.position(SPEC.config(None, **options), diagram, [hand0.split(), hand1.split()])


def legal(state: TerritoryState, seat: int = 0) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


def whole(view: TerritoryView) -> Viewport:
    bounds = grid_bounds(list(cells_of(view)))
    return Viewport(bounds.left, bounds.top, bounds.width, bounds.height)


def row_of(lines: list[str], y: int) -> str:
    """The grid line of row ``y`` (its label is the first thing on it)."""
    return next(line for line in lines[1:] if line[:4].strip() == str(y))


# ================================================================ the grid
def test_each_card_shows_its_value_and_its_owner_by_an_orientation_mark() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    view = state.view(0)
    lines = line_text(grid_lines(view, whole(view), Marks()))
    # x coordinates above: the grid's bounds (-1..6), each 5 columns wide
    assert lines[0].split() == [str(x) for x in range(-1, 7)]
    assert row_of(lines, 1).split() == ["1", "3-", "8-", "9|", "6|", "4-", "10-"]
    assert row_of(lines, 0).split() == ["0", "2|"]
    assert row_of(lines, 2).split() == ["2", "5|", "A-", "7-"]
    # the cells sit in their columns: 8- at x=1 is the third cell of the row
    assert row_of(lines, 1)[4 + 2 * 5 : 4 + 3 * 5] == "  8- "


def test_a_fortified_card_carries_the_royal_on_it() -> None:
    state = position("3C-KS 8D|  \n4H- 9H|QD", "5C", "6C", royal_domination=True)
    view = state.view(0)
    lines = line_text(grid_lines(view, whole(view), Marks()))
    assert row_of(lines, 0).split() == ["0", "3-K", "8|"]
    assert row_of(lines, 1).split() == ["1", "4-", "9|Q"]


def test_the_chosen_card_marks_its_legal_cells_and_the_cards_it_matches() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    view, moves = state.view(0), legal(state)
    marks = Marks(legal=frozenset(target_cells(moves, "8C")), matches=frozenset({(1, 1)}))
    lines = line_text(grid_lines(view, whole(view), marks))
    # the 9 at 2,1 can be taken (+) from the 8 at 1,1 (*); empty cells to explore are +
    assert lines[1:] == [
        " -1                  +",
        "  0        +    +    2|   +    +    +",
        "  1   +    3- * 8- + 9|   6|   4-  10-   +",
        "  2   +    5|   +    +    +    A-   7-   +",
        "  3        +                   +    +",
    ]
    # without a chosen card, nothing is marked
    plain = line_text(grid_lines(view, whole(view), Marks()))
    assert "+" not in "".join(plain) and "*" not in "".join(plain)


def test_the_cards_a_conquest_comes_from_are_those_of_its_value_or_for_a_royal_any() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    view, moves = state.view(0), legal(state)
    assert matching_cells(view, 0, "8C", moves) == {(1, 1)}
    assert matching_cells(view, 0, "7D", moves) == {(5, 2)}
    assert matching_cells(view, 0, "9S", moves) == set()  # no 9 of yours
    royal = position("3C- 8D| \n4H- 9H|", "KS", "6C", royal_domination=True)
    # a King takes any card next to one of yours: the 8 and the 9 are next to 3 and 4
    assert matching_cells(royal.view(0), 0, "KS", legal(royal)) == {(0, 0), (0, 1)}
    state.play(0, SPEC.parse_move("conquer 8C 2,1"))
    assert matching_cells(state.view(0), 0, "9S", legal(state)) == set()  # a Blitz: >


def test_large_cells_draw_a_box_whose_doubled_edges_repeat_the_orientation() -> None:
    # a horizontal card doubles its top and bottom, a vertical one its sides
    state = position("3C- 8D|", "5C", "6C")
    view = state.view(0)
    port = Viewport(0, 0, 2, 1)
    lines = line_text(grid_lines(view, port, Marks(), large=True))
    assert lines[1] == "    ╒═════╕╓─────╖"
    assert lines[2] == "  0 │  3- │║  8| ║"
    assert lines[3] == "    ╘═════╛╙─────╜"


def test_the_cursor_is_a_style_and_on_an_empty_cell_a_mark() -> None:
    state = position("3C- 8D|", "5C", "6C")
    view = state.view(0)
    segments = grid_lines(view, Viewport(-1, 0, 4, 1), Marks(cursor=(2, 0)))[1]
    cursor = [(text, role) for text, role in segments if "cursor" in role]
    assert cursor == [("  _  ", "empty cursor")]
    # large cells (a roomy terminal): an outline as wide as a card's (D39)
    large = grid_lines(view, Viewport(-1, 0, 4, 1), Marks(cursor=(2, 0)), large=True)
    boxed = [[t for t, role in line if "cursor" in role] for line in large[1:4]]
    assert boxed == [["┌─────┐"], ["│  _  │"], ["└─────┘"]]
    cards = [t for t, role in large[2] if "cursor" not in role and t[:1] in ("│", "║")]
    assert cards and all(len(t) == len("┌─────┐") for t in cards)


# ================================================================ the viewport
def test_a_grid_that_fits_is_centred() -> None:
    bounds = Bounds(-1, -1, 2, 2)  # 4 x 4
    port = follow(Viewport(50, 50, 8, 6), bounds, (0, 0))
    assert (port.left, port.top) == (-3, -2)
    assert all(port.shows((x, y)) for x in range(-1, 3) for y in range(-1, 3))


def test_a_larger_grid_follows_the_focus_with_the_least_move() -> None:
    bounds = Bounds(-10, -1, 10, 2)
    port = Viewport(-2, -1, 5, 4)
    assert follow(port, bounds, (0, 0)) == port  # in sight: nothing moves
    moved = follow(port, bounds, (7, 1))
    assert (moved.left, moved.top) == (3, -1) and moved.shows((7, 1))
    moved = follow(port, bounds, (-9, 0))
    assert moved.left == -9
    # never past the grid's bounds, whatever the start
    assert follow(Viewport(40, -1, 5, 4), bounds, None).left == 6


def test_panning_stops_at_the_bounds_and_not_on_an_axis_that_fits() -> None:
    bounds = Bounds(-10, -1, 10, 2)
    port = Viewport(-2, -1, 5, 4)
    assert pan(port, -3, 0, bounds).left == -5
    assert pan(port, -30, 0, bounds).left == -10
    assert pan(port, 30, 0, bounds).left == 6
    assert pan(port, 0, 5, bounds).top == -1  # the rows fit: they stay centred


def test_the_bounds_hold_every_card_and_one_cell_more_around() -> None:
    assert grid_bounds([(0, 0), (1, 1), (3, -2)]) == Bounds(-1, -3, 4, 2)
    assert Bounds(-1, -3, 4, 2).clamp((9, -9)) == (4, -3)


# ================================================================ the players
def test_the_checklist_shows_the_values_held_and_dots_for_the_rest() -> None:
    assert checklist([1, 3, 10], range(1, 11)) == "A · 3 · · · · · · 10"
    assert checklist([], range(1, 11)).endswith("· ··")  # 10 keeps its width
    tarot = checklist([11, 14], range(1, 15))
    assert tarot.endswith("J · · N") and len(tarot.split()) == 14


def test_region_lines_name_the_orientation_best_region_and_hand() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    lines = region_lines(state.view(0), ["Ann", "Bob"])
    assert lines[0] == "Ann (- horizontal)"
    assert lines[1] == " best 4/10 · 4 cards · hand 3"  # 4-10-7-A
    assert lines[2] == " A · · 4 · · 7 · · 10"
    assert lines[3] == "Bob (| vertical)"
    assert lines[4] == " best 3/10 · 3 cards · hand 3"  # 2-9-6
    assert lines[5] == " · 2 · · · 6 · · 9 ··"


def test_the_result_says_why() -> None:
    region = Outcome(1, ((1,), (0,)), (4, 10), "{p1} holds a region with every value from A to 10")
    assert result_text(region, ["Ann", "Bob"]) == (
        "Bob holds a region with every value from A to 10."
    )
    assert result_text(region, ["You", "Bob"], you={0}) == (
        "Bob holds a region with every value from A to 10."
    )
    assert result_text(Outcome(None, ((0, 1),), (7, 7), ""), ["Ann", "Bob"]) == "A draw."
    assert result_text(Outcome(0, ((0,), (1,)), (7, 6), ""), ["You", "Bob"], {0}) == "You win."
    assert result_text(None, ["Ann", "Bob"]) == "The game is over."


# ================================================================ moves
def test_a_card_and_a_cell_give_the_legal_move() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    moves = legal(state)
    assert moves_at(moves, "8C", (2, 1)) == ["conquer 8C 2,1"]
    assert moves_at(moves, "8C", (1, 2)) == ["explore 8C 1,2"]
    assert moves_at(moves, "8C", (1, 1)) == []  # occupied by a card of yours
    assert moves_at(moves, "9S", (2, 1)) == []  # no 9 of yours touches it
    # any card: everything that can go to 1,2
    assert sorted(moves_at(moves, None, (1, 2))) == [
        "explore 7D 1,2",
        "explore 8C 1,2",
        "explore 9S 1,2",
    ]
    # several kinds of move for one card and cell: all are given (the screen asks)
    both = ["explore KS 0,0", "fortify KS 0,0", "conquer KS 1,0", "stop"]
    assert moves_at(both, "KS", (0, 0)) == ["explore KS 0,0", "fortify KS 0,0"]


def test_a_blitz_targets_only_cards_next_to_the_card_just_taken() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    state.play(0, SPEC.parse_move("conquer 8C 2,1"))
    moves = legal(state)
    assert "stop" in moves
    assert target_cells(moves, "9S") == {(3, 1), (2, 0)}
    assert moves_at(moves, "9S", (3, 1)) == ["blitz 9S 3,1"]


def test_describe_draws_the_whole_grid_and_the_hands_for_replays() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    text = describe(state.view(None), [4, 3], ["Ann", "Bob"], CardStyle(ascii=True), None)
    shown = str(text)
    assert "3-   8-   9|   6|   4-  10-" in shown
    assert "Ann (- horizontal)" in shown and "Stock" in shown
    revealed = describe(
        state.view(None), [4, 3], ["Ann", "Bob"], CardStyle(ascii=True), state.snapshot()
    )
    assert "Ann's hand: 8C 9S 7D" in str(revealed)


# ================================================================ the real app
async def test_a_card_is_placed_against_the_computer_with_the_keys(dirs: Any) -> None:
    launch = {
        "action": "play",
        "game": "territory",
        "vs": "computer:easy",
        "seed": 5,
        "options": {"first_player": "0"},
    }
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TerritoryScreen)
        hand = screen.hand
        await pilot.press("2")  # the second card; the cursor goes to a cell it may go to
        await settle(pilot)
        assert screen.chosen == hand[1]
        assert screen.cursor in target_cells(screen.legal, hand[1])
        # the arrows take the cursor to another cell the card may go to
        cells = sorted(target_cells(screen.legal, hand[1]) - {screen.cursor})
        goal = cells[-1]
        dx, dy = goal[0] - screen.cursor[0], goal[1] - screen.cursor[1]
        keys = ["right" if dx > 0 else "left"] * abs(dx) + ["down" if dy > 0 else "up"] * abs(dy)
        await pilot.press(*keys)
        assert screen.cursor == goal
        assert moves_at(screen.legal, hand[1], goal) == [f"explore {hand[1]} {goal[0]},{goal[1]}"]
        await pilot.press("enter")
        await settle(pilot, lambda: screen.my_turn)
        placed = cells_of(screen.view)[goal]
        assert placed.card == hand[1] and placed.owner == 0
        assert hand[1] not in screen.hand
        log = "\n".join(line.text for line in screen.query_one(EventLog).lines)
        # the log names values, as the grid shows them, never a suit (N19)
        assert f"You explore {a_value(parse_card(hand[1]))} at {goal[0]},{goal[1]}." in log
        assert card_label(hand[1], screen.card_style) not in log
        record = screen.client.table.record  # type: ignore[attr-defined]
        assert record.moves[0] == (0, f"explore {hand[1]} {goal[0]},{goal[1]}")
        # the computer has moved; a click on a cell the chosen card may go to plays it
        card = screen.chosen
        assert card is not None
        cell = sorted(target_cells(screen.legal, card))[0]
        (expected,) = moves_at(screen.legal, card, cell)
        port = screen.port
        offset = (AXIS_WIDTH + (cell[0] - port.left) * 5 + 2, AXIS_HEIGHT + cell[1] - port.top)
        await pilot.click(TerritoryGrid, offset=offset)
        await settle(pilot, lambda: screen.my_turn)
        assert (0, expected) in record.moves[1:]


def test_describe_names_whose_hand_a_replay_shows() -> None:
    state = position(FIGURE, "8C 9S 7D", "2C 3D 4C")
    style = CardStyle(ascii=True)
    assert "Your hand: 7D 8C 9S" in str(describe(state.view(0), [], ["You", "Bob"], style, None))
    shown = str(describe(state.view(1), [], ["You", "Computer"], style, None))
    assert "Computer's hand: 2C 3D 4C" in shown and "Your hand" not in shown


async def test_the_move_list_tells_every_move_in_the_rules_words(dirs: Any) -> None:
    launch = {
        "action": "play",
        "game": "territory",
        "vs": "computer:easy",
        "seed": 5,
        "options": {"first_player": "0"},
    }
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TerritoryScreen)
        legal = list(screen.legal)
        # the footer names the keys of the three cards held, not of a hand of five
        assert len(screen.hand) == 3
        assert screen.active_bindings["1"].binding.key_display == "1-3"
        await pilot.press("m")
        await settle(pilot)
        chooser = app.screen
        assert isinstance(chooser, MoveChooser)
        options = chooser.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        grid = card_grid(screen.view)  # the cards as the grid labels them: "7|" (N19)
        assert len(shown) == len(legal)
        for move, text in zip(legal, shown, strict=True):
            words = move_words_on(parse_move(move), grid)
            assert text == display_text(words[:1].upper() + words[1:], screen.card_style)
            assert text.startswith("Explore a") and ", " in text  # beside a card of the square
            assert not any(suit in text for suit in "♠♥♦♣")  # values only, as on the grid
        await pilot.press("enter")  # the first move is played
        await settle(pilot, lambda: screen.my_turn)
        record = screen.client.table.record  # type: ignore[attr-defined]
        assert record.moves[0] == (0, legal[0])


async def test_a_replay_seen_by_the_computer_says_whose_the_cards_are(dirs: Any) -> None:
    from tui.screens.replay import open_replay

    launch = {
        "action": "play",
        "game": "territory",
        "vs": "computer:easy",
        "seed": 5,
        "options": {"first_player": "0"},
    }
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, TerritoryScreen)
        caption = game.query_one("#hand-caption", Static)
        assert "you play - horizontal" in str(caption.render())
        await pilot.press("escape", "r")
        await settle(pilot)
        await pilot.press("y")  # resigned: a finished game replays through either seat
        await settle(pilot)
        open_replay(app, app.store.load(game.client.record_id), seat=1)
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, TerritoryScreen) and replay.replay_keys is not None
        text = str(replay.query_one("#hand-caption", Static).render())
        assert "Computer plays | vertical" in text and "you play" not in text
