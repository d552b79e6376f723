"""A Five-Card Trick view drawn for the replay viewer (Rich only, no theme)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Group, RenderableType
from rich.text import Text

from rules.trick.notation import ACTION_IDS
from rules.trick.view import TrickView
from rules.trick.words import TITLES, move_words
from tui.widgets.cards import CardStyle

from .words import player_lines, reveal_lines, round_text, seat_label, to_text, words_of


def describe(
    view: TrickView,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    """A Five-Card Trick view for the replay viewer: the board, the players, the
    last round revealed; with ``snapshot``, the submissions not yet revealed."""
    words = words_of(view)
    times = "x" if style.ascii else "×"
    last = snapshot["last"] if snapshot is not None else None
    if last and view.last_round is not None:
        # everything revealed: Block targets that stayed secret are shown too
        targets = [None if t < 0 else ACTION_IDS[t] for t in last["targets"]]
        revealed = msgspec.structs.replace(
            view.last_round, moves=list(last["moves"]), block_targets=targets
        )
        view = msgspec.structs.replace(view, last_round=revealed)
    chips = view.chips
    head = (
        f"{TITLES[view.names]} · "
        f"{seat_label(names, 0)} {chips[0]}, {seat_label(names, 1)} {chips[1]} · "
        f"pot {words.count(view.pot)} · {round_text(view)}"
    )
    parts: list[RenderableType] = [
        Text(head, style="bold"),
        to_text(player_lines(view, names, style.ascii)),
        Text(""),
        to_text(reveal_lines(view, names, (), times)),
    ]
    pending = snapshot["pending"] if snapshot is not None else None
    if pending:
        for s, move in enumerate(pending):
            if move is not None:
                # worded so that no verb must agree with a seat named You
                shown = move_words(move, words, times)
                parts.append(Text(f"Submitted by {seat_label(names, s)}: {shown}."))
    elif view.pending is not None and view.seat is not None:
        shown = move_words(view.pending, words, times)
        parts.append(Text(f"Submitted by {seat_label(names, view.seat)}: {shown}."))
    return Group(*parts)
