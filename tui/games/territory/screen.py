"""The Territory screen: the grid of cards as a viewport that follows play and
can be panned, a cursor to place with, the hand, each player's best region
with a checklist of the values it holds, and the counts. It lays out what the
rules say: moves are read with the rules' parser and told in their words.

Keys: 1-5 or Tab choose a hand card (a click on it too; choosing one puts the
cursor on the nearest cell it may go to), the arrows move the cursor, n jumps
to the next legal cell, Enter plays the chosen card on the cursor's cell
(asking when several moves fit); a click on a legal cell plays there, on
another cell moves the cursor. Shift+arrows or H J K L pan the view, c
centres it; p stops a Blitz or passes; m lists every legal move, so none is
ever out of reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static

from rules.territory.notation import PASS, STOP, parse_move
from rules.territory.state import BLITZ
from rules.territory.view import TerritoryView
from rules.territory.words import move_words_on
from rules.views import View
from tui.styles import TABLE
from tui.table.screen import TableScreen
from tui.widgets.cards import CardFace, CardRow, card_label
from tui.widgets.event_log import EventLog
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

from .grid import (
    ORIENTATION_MARKS,
    Cell,
    Marks,
    Viewport,
    card_grid,
    card_value,
    cells_of,
    follow,
    grid_bounds,
    grid_lines,
    matching_cells,
    moves_at,
    pan,
    playable_cards,
    target_cells,
)
from .players import counts_line, region_lines, result_text
from .widgets import MoveChooser, TerritoryGrid

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

TERRITORY_CSS = Path(__file__).with_name("territory.tcss")
HAND_KEYS = 5  # the largest hand (option hand_size)
STOP_TEXT, PASS_TEXT = str(STOP), str(PASS)


class TerritoryScreen(TableScreen):
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
        Binding("shift+up,K", "pan(0,-1)", "Pan up", show=False, id="territory.pan.up"),
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
        view = self.update.view
        assert isinstance(view, TerritoryView), f"not a Territory view: {type(view).__name__}"
        return view

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
        hand = self.view.hand
        return [] if hand is None else list(hand)  # a spectator holds no hand

    def show_view(self, shown: View) -> None:
        assert isinstance(shown, TerritoryView), f"not a Territory view: {type(shown).__name__}"
        view = shown
        style = self.card_style
        best = [len(r.values) for r in view.best_regions]
        self.query_one("#scores", Scoreboard).set_scores(
            self.score_labels,
            list(self.update.scores) or best,
            [f"needs {len(view.values_to_win)}"],
            acting=() if self.over else self.update.to_act,
            ascii=style.ascii,
        )
        self.query_one("#regions", Static).update(Text("\n".join(region_lines(view, self.names))))
        counts = counts_line(view, style)
        if self.over:
            counts += "\n" + result_text(self.update.result, self.names, self.you)
        self.query_one("#counts", Static).update(Text(counts))
        if view.blitz_from is not None:  # the Blitz goes on from the card just taken
            self.cursor = (view.blitz_from[0], view.blitz_from[1])
        hand = self.hand
        if self.chosen not in hand:
            self.chosen = None
        playable = playable_cards(self.legal)
        if self.my_turn:
            # a card that can be played, and the cursor on a cell it may go to
            card = self.chosen if self.chosen in playable else None
            card = card or next((c for c in hand if c in playable), None)
            if card is not None:
                self._choose_card(card)
        # follow play: the card that changed, else the cursor
        now = {at: (c.card, c.owner) for at, c in cells_of(view).items()}
        changed = [at for at, c in now.items() if self._seen.get(at) != c]
        self._seen = now
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
        region: frozenset[Cell] = frozenset()
        if seat is not None:
            region = frozenset((x, y) for x, y in view.best_regions[seat].cells)
        blitz = view.blitz_from
        return Marks(
            cursor=self.cursor if self.interactive else None,
            legal=frozenset(target_cells(legal, card)) if card else frozenset(),
            matches=matching_cells(view, seat, card, legal),
            blitz_from=(blitz[0], blitz[1]) if blitz is not None else None,
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
        playable = playable_cards(self.legal)
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
        """The line over the hand, most useful first (a narrow screen cuts
        its end): how many cells the chosen card fits, what the cursor is on,
        and your orientation (the side panel says it too)."""
        view = self.view
        style = self.card_style
        seat = self.seat
        parts = []
        if self.chosen and self.my_turn:
            n = len(target_cells(self.legal, self.chosen))
            card = card_label(self.chosen, style)
            parts.append(f"{card} fits {n} cell{'s' * (n != 1)} (+)" if n else f"{card} fits none")
        cell = cells_of(view).get(self.cursor)
        at = f"{self.cursor[0]},{self.cursor[1]}"
        if not self.interactive:
            pass  # no cursor in a replay
        elif cell is None:
            parts.append(f"cursor {at}: empty")
        else:
            fort = (
                f" fortified by {card_label(cell.fortified_by, style)}" if cell.fortified_by else ""
            )
            # "yours" only for the person at this screen: a replay may show another seat
            owner = "yours" if self._addressed(cell.owner) else f"{self.seat_name(cell.owner)}'s"
            mark = ORIENTATION_MARKS[cell.owner]
            parts.append(f"cursor {at}: {card_value(cell.card)}{mark} {owner}{fort}")
        if seat is not None:
            plays = "you play" if self._addressed(seat) else f"{self.seat_name(seat)} plays"
            parts.append(f"{plays} {ORIENTATION_MARKS[seat]} {view.orientation[seat]}")
        text = " · ".join(parts)
        self.query_one("#hand-caption", Static).update(Text(text[:1].upper() + text[1:]))

    def turn_text(self) -> str:
        if self.over:
            return result_text(self.update.result, self.names, self.you) + " Esc: menu, g: result."
        if self.can_act():
            view = self.view
            if view.step == BLITZ and view.blitz_from is not None:
                x, y = view.blitz_from
                return f"Blitz from {x},{y} (>): a match takes a card next to it (+); p stops."
            if PASS_TEXT in self.legal:
                return "No action is possible: p to pass."
            return (
                f"Your turn: a card ({self._keys()}, Tab), a + cell (arrows, n next +), then Enter."
            )
        return super().turn_text()

    def number_keys(self) -> int | None:
        if not isinstance(self.update.view, TerritoryView):
            return None  # no view yet (a hot seat's hand-off)
        return min(len(self.hand), HAND_KEYS)  # the footer names the cards held: "1-3"

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "result":
            return self.over
        if action in ("choose", "next_card", "play", "next_target", "all_moves"):
            if self.over or not self.interactive:
                return False
            if not self.my_turn:
                return None
            # no card under that key: not offered (the palette, the keys panel)
            index = parameters[0] if parameters else 0
            return not (action == "choose" and isinstance(index, int) and index >= len(self.hand))
        if action == "stop":
            return STOP_TEXT in self.legal or PASS_TEXT in self.legal
        if action in ("cursor", "pan", "centre"):
            return self.interactive or action != "cursor"
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
            self.set_status(self.turn_status())

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
        stop = " p stops the Blitz." if STOP_TEXT in self.legal else ""
        if not playable_cards(self.legal):
            return f"No card of yours can be played now.{stop} m lists every move."
        if card is None or not target_cells(self.legal, self.chosen):
            what = f"{card} cannot be played now." if card else f"Choose a card ({self._keys()})."
            return f"{what}{stop} m lists every move."
        return f"{card} cannot go to {cell[0]},{cell[1]}: the + cells can.{stop}"

    def _keys(self) -> str:
        """The keys of the cards in hand: ``1-3``, or ``1`` for one card."""
        held = self.number_keys() or 0
        return f"1-{held}" if held > 1 else "1"

    def _addressed(self, seat: int) -> bool:
        """Whether ``seat`` is the person at this screen, told "you": the one
        named You, or this screen's own seat here or across the network (a hot
        seat or a replay names whose it is)."""
        mine_only = self.interactive and not self.hot_seat
        return seat in self.you or (mine_only and seat == self.seat)

    def hint_words(self) -> Callable[[str], str]:
        # the hint names the cards around a cell, as the move list does
        return self.move_words

    def move_words(self, move: str) -> str:
        """A move in the rules' words, naming the cards on the grid it takes or
        lies next to: "explore 7C at 2,-1, left of 4D"."""
        return move_words_on(parse_move(move), card_grid(self.view))

    def _ask(self, title: str, moves: Sequence[str]) -> None:
        async def chosen(move: str | None) -> None:
            if move:
                await self.submit(move)

        self.app.push_screen(MoveChooser(title, moves, self.move_words, self.card_style), chosen)

    async def action_stop(self) -> None:
        for move in (STOP_TEXT, PASS_TEXT):
            if move in self.legal:
                await self.submit(move)
                return

    def action_all_moves(self) -> None:
        if self.legal:
            self._ask("Every legal move", self.legal)

    def action_result(self) -> None:
        if self.over:
            self.ending.show_result()

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
