"""The Domination screen: the hand, the run on the table with the chain start
placed sideways, multiplier and round value, the discard grid, scores, log.

Keys: ←/→ choose a card, 1-5 play that card, Enter plays the chosen one, a
mouse click plays the clicked one; c concedes when the match allows it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, ClassVar, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static

from rules.domination import DominationView, words
from rules.domination.events import RoundWon
from rules.domination.words import holdings_caption, score_extras
from rules.events import Event
from rules.views import View
from tui.seating import YOU_NAME, addressed_as_you
from tui.table.screen import TableScreen
from tui.widgets.cards import SUIT_NAMES, CardFace, CardRow, CardStyle, card_label
from tui.widgets.discard_grid import RANK_HEADS, DiscardGrid
from tui.widgets.event_log import EventLog, display_text
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

HAND_KEYS = 5


def run_faces(view: DominationView) -> list[CardFace]:
    start = view.domination_start
    return [CardFace(c, sideways=i == start) for i, c in enumerate(view.run)]


def run_caption(
    view: DominationView,
    names: Sequence[str],
    style: CardStyle,
    you: Collection[int] = (),
    over: bool = False,
) -> str:
    return words.run_caption(view, names, lambda c: card_label(c, style), you, over)


def round_summary_lines(
    event: Event, names: Sequence[str], you: Collection[int], style: CardStyle
) -> list[str]:
    """A won round for its summary: who won, how much and why, then the scores."""
    lines = [display_text(event.render(names, you), style)]
    if isinstance(event.data, RoundWon) and len(event.data.scores) == len(names):
        scores = zip(names, event.data.scores, strict=True)
        lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in scores))
    return lines


class DominationScreen(TableScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move_cursor(-1)", "Choose", key_display="←→", id="dom.left"),
        Binding("right", "move_cursor(1)", "Choose", show=False, id="dom.right"),
        Binding("1", "play_number(1)", "Play", key_display="1-5", id="dom.play1"),
        *[
            Binding(str(n), f"play_number({n})", f"Play card {n}", show=False, id=f"dom.play{n}")
            for n in range(2, HAND_KEYS + 1)
        ],
        Binding("enter", "play_chosen", "Play chosen", key_display="⏎", id="dom.enter"),
        Binding("c", "concede", "Concede", id="dom.concede"),
        Binding("g", "result", "Result", id="dom.result"),
    ]

    cursor = 0
    last_round = ""

    @property
    def view(self) -> DominationView:
        return cast(DominationView, self.update.view)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Scoreboard(id="scores")
        yield Static("", markup=False, id="run-caption", classes="caption")
        yield CardRow(id="run", empty_text="(no card on the table yet)")
        with Horizontal(id="middle"):
            with Vertical(id="discards-box"):
                yield Static("Discards", classes="caption")
                yield DiscardGrid(id="discards")
            yield EventLog(id="log")
        with Horizontal(id="hand-captions"):
            yield Static("", markup=False, id="hand-caption", classes="caption")
            yield Static("", markup=False, id="others-caption", classes="caption")
        yield CardRow(id="hand", empty_text="(no cards)")
        yield Static("", markup=False, id="status")
        # compact: every key fits at 80 columns
        yield FittingFooter(compact=True)

    # ------------------------------------------------------------ drawing
    @property
    def hand(self) -> list[str]:
        return list(self.view.hand or [])  # a spectator has none

    def number_keys(self) -> int | None:
        # the footer names the cards held ("1-4"); a spectator's screen has none
        shown = isinstance(self.update.view, DominationView) and self.people
        return min(len(self.hand), HAND_KEYS) if shown else None

    def show_view(self, shown: View) -> None:
        view = cast(DominationView, shown)
        style = self.card_style
        names = self.names
        self.query_one("#scores", Scoreboard).set_scores(
            self.score_labels,
            list(self.update.scores),
            score_extras(view),
            acting=() if self.over else self.update.to_act,
            ascii=style.ascii,
        )
        self.query_one("#run-caption", Static).update(
            run_caption(view, names, style, self.you, self.over)
        )
        self.query_one("#run", CardRow).set_faces(run_faces(view))
        self.query_one("#discards", DiscardGrid).set_discards(view.discards)
        hand = self.hand
        legal = self.legal
        if legal and (self.cursor >= len(hand) or hand[self.cursor] not in legal):
            self.cursor = hand.index(next(c for c in hand if c in legal))
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        self._draw_hand()
        self.query_one("#hand-caption", Static).update(self.hand_caption())
        self.query_one("#others-caption", Static).update(
            holdings_caption(view.hand_sizes, self.names, self.you, self.seat)
        )
        self.refresh_bindings()

    def hand_caption(self) -> str:
        """Whose hand is on screen: "Your hand" for the one person at this
        screen, "Ann's hand" for anyone else (a hot seat, a replay seen by the
        computer), and no hand at all for a spectator."""
        if self.seat is None:
            return "Watching: no hand of your own"
        people = self.people_here
        if len(people) == 1 and self.seat in people:  # one person at this screen: theirs
            return "Your hand"
        return f"{self.seat_name(self.seat)}'s hand"

    def round_ended(self, event: Event) -> int | None:
        return event.data.round if isinstance(event.data, RoundWon) else None

    def scores_after(self, event: Event) -> list[int] | None:
        return event.data.scores if isinstance(event.data, RoundWon) else None

    def round_summary(self, event: Event) -> list[str]:
        return round_summary_lines(event, self.names, self.you, self.card_style)

    def note_events(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "round_won":
                self.last_round = display_text(event.render(self.names, self.you), self.card_style)
        row = self.query_one("#run", CardRow)
        row.empty_text = (
            f"Last round: {self.last_round}" if self.last_round else ("(no card on the table yet)")
        )
        row.refresh()

    def _draw_hand(self) -> None:
        legal = set(self.legal)
        faces = [
            CardFace(
                card,
                playable=(card in legal) if self.my_turn else None,
                selected=i == self.cursor and self.my_turn,
                label=str(i + 1) if i < HAND_KEYS else "",
            )
            for i, card in enumerate(self.hand)
        ]
        self.query_one("#hand", CardRow).set_faces(faces)

    def turn_text(self) -> str:
        if self.my_turn and not self.over:
            run = self.view.run
            who = "Your turn" if not self.hot_seat else f"{self.seat_name(self.seat)}, your turn"
            if not run:
                return f"{who}: lead any card."
            dominated = self.view.domination_suit
            if self.view.domination_start is not None and dominated is not None:
                suit = SUIT_NAMES[dominated]
                return f"{who}: Domination: a higher {suit[:-1]} than {run[-1]}."
            if run[-1][:-1] == "A":  # everything ranks >= an Ace
                return f"{who}: any card follows an Ace."
            return f"{who}: a card of rank {run[-1][:-1]} or higher."
        if self.over:
            return "The game is over: Esc for the menu, g for the result."
        return super().turn_text()

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "concede":
            return "concede" in self.legal
        if action == "result":
            return self.over
        if action in ("move_cursor", "play_number", "play_chosen"):
            if self.over:
                return False  # hidden: nothing more to play (nor behind the result)
            return True if self.my_turn else None
        return super().check_action(action, parameters)  # the shared keys: Hint, Finish...

    def action_move_cursor(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
            self._draw_hand()

    async def action_play_number(self, number: int) -> None:
        hand = self.hand
        if not 1 <= number <= len(hand):
            self.set_status(f"There is no card {number} in your hand.", problem=True)
            return
        self.cursor = number - 1
        self._draw_hand()
        await self._play(hand[number - 1])

    async def action_play_chosen(self) -> None:
        if self.hand:
            await self._play(self.hand[self.cursor])

    async def action_concede(self) -> None:
        await self.submit("concede")

    def action_result(self) -> None:
        if self.over:
            self.ending.show_result()

    async def _play(self, card: str) -> None:
        await self.submit(card)

    async def on_card_row_clicked(self, message: CardRow.Clicked) -> None:
        if message.row.id == "hand":
            self.cursor = message.index
            self._draw_hand()
            await self._play(message.text)


SCREEN = DominationScreen


def hand_owner(name: str) -> str:
    """Whose hand, for a caption: "Your" for the seat named You, "Ann's" else."""
    return "Your" if name == YOU_NAME else f"{name}'s"


def describe(
    view: DominationView,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    """A Domination view (or, with ``snapshot``, everything revealed) as text, for replays."""
    lines: list[RenderableType] = []
    score_line = "   ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False))
    lines.append(Text(f"{score_line}   ·   {' · '.join(score_extras(view))}"))
    # the person named "You" reads "You lead", as at the table
    lines.append(Text(run_caption(view, names, style, addressed_as_you(names, range(len(names))))))
    run = view.run
    start = view.domination_start
    shown = [
        f"[{card_label(c, style)}]" if i == start else card_label(c, style)
        for i, c in enumerate(run)
    ]
    lines.append(Text("Table: " + (" ".join(shown) if shown else "(empty)")))
    discards = view.discards
    for suit in "SHDC":
        ranks = [RANK_HEADS[r - 1] for r in discards[suit]]
        symbol = suit if style.ascii else {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
        lines.append(Text(f"Discarded {symbol}: {' '.join(ranks) or 'none'}"))
    if snapshot is not None:
        for owner, hand in enumerate(snapshot["hands"]):
            cards = " ".join(card_label(c, style) for c in hand)
            lines.append(Text(f"{hand_owner(names[owner])} hand: {cards or '(empty)'}"))
        stock = snapshot["stock"]
        top = " ".join(card_label(c, style) for c in reversed(stock[-10:]))
        lines.append(Text(f"Deck ({len(stock)}), next to draw: {top or '-'}"))
    elif view.hand is not None:
        seat = view.seat
        who = names[seat] if seat is not None and seat < len(names) else YOU_NAME
        cards = " ".join(card_label(c, style) for c in view.hand)
        lines.append(Text(f"{hand_owner(who)} hand: {cards or '(empty)'}"))
    return Group(*lines)
