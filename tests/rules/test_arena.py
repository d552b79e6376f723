"""The arena's core (rules/bots/arena.py): seats rotate, results are
reproducible from the seed alone (whatever the number of processes), and the
summary counts what was played."""

from __future__ import annotations

import pytest

from rules.bots.arena import ArenaSpec, arena, make_player, play_game, wilson
from rules.domination.bots import MediumBot
from rules.trick.scripts import ScriptBot

QUICK = ArenaSpec("domination", "random", "medium", games=4, preset="short", seed=7)


def test_seats_rotate_and_each_deal_is_played_from_both_sides() -> None:
    results = [play_game(QUICK, i) for i in range(4)]
    assert [r.a_seat for r in results] == [0, 1, 0, 1]
    assert [r.seed for r in results] == [7, 7, 8, 8]
    for r in results:
        a_won = r.winner == r.a_seat
        assert r.a_share == (1.0 if a_won else 0.0)
        assert r.moves > 0
        assert r.b_times  # medium had choices to make, and they were timed


def test_results_depend_only_on_the_seed() -> None:
    once = [play_game(QUICK, i) for i in range(4)]
    again = [play_game(QUICK, i) for i in range(4)]
    strip = [(r.winner, r.scores, r.moves) for r in once]
    assert strip == [(r.winner, r.scores, r.moves) for r in again]


def test_processes_change_nothing_but_the_clock() -> None:
    spec = ArenaSpec("trick", "easy", "always_claim", games=2, seed=3)
    alone, _ = arena(spec, jobs=1)
    pooled, _ = arena(spec, jobs=2)
    assert (alone.wins, alone.draws, alone.losses, alone.mean_moves) == (
        pooled.wins,
        pooled.draws,
        pooled.losses,
        pooled.mean_moves,
    )


def test_the_summary_counts_the_games() -> None:
    seen = []
    summary, results = arena(QUICK, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert summary.games == 4 == summary.wins + summary.draws + summary.losses
    assert summary.rate == sum(r.a_share for r in results) / 4
    assert summary.ci_low <= summary.rate <= summary.ci_high
    assert summary.mean_moves == sum(r.moves for r in results) / 4
    assert summary.b_times.decisions == sum(len(r.b_times) for r in results)
    assert summary.b_times.median is not None and summary.b_times.p99 is not None
    assert summary.b_times.median <= summary.b_times.p99


def test_wilson_interval() -> None:
    low, high = wilson(70, 100)
    assert round(low, 3) == 0.604 and round(high, 3) == 0.781
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_players_by_name() -> None:
    assert isinstance(make_player("domination", "medium"), MediumBot)
    assert isinstance(make_player("trick", "thief"), ScriptBot)
    with pytest.raises(ValueError, match="choose from: easy, medium, hard, random"):
        make_player("domination", "thief")


def test_games_stopped_at_the_rules_limit_are_counted() -> None:
    # easy against easy at two-player Stress: seed 1's games 1, 3 and 5 reach
    # 2,000 plays (the rules' cap), the other three are played out
    spec = ArenaSpec("stress", "easy", "easy", games=6, players=2, seed=1)
    summary, results = arena(spec)
    stopped = [r for r in results if r.stopped_by_limit is not None]
    assert [r.index for r in stopped] == [1, 3, 5] and summary.limited == 3
    assert summary.limit == "the 2,000-play limit (ranked by cards left)"
    assert all(r.moves >= 2000 for r in stopped)  # every play is a move
    played_out, _ = arena(QUICK)
    assert played_out.limited == 0 and played_out.limit == ""
