"""Territory's moves and their notation (docs/rules/territory.md, "Notation").

Every step of a turn is one move, written with the card (``rules.cards`` text)
and the cell as ``x,y`` (board.py's coordinates)::

    explore 5H 2,-1     place 5H, turned your way, on the empty cell 2,-1
    conquer 5H 2,0      discard 5H to take the card at 2,0 (it touches a 5 of yours)
    blitz 7C 3,0        go on: discard 7C to take 3,0 (it touches the 7 just taken)
    stop                end the blitz
    fortify KS 0,0      Royal Domination: put KS on your card at 0,0
    discard 5H          conquest_requires_capture off: discard a match, take nothing
    pass                no action is legal

Reading is case-insensitive and forgiving about spaces (``Explore 5h 2, -1``);
writing always gives the canonical form above. The card a conquest matches is
not written: any matching card of yours next to the target will do, and which
one changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import Card, card_text, parse_card
from ..errors import NotationError, shown_input
from .board import LIMIT, coord_text, pos_of


@dataclass(frozen=True, slots=True)
class Explore:
    """Place ``card`` in your orientation on the empty cell ``at``."""

    card: Card
    at: int  # board.pos_of(x, y)

    def __str__(self) -> str:
        return f"explore {card_text(self.card)} {coord_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Conquer:
    """The first conquest of a turn: discard ``card`` and take the card at ``at``."""

    card: Card
    at: int

    def __str__(self) -> str:
        return f"conquer {card_text(self.card)} {coord_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Blitz:
    """A further conquest from the card just taken."""

    card: Card
    at: int

    def __str__(self) -> str:
        return f"blitz {card_text(self.card)} {coord_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Fortify:
    """Royal Domination: put the royal ``card`` on your unfortified card at ``at``."""

    card: Card
    at: int

    def __str__(self) -> str:
        return f"fortify {card_text(self.card)} {coord_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """``conquest_requires_capture`` off: a conquest that takes nothing."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Stop:
    """End a blitz (and the turn)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Pass:
    """No action is legal: the turn passes."""

    def __str__(self) -> str:
        return "pass"


STOP = Stop()
PASS = Pass()

TerritoryMove = Explore | Conquer | Blitz | Fortify | Discard | Stop | Pass
PlacedMove = Explore | Conquer | Blitz | Fortify

_PLACED: dict[str, type[PlacedMove]] = {
    "explore": Explore,
    "conquer": Conquer,
    "blitz": Blitz,
    "fortify": Fortify,
}


# one move object per (kind, card, cell), kept in a row per (kind, card):
# legal_moves lists many of them per call, and a frozen dataclass is slow to
# build, while a dict lookup is not
class MoveRow(dict[int, PlacedMove]):
    """The moves of one kind and card, by cell; made on first use."""

    __slots__ = ("card", "kind")

    def __init__(self, kind: type[PlacedMove], card: Card) -> None:
        super().__init__()
        self.kind = kind
        self.card = card

    def __missing__(self, at: int) -> PlacedMove:
        move = self[at] = self.kind(self.card, at)
        return move


# the rows of every card int (0..63: suit * 16 + rank), by kind, indexed by card
EXPLORES = [MoveRow(Explore, c) for c in range(64)]
CONQUERS = [MoveRow(Conquer, c) for c in range(64)]
BLITZES = [MoveRow(Blitz, c) for c in range(64)]
FORTIFIES = [MoveRow(Fortify, c) for c in range(64)]
_ROWS: dict[type[PlacedMove], list[MoveRow]] = {
    Explore: EXPLORES,
    Conquer: CONQUERS,
    Blitz: BLITZES,
    Fortify: FORTIFIES,
}
_DISCARDS: dict[Card, Discard] = {}

_COORD = re.compile(r"^([+-]?[0-9]{1,3}),([+-]?[0-9]{1,3})$")
HELP = (
    "moves are 'explore 5H 2,-1', 'conquer 5H 2,0', 'blitz 7C 3,0', 'stop', "
    "'fortify KS 0,0', 'discard 5H' and 'pass'"
)


def placed(kind: type[PlacedMove], card: Card, at: int) -> PlacedMove:
    """The (shared) move of this kind, card and cell."""
    return _ROWS[kind][card][at]


def discard(card: Card) -> Discard:
    move = _DISCARDS.get(card)
    if move is None:
        move = _DISCARDS[card] = Discard(card)
    return move


def parse_move(text: str) -> TerritoryMove:
    """Read a move; NotationError (one line, quoting the text) for anything else."""
    # "2, -1" is one cell: glue the coordinates before splitting on spaces
    words = re.sub(r"\s*,\s*", ",", text.strip().lower()).split()
    if words == ["stop"]:
        return STOP
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] == "discard":
        return discard(_card(words[1], text))
    if len(words) == 3 and words[0] in _PLACED:
        return placed(_PLACED[words[0]], _card(words[1], text), _cell(words[2], text))
    raise NotationError(f"{shown_input(text, 30)} is not a territory move: {HELP}")


def _card(word: str, text: str) -> Card:
    try:
        return parse_card(word)
    except ValueError:
        raise NotationError(
            f"{shown_input(text, 30)}: {shown_input(word, 8)} is not a card "
            "(write the value then the suit, like 10H, AS or KD)"
        ) from None


def _cell(word: str, text: str) -> int:
    match = _COORD.match(word)
    if match is None:
        raise NotationError(
            f"{shown_input(text, 30)}: {shown_input(word, 12)} is not a cell (write x,y like 2,-1)"
        )
    x, y = int(match[1]), int(match[2])
    if abs(x) > LIMIT or abs(y) > LIMIT:
        raise NotationError(f"{shown_input(text, 30)}: cells run from -{LIMIT} to {LIMIT} each way")
    return pos_of(x, y)
