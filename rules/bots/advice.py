"""One judgement of a position, for everyone who asks: the hint, the
post-game analysis and the hard computers.

:func:`advise` is a plain function of what a seat knows (a
:class:`~.base.Situation`) returning typed data (:class:`Advice`), so every
front end shows the same advice, in words built here (:func:`advice_lines`,
:func:`chance_words`):

* **One judge a game** (``GameBots.judge`` on its spec): the same search or solver,
  with the same budget, as the game's hard level; a game without its own
  judge gets the search engine's (:func:`engine_judge`).
* **The same answer for the same position.** The judge's random numbers are
  seeded from the position (:func:`position_key`: the game, its rules, the
  seat, its view, the events it saw, its legal moves), never from the table
  or the time, and the budget is a number of iterations, never seconds: the
  hint asked twice, and the analysis afterwards, see the same figures. A
  position already judged in this process is not judged again (a small
  cache keyed by position).
* **Only moves that count.** A judge ranks choices, not raw moves: legal
  moves that the rules would treat alike (a Trick submission with a part
  thrown out and the submission without it) are one choice, played by a
  move with nothing thrown out where there is one; where there is none, the
  choice says what it amounts to (:attr:`Choice.note`).
* **Honest figures.** Each chance comes with its uncertainty
  (:attr:`Choice.error`, a 95% half-width), and a figure is never shown as
  100% or 0% while the other result is still possible.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .base import Situation
from .roster import bots_of
from .search import _CAP, Analysis, Budget, analyse, engine_for

# judgements kept per process (a game's worth of positions, hints and analysis)
CACHE_SIZE = 512
# a listed choice's chance is never shown as 100% or 0% unless the judge is sure
SURE = 1.0


@dataclass(frozen=True)
class Choice:
    """One choice as the judge sees it. ``move`` is the legal move (notation)
    that plays it; ``win_chance`` the seat's estimated chance to win after it
    (0 to 1) and ``error`` the 95% half-width of that estimate; ``points``,
    where the game reads values so, expected points. ``note``: what the move
    amounts to where the rules would throw part of it out ("same as playing
    nothing"); ``share``: in a simultaneous game, how often a player who
    cannot be read plays it (the judge's mixed strategy)."""

    move: str
    win_chance: float
    points: float | None = None
    error: float = 0.0
    note: str = ""
    share: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "win_chance": self.win_chance,
            "points": self.points,
            "error": self.error,
            "note": self.note,
            "share": self.share,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Choice:
        points = data.get("points")
        share = data.get("share")
        return cls(
            str(data["move"]),
            float(data["win_chance"]),
            None if points is None else float(points),
            float(data.get("error", 0.0)),
            str(data.get("note", "")),
            None if share is None else float(share),
        )


@dataclass(frozen=True)
class Advice:
    """A judgement: the choices, best first (``choices[0]`` is what the hard
    computer plays, or in a simultaneous game the choice it plays most
    often), and for every legal move judged the move of the choice it
    amounts to (``same``). A legal move missing from ``same`` is not a choice
    (a clock's "missed", or a move the judge does not weigh)."""

    choices: tuple[Choice, ...]
    same: Mapping[str, str] = field(default_factory=dict)
    mixed: bool = False  # a simultaneous decision: ``share`` is a mix to draw from

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def choice_of(self, move: str) -> Choice | None:
        """The choice a legal move amounts to (None: not judged)."""
        target = self.same.get(move, move)
        for choice in self.choices:
            if choice.move == target:
                return choice
        return None

    def pick(self, rng: random.Random) -> str:
        """The move to play: the best, or in a mixed decision one drawn by
        the shares (a fixed choice could be read)."""
        if not self.mixed:
            return self.best.move
        r = rng.random()
        acc = 0.0
        for choice in self.choices:
            acc += choice.share or 0.0
            if r < acc:
                return choice.move
        return self.best.move


Judge = Callable[[Situation, random.Random, Budget | None], Advice]
_CACHE: OrderedDict[tuple[str, Budget | None], Advice] = OrderedDict()
_LOCK = threading.Lock()


def position_key(situation: Situation) -> str:
    """A digest of what the seat knows at this decision, and nothing else:
    the same for the table's hint (searched from a sample) and the analysis
    (replayed from the record) of the same moment."""
    h = hashlib.sha256()
    h.update(situation.spec.id.encode())
    h.update(repr(situation.config).encode())  # the rules in force
    h.update(str(situation.seat).encode())
    h.update(msgspec.json.encode(situation.view))
    for event in situation.history:
        h.update(event.kind.encode())
        h.update(event.text.encode())
        h.update(msgspec.json.encode(event.data))
    for move in situation.legal:
        h.update(b"\0" + str(move).encode())
    return h.hexdigest()


def advise(situation: Situation, budget: Budget | None = None) -> Advice:
    """The judgement of a seat's decision: its game's judge, seeded from the
    position, answered from the cache where this position was judged already.
    ``budget`` replaces the game's own (tests; the game's is the hard
    level's)."""
    key = (position_key(situation), budget)
    with _LOCK:  # the app's pool thinks in threads
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    judge = bots_of(situation.spec).judge or engine_judge
    advice = judge(situation, random.Random(key[0]), budget)
    if _CAP.get() is None:  # a judgement a busy server cut short is not kept
        with _LOCK:
            _CACHE[key] = advice
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
    return advice


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()


def engine_judge(situation: Situation, rng: random.Random, budget: Budget | None) -> Advice:
    """The search engine's judgement (:func:`.search.analyse` with the game's
    adapter and its hard level's iterations): the most visited move first (the
    hard computer's), the others by their chance; moves never tried are left
    out."""
    adapter, default = engine_for(situation.spec.id)
    use = budget or Budget(default.iterations)  # iterations only: the same every time
    return from_analysis(analyse(situation, adapter, use, rng), adapter.value_kind == "points")


def from_analysis(analysis: Analysis, points: bool = False, best: Any = None) -> Advice:
    """An engine analysis as advice: each tried move a choice, with the 95%
    half-width of its mean (a value in [0, 1] has a variance of at most
    p(1 - p), p shrunk a little towards a half so that a few wins in a row
    do not read as certain). ``best``: the move to put first (by default the
    most visited)."""
    tried = [e for e in analysis.moves if e.visits]
    if best is None:
        best = tried[0].move if tried else None
    choices = []
    for e in tried:
        n = e.visits
        p = (e.value * n + 0.5) / (n + 1)
        error = 1.96 * (p * (1.0 - p) / n) ** 0.5
        choices.append(Choice(str(e.move), e.value, e.points if points else None, error))
    choices.sort(key=lambda c: (c.move == str(best), c.win_chance), reverse=True)
    mixed = analysis.mixed
    if mixed:
        total = sum(e.visits for e in tried) or 1
        shares = {str(e.move): e.visits / total for e in tried}
        choices = [
            Choice(c.move, c.win_chance, c.points, c.error, c.note, shares[c.move]) for c in choices
        ]
    return Advice(tuple(choices), {c.move: c.move for c in choices}, mixed)


# ------------------------------------------------------------------ words
def percent(chance: float) -> int:
    """A chance in whole percent, never 100 or 0 unless it is certain."""
    shown = round(chance * 100)
    if shown >= 100 and chance < SURE:
        return 99
    if shown <= 0 and chance > 0.0:
        return 1
    return shown


def chance_words(choice: Choice) -> str:
    """ "52% ± 6": the chance and what the judge can tell of it. Near a
    certain outcome the margin would reach past 0 or 100 ("1% ± 5" reads as
    a chance of -4%), so the figure is said as the bound the judge can
    vouch for: "under 6%", "over 94%"."""
    error = round(choice.error * 100)
    shown = percent(choice.win_chance)
    if error < 1 or shown == 100:  # 100 only when the move wins for certain
        return f"{shown}%"
    if shown - error <= 0:
        return f"under {shown + error}%"
    if shown + error >= 100:
        return f"over {shown - error}%"
    return f"{shown}% ± {error}"


def choice_words(choice: Choice, words: Callable[[str], str]) -> str:
    """A choice in the game's words, with what it amounts to where the rules
    throw part of it out."""
    text = words(choice.move)
    return f"{text} ({choice.note})" if choice.note else text


def advice_lines(
    choices: Sequence[Choice], words: Callable[[str], str] = str, shown: int = 8
) -> list[str]:
    """The hint as lines: "Best: ..." then each choice, best first, with its
    chance to win and its error ("→ Score + Claim   52% ± 6 to win"). The
    screen may restyle cards (``words`` gives the game's words)."""
    if not choices:
        return ["No move to weigh."]
    names = [choice_words(c, words) for c in choices[:shown]]
    width = max(len(n) for n in names)
    chances = [chance_words(c) for c in choices[:shown]]
    cwidth = max(len(c) for c in chances)
    lines = [f"Best: {names[0]}", ""]
    for i, (name, chance) in enumerate(zip(names, chances, strict=True)):
        mark = ">" if i == 0 else " "
        points = choices[i].points
        extra = f"   {points:+.1f} points" if points is not None else ""
        lines.append(f"{mark} {name.ljust(width)}  {chance.rjust(cwidth)} to win{extra}")
    if len(choices) > shown:
        lines.append(f"  ... and {len(choices) - shown} more")
    return lines


def error_words(choices: Sequence[Choice]) -> str:
    """What the figures can tell, in a line for the foot of the hint."""
    if not choices:
        return ""
    best = choices[0]
    if best.share is not None and best.share < 0.95:
        return f"Equal choices are mixed: the engine plays the best {round(best.share * 100)}%."
    return "± is the engine's margin: choices within it are as good."
