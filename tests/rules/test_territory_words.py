"""Territory's moves in a person's words (rules/territory/words.py): every
kind of move, through the contract's ``move_words`` and with the grid known."""

from __future__ import annotations

import re

import pytest

from rules.territory import SPEC, parse_move
from rules.territory.words import move_words, move_words_on

CONFIG = SPEC.config()


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("explore 7C 2,-1", "explore a 7 at 2,-1"),
        ("conquer 9C 2,1", "conquer 2,1 with a 9"),
        ("blitz 8S 3,1", "blitz 3,1 with an 8"),
        ("fortify KS 0,0", "fortify 0,0 with a K"),
        ("discard AH", "discard an A, taking nothing"),
        ("stop", "stop the blitz"),
        ("pass", "pass: nothing can be played"),
    ],
)
def test_every_kind_of_move_has_words(notation: str, words: str) -> None:
    assert SPEC.move_words(CONFIG, notation) == words
    assert move_words(parse_move(notation)) == words


def test_the_words_read_any_spelling_the_notation_reads() -> None:
    assert SPEC.move_words(CONFIG, "Explore 10h 0, -1") == "explore a 10 at 0,-1"


def test_with_the_grid_known_the_words_name_the_cards() -> None:
    # the seed's figure: 8 and 9 side by side on row 1, a 2 above the 9; the
    # cards named as the grid labels them, value and owner's mark (N19)
    grid = {(1, 1): "8-", (2, 1): "9|", (2, 0): "2-", (3, 1): "6|"}
    assert move_words_on(parse_move("conquer 8C 2,1"), grid) == "conquer 9| at 2,1 with an 8"
    assert move_words_on(parse_move("blitz 9S 3,1"), grid) == "blitz 6| at 3,1 with a 9"
    assert move_words_on(parse_move("fortify KS 1,1"), grid) == "fortify 8- at 1,1 with a K"
    # an empty cell is named by a card beside it, on the side the cell lies
    assert move_words_on(parse_move("explore 7C 0,1"), grid) == "explore a 7 at 0,1, left of 8-"
    assert move_words_on(parse_move("explore 7C 4,1"), grid) == "explore a 7 at 4,1, right of 6|"
    assert move_words_on(parse_move("explore 7C 2,-1"), grid) == "explore a 7 at 2,-1, above 2-"
    assert move_words_on(parse_move("explore 7C 1,2"), grid) == "explore a 7 at 1,2, below 8-"
    assert move_words_on(parse_move("stop"), grid) == "stop the blitz"


def test_every_legal_move_of_a_game_has_words_of_its_own() -> None:
    state = SPEC.new(CONFIG, seed=3)
    seat = state.to_act()[0]
    moves = [str(m) for m in state.legal_moves(seat)]
    words = {SPEC.move_words(CONFIG, m) for m in moves}
    # no two moves read alike, unless they differ by a suit alone (which never counts)
    values = {m.replace("S", "").replace("H", "").replace("D", "").replace("C", "") for m in moves}
    assert len(words) == len(values)
    assert not any(re.search(r"\b(10|[2-9AJQK])[SHDC]\b", w) for w in words), words
    # short enough for the hint's line beside its odds at 80 columns
    assert max(len(w) for w in words) <= 30
