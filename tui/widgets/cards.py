"""Cards on screen: one face drawing shared by hands, table runs and piles.

A card is drawn as a small box, 3 rows by 5 columns::

    ╭───╮
    │10♥│
    ╰─1─╯

The bottom edge can carry a label (the key that plays it). Where a row has
room (five lines: a large terminal), cards are drawn large, 5 rows by 7::

    ╭─────╮
    │10   │
    │  ♥  │
    │   10│
    ╰──1──╯

A row is centred in its width. Card text follows
RULINGS.md (``10H``, ``AS``); Unicode suits and colours are display only, so
the ASCII style shows the same text the notation uses (``10H``). Colours come
from component classes styled in ``app.tcss``, never from Python, so themes,
16-colour terminals and NO_COLOR all work; and every state that colour shows
(playable, chosen, placed sideways) is also shown by the box's shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App
from textual.message import Message
from textual.widget import Widget

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# Red/black by default; four-colour decks paint diamonds blue and clubs green.
TWO_COLOUR = {"S": "black", "H": "red", "D": "red", "C": "black"}
FOUR_COLOUR = {"S": "black", "H": "red", "D": "blue", "C": "green"}

CARD_WIDTH = 5
SIDEWAYS_WIDTH = 7
LARGE_GROWTH = 2  # a large card is two columns wider
SMALL_HEIGHT = 3
LARGE_HEIGHT = 5
GAP = 1


@dataclass(frozen=True)
class CardStyle:
    """How cards are drawn: ASCII letters or Unicode suits, two or four colours."""

    ascii: bool = False
    four_colour: bool = False


def card_style_of(app: App[object]) -> CardStyle:
    """The app's card style (a plain App in a test gets the defaults)."""
    style = getattr(app, "card_style", None)
    return style if isinstance(style, CardStyle) else CardStyle()


def split_card(text: str) -> tuple[str, str | None]:
    """``"10H"`` -> ``("10", "H")``; text that is not a card keeps no suit."""
    if len(text) >= 2 and text[-1] in SUIT_SYMBOLS and text[:-1] in _RANKS:
        return text[:-1], text[-1]
    return text, None


_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


def card_label(text: str, style: CardStyle) -> str:
    """How a card's text is shown inline (logs, grids): ``10♥`` or ``10H``."""
    rank, suit = split_card(text)
    if suit is None or style.ascii:
        return text
    return rank + SUIT_SYMBOLS[suit]


def suit_colour(suit: str | None, style: CardStyle) -> str:
    if suit is None:
        return "black"
    return (FOUR_COLOUR if style.four_colour else TWO_COLOUR)[suit]


@dataclass(frozen=True)
class CardFace:
    """One card as a row shows it. ``playable`` None means "not a choice now"."""

    text: str  # card text like 10H, or any short label (an action card's name)
    playable: bool | None = None
    selected: bool = False
    sideways: bool = False  # Domination's chain start is placed sideways on the table
    label: str = ""  # shown in the bottom edge, e.g. the number key that plays it
    face_down: bool = False


# Box pieces per look: (top-left, horizontal, top-right, vertical, bottom-left, bottom-right)
_BOXES = {
    ("unicode", "plain"): "╭─╮│╰╯",
    ("unicode", "selected"): "╔═╗║╚╝",
    ("unicode", "sideways"): "┏━┓┃┗┛",
    ("ascii", "plain"): "+-+|++",
    ("ascii", "selected"): "#=####",
    ("ascii", "sideways"): "*~*!**",
}


def card_width(face: CardFace, large: bool = False) -> int:
    return (SIDEWAYS_WIDTH if face.sideways else CARD_WIDTH) + (LARGE_GROWTH if large else 0)


def row_width(faces: Sequence[CardFace], large: bool = False) -> int:
    """Columns a row of cards takes, gaps included."""
    return sum(card_width(f, large) for f in faces) + GAP * max(len(faces) - 1, 0)


def draw_card(
    face: CardFace, style: CardStyle, styles: dict[str, Style], large: bool = False
) -> list[Text]:
    """The lines of one card (3, or 5 when ``large``); ``styles`` maps component
    names to Rich styles."""
    width = card_width(face, large)
    inner = width - 2
    kind = "selected" if face.selected else "sideways" if face.sideways else "plain"
    box = _BOXES[("ascii" if style.ascii else "unicode", kind)]
    tl, h, tr, v, bl, br = box[0], box[1], box[2], box[3], box[4], box[5]
    border = styles["border"]
    if face.playable is True:
        border = border + styles["playable"]
    if face.sideways:
        border = border + styles["sideways"]
    if face.selected:
        border = border + styles["selected"]
    body_style = styles[suit_colour(split_card(face.text)[1], style)]
    rank, suit = split_card(face.text)
    if face.face_down:
        body = "?" * inner if style.ascii else "░" * inner
        body_style = styles["back"]
        bodies = [body] * (3 if large else 1)
    elif large and suit is not None:
        # the rank in two corners, the suit in the middle, as on a real card
        pip = suit if style.ascii else SUIT_SYMBOLS[suit]
        bodies = [rank.ljust(inner), pip.center(inner), rank.rjust(inner)]
    else:
        body = card_label(face.text, style)[:inner].center(inner)
        bodies = [" " * inner, body, " " * inner] if large else [body]
    if face.playable is False:
        border = border + styles["unplayable"]
        body_style = body_style + styles["unplayable"]
    if face.selected:
        body_style = body_style + styles["selected-body"]
    label = face.label[:inner].center(inner, h) if face.label else h * inner
    top = Text(tl + h * inner + tr, border)
    middle = [Text.assemble((v, border), (b, body_style), (v, border)) for b in bodies]
    bottom = Text(bl + label + br, border)
    return [top, *middle, bottom]


class CardRow(Widget):
    """A row of cards: a hand, the run on the table, a pile. Clicking a card posts
    :class:`CardRow.Clicked`; a row with no cards shows ``empty_text``."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "cardrow--border",
        "cardrow--playable",
        "cardrow--unplayable",
        "cardrow--selected",
        "cardrow--selected-body",
        "cardrow--sideways",
        "cardrow--black",
        "cardrow--red",
        "cardrow--blue",
        "cardrow--green",
        "cardrow--back",
        "cardrow--empty",
    }

    class Clicked(Message):
        def __init__(self, row: CardRow, index: int, text: str) -> None:
            super().__init__()
            self.row = row
            self.index = index
            self.text = text

        @property
        def control(self) -> CardRow:
            return self.row

    def __init__(
        self,
        faces: Sequence[CardFace] = (),
        *,
        empty_text: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._faces: tuple[CardFace, ...] = tuple(faces)
        self.empty_text = empty_text

    @property
    def faces(self) -> tuple[CardFace, ...]:
        return self._faces

    def set_faces(self, faces: Sequence[CardFace]) -> None:
        faces = tuple(faces)
        if faces != self._faces:
            self._faces = faces
            self.refresh()

    def _styles(self) -> dict[str, Style]:
        names = ["border", "playable", "unplayable", "selected", "selected-body", "sideways"]
        names += ["black", "red", "blue", "green", "back"]
        return {n: self.get_component_rich_style(f"cardrow--{n}", partial=True) for n in names}

    def render(self) -> Text:
        if not self._faces:
            return Text(
                self.empty_text, self.get_component_rich_style("cardrow--empty", partial=True)
            )
        style = card_style_of(self.app)
        styles = self._styles()
        large = self.large
        indent = " " * self._indent()
        lines = [Text(indent) for _ in range(LARGE_HEIGHT if large else SMALL_HEIGHT)]
        for i, face in enumerate(self._faces):
            if i:
                for line in lines:
                    line.append(" " * GAP)
            for line, part in zip(lines, draw_card(face, style, styles, large), strict=True):
                line.append_text(part)
        return Text("\n").join(lines)

    @property
    def large(self) -> bool:
        """Large cards where the row has the height for them and they fit its width."""
        return (
            self.size.height >= LARGE_HEIGHT
            and row_width(self._faces, True) <= self.content_region.width
        )

    def _indent(self) -> int:
        """Columns left of the first card: the row is centred in its width."""
        return max(0, (self.content_region.width - row_width(self._faces, self.large)) // 2)

    def index_at(self, x: int) -> int | None:
        """Which card is drawn at column ``x`` (gaps belong to no card)."""
        large = self.large
        left = self._indent()
        for i, face in enumerate(self._faces):
            right = left + card_width(face, large)
            if left <= x < right:
                return i
            left = right + GAP
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # None: on the padding
        index = None if offset is None else self.index_at(offset.x)
        if index is not None:
            self.post_message(self.Clicked(self, index, self._faces[index].text))
