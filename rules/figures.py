"""A game's own figures for a player's statistics, read from a finished game.

Every game has the same record (games, wins, streaks: ``saves/stats.py``
counts those from the outcome alone); what a player of one game also cares
about (Domination's biggest round, Stress's pick-ups) only that game's rules
can tell. A game lists its :class:`Figure` s on its spec and gives, for one
finished game seen from one seat, the samples they are computed from
(``GameSpec.figure_samples``). The statistics combine the samples of every
game a player played, without knowing which game it is.

The samples are read from the game's events (unredacted: the statistics are
computed from the player's own saved games, after the end, when nothing is
hidden any more). Each game reads its events in its own ``figures`` module,
so a change of an event's payload touches one place per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

# One game's samples from one seat's side: a sample name -> the values it took
# in that game (a figure over all games combines the lists).
Samples = dict[str, list[float]]

Combine = Literal["mean", "max", "total", "per_game"]


@dataclass(frozen=True)
class Figure:
    """One figure a statistics page shows for a game.

    ``combine`` says how the samples of every game make it: ``mean`` of all
    the values, their ``max``, their ``total``, or the total ``per_game``
    (divided by the games played, a game without the sample counting as 0).
    """

    label: str
    sample: str
    combine: Combine
    digits: int = 1  # decimals shown


def combine(figure: Figure, games: Sequence[Mapping[str, Sequence[float]]]) -> float | None:
    """The figure over ``games`` (each game's samples); None if nothing to show
    (no values of a mean or a maximum, say no win for "turns to win")."""
    values = [v for samples in games for v in samples.get(figure.sample, ())]
    if figure.combine == "per_game":
        return sum(values) / len(games) if games else None
    if figure.combine == "total":
        return float(sum(values))
    if not values:
        return None
    if figure.combine == "max":
        return max(values)
    return sum(values) / len(values)


def place_of(seat: int, ranking: Iterable[Iterable[int]]) -> int | None:
    """The seat's finishing place, 1 for the best, tied seats sharing the
    better place (two tied first are both 1st, the next is 3rd)."""
    place = 1
    for group in ranking:
        members = list(group)
        if seat in members:
            return place
        place += len(members)
    return None
