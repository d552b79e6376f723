"""Skill ratings per player and game, by openskill's Plackett-Luce model.

Plackett-Luce rates a game of any number of seats from its finishing order
(ties allowed), so one model serves two-player Domination and eight-player
Stress alike. A player starts at the library's default (mu 25, sigma 25/3);
each finished game moves every person's rating as ``model.rate`` says, in
the order the games ended. A computer seat has a fixed rating per game and
level (:func:`computer_ratings`, calibrated from arena runs: docs/stats.md),
so a person's rating against the computer means something from the first
game; the computer's own rating never moves.

The rating shown is ``mu`` (the library's estimate of the skill), with
``sigma`` (its uncertainty) beside it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import UnknownGame
from rules.registry import get_game

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

# The library's defaults for a newcomer (a test checks they are still its own):
# here as numbers so that showing a rating never loads the library.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
# how sure the calibration is of a computer level: small, as it was measured
# over hundreds of games, so one game against a person hardly moves it
COMPUTER_SIGMA = 1.0


def computer_ratings(game: str) -> Mapping[str, float]:
    """Each computer level's fixed mu in ``game``, as its rules declare them
    (``GameSpec.computer_ratings``: docs/stats.md, "Computer ratings"); none
    for a game this program does not know."""
    try:
        return get_game(game).computer_ratings
    except UnknownGame:
        return {}


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> str:
        """``27.4 ± 5.1``: the rating as a screen or a command prints it."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4)}


def computer_rating(game: str, level: str | None) -> Rating:
    """The fixed rating of the computer at ``level`` in ``game`` (an unknown
    level or game: a newcomer's)."""
    mu = computer_ratings(game).get(level or "", DEFAULT_MU)
    return Rating(mu, COMPUTER_SIGMA)


@functools.cache
def model() -> PlackettLuce:
    """The model, loaded on first use (the app starts without it)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(entrants: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every entrant's rating after one game in which they finished at
    ``places`` (1 the best; tied entrants share a place). The caller keeps
    only the ratings that may move (people's, not the computer's)."""
    teams = [[model().rating(mu=r.mu, sigma=r.sigma)] for r in entrants]
    rated = model().rate(teams, ranks=[float(p) for p in places])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in rated]


def win_chance(a: Rating, b: Rating) -> float:
    """The model's chance that ``a`` beats ``b`` in a two-seat game."""
    ratings = [model().rating(mu=r.mu, sigma=r.sigma) for r in (a, b)]
    chances = model().predict_win([[ratings[0]], [ratings[1]]])
    return float(chances[0])
