"""What the status line of a table screen says when nothing else needs
saying (:func:`turn_text`): whose move it is, who thinks, and whom a table
elsewhere waits for."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.table.side import TableSide


def turn_text(screen: TableSide, waiting_words: Callable[[int], str | None]) -> str:
    """``waiting_words(seat)``: why a table elsewhere waits for ``seat`` (the
    link's words), or None."""
    update = screen.update
    if screen.over:
        return "The game is over."
    if update.thinking:
        names = ", ".join(screen.seat_name(s) for s in update.thinking)
        return f"{names} {'is' if len(update.thinking) == 1 else 'are'} thinking…"
    connected = update.connected
    empty = [s for s in range(len(screen.names)) if connected and s not in connected]
    if empty and update.state_id == 0:
        # a table elsewhere starts once every seat is taken
        invited = [waiting_words(s) for s in empty]
        if all(invited):
            return f"Waiting for {', '.join(filter(None, invited))}."
        who = ", ".join(screen.seat_name(s) for s in empty)
        return f"Waiting for {who} to sit down: the game starts when every seat is taken."
    if screen.my_turn:
        return f"{screen.seat_name(screen.seat)}: your move."
    acting = update.to_act
    away = [s for s in acting if connected and s not in connected]
    if away:
        # a table elsewhere: a player away (for how long), or a seat nobody has
        # taken yet, or whose player dropped
        words = [waiting_words(s) for s in away]
        if all(words):
            return f"Waiting for {', '.join(filter(None, words))}."
        who = ", ".join(screen.seat_name(s) for s in away)
        return f"Waiting for {who}: nobody is at that seat yet (or they dropped)."
    if acting:
        return f"Waiting for {', '.join(screen.seat_name(s) for s in acting)}."
    return ""
