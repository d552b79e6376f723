"""A saved game's result in words (tui/save_words.py): the reason's seat
placeholders filled with the names, never printed as braces, and a short
Status that says the result from the side of the player named "You"."""

from __future__ import annotations

from typing import Any

import pytest

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo
from tui.save_words import STATUS_ROOM, result_sentence, result_words

YOU = SeatInfo("You", "human")
COMPUTER = SeatInfo("Computer", "bot", "hard")
COMPUTERS = [SeatInfo(f"Computer {i}", "bot", "medium") for i in (1, 2, 3)]


def finished(
    game: str,
    seats: list[SeatInfo],
    result: dict[str, Any],
    moves: list[tuple[int, str]] = (),  # type: ignore[assignment]
) -> GameRecord:
    spec = get_game(game)
    record = GameRecord.new(game, spec.config(players=len(seats)) if game == "stress" else
                            spec.config(), 1, seats)  # fmt: skip
    record.moves = list(moves)
    record.status, record.result = "finished", result
    return record


STRESS_4 = {
    "winner": 1,
    "ranking": [[1], [2], [0], [3]],
    "scores": [12, 0, 0, 13],
    "reason": "{p1} finished first; {p3 is|are} left holding cards",
}


def test_a_stress_reason_names_the_seats_and_keeps_no_braces() -> None:
    record = finished("stress", [YOU, *COMPUTERS], STRESS_4)
    text = result_sentence(record)
    assert text == "Computer 1 won (Computer 1 finished first; Computer 3 is left holding cards)"
    assert result_words(record) == "3rd of 4"


def test_you_are_addressed_and_a_resignation_is_named() -> None:
    result = {**STRESS_4, "winner": 1, "ranking": [[1], [2], [3], [0]],
              "reason": "{p1} finished first; {p0 is|are} left holding cards"}  # fmt: skip
    record = finished("stress", [YOU, *COMPUTERS], result, moves=[(0, "resign")])
    assert result_sentence(record) == (
        "Computer 1 won (Computer 1 finished first; you are left holding cards; you resigned)"
    )
    assert result_words(record) == "4th (resigned)"


@pytest.mark.parametrize(
    ("result", "moves", "words"),
    [
        ({"winner": 0, "ranking": [[0], [1]], "scores": [33, 12], "reason": "more chips"},
         [], "won 33-12"),
        ({"winner": 1, "ranking": [[1], [0]], "scores": [13, 37], "reason": "more chips"},
         [], "lost 13-37"),
        ({"winner": None, "ranking": [[0, 1]], "scores": [20, 20], "reason": "level"},
         [], "drew 20-20"),
        # the scores of a resigned game say nothing: "finished 0-0" was all it said
        ({"winner": 1, "ranking": [[1], [0]], "scores": [0, 0], "reason": "{p0} resigned"},
         [(0, "resign")], "lost (resigned)"),
        ({"winner": 0, "ranking": [[0], [1]], "scores": [13, 0], "reason": "{p1} resigned"},
         [(1, "resign")], "won by forfeit"),
    ],
)  # fmt: skip
def test_a_two_seat_game_is_won_or_lost_from_your_side(
    result: dict[str, Any], moves: list[tuple[int, str]], words: str
) -> None:
    assert result_words(finished("trick", [YOU, COMPUTER], result, moves)) == words


def test_fewer_is_better_scores_are_left_out() -> None:
    # two-seat Stress counts cards left: "won 0-12" would read as a loss
    result = {
        "winner": 0,
        "ranking": [[0], [1]],
        "scores": [0, 12],
        "reason": "{p0} finished first",
    }
    assert result_words(finished("stress", [YOU, COMPUTER], result)) == "won"


def test_the_first_of_several_won() -> None:
    result = {**STRESS_4, "winner": 0, "ranking": [[0], [1], [2], [3]]}
    assert result_words(finished("stress", [YOU, *COMPUTERS], result)) == "won, 1st of 4"


def test_without_a_you_the_winner_is_named_and_a_long_name_gives_way() -> None:
    people = [SeatInfo("Player 1", "human"), SeatInfo("Player 2", "human")]
    result = {"winner": 0, "ranking": [[0], [1]], "scores": [30, 0], "reason": ""}
    assert result_words(finished("domination", people, result)) == "Player 1 won"
    assert result_words(finished("domination", people, result), room=30) == "Player 1 won 30-0"
    long = [SeatInfo("Ada Lovelace-Byron of Ockham", "remote"), *COMPUTERS]
    words = result_words(finished("stress", long, {**STRESS_4, "winner": 0,
                                                   "ranking": [[0], [1], [2], [3]]}))  # fmt: skip
    assert words.endswith("… won") and len(words) == STATUS_ROOM, words
    assert result_sentence(finished("stress", long, STRESS_4)).startswith("Computer 1 won (")
