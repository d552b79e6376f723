"""A seat's legal moves in groups a person hears one by one
(``GameSpec.choice_groups``; line mode's turn prompt, docs/lines.md).

Thirty to two hundred numbered lines a turn cannot be listened to. A game
whose turns offer that many groups them by what a player decides first: what
a move does, then where or with what (Territory: explore, then each empty
cell with the values that may go there; Five-Card Trick: the first action,
then what joins it). A front end numbers the choices in the order the groups
give them, so a group's choices have consecutive numbers, and says a group
that is too long to hear in one line by its ``about``, listing it on request.

Texts may name seats as ``{p0}`` (filled in by whoever shows them, as an
event's); cards stay card texts (``5S``), named by the front end's card style.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal move: its notation, and its words within its row ("a 6",
    "Grow": the row's head says the rest)."""

    move: str
    words: str


@dataclass(frozen=True, slots=True)
class ChoiceRow:
    """Choices heard in one line after ``head`` ("1,-1, right of {p1's} 7";
    "" when the group's title says it all)."""

    head: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """Choices of one kind. ``name``: the one word a player types to hear
    the group (``list explore``); ``title``: the group in a few words
    ("Explore", "Score and"); ``about``: what it holds, said instead of the
    choices when they are too many for one line ("a 6 or a 9 at 9 empty
    cells")."""

    name: str
    title: str
    about: str
    rows: tuple[ChoiceRow, ...]

    @property
    def moves(self) -> list[str]:
        return [c.move for row in self.rows for c in row.choices]


def grouped_moves(groups: Iterable[ChoiceGroup]) -> list[str]:
    """Every move of ``groups``, in their order: the numbering of the choices."""
    return [move for group in groups for move in group.moves]


def either_or(words: Sequence[str]) -> str:
    """ "a 6", "a 6 or a 9", "a 6, a 5 or a 9"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """ "1 cell", "9 cells"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
