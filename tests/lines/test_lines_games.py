"""Whole games in line mode through a pty: no escape byte, every prompt lists
its choices, hot-seat shows nothing of the other hand before the hand-off.
One game runs by default (the fastest); the rest are marked slow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .pty_driver import CHOICES, LineRun, listed_numbers, play_to_the_end

GAMES = [
    # the default run's one whole game: Domination to 15 points (a few seconds)
    pytest.param("domination", ["--option", "target_score=15"], id="domination"),
    pytest.param("domination", [], id="domination-to-100", marks=pytest.mark.slow),
    pytest.param("stress", [], id="stress", marks=pytest.mark.slow),
    pytest.param("territory", [], id="territory", marks=pytest.mark.slow),
    pytest.param("trick", [], id="trick", marks=pytest.mark.slow),
]


def check_prompts(prompts: list[str]) -> None:
    """Every turn's prompt lists each of its choices, or says how to hear it."""
    for text in prompts:
        if "your turn" not in text.lower() or text.rstrip().endswith("choices again)."):
            continue  # (a reminder: Enter lists them again)
        counts = CHOICES.findall(text)
        assert counts, text
        n = int(counts[-1])
        turn = text[text.lower().rindex("your turn") :]
        assert listed_numbers(turn) == set(range(1, n + 1)), f"choices not all listed: {turn}"


@pytest.mark.parametrize(("game", "extra"), GAMES)
def test_a_whole_game_against_the_computer(
    game: str, extra: list[str], dirs: tuple[Path, Path]
) -> None:
    data, config = dirs
    run = LineRun(
        ["--lines", "play", game, "--seed", "7", "--vs", "computer:easy", *extra], data, config
    )
    prompts = play_to_the_end(run)
    assert run.close() == 0
    assert b"\x1b" not in run.output
    assert "The game is over." in run.text
    check_prompts(prompts)
    assert any("your turn" in p.lower() for p in prompts)


@pytest.mark.slow
def test_hot_seat_shows_no_hand_before_the_hand_off(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    run = LineRun(["--lines", "play", "domination", "--seed", "5", "--vs", "human"], data, config)
    prompts = play_to_the_end(run)
    run.close()
    assert b"\x1b" not in run.output
    # between two hand-offs only one player's turn is shown, and that player
    # is the one the last hand-off named
    text = run.text
    chunks = re.split(r"Pass the keyboard to (Player \d)\.", text)
    assert len(chunks) > 3, "hand-offs happened"
    assert "Your hand" not in chunks[0] and "your turn" not in chunks[0].lower()
    for player, after in zip(chunks[1::2], chunks[2::2], strict=True):
        other = "Player 2" if player == "Player 1" else "Player 1"
        assert f"{other}'s hand" not in after
        assert f"{other}, your turn" not in after
    check_prompts(prompts)
