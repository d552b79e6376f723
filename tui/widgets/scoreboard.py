"""The scoreboard: every seat's score, the difference (players settle on it), and
whatever else a game wants on the same line (target, round, deck). The seats
that must act now are marked (▸, ``>`` in ASCII), so whose turn it is shows
beside the scores, not only in the status line."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from tui.plain import plain


class Scoreboard(Widget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "scoreboard--name",
        "scoreboard--score",
        "scoreboard--extra",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._names: tuple[str, ...] = ()
        self._scores: tuple[int, ...] = ()
        self._extra: tuple[str, ...] = ()

    def set_scores(
        self,
        names: Sequence[str],
        scores: Sequence[int],
        extra: Sequence[str] = (),
        acting: Collection[int] = (),
        ascii: bool = False,
    ) -> None:
        """``acting``: the seats that must act now (marked)."""
        self._names = tuple(self.marked_names(names, acting, ascii))
        self._scores = tuple(scores)
        self._extra = tuple(plain(x) for x in extra)
        self.refresh()

    @staticmethod
    def marked_names(names: Sequence[str], acting: Collection[int], ascii: bool) -> list[str]:
        """The names as the scoreboard shows them: a mark before each seat to act,
        a space before the others (so nothing shifts when the turn passes)."""
        mark = ">" if ascii else "▸"
        return [(mark if i in acting else " ") + plain(n, 40) for i, n in enumerate(names)]

    @staticmethod
    def difference_text(names: Sequence[str], scores: Sequence[int]) -> str:
        if len(scores) != 2:
            return ""
        diff = scores[0] - scores[1]
        return f"difference {abs(diff)}"

    def render(self) -> Text:
        name = self.get_component_rich_style("scoreboard--name", partial=True)
        score = self.get_component_rich_style("scoreboard--score", partial=True)
        extra = self.get_component_rich_style("scoreboard--extra", partial=True)
        out = Text(no_wrap=True, overflow="ellipsis")
        diff = self.difference_text(self._names, self._scores)
        parts = ([diff] if diff else []) + list(self._extra)
        tail = "  │ " + " │ ".join(parts) if parts else ""
        names = fitted_names(self._names, self._scores, self.size.width - len(tail))
        for i, (n, s) in enumerate(zip(names, self._scores, strict=True)):
            if i:
                out.append(" ")
            out.append(f"{n} ", name)
            out.append(str(s), score)
        if tail:
            out.append(tail, extra)
        return out


# a name in the score line is never cut shorter than this (its mark included)
SHORTEST_NAME = 6


def fitted_names(names: Sequence[str], scores: Sequence[int], room: int) -> list[str]:
    """The (marked) names cut with "…", the longest first, until the names and
    scores fit ``room`` cells: however long a name (or wide its characters),
    the scores, the difference and the rest of the line stay in view."""
    fitted = list(names)

    def width() -> int:
        cells = sum(cell_len(n) + 1 + len(str(s)) for n, s in zip(fitted, scores, strict=False))
        return cells + max(0, len(fitted) - 1)

    while room > 0 and width() > room:
        longest = max(range(len(fitted)), key=lambda i: cell_len(fitted[i]))
        if cell_len(fitted[longest]) <= SHORTEST_NAME:
            break
        fitted[longest] = fitted[longest].removesuffix("…")[:-1] + "…"
    return fitted
