"""Five-Card Trick moves and their notation (docs/rules/trick.md, "Notation").

A submission is a multiset of action cards (counts per action), the Block's
target, and the items used with it (``final`` only). Its text joins the cards
with ``+`` in a fixed order, a Block names its target after a colon, items come
last, and ``-`` is the empty submission::

    score+grow      claim+block:steal      score+score (final)
    score+grow+claim+overload (final)      steal+block:claim+reset (final)

A Block whose target another seat may not see is written ``block:?`` in that
seat's views (``HIDDEN_TARGET``): it reads back, as every text we write does,
but it is no move anyone can play (the rules refuse it with a reason).

Two more moves: ``priority`` (final: use Claim Priority between rounds) and
``missed`` (the timer's marker: the seat did not submit in time).

The notation is the same in every preset: Setna's names are read (``raise`` is
Grow) but ``grow`` is what is written, so a record reads back under any preset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import NotationError, shown_input

SCORE, GROW, CLAIM, STEAL, BLOCK = range(5)
ACTIONS = (SCORE, GROW, CLAIM, STEAL, BLOCK)
ACTION_IDS = ("score", "grow", "claim", "steal", "block")
NO_TARGET = -1
# The target of a Block as a seat sees another's Block that did not go live:
# written ``block:?``, read back, never playable (TrickState.check refuses it).
HIDDEN_TARGET = -2
HIDDEN_TEXT = "?"
ALL_LIGHTS = 0b11111

# the words a person may type for each action; the first is what we write
_SYNONYMS = {
    "score": SCORE,
    "grow": GROW,
    "raise": GROW,  # Setna's Curse
    "claim": CLAIM,
    "steal": STEAL,
    "block": BLOCK,
}
ITEM_IDS = ("overload", "reset", "priority")
OVERLOAD, RESET, PRIORITY = range(3)
_ITEM_SYNONYMS = {"overload": OVERLOAD, "reset": RESET, "limit-reset": RESET}

Counts = tuple[int, int, int, int, int]
EMPTY_COUNTS: Counts = (0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Submission:
    """A round's submission: copies per action, the Block target, items used.

    ``target`` is the action a Block names, or NO_TARGET (no Block, or a Block
    written without a target, which the rules disregard), or HIDDEN_TARGET (a
    Block as another seat saw it, its target kept secret: only in views)."""

    counts: Counts = EMPTY_COUNTS
    target: int = NO_TARGET
    overload: bool = False
    reset: bool = False
    # the search hashes submissions millions of times a decision: worked out once
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_hash", hash((self.counts, self.target, self.overload, self.reset))
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def cards(self) -> int:
        return sum(self.counts)

    @property
    def mask(self) -> int:
        """The actions present, one bit per action."""
        c = self.counts
        return (c[0] > 0) | (c[1] > 0) << 1 | (c[2] > 0) << 2 | (c[3] > 0) << 3 | (c[4] > 0) << 4

    def __str__(self) -> str:
        return format_submission(self, show_target=True)


@dataclass(frozen=True, slots=True)
class Missed:
    """The timer ran out before the seat submitted (``missed``)."""

    def __str__(self) -> str:
        return "missed"


@dataclass(frozen=True, slots=True)
class UsePriority:
    """Use Claim Priority: take the pot after a round whose Claims collided."""

    def __str__(self) -> str:
        return "priority"


TrickMove = Submission | Missed | UsePriority
EMPTY = Submission()
MISSED = Missed()
PRIORITY_MOVE = UsePriority()


def make_submission(
    actions: list[int] | tuple[int, ...],
    target: int = NO_TARGET,
    overload: bool = False,
    reset: bool = False,
) -> Submission:
    """A submission from a list of action cards (repeats allowed)."""
    counts = [0, 0, 0, 0, 0]
    for a in actions:
        counts[a] += 1
    t = target if counts[BLOCK] else NO_TARGET
    return Submission((counts[0], counts[1], counts[2], counts[3], counts[4]), t, overload, reset)


def hide_target(sub: Submission) -> Submission:
    """``sub`` as a seat sees it that may not know its Block's target."""
    if sub.target == NO_TARGET:
        return sub
    return Submission(sub.counts, HIDDEN_TARGET, sub.overload, sub.reset)


def target_text(target: int) -> str:
    return HIDDEN_TEXT if target == HIDDEN_TARGET else ACTION_IDS[target]


def format_submission(sub: Submission, show_target: bool = True) -> str:
    """The notation; with ``show_target=False`` a Block's target is written ``?``
    (how an opponent sees a Block that did not go live: ``hide_target``)."""
    return _submission_text(sub, show_target)


# Every view writes the whole history again, each seat's submission of every
# round, for every seat at every update: the few hundred texts there are are
# written once (bounded: a record read from a file may hold any counts).
@lru_cache(maxsize=4096)
def _submission_text(sub: Submission, show_target: bool) -> str:
    if not show_target:
        sub = hide_target(sub)
    parts: list[str] = []
    for a in ACTIONS:
        for _ in range(sub.counts[a]):
            if a == BLOCK and sub.target != NO_TARGET:
                parts.append(f"block:{target_text(sub.target)}")
            else:
                parts.append(ACTION_IDS[a])
    if sub.overload:
        parts.append("overload")
    if sub.reset:
        parts.append("reset")
    return "+".join(parts) if parts else "-"


def parse_move(text: str) -> TrickMove:
    """Read a move; NotationError (a sentence) for text that is no move."""
    t = text.strip().lower().replace(" ", "")
    if t in ("-", "", "none", "pass"):
        return EMPTY
    if t == "missed":
        return MISSED
    if t in ("priority", "claim-priority"):
        return PRIORITY_MOVE
    counts = [0, 0, 0, 0, 0]
    target: int | None = None
    overload = reset = False
    for token in t.split("+"):
        word, _, arg = token.partition(":")
        if word in _ITEM_SYNONYMS and not arg:
            item = _ITEM_SYNONYMS[word]
            if (item == OVERLOAD and overload) or (item == RESET and reset):
                raise NotationError(_bad(text, f"{word} is used twice"))
            overload |= item == OVERLOAD
            reset |= item == RESET
            continue
        action = _SYNONYMS.get(word)
        if action is None:
            raise NotationError(_bad(text, f"{shown_input(word or token, 20)} is not an action"))
        if arg and action != BLOCK:
            raise NotationError(_bad(text, f"only a Block names a target, not {word}"))
        if action == BLOCK:
            named = NO_TARGET
            if arg == HIDDEN_TEXT:
                named = HIDDEN_TARGET
            elif arg:
                if arg not in _SYNONYMS:
                    raise NotationError(_bad(text, f"a Block cannot name {shown_input(arg, 20)}"))
                named = _SYNONYMS[arg]
            if target is not None and target != named:
                raise NotationError(_bad(text, "both Block cards must name the same action"))
            target = named
        counts[action] += 1
        if counts[action] > 2:
            raise NotationError(_bad(text, f"{ACTION_IDS[action]} appears more than twice"))
    if sum(counts) > 3:
        raise NotationError(_bad(text, "a submission holds at most 3 cards (with Overload)"))
    return Submission(
        (counts[0], counts[1], counts[2], counts[3], counts[4]),
        NO_TARGET if target is None else target,
        overload,
        reset,
    )


def _bad(text: str, why: str) -> str:
    return (
        f"{shown_input(text)} is not a Five-Card Trick move: {why}. "
        "Write actions joined by +, e.g. score+grow or claim+block:steal, or - for none"
    )


def all_submissions(
    doubles: bool, exact_two: bool, overload: bool, reset: bool
) -> list[Submission]:
    """Every well-formed submission of a preset, for a seat owning these items.

    Block targets are expanded (targetless Blocks included: the rules accept and
    disregard them), each item is used or not."""
    bases: list[tuple[int, ...]] = [()]
    sizes = [2] if exact_two else [1, 2]
    for size in sizes:
        bases += _multisets(size, doubles)
    if overload:
        bases += [
            m for m in _multisets(3, True) if (doubles or len(set(m)) == 3) and len(set(m)) > 1
        ]
    out: list[Submission] = []
    for cards in bases:
        targets = [*ACTIONS, NO_TARGET] if BLOCK in cards else [NO_TARGET]
        for t in targets:
            for ov in (False, True) if overload else (False,):
                if ov != (len(cards) == 3):
                    continue
                for rs in (False, True) if reset else (False,):
                    out.append(make_submission(cards, t, ov, rs))
    return out


def _multisets(size: int, doubles: bool) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(start: int, acc: tuple[int, ...]) -> None:
        if len(acc) == size:
            if all(acc.count(a) <= (2 if doubles else 1) for a in acc):
                out.append(acc)
            return
        for a in range(start, 5):
            rec(a, (*acc, a))

    rec(0, ())
    return out
