"""The result of a game in words: who won, why, the places and the scores
(headless: the game-over dialog shows it, and line mode prints it)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.events import fill_names
from rules.game import Outcome
from tui.plain import plain
from tui.save_words import ordinal

__all__ = ["places", "result_text"]


def places(outcome: Outcome, players: int) -> list[tuple[str, int]]:
    """(finishing place, seat) in the ranking's order: tied seats share a
    place ("=2nd"); seats the ranking leaves out follow, unplaced."""
    rows: list[tuple[str, int]] = []
    place = 1
    for group in outcome.ranking:
        seats = [s for s in group if 0 <= s < players]
        shown = ("=" if len(seats) > 1 else "") + ordinal(place)
        rows += [(shown, s) for s in seats]
        place += len(seats)
    placed = {s for _, s in rows}
    rows += [("", s) for s in range(players) if s not in placed]
    return rows


def result_text(
    outcome: Outcome,
    names: Sequence[str],
    hints: Sequence[int] = (),
    you: Collection[int] = (),
    score_label: str = "points",
    resigned: Collection[int] = (),
) -> str:
    """The result in words: plain text, whatever the names and the reason hold
    (``you``: the seats addressed in the second person). The scores in a
    labelled column (``score_label``: what they count), each name with its
    finishing place; ``resigned``: seats that resigned, named with the reason
    when it does not say so itself."""
    names = [plain(n, 40) for n in names]
    winner = outcome.winner
    scores = list(outcome.scores)
    lines = []
    if winner is not None and 0 <= winner < len(names):
        lines.append(fill_names(f"{{p{winner} wins|win}}.", names, you))
    elif outcome.is_draw:
        lines.append("A draw.")
    else:
        lines.append("The game is over.")
    reasons = [outcome.render(names, you)] if outcome.reason else []
    reasons += [
        fill_names(f"{{p{seat}}} resigned", names, you)
        for seat in sorted(set(resigned))
        if 0 <= seat < len(names) and outcome.reason != f"{{p{seat}}} resigned"
    ]
    if reasons:
        lines.append(f"({plain('; '.join(reasons))})")
    if scores and len(scores) == len(names):
        label = plain(score_label, 40)
        label = label[:1].upper() + label[1:]  # a heading, as "Place" beside it
        width = max(6, len(label))
        lines.append("")
        # no line starts with a space: a dialog's text drops leading blanks
        lines.append(f"{'Place':<6}{'':<20}{label:>{width}}")
        lines += [
            f"{place or '-':<6}{names[seat]:<20}{scores[seat]:>{width}}"
            for place, seat in places(outcome, len(names))
        ]
        if len(scores) == 2:
            lines.append(f"{'Difference':<26}{abs(scores[0] - scores[1]):>{width}}")
    taken = [
        f"{name}: {n} hint{'s' if n != 1 else ''}"
        for name, n in zip(names, hints, strict=False)
        if n
    ]
    if taken:
        lines += ["", "Hints taken: " + ", ".join(taken) + "."]
    return "\n".join(lines)
