"""The pty driver's reading of a waiting prompt: news of other seats that
leaves the turn as it was may come after the prompt (the order of the two is
a race under load: CI saw Stress's computers ready after the swap prompt)."""

from __future__ import annotations

from .pty_driver import PROMPT_END, prompt_waiting

SWAP_PROMPT = (
    "Your turn. Choose 1 to 17, by group; type a number, or a move such as swap:\n"
    "17: ready (done swapping)\n" + PROMPT_END + "\n"
)


def test_a_prompt_followed_by_others_ready_is_still_waiting() -> None:
    news = "Computer 2 is ready.\nComputer 1 is ready.\nComputer 3 is ready.\n"
    assert prompt_waiting(SWAP_PROMPT + news)
    assert prompt_waiting(SWAP_PROMPT + "Bea has submitted.\n")


def test_a_prompt_followed_by_anything_else_is_not() -> None:
    assert not prompt_waiting(SWAP_PROMPT + "Everyone is ready. Face up: you 4S.\n")
    assert not prompt_waiting(SWAP_PROMPT + "Your hand: 4S, 5H.\n")
    assert not prompt_waiting("Computer 2 is ready.\n")
