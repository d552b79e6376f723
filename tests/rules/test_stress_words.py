"""Stress moves in a person's words (rules/stress/words.py) and what a score
counts: exact texts, so a change of wording shows here, and every legal move
of real games told apart by its words."""

from __future__ import annotations

import random

from rules.game import RESIGN, GameSpec
from rules.registry import get_game
from rules.stress import BLINDS, PICKUP, READY, SPEC, SWAPS, StressView
from rules.stress.words import move_words
from tests.rules.test_stress import cards, play, position


def words(notation: str) -> str:
    return SPEC.move_words(SPEC.config(), notation)


def test_every_kind_of_move_in_words() -> None:
    assert words("5S+5H+5C") == "play 5S 5H 5C"
    assert words("7h") == "play 7H"  # read as the notation reads it
    assert words("blind 2") == "turn up face-down card 2"
    assert words("pickup") == "pick up the stack"
    assert words("swap 7H QS") == "swap 7H from the hand for face-up QS"
    assert words("ready") == "ready (done swapping)"
    assert words("resign") == "resign"


def test_with_the_view_the_words_say_where_the_cards_come_from_and_how_many() -> None:
    from_hand = position(["7H 9C", "4D"], stack="5S 6D 2C 6H")
    view = from_hand.view(0)
    assert isinstance(view, StressView)
    assert move_words(play("7H"), view) == "play 7H"
    assert move_words(PICKUP, view) == "pick up the stack (4 cards)"
    from_up = position(["", "4D"], up=["7H 7C", ""], stack="6H")
    view = from_up.view(0)
    assert isinstance(view, StressView)
    assert move_words(play("7H 7C"), view) == "play 7H 7C from the face-up cards"
    one = position(["4D", "5D"], stack="6H")
    view = one.view(0)
    assert isinstance(view, StressView)
    assert move_words(PICKUP, view) == "pick up the stack (1 card)"
    assert move_words(BLINDS[3], view) == "turn up face-down card 4"
    assert move_words(SWAPS[(cards("7H")[0], cards("QS")[0])]) == (
        "swap 7H from the hand for face-up QS"
    )
    assert move_words(READY, view) == "ready (done swapping)"
    assert move_words(RESIGN, view) == "resign"


def test_the_legal_moves_of_random_games_each_have_words_of_their_own() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = SPEC.new(SPEC.config(players=3), seed)
        while not state.is_over and state.plays < 150:
            seat = state.to_act()[0]
            moves = state.legal_moves(seat)
            view = state.view(seat)
            assert isinstance(view, StressView)
            said = [move_words(m, view) for m in moves]
            assert len(set(said)) == len(said), said  # no two moves read alike
            for move, text in zip(moves, said, strict=True):
                assert text == move_words(move, view) and text.strip() == text
                assert words(str(move)) in text  # the words without a view, or more
            checked += len(moves)
            state.play(seat, rng.choice(moves))
    assert checked > 500


def test_a_score_is_cards_left_and_fewer_is_better() -> None:
    assert SPEC.score_label(SPEC.config()) == "cards left (fewer is better)"
    # the contract's default, for a game whose scores are points
    default = GameSpec.score_label(get_game("domination"), get_game("domination").config())
    assert default == "points"
