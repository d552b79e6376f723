"""A hint in words, headless: the advice's lines (``rules.bots.advice``: each
choice with its chance to win and the error of it, best first), what the
figures can tell, and where they come from. The hint dialog shows it with its
cards drawn, and line mode prints it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from net.client import Hint, HintEstimate
from rules.bots.advice import advice_lines, error_words

SHOWN = 8  # choices listed at most: the best ones


def hint_source(choices: Sequence[HintEstimate]) -> str:
    """Where the figures come from, in a sentence."""
    if choices and choices[0].share is not None:
        return "Solved round by round."
    return "From sampled deals."


def hint_text(
    hint: Hint,
    show: Callable[[str], str],
    words: Callable[[str], str] = lambda move: move,
    best_mark: str = "",
) -> list[str]:
    """The hint's lines, each choice in ``words`` (the game's,
    ``GameSpec.move_words``) with its cards drawn by ``show``; "Best" is the
    top of the list, marked ``best_mark`` (``>`` where that is empty)."""
    lines = advice_lines(hint.moves, lambda move: show(words(move)), SHOWN)
    if not hint.moves:
        return lines
    if best_mark:
        lines = [(best_mark + line[1:]) if line.startswith(">") else line for line in lines]
    return [
        *lines,
        "",
        error_words(hint.moves),
        f"Hints taken this game: {hint.used}. {hint_source(hint.moves)}",
    ]
