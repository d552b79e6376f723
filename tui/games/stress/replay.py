"""A Stress position as text, for the replay viewer (``tui.games.describer``).

Without ``snapshot`` it shows exactly what the view shows its seat (the
replay's "seen by" secrecy). With one, which the viewer passes only for a
finished game seen with everything revealed, it adds from the snapshot the
cards no view carries: every hand (``hands``), the face-down cards
(``face_down``) and the stock (``stock``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from rules.stress import StressView
from rules.views import View
from tui.plain import plain
from tui.seating import YOU_NAME
from tui.widgets.cards import CardStyle

from .words import cards_text, opponent_line, stack_caption, whose


def describe(
    view: View,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> Text:
    """A Stress view as text for replays (with ``snapshot``: everything revealed)."""
    assert isinstance(view, StressView), "the replay of a stress game gives stress views"
    names = [plain(n, 20) for n in names]
    lines = []
    if scores:
        lines.append(
            "Cards left: " + "  ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
        )
    lines.append(stack_caption(view, style))
    lines.append("Stack (bottom to top): " + cards_text(view.stack, style))
    for seat in range(view.players):
        lines.append(opponent_line(view, seat, names, style, 200).strip())
    if view.seat is not None and view.hand is not None:
        # the seat named You (the replay's own person) reads "Your hand"
        you = [s for s, name in enumerate(names) if name == YOU_NAME]
        lines.append(f"{whose(view.seat, names, you)} hand: {cards_text(view.hand, style)}")
    if snapshot is not None:
        lines += ["", "Revealed:"]
        for seat, hand in enumerate(snapshot["hands"]):
            down = cards_text([card or "-" for card in snapshot["face_down"][seat]], style)
            lines.append(f"{names[seat]}: hand {cards_text(hand, style)} · face down {down}")
        lines.append(f"Stock (next to draw last): {cards_text(snapshot['stock'], style)}")
    return Text("\n".join(lines))
