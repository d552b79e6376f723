"""A player's record, computed from the saved games (docs/stats.md).

The records are the truth: every figure here is counted from the finished
games in a store (or any list of records, which the server keeps too). Only
what needs a replay (each game's own figures, ``GameSpec.figure_samples``) is
kept in a cache beside the games (saves/stats_cache.py), which deleting
loses nothing.

Who is a player: every seat played by a person (``human`` here, ``remote``
over the network), by the name on the seat; hot-seat games count for each
named player. A computer seat is an opponent named by its level
(``computer:hard``). Per opponent, a game counts once, head to head: a win
when the player finished above that opponent, a loss below, a draw level with
them (in a two-seat game, the game's own result); several seats of one
opponent (three computers of one level) count as one, the best placed of them.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.figures import Figure, Samples, combine, place_of
from rules.game import Outcome
from rules.registry import get_game

from .errors import SaveError
from .ratings import Rating, computer_rating, rate
from .record import GameRecord, SeatInfo
from .stats_cache import CACHE_FILE, SampleCache
from .store import SaveStore

Result = Literal["win", "loss", "draw"]
COMPUTER = "computer:"


def opponent_key(seat: SeatInfo) -> str:
    """How a seat is known as an opponent: ``computer:<level>`` or the person's name."""
    if seat.kind == "bot":
        return f"{COMPUTER}{seat.level or 'medium'}"
    return seat.name


def opponent_label(key: str) -> str:
    """An opponent's key as a person reads it: ``Computer (hard)`` or the name."""
    if key.startswith(COMPUTER):
        return f"Computer ({key.removeprefix(COMPUTER)})"
    return key


@dataclass(frozen=True)
class Played:
    """One finished game, from one player's side."""

    record_id: str
    game: str
    preset: str | None
    when: str  # the record's last update: when the game ended (ISO 8601 UTC)
    seat: int
    players: int
    place: int  # 1 is the best; tied seats share a place
    result: Result
    resigned: bool
    opponents: tuple[tuple[str, Result], ...]  # (opponent key, head-to-head result)
    samples: Samples
    rating_before: Rating | None = None
    rating_after: Rating | None = None


@dataclass
class Tally:
    """Games, wins, losses, draws, resignations and the run of wins."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    resignations: int = 0
    streak: int = 0  # wins in a row up to the last game
    best_streak: int = 0

    def add(self, result: Result, resigned: bool = False) -> None:
        self.games += 1
        if result == "win":
            self.wins += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
            if result == "loss":
                self.losses += 1
            else:
                self.draws += 1
        if resigned:
            self.resignations += 1

    @property
    def win_rate(self) -> float:
        """Wins per game, a draw counting half."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "resignations": self.resignations,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


@dataclass
class GameStats:
    """One player's record in one game."""

    game: str
    tally: Tally = field(default_factory=Tally)
    by_opponent: dict[str, Tally] = field(default_factory=dict)
    by_preset: dict[str, Tally] = field(default_factory=dict)
    played: list[Played] = field(default_factory=list)  # oldest first

    @property
    def rating(self) -> Rating | None:
        for game in reversed(self.played):
            if game.rating_after is not None:
                return game.rating_after
        return None

    def figures(self) -> list[tuple[Figure, float | None]]:
        """The game's own figures (rules/figures.py) over every game played."""
        samples = [p.samples for p in self.played]
        return [(f, combine(f, samples)) for f in get_game(self.game).figures]

    def to_json(self) -> dict[str, Any]:
        rating = self.rating
        return {
            "game": self.game,
            **self.tally.to_json(),
            "rating": rating.to_json() if rating else None,
            "by_opponent": {k: t.to_json() for k, t in sorted(self.by_opponent.items())},
            "by_preset": {k: t.to_json() for k, t in sorted(self.by_preset.items())},
            "figures": {f.label: (None if v is None else round(v, 4)) for f, v in self.figures()},
            "rating_history": [
                {"id": p.record_id, "when": p.when, **p.rating_after.to_json()}
                for p in self.played
                if p.rating_after is not None
            ],
        }


@dataclass
class PlayerStats:
    name: str
    games: dict[str, GameStats] = field(default_factory=dict)

    @property
    def total(self) -> Tally:
        """Every game of every kind together (the streaks in the order played)."""
        tally = Tally()
        played = sorted((p for g in self.games.values() for p in g.played), key=_order)
        for p in played:
            tally.add(p.result, p.resigned)
        return tally


@dataclass
class Statistics:
    """Every player's record in a list of saved games."""

    players: dict[str, PlayerStats] = field(default_factory=dict)
    finished: int = 0  # games counted
    unfinished: int = 0  # games still being played: not counted yet
    skipped: list[str] = field(default_factory=list)  # "<id>: reason" of files not counted

    def player(self, name: str) -> PlayerStats | None:
        return self.players.get(name)

    def names(self) -> list[str]:
        """The players, most games first."""
        return sorted(self.players, key=lambda n: (-self._games_of(n), n.casefold()))

    def _games_of(self, name: str) -> int:
        return sum(g.tally.games for g in self.players[name].games.values())

    def played(self, record_id: str, name: str) -> Played | None:
        """The game ``record_id`` from ``name``'s side, if counted."""
        player = self.players.get(name)
        if player is None:
            return None
        for stats in player.games.values():
            for p in stats.played:
                if p.record_id == record_id:
                    return p
        return None

    def leaderboard(self, game: str) -> list[tuple[str, GameStats]]:
        """The players of ``game``, best rating first (then most games)."""
        rows = [(n, p.games[game]) for n, p in self.players.items() if game in p.games]
        return sorted(
            rows,
            key=lambda row: (-(row[1].rating or Rating()).mu, -row[1].tally.games, row[0]),
        )


# ------------------------------------------------------------ computing
def compute(
    records: Iterable[GameRecord],
    *,
    skipped: Sequence[str] = (),
    cache: SampleCache | None = None,
) -> Statistics:
    """Every player's statistics and ratings from ``records`` (any order);
    ``skipped`` names the files that could not be read. A record that does
    not replay is skipped too, with its reason, never raised."""
    stats = Statistics(skipped=list(skipped))
    cache = cache if cache is not None else SampleCache()
    finished: list[GameRecord] = []
    for record in records:
        if record.status != "finished" or record.result is None:
            stats.unfinished += 1
        else:
            finished.append(record)
    finished.sort(key=lambda r: (r.updated, r.created, r.id))
    ratings: dict[tuple[str, str], Rating] = {}
    for record in finished:
        try:
            samples = cache.samples(record)
        except SaveError as err:
            stats.skipped.append(f"{record.id}: {err}")
            continue
        stats.finished += 1
        _count(stats, record, samples, ratings)
    return stats


def compute_store(store: SaveStore, *, use_cache: bool = True) -> Statistics:
    """The statistics of every game in ``store``; unreadable files are skipped
    and counted. The cache of figures is read from and written back to the
    store's folder (a cache that cannot be written only costs time)."""
    entries = store.list()
    cache = SampleCache.load(store.root / CACHE_FILE) if use_cache else SampleCache()
    records = [e.record for e in entries if e.record is not None]
    skipped = [f"{e.id}: {e.error}" for e in entries if e.record is None]
    stats = compute(records, skipped=skipped, cache=cache)
    cache.keep_only({r.id for r in records})
    if use_cache and cache.changed:
        cache.save(store.root / CACHE_FILE)
    return stats


def _count(
    stats: Statistics,
    record: GameRecord,
    samples: Sequence[Samples],
    ratings: dict[tuple[str, str], Rating],
) -> None:
    outcome = Outcome.from_json(record.result or {})
    places = [place_of(s, outcome.ranking) or len(record.seats) for s in range(len(record.seats))]
    resigned = {seat for seat, text in record.moves if text.strip().lower() == "resign"}
    people = [s for s, seat in enumerate(record.seats) if seat.kind != "bot"]
    names = [seat.name for seat in record.seats]
    # a person's rating before this game, and after (the computer's stays put)
    rated: dict[int, tuple[Rating, Rating]] = {}
    if len({names[s] for s in people}) == len(people):  # two seats of one name: not rated
        before = [
            computer_rating(record.game, seat.level)
            if seat.kind == "bot"
            else ratings.get((record.game, seat.name), Rating())
            for seat in record.seats
        ]
        after = rate(before, places)
        for s in people:
            ratings[(record.game, names[s])] = after[s]
            rated[s] = (before[s], after[s])
    for s in people:
        result = _result(places, s)
        # one game counts once against each opponent, however many seats it
        # held (three computers of one level are one opponent, met once): head
        # to head with the best placed of them (N21: a 4-player win had
        # counted 3-0-0 against "Computer (medium)")
        best: dict[str, int] = {}
        for o, other in enumerate(record.seats):
            if o != s:
                key = opponent_key(other)
                best[key] = min(best.get(key, places[o]), places[o])
        opponents = tuple((key, _head_to_head(places[s], place)) for key, place in best.items())
        played = Played(
            record_id=record.id,
            game=record.game,
            preset=record.preset,
            when=record.updated,
            seat=s,
            players=len(record.seats),
            place=places[s],
            result=result,
            resigned=s in resigned,
            opponents=opponents,
            samples=samples[s] if s < len(samples) else {},
            rating_before=rated[s][0] if s in rated else None,
            rating_after=rated[s][1] if s in rated else None,
        )
        player = stats.players.setdefault(names[s], PlayerStats(names[s]))
        game = player.games.setdefault(record.game, GameStats(record.game))
        game.played.append(played)
        game.tally.add(result, played.resigned)
        game.by_preset.setdefault(_preset_of(record), Tally()).add(result, played.resigned)
        for key, head_to_head in opponents:
            game.by_opponent.setdefault(key, Tally()).add(head_to_head, played.resigned)


@functools.cache
def _presets(game: str) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """Each preset of ``game`` with every option it sets, to name a record's
    options when the record names no preset."""
    spec = get_game(game)
    named = []
    for name in spec.presets:
        with contextlib.suppress(ValueError):
            named.append((name, tuple(sorted(spec.config(name).to_dict().items()))))
    return tuple(named)


def _preset_of(record: GameRecord) -> str:
    """The record's preset; else the preset whose options it has (a game
    started with no preset named plays a preset's rules, players included
    where the preset leaves them), else ``custom``."""
    if record.preset:
        return record.preset
    options = dict(record.config)
    for name, values in _presets(record.game):
        wanted = dict(values)
        wanted["players"] = options.get("players")
        if options == wanted:
            return name
    return "custom"


def _result(places: Sequence[int], seat: int) -> Result:
    """A win is the first place alone, a draw a first place shared, else a loss."""
    if places[seat] != 1:
        return "loss"
    return "draw" if places.count(1) > 1 else "win"


def _head_to_head(mine: int, theirs: int) -> Result:
    if mine < theirs:
        return "win"
    return "loss" if mine > theirs else "draw"


def _order(played: Played) -> tuple[str, str]:
    return (played.when, played.record_id)
