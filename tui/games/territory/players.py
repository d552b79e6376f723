"""The texts beside the grid: each player's best region with a checklist of
the values it holds, the counts, how the game ended. Pure functions of the
view, shared by the screen and the replay viewer."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.events import fill_names
from rules.game import Outcome
from rules.territory.view import TerritoryView
from tui.widgets.cards import CardStyle, card_label

from .grid import ORIENTATION_MARKS

VALUE_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "N"}


def value_name(value: int) -> str:
    return VALUE_NAMES.get(value, str(value))


def checklist(values: Collection[int], needed: Sequence[int]) -> str:
    """The values a winning region needs, those held shown, the rest ``·``."""
    return " ".join(value_name(v) if v in values else "·" * len(value_name(v)) for v in needed)


def region_lines(view: TerritoryView, names: Sequence[str]) -> list[str]:
    """Per player: orientation, best region, its checklist, cards in hand."""
    needed = view.values_to_win
    lines = []
    for seat, (name, region) in enumerate(zip(names, view.best_regions, strict=True)):
        held = region.values
        cards = "card" if region.size == 1 else "cards"
        lines.append(f"{name} ({ORIENTATION_MARKS[seat]} {view.orientation[seat]})")
        lines.append(
            f" best {len(held)}/{len(needed)} · {region.size} {cards}"
            f" · hand {view.hand_sizes[seat]}"
        )
        lines.append(" " + checklist(held, needed))
    return lines


def counts_line(view: TerritoryView, style: CardStyle) -> str:
    discards = view.discards
    top = f" (top {card_label(discards[-1], style)})" if discards else ""
    return f"Stock {view.stock} · discards {len(discards)}{top}"


def result_text(result: Outcome | None, names: Sequence[str], you: Collection[int] = ()) -> str:
    """How the game ended, in words: who won and why."""
    if result is None:
        return "The game is over."
    reason = fill_names(result.reason, names, you)
    if reason:  # the rules' reason names the winner already
        return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")
    if result.winner is None:
        return "A draw."
    return fill_names(f"{{p{result.winner} wins|win}}.", names, you)
