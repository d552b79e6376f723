"""A turn's choices as lines a person can listen to (docs/lines.md, "A turn").

A few choices are a numbered list, one a line ("3: play 4 of spades"). Many
(Territory's 30 to 180, Five-Card Trick's 41, Stress's 30) are heard in the
groups the game gives (``GameSpec.choice_groups``, rules/choices.py): a
group is one line a row ("Score and: 12 for Grow, 13 for Claim") while the
prompt stays within a dozen lines; past that, the groups of most rows are
one line each saying what they hold and how to hear them
("Explore, 1 to 27: a 6, a 5 or a 9 on one of 9 empty cells. To hear them:
list explore"). Either way every choice keeps one number, the order of the
groups, and a number or the move's notation is taken.

Typed words that are no notation pick out the choices they fit
(:meth:`TurnChoices.matching`): "6 1,-1", "9 at 1,-1" (a card's value alone
names any of its suits), "block claim".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.choices import ChoiceGroup, ChoiceRow

# at most this many choices are listed one to a line; more are grouped
FLAT_LIMIT = 12
# a group whose rows hold at most this many choices each may be listed in the
# turn's prompt itself, a row a line
INLINE_LIMIT = 12
# the most lines a turn's prompt lists its choices in (when it can)
PROMPT_LINES = 12
# words a player may put between the parts of a move ("9 at 1,-1")
_FILLERS = {"a", "an", "at", "with", "on", "the", "of", "and", "for", "+", "play"}
_SUITS = "SHDC"


@dataclass
class TurnChoices:
    """The choices of one turn: numbered, grouped, matched against typed words.

    ``words(move)``: a move's words as the seat reads them; ``show(text)``:
    a text with seats named and cards in the player's card words."""

    legal: Sequence[str]
    groups: Sequence[ChoiceGroup]
    words: Callable[[str], str]
    show: Callable[[str], str]
    moves: list[str] = field(init=False)

    def __post_init__(self) -> None:
        grouped = [m for g in self.groups for m in g.moves]
        if not self.groups or len(self.legal) <= FLAT_LIMIT:
            self.groups = []
            grouped = []
        # a move a group stood in for (Territory: another suit of one value) last
        rest = [m for m in self.legal if m not in set(grouped)]
        self.moves = grouped + rest
        self.number = {m: i for i, m in enumerate(self.moves, 1)}

    @property
    def grouped(self) -> bool:
        return bool(self.groups)

    @property
    def listed(self) -> int:
        """How many choices the player hears of (the groups may leave out
        moves that differ in nothing the rules count)."""
        return sum(len(g.moves) for g in self.groups) if self.groups else len(self.moves)

    # ------------------------------------------------------------ lines
    def prompt_lines(self) -> list[str]:
        """The choices as the turn's prompt lists them: every group row by
        row, but where that takes more than PROMPT_LINES lines, the groups of
        most rows said by what they hold instead, until it does not."""
        if not self.grouped:
            return [self.show(f"{n}: {self.words(m)}") for m, n in self.number.items()]
        inline = {
            i
            for i, g in enumerate(self.groups)
            if all(len(row.choices) <= INLINE_LIMIT for row in g.rows)
        }

        def size(i: int) -> int:
            return len(self.groups[i].rows) if i in inline else 1

        while sum(size(i) for i in range(len(self.groups))) > PROMPT_LINES:
            wide = [i for i in inline if len(self.groups[i].rows) > 1]
            if not wide:
                break
            inline.remove(max(wide, key=lambda i: (len(self.groups[i].rows), -i)))
        lines = []
        for i, group in enumerate(self.groups):
            if i in inline:
                lines += [self._row(row) for row in group.rows]
            else:
                lines.append(self._summary(group))
        return lines

    def group_lines(self, group: ChoiceGroup) -> list[str]:
        rows = [self._row(r) for r in group.rows]
        return rows if len(rows) == 1 else [self._summary(group, hear=False), *rows]

    def all_lines(self) -> list[str]:
        if not self.grouped:
            return self.prompt_lines()
        return [line for g in self.groups for line in self.group_lines(g)]

    def group_named(self, name: str) -> ChoiceGroup | None:
        return next((g for g in self.groups if g.name == name.lower()), None)

    def _row(self, row: ChoiceRow) -> str:
        if len(row.choices) == 1 and not row.choices[0].words:
            return self.show(f"{self.number[row.choices[0].move]}: {row.head}")
        items = ", ".join(f"{self.number[c.move]} for {c.words}" for c in row.choices)
        return self.show(f"{row.head}: {items}.")

    def _summary(self, group: ChoiceGroup, hear: bool = True) -> str:
        numbers = [self.number[m] for m in group.moves]
        span = f"{numbers[0]} to {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
        how = f" To hear them: list {group.name}." if hear else ""
        return self.show(f"{group.title}, {span}: {group.about}.{how}")

    # ------------------------------------------------------------ typed words
    def matching(self, text: str) -> list[str]:
        """The choices whose notation or words hold every word typed (a
        card's value alone stands for any of its suits); of choices said
        the same way, the first. Choices made of exactly the words typed come
        alone ("score claim": Score + Claim, not Score + Block on Claim)."""
        typed = [w for w in _tokens(text) if w not in _FILLERS]
        if not typed:
            return []
        fits: dict[str, str] = {}
        exact: dict[str, str] = {}
        for move in self.moves:
            said = self.words(move)
            notation = _tokens(move)
            have = {*notation, *_tokens(said)}
            have |= {_value(w) for w in have}
            if all(w in have for w in typed):
                fits.setdefault(said, move)
                if sorted(w if w in typed else _value(w) for w in notation) == sorted(typed):
                    exact.setdefault(said, move)
        return list((exact or fits).values())


def _value(word: str) -> str:
    """A card's text without its suit ("6c" -> "6"); any other word as it is."""
    return word[:-1] if len(word) > 1 and word[-1].upper() in _SUITS else word


def _tokens(text: str) -> list[str]:
    """Lower-case words: "explore 6C 1,-1" -> explore, 6c, 1,-1; "score+block:claim"
    -> score, block, claim."""
    return [w for w in re.split(r"[\s+:()]+", text.lower().replace(", ", " ")) if w]
