"""Position texts: a whole game state as a few lines, written and read back.

Like python-chess's ``fen()`` and ``set_fen()``: ``state.position_text()``
writes everything in a state, hidden parts included, and
``spec.parse_position(config, text)`` reads it back into a state that is the
same in every respect (its snapshot, views and legal moves). It is for tests,
puzzles and bug reports, never for a seat: it shows every hand.

Every game writes the same shape (docs/rules/<game>.md, "Position text")::

    <game id>
    <key>: <value>
    ...

one field a line, in a fixed order. Values use a few shared forms: cards as
their texts separated by spaces, ``-`` for none (and for a missing value);
one value per seat joined by `` / ``; ``yes``/``no``; the generator as
``<seed>+<draws>`` (:func:`rng_text`). A reader refuses anything else with a
:class:`PositionError` that names the line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from .cards import Card, CardTextError, card_text, parse_card
from .errors import shown_input
from .rng import GameRng

T = TypeVar("T")

NONE = "-"
SEAT_SEPARATOR = " / "
_WORDS_PER_CYCLE = 624  # the Mersenne Twister's state: 624 words of 32 bits
_MAX_CYCLES = 2000  # how far rng_text looks for the draws (about 1.2 million words)


class PositionError(ValueError):
    """Text that is not a position of this game; ``str()`` says which line and why."""


# ------------------------------------------------------------------ writing
def position_lines(
    game_id: str, fields: Iterable[tuple[str, str]], body: Sequence[str] = ()
) -> str:
    """The position text: the game's id, then ``key: value`` a line, then
    ``body``: lines that belong to the last field (a diagram)."""
    lines = [game_id]
    for key, value in fields:
        assert "\n" not in value, f"position field {key} holds a line break"
        lines.append(f"{key}: {value}".rstrip())
    lines += body
    return "\n".join(lines)


def cards_text(cards: Iterable[Card]) -> str:
    texts = [card_text(c) for c in cards]
    return " ".join(texts) if texts else NONE


def seats_text(values: Iterable[str]) -> str:
    return SEAT_SEPARATOR.join(values)


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def optional(value: int | None) -> str:
    return NONE if value is None else str(value)


def ints_text(values: Iterable[int]) -> str:
    texts = [str(v) for v in values]
    return " ".join(texts) if texts else NONE


def facts_text(groups: Iterable[tuple[int, int]], everything: int) -> str:
    """Public facts about a hand, as groups ``count:mask`` (``count`` of its
    unknown cards lie in ``mask``), tightest first, joined by commas; a mask in
    hex, or ``*`` for ``everything``; ``-`` for no group."""
    texts = [f"{n}:{'*' if m == everything else format(m, 'x')}" for n, m in groups]
    return ",".join(texts) if texts else NONE


def flags_text(flags: Iterable[bool]) -> str:
    return " ".join(yes_no(f) for f in flags)


# ------------------------------------------------------------------ reading
class PositionFields:
    """A position text read into its fields, with typed readers that raise
    :class:`PositionError` naming the field."""

    def __init__(
        self, text: str, game_id: str, keys: Sequence[str], players: int, with_body: bool = False
    ) -> None:
        if not isinstance(text, str):
            raise PositionError(f"a position is text, not {shown_input(text)}")
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines or lines[0] != game_id:
            first = lines[0] if lines else ""
            raise PositionError(
                f"a {game_id} position starts with the line {game_id!r}, not {shown_input(first)}"
            )
        self.game_id = game_id
        self.players = players
        self.values: dict[str, str] = {}
        # the lines after the last field are its body (position_lines)
        self.body: list[str] = []
        for line in lines[1:]:
            if with_body and len(self.values) == len(keys):
                self.body.append(line)
                continue
            key, colon, value = line.partition(":")
            key = key.strip()
            if not colon or key not in keys:
                raise PositionError(
                    f"{shown_input(line)} is no field of a {game_id} position "
                    f"(its fields: {', '.join(keys)})"
                )
            if key in self.values:
                raise PositionError(f"the field {key!r} is given twice")
            self.values[key] = value.strip()
        missing = [k for k in keys if k not in self.values]
        if missing:
            raise PositionError(f"a {game_id} position needs the fields {', '.join(missing)}")

    def bad(self, key: str, why: str) -> PositionError:
        return PositionError(f"{key}: {shown_input(self.values[key])} {why}")

    def text(self, key: str) -> str:
        return self.values[key]

    def read(self, key: str, reader: Callable[[str], T], what: str) -> T:
        try:
            return reader(self.values[key])
        except (ValueError, KeyError, IndexError):
            raise self.bad(key, f"is not {what}") from None

    def number(self, key: str, low: int | None = None, high: int | None = None) -> int:
        value = self.read(key, int, "a whole number")
        self._check_range(key, value, low, high)
        return value

    def optional_number(
        self, key: str, low: int | None = None, high: int | None = None
    ) -> int | None:
        if self.values[key] == NONE:
            return None
        return self.number(key, low, high)

    def flag(self, key: str) -> bool:
        return self.read(key, _yes_no, "yes or no")

    def cards(self, key: str) -> list[Card]:
        return self.read(key, read_cards, "a list of cards (like 7H QS, or - for none)")

    def ints(self, key: str, count: int | None = None) -> list[int]:
        values = self.read(key, _ints, "whole numbers separated by spaces")
        if count is not None and len(values) != count:
            raise self.bad(key, f"should hold {count} numbers")
        return values

    def seat(self, key: str, allow_none: bool = False) -> int | None:
        if allow_none and self.values[key] == NONE:
            return None
        return self.number(key, 0, self.players - 1)

    def per_seat(self, key: str, reader: Callable[[str], T], what: str) -> list[T]:
        """One value per seat, joined by `` / ``."""
        parts = self.values[key].split("/")
        if len(parts) != self.players:
            raise self.bad(key, f"should hold {self.players} values, one per seat, joined by /")
        out = []
        for part in parts:
            try:
                out.append(reader(part.strip()))
            except (ValueError, KeyError, IndexError):
                raise self.bad(key, f"is not {what} for each seat") from None
        return out

    def flags(self, key: str) -> list[bool]:
        """One yes/no per seat, separated by spaces."""
        flags = self.read(key, lambda t: [_yes_no(w) for w in t.split()], "yes/no per seat")
        if len(flags) != self.players:
            raise self.bad(key, f"should hold {self.players} yes/no, one per seat")
        return flags

    def facts(self, key: str, everything: int) -> list[list[tuple[int, int]]]:
        """:func:`facts_text` per seat."""
        return self.per_seat(
            key, lambda t: read_facts(t, everything), "facts like 5:* or 2:1ff0,3:*"
        )

    def seat_cards(self, key: str) -> list[list[Card]]:
        return self.per_seat(key, read_cards, "a list of cards")

    def rng(self, key: str = "rng") -> GameRng:
        return self.read(key, parse_rng_text, "a generator written <seed>+<draws>")

    def _check_range(self, key: str, value: int, low: int | None, high: int | None) -> None:
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.bad(key, f"is out of range ({low} to {high})")


def read_cards(text: str) -> list[Card]:
    if text.strip() == NONE:
        return []
    try:
        return [parse_card(t) for t in text.split()]
    except CardTextError as err:
        raise ValueError(str(err)) from None


def read_facts(text: str, everything: int) -> list[tuple[int, int]]:
    """:func:`facts_text`'s form back; ValueError for anything else."""
    if text == NONE:
        return []
    groups = []
    for group in text.split(","):
        count, _, mask = group.partition(":")
        value = everything if mask == "*" else int(mask, 16)
        if int(count) < 0 or value & ~everything:
            raise ValueError("no such group")
        groups.append((int(count), value))
    return groups


def _ints(text: str) -> list[int]:
    return [] if text.strip() == NONE else [int(t) for t in text.split()]


def _yes_no(text: str) -> bool:
    return {"yes": True, "no": False}[text]


# ------------------------------------------------------------- the generator
def rng_text(rng: GameRng, seed: int) -> str:
    """The generator as ``<seed>+<draws>``: seeded with ``seed``, then ``draws``
    words of 32 bits drawn (every draw of a Mersenne Twister consumes whole
    words, so the count says where it stands, whatever was drawn). A generator
    that did not come from ``seed`` is written whole: ``mt:`` and its state,
    unless it has drawn nothing yet from a seed of its own (a sample's, drawn
    for a computer player's worker: net/thinkers.py), which is written as
    that seed, ``+0``, without searching for its draws."""
    own = rng.unused_seed
    if own is not None and own != seed:
        return f"{own}+0"
    target = rng.getstate()
    words = _draws_from(seed, target)
    if words is not None:
        return f"{seed}+{words}"
    version, key, gauss = target
    assert version == 3 and gauss is None, "a GameRng holds a plain Mersenne Twister state"
    return "mt:" + ".".join(format(w, "x") for w in key)


def parse_rng_text(text: str) -> GameRng:
    """Read :func:`rng_text`'s form back; ValueError for anything else."""
    rng = GameRng(0)
    if text.startswith("mt:"):
        key = tuple(int(w, 16) for w in text[3:].split("."))
        if len(key) != _WORDS_PER_CYCLE + 1:
            raise ValueError("a generator state holds 625 numbers")
        probe = random.Random()
        probe.setstate((3, key, None))  # ValueError if it is no state
        rng.setstate(probe.getstate())
        return rng
    seed_text, plus, draws_text = text.partition("+")
    seed, draws = int(seed_text), int(draws_text or "x")
    if not plus or draws < 0:
        raise ValueError("not <seed>+<draws>")
    if draws == 0:  # still unseeded, as the one written was (cheap to copy and to write)
        return GameRng(seed)
    live = random.Random(seed)
    if draws:
        live.getrandbits(32 * draws)
    rng.setstate(live.getstate())
    return rng


def _draws_from(seed: int, target: tuple[object, ...]) -> int | None:
    """How many words a generator seeded with ``seed`` drew to reach ``target``,
    or None. After n >= 1 draws the state's index is ((n - 1) mod 624) + 1, so
    only every 624th count is a candidate."""
    key = target[1]
    assert isinstance(key, tuple)
    index = key[-1]
    live = random.Random(seed)
    if index == _WORDS_PER_CYCLE and live.getstate() == target:
        return 0
    drawn = index % _WORDS_PER_CYCLE or _WORDS_PER_CYCLE
    live.getrandbits(32 * drawn)
    for _ in range(_MAX_CYCLES):
        if live.getstate() == target:
            return drawn
        live.getrandbits(32 * _WORDS_PER_CYCLE)
        drawn += _WORDS_PER_CYCLE
    return None
