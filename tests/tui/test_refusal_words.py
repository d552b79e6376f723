"""A refused move reads as sentences with one colon (D41)."""

from __future__ import annotations

from tui.table.refusals import refusal_text, sentences


def test_a_refusal_has_one_colon_and_names_the_card_once() -> None:
    reason = "AH is lower than 7D: play a card of rank 7 or higher"
    assert refusal_text("AH", reason) == (
        "You cannot play AH: it is lower than 7D. Play a card of rank 7 or higher."
    )


def test_a_one_part_reason_is_left_whole() -> None:
    assert refusal_text("5S", "it is not your turn.") == "You cannot play 5S: it is not your turn."


def test_a_reason_not_about_the_move_reads_as_two_sentences() -> None:
    # "Not played: …" / "Not resigned: …" when the link to a network table is down
    assert sentences("the connection to the server is down: wait until it is back") == (
        "the connection to the server is down. Wait until it is back."
    )
    assert sentences("the table is closed.") == "the table is closed."
