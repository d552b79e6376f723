"""The Territory screen: the grid of cards as a viewport that follows play and
can be panned, a cursor to place with, the hand, each player's best region
with a checklist of the values it holds, and the counts.

Every card on the grid shows its value and its owner twice: by colour and by
an orientation mark, ``-`` horizontal (player 1) and ``|`` vertical (player 2),
so the grid reads without colour. A fortified card carries the royal's letter
after the mark (``4-K``). Marks in front of a card or on an empty cell say
what the chosen hand card can do there: ``+`` a legal cell (explore, conquer,
blitz, fortify), ``*`` a card of yours it matches (where a conquest comes
from), ``>`` the card just taken in a Blitz.

Keys: 1-5 or Tab choose a hand card (a click on it too; choosing one puts the
cursor on the nearest cell it may go to), the arrows move the cursor, n jumps
to the next legal cell, Enter plays the chosen card on the cursor's cell
(asking when several moves fit); a click on a legal cell plays there, on
another cell moves the cursor. Shift+arrows or H J K L pan the view, c
centres it; p stops a Blitz or passes; m lists every legal move, so none is
ever out of reach.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.events import fill_names
from rules.territory.state import CellView, TerritoryView
from rules.views import View
from tui.styles import TABLE
from tui.widgets.cards import CardFace, CardRow, CardStyle, card_label
from tui.widgets.event_log import EventLog
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

from .base import GameScreen

if TYPE_CHECKING:
    from textual._path import CSSPathType

TERRITORY_CSS = Path(__file__).with_name("territory.tcss")

Cell = tuple[int, int]
# a piece of a line and its role (how it is styled); every role colour shows is
# also a character on screen
Segment = tuple[str, str]
Line = list[Segment]

ORIENTATION_MARKS = ("-", "|")  # seat 0 horizontal, seat 1 vertical
VALUE_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "N"}
HAND_KEYS = 5

# a cell on screen: small (one line) at 80x24, large (a box of 3 lines) when roomy
SMALL_CELL = (5, 1)
LARGE_CELL = (7, 3)
AXIS_WIDTH = 4  # the y coordinates left of the grid
AXIS_HEIGHT = 1  # the x coordinates above it


def value_name(value: int) -> str:
    return VALUE_NAMES.get(value, str(value))


def card_value(card: str) -> str:
    """``"10H"`` -> ``"10"``: only values matter in Territory."""
    return card[:-1] if len(card) >= 2 else card


# ====================================================================== moves
@dataclass(frozen=True)
class Play:
    """One legal move, read from its notation: kind, card and cell (if any)."""

    text: str
    kind: str
    card: str | None = None
    cell: Cell | None = None


_CELL_MOVE = re.compile(r"^(explore|conquer|blitz|fortify) (\S+) (-?\d+),(-?\d+)$")
_CARD_MOVE = re.compile(r"^(discard) (\S+)$")


def read_play(text: str) -> Play:
    """A legal move's canonical notation (docs/rules/territory.md) as a Play."""
    match = _CELL_MOVE.match(text)
    if match:
        kind, card, x, y = match.groups()
        return Play(text, kind, card, (int(x), int(y)))
    match = _CARD_MOVE.match(text)
    if match:
        return Play(text, match.group(1), match.group(2))
    return Play(text, text.split(" ", 1)[0])


def plays_of(legal: Iterable[str]) -> list[Play]:
    return [read_play(t) for t in legal]


def moves_at(legal: Iterable[str], card: str | None, cell: Cell) -> list[str]:
    """The legal moves that play ``card`` (any card if None) on ``cell``."""
    return [p.text for p in plays_of(legal) if p.cell == cell and (card is None or p.card == card)]


def target_cells(legal: Iterable[str], card: str | None) -> set[Cell]:
    """Where ``card`` (any card if None) may be played now."""
    return {
        p.cell for p in plays_of(legal) if p.cell is not None and (card is None or p.card == card)
    }


def matching_cells(
    view: TerritoryView, seat: int | None, card: str | None, legal: Iterable[str]
) -> frozenset[Cell]:
    """The cards of ``seat`` a conquest with ``card`` could come from: those of
    its value; for a royal attack (it matches any), those next to a card it
    may take. None during a Blitz: it comes from the card just taken (``>``)."""
    if card is None or seat is None or view.get("step") == "blitz":
        return frozenset()
    mine = {at: c for at, c in cells_of(view).items() if c["owner"] == seat}
    value = card_value(card)
    same = {at for at, c in mine.items() if card_value(c["card"]) == value}
    if same:
        return frozenset(same)
    targets = {p.cell for p in plays_of(legal) if p.kind == "conquer" and p.card == card}
    return frozenset(
        (x, y)
        for x, y in mine
        if any((x + dx, y + dy) in targets for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    )


def move_words(text: str, style: CardStyle) -> str:
    """A move in words, for the chooser."""
    play = read_play(text)
    card = card_label(play.card, style) if play.card else ""
    at = f"{play.cell[0]},{play.cell[1]}" if play.cell else ""
    words = {
        "explore": f"Explore: {card} on {at}",
        "conquer": f"Conquer: discard {card}, take {at}",
        "blitz": f"Blitz: discard {card}, take {at}",
        "fortify": f"Fortify: {card} on your {at}",
        "discard": f"Discard {card}, taking nothing",
        "stop": "Stop the Blitz",
        "pass": "Pass (nothing can be played)",
    }
    return words.get(play.kind, text)


# ================================================================== the grid
def cells_of(view: TerritoryView) -> dict[Cell, CellView]:
    return {(c["x"], c["y"]): c for c in view.get("cells", [])}


@dataclass(frozen=True)
class Bounds:
    """The part of the grid worth seeing: every card and the cells around them."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    def clamp(self, cell: Cell) -> Cell:
        return (
            min(max(cell[0], self.left), self.right),
            min(max(cell[1], self.top), self.bottom),
        )


def grid_bounds(cells: Collection[Cell]) -> Bounds:
    """The cards' box and one cell more on every side (where a card may go)."""
    if not cells:
        return Bounds(-1, -1, 2, 2)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return Bounds(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)


@dataclass(frozen=True)
class Viewport:
    """The cells on screen: ``cols`` x ``rows`` from the top-left cell."""

    left: int
    top: int
    cols: int
    rows: int

    def shows(self, cell: Cell) -> bool:
        x, y = cell
        return self.left <= x < self.left + self.cols and self.top <= y < self.top + self.rows


def _axis(start: int, size: int, low: int, high: int, focus: int | None) -> int:
    """Where a viewport of ``size`` cells starts on one axis: centred on
    low..high when that fits; else as close to ``start`` as keeps ``focus``
    in sight and the view within low..high."""
    span = high - low + 1
    if span <= size:
        return low - (size - span) // 2
    if focus is not None:
        start = min(max(start, focus - size + 1), focus)
    return min(max(start, low), high - size + 1)


def follow(view_port: Viewport, bounds: Bounds, focus: Cell | None) -> Viewport:
    """The viewport after play: the whole grid if it fits, else the least move
    that brings ``focus`` (the cursor, the last card played) into sight."""
    return replace(
        view_port,
        left=_axis(view_port.left, view_port.cols, bounds.left, bounds.right, focus and focus[0]),
        top=_axis(view_port.top, view_port.rows, bounds.top, bounds.bottom, focus and focus[1]),
    )


def pan(view_port: Viewport, dx: int, dy: int, bounds: Bounds) -> Viewport:
    """The viewport moved by (dx, dy) cells, never past the grid's bounds (an
    axis on which the whole grid fits stays centred)."""
    moved = replace(view_port, left=view_port.left + dx, top=view_port.top + dy)
    return follow(moved, bounds, None)


@dataclass(frozen=True)
class Marks:
    """What the grid shows besides the cards."""

    cursor: Cell | None = None
    legal: frozenset[Cell] = frozenset()  # where the chosen card may go
    matches: frozenset[Cell] = frozenset()  # your cards the chosen card matches
    blitz_from: Cell | None = None  # the card just taken, in a Blitz
    region: frozenset[Cell] = frozenset()  # your best region


def cell_text(cell: CellView | None, marks: Marks, at: Cell) -> Segment:
    """A cell in 5 characters: a mark, the value (2), the orientation, the
    royal on it; and its role."""
    if cell is None:
        if at in marks.legal:
            return "  +  ", "legal"
        if at == marks.cursor:
            return "  _  ", "empty"
        return "     ", "empty"
    owner = cell["owner"]
    value = card_value(cell["card"])
    royal = card_value(cell["fortified_by"] or "")[:1] or " "
    if at in marks.legal:
        lead = "+"
    elif at == marks.blitz_from:
        lead = ">"
    elif at in marks.matches:
        lead = "*"
    else:
        lead = " "
    role = f"owner{owner}"
    if cell["fortified_by"]:
        role += "-fort"
    return f"{lead}{value:>2}{ORIENTATION_MARKS[owner]}{royal}", role


def grid_lines(
    view: TerritoryView, view_port: Viewport, marks: Marks, large: bool = False
) -> list[Line]:
    """The cells of ``view_port``, with x coordinates above and y on the left.
    A small cell is one line; a large one a 3-line box around the same text."""
    cells = cells_of(view)
    width, height = LARGE_CELL if large else SMALL_CELL
    head: Line = [(" " * AXIS_WIDTH, "axis")]
    for x in range(view_port.left, view_port.left + view_port.cols):
        head.append((str(x).center(width), "axis"))
    lines = [head]
    for y in range(view_port.top, view_port.top + view_port.rows):
        rows: list[Line] = [[] for _ in range(height)]
        for i, row in enumerate(rows):
            row.append((f"{y:>3} " if i == height // 2 else " " * AXIS_WIDTH, "axis"))
        for x in range(view_port.left, view_port.left + view_port.cols):
            text, role = cell_text(cells.get((x, y)), marks, (x, y))
            if (x, y) == marks.cursor:
                role += " cursor"
            elif (x, y) in marks.region:
                role += " region"
            if not large:
                rows[0].append((text, role))
                continue
            if (x, y) not in cells:
                edge = "     " if (x, y) != marks.cursor else "┌   ┐"
                foot = "     " if (x, y) != marks.cursor else "└   ┘"
                rows[0].append((f" {edge} ", role))
                rows[1].append((f" {text} ", role))
                rows[2].append((f" {foot} ", role))
                continue
            bar = "─" if cells[(x, y)]["owner"] == 0 else "│"
            rows[0].append(("╭" + bar * 5 + "╮", role))
            rows[1].append((f"│{text}│", role))
            rows[2].append(("╰" + bar * 5 + "╯", role))
        lines += rows
    return lines


def line_text(lines: Sequence[Line]) -> list[str]:
    return ["".join(t for t, _ in line).rstrip() for line in lines]


def whole_grid(view: TerritoryView, marks: Marks = Marks()) -> list[str]:
    """Every card of ``view`` as text lines, with its coordinates (replays)."""
    bounds = grid_bounds(list(cells_of(view)))
    port = Viewport(bounds.left, bounds.top, bounds.width, bounds.height)
    return line_text(grid_lines(view, port, marks))


# ================================================================ the players
def checklist(values: Collection[int], needed: Sequence[int]) -> str:
    """The values a winning region needs, those held shown, the rest ``·``."""
    return " ".join(value_name(v) if v in values else "·" * len(value_name(v)) for v in needed)


def region_lines(view: TerritoryView, names: Sequence[str], ascii: bool = False) -> list[str]:
    """Per player: orientation, best region, its checklist, cards in hand."""
    needed = view.get("values_to_win", list(range(1, 11)))
    lines = []
    for seat, region in enumerate(view.get("best_regions", [])):
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        mark = ORIENTATION_MARKS[seat]
        orientation = view.get("orientation", ["horizontal", "vertical"])[seat]
        held = region.get("values", [])
        hand = view.get("hand_sizes", [0, 0])[seat]
        lines.append(f"{name} ({mark} {orientation})")
        size = region.get("size", 0)
        cards = "card" if size == 1 else "cards"
        lines.append(f" best {len(held)}/{len(needed)} · {size} {cards} · hand {hand}")
        lines.append(" " + checklist(held, needed))
    return lines


def counts_line(view: TerritoryView, style: CardStyle) -> str:
    discards = view.get("discards", [])
    top = f" (top {card_label(discards[-1], style)})" if discards else ""
    return f"Stock {view.get('stock', 0)} · discards {len(discards)}{top}"


def result_text(result: Any, names: Sequence[str], you: Collection[int] = ()) -> str:
    """How the game ended, in words: who won and why."""
    if result is None:
        return "The game is over."
    reason = fill_names(str(getattr(result, "reason", "") or ""), names, you)
    winner = getattr(result, "winner", None)
    if reason:  # the rules' reason names the winner already
        return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")
    return "A draw." if winner is None else fill_names(f"{{p{winner} wins|win}}.", names, you)


# ================================================================ the widget
GRID_ROLES = (
    "axis",
    "empty",
    "legal",
    "owner0",
    "owner1",
    "owner0-fort",
    "owner1-fort",
    "cursor",
    "region",
)


class TerritoryGrid(Widget):
    """The grid through a viewport; a click on a cell posts :class:`CellClicked`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"territorygrid--{r}" for r in GRID_ROLES}
    can_focus = True

    class CellClicked(Message):
        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Line] = []
        self.port = Viewport(-3, -3, 8, 8)
        self.large = False

    def show(self, lines: list[Line], port: Viewport, large: bool) -> None:
        self.lines, self.port, self.large = lines, port, large
        self.refresh()

    def fits(self, large: bool) -> tuple[int, int]:
        """How many cells fit across and down."""
        width, height = LARGE_CELL if large else SMALL_CELL
        cols = max(1, (self.content_region.width - AXIS_WIDTH) // width)
        rows = max(1, (self.content_region.height - AXIS_HEIGHT) // height)
        return cols, rows

    def render(self) -> Text:
        styles: dict[str, Style] = {
            r: self.get_component_rich_style(f"territorygrid--{r}", partial=True)
            for r in GRID_ROLES
        }
        out = Text(no_wrap=True, overflow="crop")
        for i, line in enumerate(self.lines):
            if i:
                out.append("\n")
            for text, role in line:
                style = Style()
                for part in role.split():
                    style += styles.get(part, Style())
                out.append(text, style)
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        width, height = LARGE_CELL if self.large else SMALL_CELL
        col = (offset.x - AXIS_WIDTH) // width
        row = (offset.y - AXIS_HEIGHT) // height
        inside = offset.x >= AXIS_WIDTH and offset.y >= AXIS_HEIGHT
        if inside and col < self.port.cols and row < self.port.rows:
            self.post_message(self.CellClicked((self.port.left + col, self.port.top + row)))


class MoveChooser(ModalScreen[str | None]):
    """A list of moves to choose from: when several fit, or all of them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="territory.chooser.cancel"),
    ]

    def __init__(self, title: str, moves: Sequence[str], style: CardStyle) -> None:
        super().__init__()
        self.title_text = title
        self.moves = list(moves)
        self.style = style

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="territory-chooser"):
            yield Static(self.title_text, markup=False, classes="title")
            yield OptionList(
                *[Option(Text(move_words(m, self.style)), id=m) for m in self.moves],
                id="territory-choices",
            )
            yield Static("Enter to play, Esc to go back", classes="hint")

    def on_mount(self) -> None:
        choices = self.query_one("#territory-choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


# ================================================================ the screen
class TerritoryScreen(GameScreen):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE, TERRITORY_CSS]
    AUTO_FOCUS = "#grid"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "choose(0)", "Card", key_display="1-5", id="territory.card1"),
        *[
            Binding(str(n), f"choose({n - 1})", f"Card {n}", show=False, id=f"territory.card{n}")
            for n in range(2, HAND_KEYS + 1)
        ],
        Binding("tab", "next_card", "Next card", show=False, id="territory.tab"),
        Binding("up", "cursor(0,-1)", "Cell", key_display="←↑↓→", id="territory.up"),
        Binding("down", "cursor(0,1)", "Down", show=False, id="territory.down"),
        Binding("left", "cursor(-1,0)", "Left", show=False, id="territory.left"),
        Binding("right", "cursor(1,0)", "Right", show=False, id="territory.right"),
        Binding("enter", "play", "Play", key_display="⏎", id="territory.play"),
        Binding("n", "next_target", "Next cell", show=False, id="territory.next"),
        Binding("p", "stop", "Stop", id="territory.stop"),
        Binding("m", "all_moves", "Moves", id="territory.moves"),
        Binding("shift+up,K", "pan(0,-1)", "Pan", show=False, id="territory.pan.up"),
        Binding("shift+down,J", "pan(0,1)", "Pan down", show=False, id="territory.pan.down"),
        Binding("shift+left,H", "pan(-1,0)", "Pan left", show=False, id="territory.pan.left"),
        Binding("shift+right,L", "pan(1,0)", "Pan right", show=False, id="territory.pan.right"),
        Binding("c", "centre", "Centre", show=False, id="territory.centre"),
        Binding("g", "result", "Result", id="territory.result"),
    ]

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.chosen: str | None = None  # the hand card chosen (its text)
        self.cursor: Cell = (0, 1)
        self.port = Viewport(-3, -3, 8, 8)
        self.large = False
        self._seen: dict[Cell, tuple[str, int]] = {}  # the grid last drawn, to follow play
        self._focus: Cell | None = None  # the cell the next drawing brings into sight

    @property
    def view(self) -> TerritoryView:
        return cast(TerritoryView, self.update.view)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Scoreboard(id="scores")
        with Horizontal(id="territory-body"):
            yield TerritoryGrid(id="grid")
            with Vertical(id="territory-side"):
                yield Static("", markup=False, id="regions")
                yield Static("", markup=False, id="counts")
                yield EventLog(id="log")
        yield Static("", markup=False, id="hand-caption", classes="caption")
        yield CardRow(id="hand", empty_text="(no cards in hand)")
        yield Static("", markup=False, id="status")
        yield FittingFooter(compact=True)

    def _fit(self, width: int, height: int) -> None:
        super()._fit(width, height)
        self.large = width >= 140 and height >= 44
        self.call_after_refresh(self._draw_grid)

    # ------------------------------------------------------------ drawing
    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand", []))

    def show_view(self, shown: View) -> None:
        view = cast(TerritoryView, shown)
        style = self.card_style
        best = [len(r.get("values", [])) for r in view.get("best_regions", [])]
        self.query_one("#scores", Scoreboard).set_scores(
            self.names,
            list(self.update.scores) or best,
            [f"needs {len(view.get('values_to_win', []))}"],
            acting=() if self.over else self.update.to_act,
            ascii=style.ascii,
        )
        self.query_one("#regions", Static).update(
            Text("\n".join(region_lines(view, self.names, style.ascii)))
        )
        counts = counts_line(view, style)
        if self.over:
            counts += "\n" + result_text(self.update.result, self.names, self.you)
        self.query_one("#counts", Static).update(Text(counts))
        hand = self.hand
        if self.chosen not in hand:
            self.chosen = None
        playable = {p.card for p in plays_of(self.legal) if p.card}
        if self.chosen not in playable and self.my_turn:
            # a card that can be played, and the cursor on a cell it may go to
            first = next((c for c in hand if c in playable), None)
            if first is not None:
                self._choose_card(first)
        # follow play: the card that changed, else the cursor
        cells = cells_of(view)
        now = {at: (c["card"], c["owner"]) for at, c in cells.items()}
        changed = [at for at, c in now.items() if self._seen.get(at) != c]
        self._seen = now
        blitz = view.get("blitz_from")
        if blitz is not None:
            self.cursor = (blitz[0], blitz[1])
        if changed and len(changed) < len(now):
            self._focus = changed[-1]
        else:
            self._focus = self.cursor
        self._draw_hand()
        self._draw_grid()
        self.refresh_bindings()

    def _marks(self) -> Marks:
        view = self.view
        legal = self.legal if self.my_turn else ()
        card = self.chosen
        seat = self.seat
        matches = matching_cells(view, seat, card, legal)
        region: frozenset[Cell] = frozenset()
        if seat is not None and seat < len(view.get("best_regions", [])):
            region = frozenset((x, y) for x, y in view["best_regions"][seat].get("cells", []))
        blitz = view.get("blitz_from")
        return Marks(
            cursor=self.cursor if self.replay is None else None,
            legal=frozenset(target_cells(legal, card)) if card else frozenset(),
            matches=matches,
            blitz_from=(blitz[0], blitz[1]) if blitz else None,
            region=region,
        )

    def _draw_grid(self) -> None:
        grid = self.query_one("#grid", TerritoryGrid)
        large = self.large
        cols, rows = grid.fits(large)
        bounds = grid_bounds(list(cells_of(self.view)))
        self.cursor = bounds.clamp(self.cursor)
        port = replace(self.port, cols=cols, rows=rows)
        focus = self._focus or self.cursor
        self._focus = None
        self.port = follow(port, bounds, focus)
        if not self.port.shows(self.cursor):
            self.port = follow(self.port, bounds, self.cursor)
        grid.show(grid_lines(self.view, self.port, self._marks(), large), self.port, large)
        self._caption()

    def _draw_hand(self) -> None:
        playable = {p.card for p in plays_of(self.legal) if p.card}
        faces = [
            CardFace(
                card,
                playable=(card in playable) if self.my_turn else None,
                selected=card == self.chosen and self.my_turn,
                label=str(i + 1) if i < HAND_KEYS else "",
            )
            for i, card in enumerate(self.hand)
        ]
        self.query_one("#hand", CardRow).set_faces(faces)

    def _caption(self) -> None:
        view = self.view
        style = self.card_style
        seat = self.seat
        parts = []
        if seat is not None and seat < 2:
            parts.append(f"You play {ORIENTATION_MARKS[seat]} {view['orientation'][seat]}")
        cell = cells_of(view).get(self.cursor)
        at = f"{self.cursor[0]},{self.cursor[1]}"
        if self.replay is not None:
            pass  # no cursor in a replay
        elif cell is None:
            parts.append(f"cursor {at}: empty")
        else:
            fort = (
                f" fortified by {card_label(cell['fortified_by'], style)}"
                if cell["fortified_by"]
                else ""
            )
            owner = "yours" if cell["owner"] == seat else f"{self.seat_name(cell['owner'])}'s"
            parts.append(
                f"cursor {at}: {card_value(cell['card'])}{ORIENTATION_MARKS[cell['owner']]}"
                f" {owner}{fort}"
            )
        if self.chosen and self.my_turn:
            n = len(target_cells(self.legal, self.chosen))
            parts.append(f"{card_label(self.chosen, style)}: {n} cell{'s' * (n != 1)} (+)")
        self.query_one("#hand-caption", Static).update(Text(" · ".join(parts)))

    def turn_text(self) -> str:
        if self.over:
            return result_text(self.update.result, self.names, self.you) + " Esc: menu, g: result."
        if self.my_turn and self.replay is None:
            view = self.view
            if view.get("step") == "blitz":
                at = view.get("blitz_from") or [0, 0]
                return f"Blitz from {at[0]},{at[1]} (>): a match takes a card by it (+); p stops."
            if "pass" in self.legal:
                return "No action is possible: p to pass."
            return "Your turn: choose a card (1-5/Tab), a cell (arrows, n), Enter to play."
        return super().turn_text()

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "result":
            return self.over
        if action in ("choose", "next_card", "play", "next_target", "all_moves"):
            if self.over or self.replay is not None:
                return False
            return True if self.my_turn else None
        if action == "stop":
            return "stop" in self.legal or "pass" in self.legal
        if action in ("cursor", "pan", "centre"):
            return self.replay is None or action != "cursor"
        return super().check_action(action, parameters)

    def _choose_card(self, card: str | None) -> None:
        self.chosen = card
        targets = target_cells(self.legal, card)
        if targets and self.cursor not in targets:
            # the nearest cell the card may go: the cursor lands where it is useful
            cx, cy = self.cursor
            self.cursor = min(targets, key=lambda c: (abs(c[0] - cx) + abs(c[1] - cy), c[1], c[0]))
        self._draw_hand()
        self._draw_grid()

    def action_choose(self, index: int) -> None:
        hand = self.hand
        if not 0 <= index < len(hand):
            self.set_status(f"There is no card {index + 1} in your hand.", problem=True)
            return
        self._choose_card(hand[index])
        if not target_cells(self.legal, hand[index]):
            self.set_status(self._why_not(self.cursor), problem=True)
        else:
            self.set_status(self.turn_text())

    def action_next_card(self) -> None:
        hand = self.hand
        if hand:
            i = hand.index(self.chosen) + 1 if self.chosen in hand else 0
            self._choose_card(hand[i % len(hand)])

    def action_cursor(self, dx: int, dy: int) -> None:
        bounds = grid_bounds(list(cells_of(self.view)))
        self.cursor = bounds.clamp((self.cursor[0] + dx, self.cursor[1] + dy))
        self._focus = self.cursor
        self._draw_grid()

    def action_pan(self, dx: int, dy: int) -> None:
        bounds = grid_bounds(list(cells_of(self.view)))
        self.port = pan(self.port, dx, dy, bounds)
        grid = self.query_one("#grid", TerritoryGrid)
        if not self.port.shows(self.cursor):  # the cursor stays in sight
            x = min(max(self.cursor[0], self.port.left), self.port.left + self.port.cols - 1)
            y = min(max(self.cursor[1], self.port.top), self.port.top + self.port.rows - 1)
            self.cursor = (x, y)
        grid.show(
            grid_lines(self.view, self.port, self._marks(), self.large), self.port, self.large
        )
        self._caption()

    def action_centre(self) -> None:
        bounds = grid_bounds(list(cells_of(self.view)))
        self.cursor = ((bounds.left + bounds.right) // 2, (bounds.top + bounds.bottom) // 2)
        self._focus = self.cursor
        self._draw_grid()

    def action_next_target(self) -> None:
        targets = sorted(target_cells(self.legal, self.chosen), key=lambda c: (c[1], c[0]))
        if not targets:
            self.set_status("The chosen card has no cell to go to.", problem=True)
            return
        after = [c for c in targets if (c[1], c[0]) > (self.cursor[1], self.cursor[0])]
        self.cursor = (after or targets)[0]
        self._focus = self.cursor
        self._draw_grid()

    async def action_play(self) -> None:
        await self._play_at(self.cursor)

    async def _play_at(self, cell: Cell) -> None:
        moves = moves_at(self.legal, self.chosen, cell)
        if not moves and self.chosen is not None:
            moves = moves_at(self.legal, None, cell)
        if not moves:
            self.set_status(self._why_not(cell), problem=True)
            return
        if len(moves) == 1:
            await self.submit(moves[0])
            return
        self._ask(f"Which move at {cell[0]},{cell[1]}?", moves)

    def _why_not(self, cell: Cell) -> str:
        """Why nothing can be played on ``cell``, and what can be done instead."""
        card = card_label(self.chosen, self.card_style) if self.chosen else None
        stop = " p stops the Blitz." if "stop" in self.legal else ""
        if card is None or not target_cells(self.legal, self.chosen):
            what = f"{card} cannot be played now." if card else "Choose a card first (1-5)."
            return f"{what}{stop} m lists every move."
        return f"{card} cannot go to {cell[0]},{cell[1]}: the + cells can.{stop}"

    def _ask(self, title: str, moves: Sequence[str]) -> None:
        async def chosen(move: str | None) -> None:
            if move:
                await self.submit(move)

        self.app.push_screen(MoveChooser(title, moves, self.card_style), chosen)

    async def action_stop(self) -> None:
        for move in ("stop", "pass"):
            if move in self.legal:
                await self.submit(move)
                return

    def action_all_moves(self) -> None:
        if self.legal:
            self._ask("Every legal move", self.legal)

    def action_result(self) -> None:
        if self.over:
            self._show_game_over()

    async def on_territory_grid_cell_clicked(self, message: TerritoryGrid.CellClicked) -> None:
        was = self.cursor
        self.cursor = message.cell
        self._draw_grid()
        # a click on a cell the chosen card may go to plays it there; elsewhere
        # (or a second click on the cursor) it only moves the cursor
        if self.my_turn and (
            message.cell in target_cells(self.legal, self.chosen) or message.cell == was
        ):
            await self._play_at(message.cell)

    def on_card_row_clicked(self, message: CardRow.Clicked) -> None:
        if message.row.id == "hand" and self.my_turn:
            self._choose_card(message.text)


SCREEN = TerritoryScreen


def describe(
    view: TerritoryView,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    """A Territory view as text for replays: the whole grid with its
    coordinates, each player's best region, the counts and the hands."""
    lines = []
    if scores:
        lines.append("   ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False)))
    lines += whole_grid(view)
    lines += region_lines(view, names, style.ascii)
    lines.append(counts_line(view, style))
    if snapshot is not None:
        for seat, hand in enumerate(snapshot.get("hands", [])):
            name = names[seat] if seat < len(names) else f"Player {seat + 1}"
            cards = " ".join(card_label(c, style) for c in hand)
            lines.append(f"{name}'s hand: {cards or '(empty)'}")
    elif view.get("hand") is not None:
        cards = " ".join(card_label(c, style) for c in view["hand"])
        lines.append(f"Hand: {cards or '(empty)'}")
    return Text("\n".join(lines))
