"""Post-game analysis: a seat's own moves judged as the hints judged them.

At each decision the seat had (more than one legal move), the advice
(:func:`.advice.advise`) judges what the seat knew then: the state as it was,
seen through ``Situation.sample`` (hidden cards dealt again), and the events
the seat had seen. It is the same judgement as the hint's at that moment (the
same judge and budget, seeded by the position, and remembered where the hint
already judged it), so a move the hint called best costs nothing here. The
cost of a move is the best choice's chance to win minus the chance of the
choice the move amounts to (a move with thrown-out parts is judged as what
it does), with the larger of the two estimates' errors; the moments that
cost most come first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..events import Event, visible_events
from ..game import GameSpec
from .advice import advise
from .base import Situation
from .search import Budget


@dataclass(frozen=True)
class Moment:
    ply: int  # index of the move in the record
    played: Hashable
    best: Hashable
    played_value: float
    best_value: float
    error: float = 0.0  # the 95% half-width of the cost: a cost within it is no mistake
    played_note: str = ""  # what the move amounted to, where the rules threw part out
    best_note: str = ""
    played_as: Hashable | None = None  # the choice the move amounted to, if another move

    @property
    def cost(self) -> float:
        return max(0.0, self.best_value - self.played_value)

    @property
    def costly(self) -> bool:
        """A cost the judge can tell from nothing (beyond its error)."""
        return self.cost > self.error


def review(
    spec: GameSpec[Any, Any],
    config: Any,
    seed: int,
    moves: Sequence[tuple[int, str]],
    seat: int,
    budget: Budget | None = None,
    deck_order: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Moment]:
    """Every decision of ``seat`` in the record, dearest first. A move the
    judge does not weigh (a clock's "missed") is left out."""
    state = spec.new(config, seed, deck_order)
    seen: list[Event] = []
    out: list[Moment] = []
    for ply, (who, text) in enumerate(moves):
        if progress is not None:
            progress(ply, len(moves))  # moves gone through, of all
        move = spec.parse_move(text)
        if who == seat:
            situation = Situation(state, seat, seen)
            if len(situation.legal) > 1 and move in situation.legal:
                advice = advise(situation, budget)
                played = advice.choice_of(str(move))
                best = advice.best
                if played is not None:
                    out.append(
                        Moment(
                            ply,
                            move,
                            spec.parse_move(best.move),
                            played.win_chance,
                            best.win_chance,
                            max(played.error, best.error),
                            played.note,
                            best.note,
                            None if played.move == str(move) else spec.parse_move(played.move),
                        )
                    )
        seen.extend(visible_events(state.play(who, move), seat))
    out.sort(key=lambda m: m.cost, reverse=True)
    return out


# a cost this small is no mistake, whatever the error
NEGLIGIBLE = 0.005
SHOWN = 10  # moments listed at most


def mistakes(moments: Sequence[Moment], shown: int = SHOWN) -> list[Moment]:
    """The moments worth a word, costliest first: a cost beyond the judge's
    error (a move within it is as good as the best, as far as it can tell)."""
    return [m for m in moments if m.costly and m.cost > NEGLIGIBLE][:shown]


def moment_words(
    moment: Moment,
    words: Callable[[str], str] = str,
    label: str = "",
    to_points: Callable[[float], float] | None = None,
) -> str:
    """One costly moment in words: when (``label``, the game's own unit; by
    default the move number), what was played (and what it amounted to, where
    the rules threw part of it out), the best choice, and what the difference
    cost with its error ("cost: 14% ± 5 of your chance to win"; in points
    where the game's engine reads values so: ``to_points``)."""

    def said(move: Hashable, note: str) -> str:
        text = words(str(move))
        return f"{text} ({note})" if note else text

    if to_points is not None:
        lost = to_points(moment.best_value) - to_points(moment.played_value)
        cost = f"{lost:.1f} points"
    else:
        error = round(moment.error * 100)
        spread = f" ± {error}" if error >= 1 else ""
        cost = f"{round(moment.cost * 100)}%{spread} of your chance to win"
    when = label or f"Move {moment.ply + 1}"
    played = said(moment.played, moment.played_note)
    if moment.played_as is not None and not moment.played_note:
        played += f" (thrown out in part: same as {words(str(moment.played_as))})"
    best = said(moment.best, moment.best_note)
    # "your move: play A♣", not "you played play A♣": the words may start with a verb
    return f"{when}: your move: {played}; best: {best} (cost: {cost})"
