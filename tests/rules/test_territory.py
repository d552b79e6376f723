"""Territory's rules: seed 003 and every ruling of RULINGS.md (territory).

Positions are built two ways: a deck order for the deal (seat 0's hand, seat
1's hand, the square, then the stock, top first), or ``SPEC.position`` with a
diagram, where ``3S-`` is a horizontal card (seat 0), ``9H|`` a vertical one
(seat 1), ``4D-KS`` a card fortified by KS, and the first token of the first
line is the cell (0,0) (x grows to the right, y downwards). The generic
contract is tested for every preset in test_contract.py; this file is about
what the rules say.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.errors import IllegalMove, NotationError
from rules.events import Event, visible_events
from rules.game import RESIGN, Outcome
from rules.territory import (
    BLITZ,
    MAIN,
    PASS,
    SPEC,
    STOP,
    Explore,
    TerritoryState,
    parse_diagram,
    pos_of,
)
from rules.territory.position import diagram_of
from tests.rules.contract_helpers import Case, ContractRun

# the seed's second and third figures: the horizontal player holds two
# regions, 3-8 and 4-10-7-A, and a 9 and a 6 of the vertical player join them
FIGURE = """
.    .    2S|  .    .    .
3C-  8D-  9H|  6S|  4H-  10C-
5D|  .    .    .    AS-  7H-
"""


def position(
    diagram: str,
    hand0: str,
    hand1: str,
    *,
    stock: str | None = None,
    turn: int = 0,
    preset: str | None = None,
    **options: object,
) -> TerritoryState:
    cfg = SPEC.config(preset, **options)
    return SPEC.position(
        cfg,
        diagram,
        [hand0.split(), hand1.split()],
        stock=None if stock is None else stock.split(),
        turn=turn,
    )


def deal(
    top: str, preset: str | None = None, first: str = "0", **options: object
) -> TerritoryState:
    cfg = SPEC.config(preset, first_player=first, **options)
    return SPEC.new(cfg, seed=0, deck_order=top.split())


def play(state: TerritoryState, *moves: str) -> list[Event]:
    """Play moves in notation, each by the seat whose turn it is."""
    events: list[Event] = []
    for text in moves:
        assert not state.is_over, f"the game ended before {text}"
        events += state.play_text(state.turn, text)
    return events


def legal(state: TerritoryState, seat: int | None = None) -> list[str]:
    return [str(m) for m in state.legal_moves(state.turn if seat is None else seat)]


def cell(state: TerritoryState, x: int, y: int) -> tuple[str, int, str | None] | None:
    for c in state.view(None).cells:
        if (c.x, c.y) == (x, y):
            return (c.card, c.owner, c.fortified_by)
    return None


def refused(state: TerritoryState, text: str, reason: str) -> None:
    before = state.snapshot()
    with pytest.raises(IllegalMove, match=reason):
        state.play_text(state.turn, text)
    assert state.snapshot() == before


# ------------------------------------------------------------------ the deal
def test_the_initial_setup_square() -> None:
    """The seed's first figure: four cards in a square, the two nearer the
    horizontal player (row y=1) horizontal, the other two vertical."""
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H 2D 3D")
    assert s.view(0).hand == ["AS", "2S", "3S"]
    assert s.view(1).hand == ["4S", "5S", "6S"]
    assert cell(s, 0, 0) == ("7H", 1, None)
    assert cell(s, 1, 0) == ("8H", 1, None)
    assert cell(s, 0, 1) == ("9H", 0, None)
    assert cell(s, 1, 1) == ("10H", 0, None)
    assert len(s.view(None).cells) == 4
    assert s.view(None).orientation == ["horizontal", "vertical"]
    assert s.snapshot()["stock"][-2:] == ["3D", "2D"]  # the top is the end of the list
    assert s.view(None).stock == 40 - 10
    assert s.view(None).step == MAIN and s.view(None).turn_number == 1


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_each_hand_holds_hand_size_cards(size: int) -> None:
    s = SPEC.new(SPEC.config(hand_size=size), seed=4)
    assert s.view(None).hand_sizes == [size, size]
    assert s.view(None).stock == 40 - 2 * size - 4


def test_hand_size_runs_from_2_to_5() -> None:
    for bad in (1, 6):
        with pytest.raises(ValueError, match="hand_size"):
            SPEC.config(hand_size=bad)


def test_first_player_fixes_who_starts_and_random_depends_on_the_seed() -> None:
    assert SPEC.new(SPEC.config(first_player="1"), seed=3).to_act() == (1,)
    assert SPEC.new(SPEC.config(first_player="0"), seed=3).to_act() == (0,)
    starters = {SPEC.new(SPEC.config(), seed=n).to_act()[0] for n in range(20)}
    assert starters == {0, 1}
    first = SPEC.new(SPEC.config(), seed=7)
    assert first.view(None).first_player == first.to_act()[0]


def test_in_a_rematch_the_loser_starts() -> None:
    cfg = SPEC.config()
    won_by_0 = Outcome(0, ((0,), (1,)), (10, 4), "x")
    won_by_1 = Outcome(1, ((1,), (0,)), (4, 10), "x")
    drawn = Outcome(None, ((0, 1),), (5, 5), "x")
    assert SPEC.rematch_config(cfg, won_by_0).first_player == "1"
    assert SPEC.rematch_config(cfg, won_by_1).first_player == "0"
    assert SPEC.rematch_config(cfg, drawn) == cfg


@pytest.mark.parametrize(
    ("preset", "ranks", "to_win"),
    [
        ("standard", "A 2 3 4 5 6 7 8 9 10", 10),
        ("royals-deck", "A 2 3 4 5 6 7 8 9 10 J Q K", 13),
        ("tarot", "A 2 3 4 5 6 7 8 9 10 J Q K N", 14),
        ("royal", "A 2 3 4 5 6 7 8 9 10 J Q K", 10),  # the royals attack and fortify
    ],
)
def test_the_decks(preset: str, ranks: str, to_win: int) -> None:
    s = SPEC.new(SPEC.config(preset), seed=1)
    expected = Counter(r + suit for r in ranks.split() for suit in "SHDC")
    assert s.all_cards() == expected
    assert s.view(None).values_to_win == list(range(1, to_win + 1))


def test_royal_domination_is_played_with_the_standard_deck_only() -> None:
    with pytest.raises(ValueError, match="Royal Domination"):
        SPEC.config(royal_domination=True, deck="tarot")


def test_in_royal_domination_the_square_takes_number_cards_only() -> None:
    s = deal("AS 2S 3S 4S 5S 6S JH 7H QD 8H 9H KC 10H 2D", preset="royal")
    assert [cell(s, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))] == [
        ("7H", 1, None),
        ("8H", 1, None),
        ("9H", 0, None),
        ("10H", 0, None),
    ]
    # the royals met stay on the stock, in their order, on top
    assert s.snapshot()["stock"][-4:] == ["2D", "KC", "QD", "JH"]


# ---------------------------------------------------------------- exploring
def test_explore_places_your_card_your_way_next_to_any_card() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H 2D")
    events = play(s, "explore AS 2,0")  # next to the vertical 8H: any card will do
    assert cell(s, 2, 0) == ("AS", 0, None)
    assert "AS" not in s.view(0).hand
    assert s.view(0).hand == ["2S", "2D", "3S"]  # drew back to three
    assert [e.kind for e in events] == ["explore", "draw"]
    assert s.to_act() == (1,)
    play(s, "explore 4S -1,1")
    assert cell(s, -1, 1) == ("4S", 1, None)


def test_explore_needs_an_empty_cell_touching_a_side() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H")
    refused(s, "explore AS 2,2", "touches no card")  # only a corner touches
    refused(s, "explore AS 5,5", "touches no card")
    refused(s, "explore AS 1,1", "is taken")
    refused(s, "explore 4S 2,0", "not in your hand")


def test_the_first_turn_can_explore_every_open_cell_with_every_card() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H")
    explores = [m for m in s.legal_moves(0) if isinstance(m, Explore)]
    assert len(explores) == 3 * 8  # the square has 8 cells along its sides
    assert len(legal(s)) == 24  # and no card of seat 0 matches: no conquest


# ---------------------------------------------------------------- conquering
def test_conquer_discards_a_match_and_turns_a_touching_opponent_card() -> None:
    s = position(
        """
        7H|  5D|  .
        7C-  9H-  8S|
        """,
        "7S 2C 3C",
        "4H 4D 4S",
    )
    assert "conquer 7S 0,0" in legal(s)
    assert "conquer 7S 1,0" not in legal(s)  # 5D touches only the 9H's corner... and 9H
    events = play(s, "conquer 7S 0,0")
    assert cell(s, 0, 0) == ("7H", 0, None)
    assert s.view(None).discards == ["7S"]
    assert events[0].render(["Ann", "Bo"]) == "Ann discards a 7 and takes 7| at 0,0."
    assert events[0].render(["Ann", "Bo"], (0,)) == "You discard a 7 and take 7| at 0,0."


def test_a_conquest_must_touch_a_matching_card_of_yours() -> None:
    s = position(
        """
        7H|  5D|  .
        7C-  9H-  8S|
        """,
        "7S 9S 3C",
        "4H 4D 4S",
    )
    refused(s, "conquer 7S 1,0", "touches no 7 of yours")
    refused(s, "conquer 3C 2,1", "touches no 3 of yours")
    refused(s, "conquer 9S 1,1", "your opponent has no card at 1,1")
    refused(s, "conquer 9S 3,3", "your opponent has no card at 3,3")
    assert "conquer 9S 1,0" in legal(s) and "conquer 9S 2,1" in legal(s)


def test_you_may_never_conquer_the_opponents_last_card() -> None:
    s = position("7C- 7H|", "7S 2C 3C", "4H 4D 4S")
    assert not any(m.startswith("conquer") for m in legal(s))
    refused(s, "conquer 7S 1,0", "last card")


def test_a_conquest_always_captures_by_default() -> None:
    s = position("7C- 8H| 8D|", "7S 2C 3C", "4H 4D 4S")
    assert not any(m.startswith("discard") for m in legal(s))
    refused(s, "discard 7S", "must take a card")


def test_the_literal_reading_allows_a_matching_discard_without_a_capture() -> None:
    s = position("7C- 8H| 8D|", "7S 2C 3C", "4H 4D 4S", preset="literal")
    moves = legal(s)
    assert "discard 7S" in moves
    assert "discard 2C" not in moves  # no 2 of yours to match
    refused(s, "discard 2C", "no card of value 2")
    events = play(s, "discard 7S")
    assert s.view(None).discards == ["7S"]
    assert [e.kind for e in events] == ["discard", "draw"]
    assert s.to_act() == (1,)


# ------------------------------------------------------------------ blitzing
def test_the_seeds_figures_two_regions_then_a_blitz_with_8_and_9() -> None:
    """Figure 2: the horizontal player holds two divided regions, 3-8 and
    4-10-7-A. Figure 3: after a conquest with 8 and a blitz with 9, one
    region holds every value but 5 and 2."""
    s = position(FIGURE, "8C 9S 7D", "2H 3H 4D")
    view = s.view(0)
    assert view.best_regions[0].values == [1, 4, 7, 10]
    assert s.scores() == (4, 3)  # the vertical 2S-9H-6S region holds 3
    assert "conquer 8C 2,1" in legal(s)

    play(s, "conquer 8C 2,1")  # the 8 takes the vertical 9 next to the 8D
    assert s.to_act() == (0,) and s.view(0).step == BLITZ
    assert s.view(0).blitz_from == [2, 1]
    assert legal(s) == ["blitz 9S 3,1", "blitz 9S 2,0", "stop"]

    play(s, "blitz 9S 3,1")  # the 9 takes the 6 next to the 9 just taken
    best = s.view(0).best_regions[0]
    assert best.values == [1, 3, 4, 6, 7, 8, 9, 10]  # only 5 and 2 missing
    missing = set(s.view(0).values_to_win) - set(best.values)
    assert missing == {2, 5}
    # no vertical card touches the 6 just taken: the turn ends by itself
    assert s.to_act() == (1,) and s.view(1).step == MAIN
    assert s.view(None).discards == ["8C", "9S"]


def test_during_a_blitz_only_blitzes_and_stop_are_legal() -> None:
    s = position(FIGURE, "8C 9S 7D", "2H 3H 4D")
    play(s, "conquer 8C 2,1")
    refused(s, "explore 7D 0,0", "blitzing from 2,1")
    refused(s, "conquer 9S 3,1", "blitzing from 2,1")
    refused(s, "blitz 7D 2,0", "does not match")
    refused(s, "blitz 9S 4,1", "opponent has no card")
    refused(s, "pass", "blitzing")
    turn = s.clock(0)
    assert turn is None  # no timer in this game


def test_stop_ends_the_blitz_and_the_turn_and_draws() -> None:
    s = position(FIGURE, "8C 9S 7D", "2H 3H 4D", stock="2C 3S 4S 5S")
    play(s, "conquer 8C 2,1")
    events = play(s, "stop")
    assert [e.kind for e in events] == ["stop", "draw"]
    assert sorted(s.view(0).hand) == sorted(["9S", "7D", "2C"])
    assert s.to_act() == (1,)
    refused(s, "stop", "no blitz")


def test_a_blitz_goes_on_while_the_hand_cannot_match_it_says_nothing() -> None:
    """The turn waits for stop when an opponent card touches the card just
    taken, whatever the hand holds: the opponent must not learn that it has
    no match."""
    s = position(FIGURE, "8C 2D 7D", "2H 3H 4D")
    play(s, "conquer 8C 2,1")
    assert s.to_act() == (0,) and legal(s) == ["stop"]


def test_a_blitz_may_not_take_the_last_card_either() -> None:
    s = position(
        """
        8D- 9H| 9D|
        """,
        "8C 9S 2D",
        "2H 3H 4D",
    )
    play(s, "conquer 8C 1,0")
    # the 9D is the vertical player's last card now: nothing to blitz
    assert s.to_act() == (1,)
    assert cell(s, 2, 0) == ("9D", 1, None)


def test_a_blitz_chain_of_three() -> None:
    s = position(
        """
        2C- 3H| 4H| 5H| 6H|
        """,
        "2D 3D 4D 5S 6S",
        "AH AD AS AC 7H",
        hand_size=5,
    )
    play(s, "conquer 2D 1,0", "blitz 3D 2,0", "blitz 4D 3,0")
    # the 6H is their last card now: the turn ends by itself
    assert s.to_act() == (1,)
    assert [cell(s, x, 0)[1] for x in range(5)] == [0, 0, 0, 0, 1]  # type: ignore[index]
    assert s.view(None).discards == ["2D", "3D", "4D"]


def test_the_clock_keeps_one_turn_through_a_blitz() -> None:
    s = position(FIGURE, "8C 9S 7D", "2H 3H 4D", timer=30)
    clock = s.clock(0)
    assert clock is not None and clock.seconds == 30 and s.clock(1) is None
    play(s, "conquer 8C 2,1")
    during = s.clock(0)
    assert during is not None and during.turn == clock.turn and during.timeout_move == STOP
    play(s, "stop")
    after = s.clock(1)
    assert after is not None and after.turn != clock.turn


@pytest.mark.parametrize("who", [0, 1])
def test_either_player_may_resign_even_in_the_middle_of_a_blitz(who: int) -> None:
    s = position(FIGURE, "8C 9S 7D", "2H 3H 4D")
    play(s, "conquer 8C 2,1")
    assert s.view(0).step == BLITZ
    ply = s.ply
    events = s.play(who, RESIGN)
    assert s.is_over and s.ply == ply + 1 and s.to_act() == ()
    assert [e.kind for e in events] == ["resign"]
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == who ^ 1
    assert outcome == Outcome.resigned(who, 2, s.scores())
    assert s.view(None).resigned == who and s.clock(0) is None
    with pytest.raises(IllegalMove):
        s.play(who ^ 1, RESIGN)


def test_the_timeout_explores_the_lowest_card_next_to_the_square() -> None:
    s = deal("9S 2S 5S 4S 5H 6S 7H 8H 9H 10H", timer=20)
    clock = s.clock(0)
    assert clock is not None
    move = clock.timeout_move
    assert isinstance(move, Explore) and str(move).startswith("explore 2S ")
    x, y = (int(v) for v in str(move).split()[-1].split(","))
    assert abs(2 * x - 1) + abs(2 * y - 1) == 4  # a cell along a side of the square
    assert move in s.legal_moves(0)


# ---------------------------------------------------------------- winning
def test_a_region_with_every_value_wins_at_once() -> None:
    s = position(
        """
        AC- 2C- 3C- 4C- 5C- 6C- 7C- 8C- 9C- .
        .   .   .   .   .   .   .   .   9H| 9D|
        """,
        "10S 2S 3S",
        "4H 4D 4S",
        stock="5S 6S",
    )
    events = play(s, "explore 10S 9,0")
    assert s.is_over and s.to_act() == ()
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.render(["Ann", "Bob"]) == "Ann holds all 10 values in one region"
    assert events[-1].kind == "game_over"
    assert s.view(0).hand == ["2S", "3S"]  # no draw after the win
    assert s.legal_moves(0) == s.legal_moves(1) == []


def test_a_capture_in_a_blitz_that_completes_a_region_wins_at_once() -> None:
    s = position(
        """
        AC- 2C- 3C- 4C- 5C- 6C- 7C- 8C- 9H| 10H| 2H|
        """,
        "8S 9S 3S",
        "4H 4D 4S",
    )
    play(s, "conquer 8S 8,0")
    assert not s.is_over  # nine values
    play(s, "blitz 9S 9,0")
    outcome = s.outcome()
    assert s.is_over and outcome is not None and outcome.winner == 0


def test_regions_connect_by_sides_only() -> None:
    s = position(
        """
        AC- 2C- 3C- 4C- 5C- .   .
        .   .   .   .   .   6C- 7C- 8C- 9C-
        .   .   .   .   .   7H| 8H|
        """,
        "10S 2S 3S",
        "4H 4D 4S",
    )
    assert s.scores()[0] == 5  # A-5 and 6-9 touch only at a corner
    play(s, "explore 10S 9,1")
    assert not s.is_over
    play(s, "explore 4H 6,0")
    play(s, "explore 2S 5,0")  # a card in the corner's gap links both sides
    outcome = s.outcome()
    assert s.is_over and outcome is not None and outcome.winner == 0


def test_the_value_board_counts_each_value_once() -> None:
    s = position("AC- AD- AH- 2S|", "3S 4S 5S", "4H 4D 6S")
    assert s.scores() == (1, 1)
    assert s.view(None).to_json()["best_regions"][0] == {
        "values": [1],
        "size": 3,
        "cells": [[0, 0], [1, 0], [2, 0]],
    }


# -------------------------------------------------------------- the end
def test_a_hand_emptied_while_the_stock_lasts_is_filled_again() -> None:
    s = position("2C- 3H| 4H| 5H|", "2D 3D", "AH AD", stock="6C 7C 8C 9C", hand_size=2)
    play(s, "conquer 2D 1,0", "blitz 3D 2,0")  # the hand is empty: the turn ends
    assert s.to_act() == (1,) and not s.is_over
    assert s.view(0).hand == ["6C", "7C"]


def test_once_the_stock_is_empty_the_game_ends_when_a_player_has_no_cards() -> None:
    s = position(
        """
        2C- 3H| 4H| 5H| 6H|
        """,
        "2D",
        "AH AD",
        stock="",
    )
    play(s, "conquer 2D 1,0")  # seat 0's last card: its hand is empty
    outcome = s.outcome()
    assert s.is_over and outcome is not None
    # horizontal: 2-3 (2 values); vertical: 4-5-6 (3 values)
    assert outcome.winner == 1 and outcome.scores == (2, 3)
    assert outcome.render(["H", "V"]) == (
        "The stock is empty and H has no cards left: V wins, 3 values in one region to 2"
    )


def test_with_cards_left_in_both_hands_the_game_goes_on_on_an_empty_stock() -> None:
    s = position("2C- 3H| 4H|", "2D 9S", "AH AD", stock="")
    play(s, "conquer 2D 1,0")
    assert not s.is_over and s.to_act() == (1,)
    assert s.view(0).hand == ["9S"]  # nothing to draw


def test_equal_values_are_broken_by_the_size_of_that_region() -> None:
    s = position(
        """
        2C- 3C- 3D- 7H| 8H|
        """,
        "9C 9D",
        "AH",
        stock="",
    )
    play(s, "explore 9C 0,1")  # horizontal: 2-3-3-9 (3 values, 4 cards)
    play(s, "explore AH 4,1")  # vertical: 7-8-A (3 values, 3 cards); the hand is empty
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0
    assert "a region of 4 cards to 3" in outcome.reason


def test_then_by_the_cards_each_player_controls() -> None:
    s = position(
        """
        2C- 3C- .   7H| 8H|
        .   .   .   .   .
        4C- .   .   .   .
        """,
        "5C 5D",
        "AH",
        stock="",
    )
    play(s, "explore 5C 0,3")  # horizontal: 2-3 and 4-5, two values each
    play(s, "explore AH 1,2")  # vertical: 7-8, and A alone; its hand is empty
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0
    assert s.standing(0) == (2, 2, 4) and s.standing(1) == (2, 2, 3)
    assert "4 cards controlled to 3" in outcome.reason


def test_level_on_everything_is_a_draw() -> None:
    s = position("2C- 3C- 2H| 3H|", "9C 9D", "9H", stock="")
    play(s, "explore 9C 0,1")  # 2-3-9 for horizontal
    play(s, "explore 9H 3,1")  # 2-3-9 for vertical
    outcome = s.outcome()
    assert s.is_over and outcome is not None and outcome.winner is None
    assert outcome.is_draw and outcome.ranking == ((0, 1),)
    assert "a draw" in outcome.reason


def test_tie_breaks_in_order() -> None:
    s = position("2C- 3C- 4C- .  2H| 3H| 4H|", "9C", "9H", stock="")
    assert s.standing(0) == (3, 3, 3) and s.standing(1) == (3, 3, 3)
    s2 = position("2C- 3C- 3D- .  2H| 3H| 4H|", "9C", "9H", stock="")
    assert s2.standing(0) == (2, 3, 3)
    assert s2.standing(0) < s2.standing(1)  # values first, before size
    s3 = position("2C- 3C- . 2S- .  2H| 3H| 2D|", "9C", "9H", stock="")
    assert s3.standing(0) == (2, 2, 3) and s3.standing(1) == (2, 3, 3)


# ---------------------------------------------------------- Royal Domination
ROYAL = "royal"


def test_a_royal_is_never_explored() -> None:
    s = position("2C- 3H| 4H|", "KS 5C 6C", "4D 5D 6D", preset=ROYAL)
    assert not any(m.startswith("explore KS") for m in legal(s))
    refused(s, "explore KS 3,0", "never explored")


def test_a_royal_attacks_as_any_value_on_the_first_conquest() -> None:
    s = position(
        """
        2C- 3H| 4H|
        .   9D| .
        """,
        "KS 5C 6C",
        "4D 5D 6D",
        preset=ROYAL,
    )
    moves = legal(s)
    assert "conquer KS 1,0" in moves  # next to the 2C, whatever its value
    assert "conquer KS 1,1" not in moves  # 9D touches only the 2C's corner
    play(s, "conquer KS 1,0")
    assert cell(s, 1, 0) == ("3H", 0, None)
    assert s.view(None).discards == ["KS"]
    # the blitz goes on from the 3 just taken, with a 3 only
    assert s.step == BLITZ and legal(s) == ["stop"]


def test_a_royal_never_blitzes() -> None:
    s = position(
        """
        2C- 3H| 4H| 5H|
        """,
        "2D KS 6C",
        "4D 5D 6D",
        preset=ROYAL,
    )
    play(s, "conquer 2D 1,0")
    assert legal(s) == ["stop"]
    refused(s, "blitz KS 2,0", "does not match|never blitzes")


def test_fortify_puts_a_royal_on_your_unfortified_card() -> None:
    s = position("2C- 3H| 4H|", "QS 5C 6C", "4D 5D 6D", preset=ROYAL)
    assert "fortify QS 0,0" in legal(s)
    assert "fortify QS 1,0" not in legal(s)
    refused(s, "fortify QS 1,0", "you control no card at 1,0")
    refused(s, "fortify 5C 0,0", "only a royal")
    events = play(s, "fortify QS 0,0")
    assert cell(s, 0, 0) == ("2C", 0, "QS")
    assert events[0].render(["Ann", "Bo"], (0,)) == "You fortify 2- at 0,0 with a Q."
    assert s.scores()[0] == 0  # its value does not count


def test_a_fortified_card_cannot_be_fortified_again() -> None:
    s = position("2C-QS 3H| 4H|", "QH 5C 6C", "4D 5D 6D", preset=ROYAL)
    refused(s, "fortify QH 0,0", "already fortified")
    assert not any(m.startswith("fortify QH 0,0") for m in legal(s))


def test_a_fortified_value_does_not_count_for_winning_but_connects() -> None:
    s = position(
        """
        AC- 2C- 3C- 4C- 5C-KD 6C- 7C- 8C- 9C- .
        .   .   .   .   .     .   .   .   9H| 9D|
        """,
        "10S 5S 3S",
        "4H 4D 4S",
        preset=ROYAL,
    )
    play(s, "explore 10S 9,0")
    assert not s.is_over  # the 5 is under a royal
    assert s.scores()[0] == 9
    region = s.view(0).best_regions[0]
    assert region.size == 10 and 5 not in region.values  # the 5C still links it


def test_only_a_royal_of_the_same_rank_takes_a_fortified_card() -> None:
    s = position(
        """
        2C- 3H|KH 4H| 5H|
        """,
        "3S QS KS",
        "4D 5D 6D",
        preset=ROYAL,
    )
    moves = legal(s)
    assert "conquer KS 1,0" in moves
    assert "conquer QS 1,0" not in moves and "conquer 3S 1,0" not in moves
    refused(s, "conquer QS 1,0", "fortified by KH: only a King takes it")
    refused(s, "conquer 3S 1,0", "fortified by KH")
    events = play(s, "conquer KS 1,0")
    assert cell(s, 1, 0) == ("3H", 0, None)
    assert s.view(None).discards == ["KS", "KH"]  # both royals
    assert "both royals are discarded" in events[0].text
    assert s.step == BLITZ and "blitz 3S 2,0" in legal(s)


def test_a_blitz_never_takes_a_fortified_card() -> None:
    s = position(
        """
        2C- 3H| 3D|KH 4H|
        .   3C|
        """,
        "2D 3S 5S",
        "4D 5D 6D",
        preset=ROYAL,
    )
    play(s, "conquer 2D 1,0")
    assert legal(s) == ["blitz 3S 1,1", "stop"]
    refused(s, "blitz 3S 2,0", "fortified")


def test_with_no_legal_action_a_player_passes() -> None:
    s = position(
        """
        2C-QH 3H|KH 4H|
        """,
        "QS JS JD",
        "4D 5D 6D",
        preset=ROYAL,
    )
    # royals only: nothing to explore, the only card is fortified, and the
    # only card touching it is fortified by a King
    assert legal(s) == ["pass"]
    events = play(s, "pass")
    assert [e.kind for e in events] == ["pass"]
    assert s.to_act() == (1,) and s.view(None).passes == 1


def test_pass_is_refused_while_an_action_is_legal() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H")
    refused(s, "pass", "only when no action is legal")
    assert PASS not in s.legal_moves(0)


def test_two_passes_in_a_row_end_the_game() -> None:
    s = position(
        """
        2C-QH 3H-KC 5H|KH 4H|QD
        """,
        "QS JS JD",
        "JH JC QC",
        preset=ROYAL,
        stock="",
    )
    assert legal(s, 0) == ["pass"]
    play(s, "pass")
    assert legal(s, 1) == ["pass"]
    play(s, "pass")
    outcome = s.outcome()
    assert s.is_over and outcome is not None
    assert outcome.reason.startswith("Neither player can act")


def test_a_pass_between_actions_does_not_count_toward_the_end() -> None:
    s = position(
        """
        2C-QH 3H|KH 4H|
        """,
        "QS JS JD",
        "4D 5D 6D",
        preset=ROYAL,
    )
    play(s, "pass", "explore 4D 3,0")
    assert s.view(None).passes == 0


def test_the_royals_deck_explores_j_q_k_as_values() -> None:
    s = position("JC- 3H| 4H|", "JS QS KS AS", "4D 5D 6D 7D", preset="royals-deck")
    moves = legal(s)
    assert "explore KS 2,1" in moves and "explore JS -1,0" in moves
    assert not any(m.startswith("fortify") for m in moves)
    assert s.view(None).values_to_win == list(range(1, 14))


def test_the_tarot_deck_has_a_fourteenth_value_written_n() -> None:
    s = SPEC.new(SPEC.config("tarot"), seed=2)
    assert Counter(t[:-1] for t in s.all_cards())["N"] == 4
    assert SPEC.parse_move("explore NS 2,0") == SPEC.parse_move("explore ns 2, 0")
    assert s.view(None).values_to_win == list(range(1, 15))


# ------------------------------------------------------------------ notation
@pytest.mark.parametrize(
    "text",
    [
        "explore 5H 2,-1",
        "conquer 10C 0,0",
        "blitz AS -3,12",
        "stop",
        "pass",
        "fortify KS 1,1",
        "discard 7D",
        "explore NH 99,-99",
    ],
)
def test_every_move_reads_back_from_its_notation(text: str) -> None:
    move = SPEC.parse_move(text)
    assert str(move) == text
    assert SPEC.parse_move(str(move)) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Explore 5h 2, -1", "explore 5H 2,-1"),
        ("  CONQUER th 0 , 0 ", "conquer 10H 0,0"),
        ("blitz as +3,4", "blitz AS 3,4"),
        ("STOP", "stop"),
    ],
)
def test_notation_is_forgiving_to_read_and_strict_to_write(text: str, canonical: str) -> None:
    assert str(SPEC.parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "explore",
        "explore 5H",
        "explore 5H 2",
        "explore 5H 2,x",
        "explore 5Z 2,1",
        "explore 5H 100,0",
        "conquer 5H 1,0 -> 2,0",
        "stop now",
        "discard",
        "fortify KS",
        "move 5H 1,1",
    ],
)
def test_text_that_is_no_move_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as err:
        SPEC.parse_move(text)
    assert len(str(err.value).splitlines()) == 1


def test_moves_are_shared_objects() -> None:
    """legal_moves hands out cached moves: equal moves are the same object."""
    a = SPEC.parse_move("explore 5H 2,-1")
    assert a is SPEC.parse_move("explore 5h 2,-1")
    assert a == Explore(a.card, pos_of(2, -1))  # type: ignore[union-attr]


# ------------------------------------------------------------- information
def test_a_players_view_shows_its_own_hand_only() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H")
    assert s.view(0).hand == ["AS", "2S", "3S"]
    assert s.view(1).hand == ["4S", "5S", "6S"]
    assert s.view(None).hand is None
    assert s.view(None).hand_sizes == [3, 3]


def test_draws_are_private_to_the_drawer() -> None:
    s = position("2C- 3H| 4H|", "3D 9S 8S", "AH AD 5C", stock="10S 9C 8C 7C")
    events = play(s, "explore 9S 0,1")
    mine = visible_events(events, 0)
    theirs = visible_events(events, 1)
    assert mine[-1].render(["Ann", "Bo"]) == "Ann draws a 10."
    assert theirs[-1].render(["Ann", "Bo"], (0,)) == "You draw 1 card."
    assert "10S" not in str([e.to_json() for e in theirs])


def test_determinize_keeps_what_the_seat_knows() -> None:
    s = deal("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H")
    play(s, "explore AS 2,0")
    det = s.determinize(0, random.Random(5))
    assert det.view(0) == s.view(0)
    assert det.hands[0] == s.hands[0] and det.grid == s.grid
    assert Counter(det.hands[1] + det.stock) == Counter(s.hands[1] + s.stock)
    assert det.hands[1] != s.hands[1] or det.stock != s.stock


def test_a_diagram_names_each_card_once_and_only_royals_fortify() -> None:
    with pytest.raises(ValueError, match="named twice"):
        position("2C- 2C|", "3S", "4S")
    with pytest.raises(ValueError, match="only a royal"):
        parse_diagram("2C-3S")
    with pytest.raises(ValueError, match="no cell"):
        parse_diagram("2C")
    grid = parse_diagram("2C- .\n. 3H|KS", origin=(-1, 5))
    assert set(grid) == {pos_of(-1, 5), pos_of(0, 6)}


def test_a_position_puts_the_unnamed_cards_on_the_stock_or_the_discards() -> None:
    s = position("2C- 3H|", "4S", "5S")
    assert s.view(None).stock == 40 - 4 and s.view(None).discards == []
    s = position("2C- 3H|", "4S", "5S", stock="6S")
    assert s.view(None).stock == 1 and len(s.view(None).discards) == 40 - 5
    assert sum(s.all_cards().values()) == 40


# --------------------------------------------------------- every variant
VARIANTS = [
    ("standard", (("hand_size", 2),)),
    ("royal", (("hand_size", 5), ("conquest_requires_capture", False))),
    ("tarot", (("hand_size", 2),)),
    ("royals-deck", (("hand_size", 5), ("conquest_requires_capture", False))),
    ("standard", (("hand_size", 4), ("timer", 15))),
]


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS)
def test_variants_beyond_the_presets_keep_the_contract(
    preset: str, overrides: tuple[tuple[str, object], ...]
) -> None:
    """The contract suite runs every preset (test_contract.py); these mixes of
    options, hand sizes 2 to 5 among them, get one game each."""
    ContractRun(Case("territory", preset, 2, overrides), 11, 77).run()


def test_diagram_of_writes_what_parse_diagram_reads() -> None:
    grid = parse_diagram("2C- .\n. 3H|KS\n10D- 4S-", origin=(-1, 5))
    x0, y0, rows = diagram_of(grid)
    assert (x0, y0) == (-1, 5)
    assert rows == ["  2C-     .", "    . 3H|KS", " 10D-   4S-"]  # columns aligned
    assert parse_diagram("\n".join(rows), origin=(x0, y0)) == grid
