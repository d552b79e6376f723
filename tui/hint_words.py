"""A hint in words: each legal move with its estimated chance to win, the
likeliest first (headless: the hint dialog shows it, and line mode prints it)."""

from __future__ import annotations

from collections.abc import Callable

from net.client import Hint

SHOWN = 8  # moves listed at most: the best ones


def hint_text(
    hint: Hint,
    show: Callable[[str], str],
    words: Callable[[str], str] = lambda move: move,
    best_mark: str = "",
) -> list[str]:
    """Each move in ``words`` (the game's, ``GameSpec.move_words``), its cards
    drawn by ``show``, with its estimated chance to win (and expected points
    where the game reads them so), the likeliest win first: "Best" is the top
    of the list, marked ``best_mark`` (``>`` where that is empty)."""
    moves = sorted(
        hint.moves,
        key=lambda m: (m.win_chance, m.points if m.points is not None else 0.0),
        reverse=True,
    )
    if not moves:
        return ["No move to weigh."]

    def shown(move: str) -> str:
        return show(words(move))

    width = max(len(shown(m.move)) for m in moves[:SHOWN])
    lines = [f"Best: {shown(moves[0].move)}", ""]
    for i, estimate in enumerate(moves[:SHOWN]):
        move = shown(estimate.move).ljust(width)
        chance = f"{round(estimate.win_chance * 100):>3}% to win"
        points = f"   {estimate.points:+.1f} points" if estimate.points is not None else ""
        mark = (best_mark or ">") if i == 0 else " "
        lines.append(f"{mark} {move}  {chance}{points}")
    if len(moves) > SHOWN:
        lines.append(f"  ... and {len(moves) - SHOWN} more")
    lines += ["", f"Hints taken this game: {hint.used}. Estimates from sampled deals."]
    return lines
