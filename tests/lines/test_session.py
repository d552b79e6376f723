"""Line mode's table in process (fast): a scripted player answers each prompt
as it is written; the same TableSession the command runs."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest

from net.local import open_table
from rules.registry import get_game, shipped
from tui.lines.cards import name_cards
from tui.lines.io import LineIO
from tui.lines.table import TableSession
from tui.seating import build_seats, kinds_from_vs


class ScriptedIO(LineIO):
    """Lines written are kept; each line read is ``answer(lines so far)``."""

    def __init__(self, answer: Callable[[list[str]], str | None]) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.answer = answer
        self.said = asyncio.Event()

    def say(self, *texts: str) -> None:
        for text in texts:
            self.lines += text.split("\n")
        self.said.set()

    async def line(self) -> str:
        # a person answers what they have read: wait for the next prompt
        while (reply := self.answer(self.lines)) is None:
            self.said.clear()
            await self.said.wait()
        self.lines.append(f"> {reply}")
        return reply


def at_prompt(lines: list[str]) -> bool:
    last = lines[-1] if lines else ""
    return last.startswith("Or: list") or bool(re.search(r"your turn: choose 1 to", last, re.I))


def first_choice(lines: list[str]) -> str | None:
    last = lines[-1] if lines else ""
    if last.endswith("when you have the keyboard."):
        return ""
    return "1" if at_prompt(lines) else None


def table(game: str, vs: str, seed: int = 3, **options: object) -> TableSession:
    spec = get_game(game)
    config = spec.config(None, **options)
    seats, mine = build_seats(kinds_from_vs(vs, config.players), spec.seat_names(config))
    return open_table(None, game, config, seats, mine, seed=seed)  # type: ignore[return-value]


HOT_SEAT = [
    pytest.param("domination", {"target_score": 30}, id="domination"),
    pytest.param("trick", {}, id="trick", marks=pytest.mark.slow),
    pytest.param("territory", {}, id="territory", marks=pytest.mark.slow),
    pytest.param("stress", {"players": 2}, id="stress", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("game", "options"), HOT_SEAT)
async def test_hot_seat_writes_nothing_of_the_other_hand_before_the_hand_off(
    game: str, options: dict[str, object]
) -> None:
    io = ScriptedIO(first_choice)
    client = table(game, "human", **options)
    session = TableSession(client, io, "letters")
    assert await session.run() == "over"
    text = "\n".join(io.lines)
    assert "\x1b" not in text
    parts = re.split(r"^Pass the keyboard to (Player \d)\.$", text, flags=re.M)
    assert len(parts) >= 5  # hand-offs, turn after turn
    assert "hand" not in parts[0] and "your turn" not in parts[0]
    for player, after in zip(parts[1::2], parts[2::2], strict=True):
        others = [f"Player {n}" for n in range(1, 5) if f"Player {n}" != player]
        for other in others:
            assert f"{other}'s hand" not in after and f"{other}, your turn" not in after
            assert not re.search(rf"^{other} draws (10|[2-9AJQK])[SHDC]\b", after, re.M), after
            assert not re.search(rf"^{other} (submits|takes) ", after, re.M), after
    assert "The game is over." in text


async def test_every_prompt_lists_its_choices_and_bad_input_gets_one_line() -> None:
    answers = iter(["xyz", "99", "hand", "table", "scores", "help"])

    def answer(lines: list[str]) -> str | None:
        return next(answers, "1") if at_prompt(lines) else None

    io = ScriptedIO(answer)
    client = table("domination", "computer:easy", target_score=15)
    session = TableSession(client, io, "words")
    assert await session.run() == "over"
    text = "\n".join(io.lines)
    at = text.index("> xyz\n")
    assert text[at:].split("\n")[1].startswith("Not a move or a command: 'xyz'. Type a number")
    assert "There is no choice 99. Type a number from 1 to" in text
    assert re.search(r"^Your hand: .+ of (spades|hearts|diamonds|clubs)", text, re.M)
    assert re.search(r"^Round \d", text, re.M)  # the table, in the rules' words
    assert re.search(r"^Scores \(points\): You \d+, Computer \d+\.$", text, re.M)
    for prompt in re.finditer(r"Choose 1 to (\d+), or type a move:\n((?:.*\n)*?)Or: ", text):
        n = int(prompt.group(1))
        listed = re.findall(r"^(\d+): \S", prompt.group(2), re.M)
        assert listed == [str(i) for i in range(1, n + 1)]
    assert re.search(r"^1: play (ace|king|queen|jack|\d+) of ", text, re.M)


@pytest.mark.parametrize("game", shipped())
async def test_every_game_describes_its_table_in_lines(game: str) -> None:
    spec = get_game(game)
    for preset in spec.presets:
        config = spec.config(preset)
        state = spec.new(config, 1)
        names = spec.seat_names(config)
        for seat in [*range(config.players), None]:
            lines = spec.table_lines(state.view(seat), names, {0})
            assert lines and all(isinstance(line, str) and line.strip() for line in lines)
            assert not any("{p" in line for line in lines)  # every seat named


def test_cards_are_named_in_words_letters_or_symbols() -> None:
    said = "Computer plays 7H. You draw 10S QD AS. (KC) is high; as is AS"
    assert name_cards(said) == (
        "Computer plays 7 of hearts. You draw 10 of spades, queen of diamonds, ace of spades. "
        "(king of clubs) is high; as is ace of spades"
    )
    assert name_cards("play 4S", "letters") == "play 4S"
    assert name_cards("play 4S", "symbols") == "play 4♠"
