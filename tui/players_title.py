"""Who plays, for a game screen's title: every name where it fits the header
at 80 columns ("You vs Computer (medium)"), else the people by name and the
computers counted ("You vs 3 computers (medium)"), never cut mid-name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class SeatInfo(Protocol):
    """A seat as a table or a saved game knows it."""

    @property
    def kind(self) -> str: ...
    @property
    def level(self) -> str | None: ...


# what the header leaves the subtitle at 80 columns: 80 less its icon (8) and
# clock (10) columns and "cardtable — " (12); tests/tui/test_fit.py checks it
TITLE_ROOM = 50


def players_title(names: Sequence[str], seats: Sequence[SeatInfo], room: int = TITLE_ROOM) -> str:
    full = " vs ".join(
        f"{name} ({s.level})" if s.kind == "bot" and s.level else name
        for name, s in zip(names, seats, strict=True)
    )
    if len(full) <= room:
        return full
    people = [name for name, s in zip(names, seats, strict=True) if s.kind != "bot"]
    levels = [s.level for s in seats if s.kind == "bot"]
    parts = list(people)
    if levels:
        shown = sorted(set(filter(None, levels)))
        count = "a computer" if len(levels) == 1 else f"{len(levels)} computers"
        parts.append(f"{count} ({', '.join(shown)})" if shown else count)
    short = " vs ".join(parts)
    if len(short) <= room:
        return short
    # the names without the computers' levels ("You vs Computer"), then the
    # computers counted without them ("You vs 3 computers"): who plays says more
    # than a count of players
    bare = " vs ".join(names)
    if len(bare) <= room:
        return bare
    if levels:
        counted = " vs ".join(
            [*people, "a computer" if len(levels) == 1 else f"{len(levels)} computers"]
        )
        if len(counted) <= room:
            return counted
    return f"{len(seats)} players"
