"""stress: every rule, ruling and option, from explicit deals and positions.

RULINGS.md (stress) and docs/rules/stress.md are the reference; each test names
the rule it checks. ``deal`` builds a game from a deck order (top first: seat 0
takes 4 face down, 4 face up, 4 in hand, then seat 1..., then the starter, then
the stock); ``position`` builds a play-phase state directly, for rules that
need a late position (empty hands, face-down cards only).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules.cards import card_text, deck, parse_card
from rules.errors import IllegalMove, NotationError
from rules.events import visible_events
from rules.game import RESIGN
from rules.stress import (
    BLINDS,
    PICKUP,
    PLAY_LIMIT,
    READY,
    SPEC,
    SWAP_LIMIT,
    Blind,
    Play,
    StressState,
    Swap,
    make_play,
    plays_of,
)
from rules.stress.knowledge import ALL_RANKS, add_unknown
from rules.stress.state import effective_top
from tests.rules.contract_helpers import Case, ContractRun


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def texts(cs: Sequence[int]) -> list[str]:
    return [card_text(c) for c in cs]


def play(text: str) -> Play:
    return make_play(cards(text))


def deal(
    seats: Sequence[tuple[str, str, str]], starter: str, stock: str = "", **options: Any
) -> StressState:
    """A new game: seats[s] = (face down, face up, hand), then the starter and
    the top of the stock; the rest of the deck follows in its own order."""
    order: list[str] = []
    for down, up, hand in seats:
        order += down.split() + up.split() + hand.split()
    order += [starter, *stock.split()]
    options.setdefault("first_player", "0")
    cfg = SPEC.config(players=len(seats), **options)
    return SPEC.new(cfg, 1, order)


def all_ready(state: StressState) -> None:
    for seat in state.to_act():
        state.play(seat, READY)


def position(
    hands: Sequence[str],
    up: Sequence[str] | None = None,
    down: Sequence[str] | None = None,
    stack: str = "",
    stock: str = "",
    turn: int = 0,
    **options: Any,
) -> StressState:
    """A play-phase state: seat s holds hands[s] in hand, up[s] face up, and
    down[s] face down (``-`` for a slot already played); the stack bottom
    first, the stock top first; every other card is in the cemetery."""
    n = len(hands)
    cfg = SPEC.config(players=n, first_player=str(turn), **options)
    state = SPEC.new(cfg, 1)
    all_ready(state)
    state.hands = [cards(h) for h in hands]
    state.up = [tuple(cards(u)) for u in (up or [""] * n)]
    state.down = [
        tuple(0 if t == "-" else parse_card(t) for t in d.split()) for d in (down or [""] * n)
    ]
    state.dealt_up = state.up[:]
    state.stack = cards(stack)
    state.top = effective_top(state.stack)
    state.stock = cards(stock)[::-1]
    state.known = [()] * n
    state.facts = [add_unknown((), len(h)) if h else () for h in state.hands]
    state.turn = turn
    used = Counter(state.stack + state.stock)
    for s in range(n):
        used.update(state.hands[s] + list(state.up[s]) + [c for c in state.down[s] if c])
    rest = Counter(deck(copies=cfg.deck_count)) - used
    assert not used - Counter(deck(copies=cfg.deck_count)), "a card named too often"
    state.cemetery = sorted(rest.elements())
    return state


def hand(state: StressState, seat: int) -> list[str]:
    return sorted(texts(state.hands[seat]))


# ---------------------------------------------------------------- the deal
TWO = [
    ("2S 3S 4S 5S", "6S 7S 8S 9S", "10S JS QS KS"),
    ("2H 3H 4H 5H", "6H 7H 8H 9H", "10H JH QH KH"),
]


def test_the_deal_gives_four_down_four_up_four_in_hand_and_a_starter() -> None:
    state = deal(TWO, "AS", "AH AD")
    assert texts(state.down[0]) == ["2S", "3S", "4S", "5S"]
    assert texts(state.up[1]) == ["6H", "7H", "8H", "9H"]
    assert hand(state, 0) == sorted(["10S", "JS", "QS", "KS"])
    assert texts(state.stack) == ["AS"]
    assert texts(state.stock[-2:]) == ["AD", "AH"]  # the top of the stock is the end
    view = state.view(0)
    assert view.phase == "swap" and view.stack == ["AS"]
    assert view.stock == 52 - 2 * 12 - 1
    assert view.hand_sizes == [4, 4] and view.face_down == [[True] * 4, [True] * 4]
    assert view.decks == 1


def test_one_deck_for_up_to_four_two_decks_from_five() -> None:
    assert SPEC.config(players=4).deck_count == 1
    five = SPEC.config(players=5)
    assert five.deck_count == 2
    assert sum(SPEC.new(five, 3).all_cards().values()) == 104
    with pytest.raises(ValueError, match="two decks"):
        SPEC.config(players=5, decks="1")
    assert SPEC.config(players=3, decks="2").deck_count == 2  # a longer game, if wanted
    assert sum(SPEC.new(SPEC.config(players=8), 3).all_cards().values()) == 104


def test_the_starter_keeps_its_rank_but_has_no_effect() -> None:
    # an 8 starter skips nobody: seat 0 plays first and must beat it
    state = deal(TWO, "8D")
    all_ready(state)
    assert state.turn == 0
    assert legal(state) == {"10S", "JS", "QS", "KS"}
    state.play(0, play("JS"))
    assert state.turn == 1
    # a 10 starter burns nothing and asks for 10 or higher
    state = deal(TWO, "10D")
    all_ready(state)
    assert texts(state.stack) == ["10D"] and state.cemetery == []
    assert {str(m) for m in state.legal_moves(0)} == {"10S", "JS", "QS", "KS"}
    # a 9 starter still means "below 9"
    seats = [("2S 3S 4S 5S", "6S 7S 8S 9S", "7D JS QS KS"), TWO[1]]
    state = deal(seats, "9D")
    all_ready(state)
    assert {str(m) for m in state.legal_moves(0)} == {"7D"}


# ------------------------------------------------------------- the swaps
def test_everyone_swaps_at_once_and_nobody_sees_another_s_swaps() -> None:
    state = deal(TWO, "AS")
    assert state.to_act() == (0, 1)
    before_1 = state.view(1)
    before_spectator = state.view(None)
    events = state.play(0, Swap(parse_card("KS"), parse_card("6S")))
    assert hand(state, 0) == sorted(["10S", "JS", "QS", "6S"])
    assert texts(state.up[0]) == ["KS", "7S", "8S", "9S"]  # the new card takes the slot
    assert state.view(0).face_up[0] == ["KS", "7S", "8S", "9S"]
    # the others see the row as dealt, and no event at all
    assert state.view(1) == before_1 and state.view(None) == before_spectator
    assert visible_events(events, 1) == [] and visible_events(events, None) == []
    assert state.to_act() == (0, 1)  # swapping is not being ready


def test_when_all_are_ready_the_rows_are_shown_and_the_first_player_starts() -> None:
    state = deal(TWO, "AS", first_player="1")
    state.play(0, Swap(parse_card("KS"), parse_card("6S")))
    state.play(0, READY)
    assert state.to_act() == (1,)
    with pytest.raises(IllegalMove):
        state.play(0, Swap(parse_card("QS"), parse_card("7S")))
    events = state.play(1, READY)
    assert [e.kind for e in events] == ["ready", "reveal", "turn"]
    assert events[1].data.face_up[0] == ["KS", "7S", "8S", "9S"]
    view = state.view(1)
    assert view.phase == "play" and view.face_up[0] == ["KS", "7S", "8S", "9S"]
    # 6S left the dealt row: everyone knows it is in seat 0's hand
    assert view.known_in_hand == [["6S"], []]
    assert state.to_act() == (1,) and view.turn == 1


def test_swaps_are_limited_and_only_in_the_swap_phase() -> None:
    state = deal(TWO, "AS")
    ks, six = parse_card("KS"), parse_card("6S")
    for i in range(SWAP_LIMIT):
        state.play(0, Swap(ks, six) if i % 2 == 0 else Swap(six, ks))
    assert state.legal_moves(0) == [READY]
    with pytest.raises(IllegalMove, match="most allowed"):
        state.play(0, Swap(ks, six))
    with pytest.raises(IllegalMove, match="not in your hand"):
        state.play(1, Swap(ks, parse_card("6H")))
    with pytest.raises(IllegalMove, match="swap"):
        state.play(1, play("10H"))
    all_ready(state)
    with pytest.raises(IllegalMove, match="swaps are over"):
        state.play(0, Swap(parse_card("10S"), parse_card("7S")))


def test_first_player_is_random_by_default_and_can_be_named() -> None:
    firsts = {SPEC.new(SPEC.config(players=4), seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert SPEC.new(SPEC.config(players=4, first_player="2"), 5).turn == 2


# ---------------------------------------------------------- what may be played
def legal(state: StressState, seat: int | None = None) -> set[str]:
    return {str(m) for m in state.legal_moves(state.turn if seat is None else seat)}


def test_order_two_to_ace_any_suit_and_equal_ranks_follow() -> None:
    state = position(["QS KD AC 4H", "5S"], stack="KH")
    assert legal(state) == {"KD", "AC"}
    state = position(["QS KD AC 4H", "5S"], stack="AH")
    assert legal(state) == {"AC"}
    with pytest.raises(IllegalMove, match="may not go on a A"):
        state.play(0, play("KD"))


def test_several_cards_of_one_rank_from_one_source() -> None:
    state = position(["7S 7H 7D 9C", "5S"], stack="6C")
    moves = legal(state)
    assert {"7S", "7H", "7D", "7S+7H", "7S+7D", "7H+7D", "7S+7H+7D", "9C"} == moves
    state.play(0, play("7D 7S 7H"))
    assert texts(state.stack) == ["6C", "7S", "7H", "7D"]
    with pytest.raises(NotationError):
        SPEC.parse_move("7S+8S")


def test_a_two_may_always_be_played_and_anything_goes_on_it() -> None:
    state = position(["2C 4D", "5S"], stack="AS")
    assert legal(state) == {"2C"}
    state.play(0, play("2C"))
    assert legal(state, 1) == {"5S"}


def test_a_three_is_see_through() -> None:
    assert legal(position(["3C 4D QS KS", "5S"], stack="KH")) == {"3C", "KS"}
    assert legal(position(["4D QS KS", "5S"], stack="KH 3D")) == {"KS"}
    assert legal(position(["4D QS KS", "5S"], stack="KH 3D 3S")) == {"KS"}
    assert legal(position(["4D QS", "5S"], stack="3D")) == {"4D", "QS"}  # acts like a 2
    assert legal(position(["4D QS", "5S"], stack="2H 3D")) == {"4D", "QS"}
    assert legal(position(["4D QS 9S", "5S"], stack="9H 3D")) == {"4D"}  # below 9 through a 3


def test_a_nine_asks_for_a_rank_below_nine() -> None:
    state = position(["2C 3C 8S 9S 10S JS AS", "5S"], stack="9H")
    assert legal(state) == {"2C", "3C", "8S"}
    with pytest.raises(IllegalMove, match="below 9"):
        state.play(0, play("9S"))


def test_a_ten_needs_its_rank_and_burns_the_stack_and_its_player_goes_again() -> None:
    assert "10S" not in legal(position(["10S 4C", "5S"], stack="JH"))
    assert "10S" not in legal(position(["10S 4C", "5S"], stack="9H"))
    state = position(["10S 4C QC", "5S"], stack="4H 8H", stock="")
    cemetery = len(state.cemetery)
    events = state.play(0, play("10S"))
    assert state.stack == [] and len(state.cemetery) == cemetery + 3
    assert texts(state.cemetery[-3:]) == ["4H", "8H", "10S"]
    assert state.turn == 0 and legal(state) == {"4C", "QC"}  # a new stack, any card
    assert [e.kind for e in events] == ["play", "burn", "again"]


def test_the_burn_counts_its_cards_in_words() -> None:
    events = position(["10S 4C", "5S"]).play(0, play("10S"))
    assert events[1].text == "The 10 burns the stack: 1 card goes to the cemetery."
    events = position(["10S 4C", "5S"], stack="4H").play(0, play("10S"))
    assert events[1].text == "The 10 burns the stack: 2 cards go to the cemetery."


def test_ten_wild_puts_a_ten_on_anything() -> None:
    state = position(["10S JC", "5S"], stack="9H", ten_wild=True)
    assert legal(state) == {"10S"}
    assert "10S" in legal(position(["10S 4C", "5S"], stack="AH", ten_wild=True))


def test_an_eight_skips_the_next_player_and_several_eights_skip_one() -> None:
    three = ["8S 8H 4C", "5S", "6S"]
    state = position(three, stack="4H")
    events = state.play(0, play("8S"))
    assert state.turn == 2 and "skip" in [e.kind for e in events]
    state = position(three, stack="4H")
    state.play(0, play("8S 8H"))
    assert state.turn == 2
    # in two, the skipped player is the other one: the player of the 8 goes again
    state = position(["8S 4C", "5S"], stack="4H")
    state.play(0, play("8S"))
    assert state.turn == 0


def test_skip_per_eight_skips_one_player_per_eight() -> None:
    state = position(["8S 8H 4C", "5S", "6S", "7S"], stack="4H", skip_per_eight=True)
    state.play(0, play("8S 8H"))
    assert state.turn == 3


def test_an_eight_skips_the_next_player_still_in_the_game() -> None:
    state = position(["8S 4C", "", "6S KS", "7S"], up=["", "", "", ""], stack="4H")
    state.gone[1] = True
    state.finished = [1]
    state.play(0, play("8S"))
    assert state.turn == 3  # seat 1 is out; seat 2 is the one skipped


# ------------------------------------------------------------- picking up
def test_a_player_who_cannot_play_picks_up_and_the_next_starts_a_new_stack() -> None:
    state = position(["4C 5C", "6S 7S", "9D"], stack="8H QH")
    assert state.legal_moves(0) == [PICKUP]
    events = state.play(0, PICKUP)
    assert hand(state, 0) == sorted(["4C", "5C", "8H", "QH"])
    assert state.stack == [] and state.turn == 1
    assert legal(state) == {"6S", "7S"}  # any card on the new stack
    assert events[0].kind == "pickup" and events[0].data.cards == ["8H", "QH"]
    assert state.view(2).known_in_hand[0] == ["8H", "QH"]


def test_picking_up_when_able_to_play_is_refused_unless_allowed() -> None:
    state = position(["4C KC", "6S"], stack="8H")
    assert PICKUP not in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="can play"):
        state.play(0, PICKUP)
    state = position(["4C KC", "6S"], stack="8H", allow_voluntary_pickup=True)
    assert set(state.legal_moves(0)) == {play("KC"), PICKUP}
    state.play(0, PICKUP)
    assert hand(state, 0) == sorted(["4C", "KC", "8H"])
    empty = position(["4C", "5C"], stack="", allow_voluntary_pickup=True)
    assert PICKUP not in empty.legal_moves(0)
    with pytest.raises(IllegalMove, match="empty"):
        empty.play(0, PICKUP)


# ------------------------------------------------------------- drawing
def test_after_a_play_the_hand_is_refilled_to_four() -> None:
    state = position(["7S 7H 4C 9C", "5S"], stack="6C", stock="2D 3D 4D 5D")
    events = state.play(0, play("7S 7H"))
    assert hand(state, 0) == sorted(["4C", "9C", "2D", "3D"])
    draw = next(e for e in events if e.kind == "draw")
    assert draw.private_to == 0 and draw.data.cards == ["2D", "3D"]
    assert draw.redacted is not None and draw.redacted.data.to_json() == {"seat": 0, "count": 2}
    assert state.view(1).stock == 2


def test_draw_one_per_turn_draws_a_single_card() -> None:
    state = position(["7S 7H 4C 9C", "5S"], stack="6C", stock="2D 3D", draw_one_per_turn=True)
    state.play(0, play("7S 7H"))
    assert hand(state, 0) == sorted(["4C", "9C", "2D"])


def test_no_draw_after_a_pick_up_or_with_four_in_hand() -> None:
    state = position(["4C", "6S"], stack="8H", stock="2D 3D 4D")
    state.play(0, PICKUP)
    assert hand(state, 0) == sorted(["4C", "8H"]) and len(state.stock) == 3
    state = position(["7S 4C 9C JC 2C", "5S"], stack="6C", stock="2D")
    state.play(0, play("7S"))
    assert len(state.hands[0]) == 4 and len(state.stock) == 1


# -------------------------------------------------------------- the sources
def test_the_hand_comes_first_then_the_face_up_cards() -> None:
    state = position(["4C", "5S"], up=["KS KD 9H 6C", ""], stack="3H")
    assert legal(state) == {"4C"}
    with pytest.raises(IllegalMove, match="face up: play your hand first"):
        state.play(0, play("KS"))
    state = position(["", "5S"], up=["KS KD 9H 6C", ""], stack="8H")
    assert legal(state) == {"KS", "KD", "KS+KD", "9H"}
    state.play(0, play("KS KD"))
    assert texts(state.up[0]) == ["9H", "6C"]
    assert state.view(1).face_up[0] == ["9H", "6C"]
    assert state.view(1).sources[0] == "face_up"


def test_face_down_cards_come_last_and_are_played_blind_by_position() -> None:
    state = position(["", "5S"], up=["6C", ""], down=["4D 9D KD AD", ""], stack="")
    with pytest.raises(IllegalMove, match="face-down cards come last"):
        state.play(0, BLINDS[0])
    state = position(["", "5S 6S"], down=["4D 9D KD AD", ""], stack="3H")
    assert state.legal_moves(0) == list(BLINDS)
    events = state.play(0, Blind(2))
    assert events[0].kind == "blind" and events[0].data.card == "9D"
    assert texts(state.stack) == ["3H", "9D"]
    assert state.view(0).face_down[0] == [True, False, True, True]
    state.play(1, play("5S"))
    # slots are stable: blind 3 is still the KD
    assert state.legal_moves(0) == [BLINDS[0], BLINDS[2], BLINDS[3]]
    with pytest.raises(IllegalMove, match="already played"):
        state.play(0, Blind(2))
    state.play(0, Blind(3))
    assert texts(state.stack)[-1] == "KD"


def test_a_face_down_card_that_fails_is_picked_up_with_the_stack() -> None:
    state = position(["", "5S 6S"], down=["4D 9D KD AD", ""], stack="JH QH")
    events = state.play(0, Blind(1))
    assert events[0].kind == "blind_fails" and events[0].data.card == "4D"
    assert hand(state, 0) == sorted(["JH", "QH", "4D"])
    assert state.stack == [] and state.turn == 1
    assert sorted(state.view(1).known_in_hand[0]) == sorted(["JH", "QH", "4D"])
    # "even if you fail four times, each turn one face-down card was removed"
    assert state.view(1).face_down[0] == [False, True, True, True]


def test_one_cannot_refuse_a_blind_card_by_picking_up() -> None:
    state = position(["", "5S"], down=["4D 9D KD AD", ""], stack="JH")
    assert PICKUP not in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="face-down"):
        state.play(0, PICKUP)


def test_voluntary_pickup_may_replace_a_blind_card_and_counts_as_a_play() -> None:
    state = position(["", "5S"], down=["4D 9D KD AD", ""], stack="JH", allow_voluntary_pickup=True)
    assert set(state.legal_moves(0)) == {*BLINDS, PICKUP}
    plays = state.plays
    state.play(0, PICKUP)
    assert hand(state, 0) == ["JH"] and state.plays == plays + 1
    assert state.view(1).face_down[0] == [True] * 4  # no face-down card was turned


def test_a_failed_blind_card_counts_as_a_play_toward_the_limit() -> None:
    state = position(["", "5S"], down=["4D 9D KD AD", ""], stack="JH")
    state.plays = PLAY_LIMIT - 1
    state.play(0, Blind(1))
    outcome = state.outcome()
    assert state.is_over and outcome is not None and "2,000 plays" in outcome.reason


def test_an_eight_as_the_last_card_finishes_and_still_skips() -> None:
    state = position(["8S", "4C 5C", "6D 7D"], stack="4H")
    state.play(0, play("8S"))
    assert state.finished == [0] and state.turn == 2


# ------------------------------------------------------------- the end
def test_finishing_order_is_the_ranking_and_the_last_holding_cards_loses() -> None:
    state = position(["KS", "AS", "4C 5C"], stack="QH")
    events = state.play(0, play("KS"))
    assert "finish" in [e.kind for e in events] and state.finished == [0]
    assert state.turn == 1 and not state.is_over
    events = state.play(1, play("AS"))
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.ranking == ((0,), (1,), (2,)) and outcome.winner == 0
    assert outcome.scores == (0, 0, 2)
    assert "{p2 is|are} left holding cards" in outcome.reason
    assert events[-1].kind == "game_over"


def test_stop_at_first_ends_at_the_first_finisher_and_ranks_the_rest_by_cards() -> None:
    state = position(["KS", "4C 5C 6C", "7D"], stack="QH", stop_at_first=True)
    state.play(0, play("KS"))
    outcome = state.outcome()
    assert state.is_over and outcome is not None
    assert outcome.ranking == ((0,), (2,), (1,))


def test_a_ten_as_the_last_card_finishes_and_the_next_player_starts() -> None:
    state = position(["10S", "4C 5C", "6D"], stack="8H")
    state.play(0, play("10S"))
    assert state.finished == [0] and state.turn == 1 and state.stack == []


def test_finished_players_are_passed_over() -> None:
    state = position(["KS", "4C 5C", "6D 7D"], stack="QH")
    state.play(0, play("KS"))
    state.play(1, PICKUP)  # neither 4C nor 5C goes on a K
    assert state.turn == 2
    state.play(2, play("6D"))
    assert state.turn == 1


def test_the_game_ends_at_the_play_limit_ranked_by_cards_left() -> None:
    state = position(["4C 5C", "6S 7S 8S"], stack="3H")
    state.plays = PLAY_LIMIT - 1
    state.play(0, play("4C"))
    outcome = state.outcome()
    assert state.is_over and outcome is not None
    assert outcome.ranking == ((0,), (1,)) and "2,000 plays" in outcome.reason
    tied = position(["4C 5C", "6S"], stack="3H")
    tied.plays = PLAY_LIMIT - 1
    tied.play(0, play("4C"))
    outcome = tied.outcome()
    assert outcome is not None and outcome.winner is None and outcome.ranking == ((0, 1),)


def test_a_game_at_the_play_limit_says_so_and_one_played_out_does_not() -> None:
    capped = position(["4C 5C", "6S 7S 8S"], stack="3H")
    assert capped.stopped_by_limit() is None  # not over yet
    capped.plays = PLAY_LIMIT - 1
    capped.play(0, play("4C"))
    assert capped.stopped_by_limit() == "the 2,000-play limit (ranked by cards left)"
    assert capped.copy().stopped_by_limit() == capped.stopped_by_limit()
    # finishing on the 2,000th play is a finish, not the limit
    finished = position(["KS", "4C 5C"], stack="QH")
    finished.plays = PLAY_LIMIT - 1
    finished.play(0, play("KS"))
    assert finished.is_over and finished.stopped_by_limit() is None


def test_max_moves_bounds_swaps_and_plays() -> None:
    cfg = SPEC.config(players=3)
    assert SPEC.max_moves(cfg) == 3 * (SWAP_LIMIT + 1) + PLAY_LIMIT


# -------------------------------------------------------------- resigning
def test_resigning_with_two_players_gives_the_other_the_game() -> None:
    state = deal(TWO, "AS")
    state.play(1, RESIGN)
    outcome = state.outcome()
    assert state.is_over and outcome is not None and outcome.winner == 0
    assert outcome.ranking == ((0,), (1,))


def test_a_resigning_seat_drops_out_and_the_others_play_on() -> None:
    state = position(["4C", "5C 6C", "7C"], stack="3H", turn=1)
    cards_before = state.all_cards()
    events = state.play(1, RESIGN)
    assert state.turn == 2 and not state.is_over
    assert [e.kind for e in events] == ["resign", "turn"]
    assert state.all_cards() == cards_before  # its cards stay, out of play
    with pytest.raises(IllegalMove, match="resigned"):
        state.play(1, RESIGN)
    state.play(2, play("7C"))
    outcome = state.outcome()
    assert state.is_over and outcome is not None
    assert outcome.ranking == ((2,), (0,), (1,))


def test_a_resignation_during_the_swaps_can_start_the_play() -> None:
    seats = [*TWO, ("2D 3D 4D 5D", "6D 7D 8D 9D", "10D JD QD KD")]
    state = deal(seats, "AS", first_player="2")
    state.play(0, READY)
    state.play(1, READY)
    events = state.play(2, RESIGN)
    assert state.phase == 1 and state.turn == 0
    assert "reveal" in [e.kind for e in events]


# ------------------------------------------------------------------ views
def test_face_down_cards_are_in_no_view_not_even_their_owner_s() -> None:
    state = deal(TWO, "AS")
    down = set(texts(state.down[0] + state.down[1]))
    for seat in (0, 1, None):
        view = state.view(seat)
        assert not down & set(str(view).replace("'", " ").replace(",", " ").split())
        assert view.hand is None if seat is None else view.hand
    assert state.hidden_cards(0)["2S"] == 1  # its own face-down card too


def test_two_decks_equal_cards_play_together() -> None:
    state = position(["7H 7H 7S 4C", "5S", "5D", "6D", "4S"], stack="6C")
    moves = legal(state)
    assert {"7H", "7H+7H", "7S", "7S+7H", "7S+7H+7H", "4C"} - {"4C"} <= moves
    assert len([m for m in state.legal_moves(0) if type(m) is Play and m.rank == 7]) == 5
    state.play(0, play("7H 7H"))
    assert hand(state, 0) == sorted(["7S", "4C"])
    assert plays_of(tuple(sorted(cards("7H 7H")))) == [play("7H"), play("7H 7H")]


def test_determinize_keeps_known_cards_and_what_a_pick_up_revealed() -> None:
    # seat 1 could not play on the K: its unseen cards hold no 2, 3, K or A
    state = position(["4C 5C", "6S 7S 8D 9D", "JC"], stack="QH KH", turn=1, stock="")
    state.play(1, PICKUP)
    facts = state.facts[1]
    assert facts and all(mask & (1 << 13 | 1 << 1 | 1 << 2 | 1 << 3) == 0 for _, mask in facts)
    assert facts[0][1] != ALL_RANKS
    rng = random.Random(3)
    for _ in range(30):
        det = state.determinize(0, rng)
        assert det.view(0) == state.view(0)
        held = texts(det.hands[1])
        assert "QH" in held and "KH" in held
        others = [c for c in det.hands[1] if card_text(c) not in ("QH", "KH")]
        assert len(others) == 4 and all(c & 15 not in (1, 2, 3, 13) for c in others)


def test_determinize_reshuffles_face_down_cards_of_every_seat() -> None:
    state = deal(TWO, "AS")
    all_ready(state)
    seen = {texts(state.determinize(0, random.Random(i)).down[0])[0] for i in range(20)}
    assert len(seen) > 3


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("7h", Play((parse_card("7H"),))),
        ("7H+7S", make_play(cards("7S 7H"))),
        ("7h 7s", make_play(cards("7S 7H"))),
        ("blind 2", Blind(2)),
        ("BLIND3", Blind(3)),
        ("pickup", PICKUP),
        ("pick up", PICKUP),
        ("swap 7h qs", Swap(parse_card("7H"), parse_card("QS"))),
        ("ready", READY),
    ],
)
def test_notation_reads_every_move(text: str, move: object) -> None:
    parsed = SPEC.parse_move(text)
    assert parsed == move
    assert SPEC.parse_move(str(parsed)) == parsed


def test_notation_writes_canonical_text() -> None:
    assert str(make_play(cards("7C 7S 7H"))) == "7S+7H+7C"
    assert str(Blind(4)) == "blind 4"
    assert str(Swap(parse_card("10H"), parse_card("AS"))) == "swap 10H AS"


@pytest.mark.parametrize(
    "text", ["blind 5", "blind 0", "blind", "swap 7H", "7H+8H", "7H 7H 7H", "NS", "play 7H"]
)
def test_notation_refuses_what_is_no_move(text: str) -> None:
    with pytest.raises(NotationError) as err:
        SPEC.parse_move(text)
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------ clocks
def test_no_clock_by_default() -> None:
    state = deal(TWO, "AS")
    assert state.clock(0) is None


def test_the_swaps_have_their_own_clock_and_turns_time_out_to_the_cheapest_play() -> None:
    state = deal(TWO, "4D", timer=20, swap_timer=90)
    clock = state.clock(0)
    assert clock is not None and clock.seconds == 90 and clock.timeout_move == READY
    state.play(0, READY)
    assert state.clock(0) is None
    state.play(1, READY)
    clock = state.clock(0)
    assert clock is not None and clock.seconds == 20
    assert str(clock.timeout_move) == "JS"  # the weakest card that is not a 2, 3 or 10
    assert state.clock(1) is None
    turn = clock.turn
    state.play(0, clock.timeout_move)
    next_clock = state.clock(1)
    assert next_clock is not None and next_clock.turn != turn


def test_the_timeout_move_keeps_the_special_cards() -> None:
    state = position(["2S 3S 10S 9C QC", "5S"], stack="4H", timer=10)
    clock = state.clock(0)
    assert clock is not None and str(clock.timeout_move) == "9C"
    state = position(["2S 10S", "5S"], stack="4H", timer=10)
    clock = state.clock(0)
    assert clock is not None and str(clock.timeout_move) == "2S"


def test_a_rematch_is_started_by_the_last_player() -> None:
    state = position(["KS", "AS", "4C 5C"], stack="QH")
    state.play(0, play("KS"))
    state.play(1, play("AS"))
    outcome = state.outcome()
    assert outcome is not None
    assert SPEC.rematch_config(state.config, outcome).first_player == "2"


# ------------------------------------------------ the contract with a clock
def test_the_contract_holds_with_a_clock() -> None:
    """The contract suite runs the presets, which have no clock: here it runs
    once with one, so that every timeout move is checked legal."""
    ContractRun(Case("stress", "standard", 3, (("timer", 15),)), 11, 12, full_checks=120).run()
