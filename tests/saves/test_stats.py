"""The player's statistics and ratings, checked against records played
through the real rules (saves/stats.py, saves/ratings.py, docs/stats.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from rules.figures import place_of
from saves.ratings import (
    COMPUTER_SIGMA,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Rating,
    computer_rating,
    computer_ratings,
)
from saves.stats import compute, compute_store
from saves.stats_cache import CACHE_FILE
from saves.store import SaveStore
from tests.saves.stats_records import at, computer, person, played_record, you


def test_a_record_against_the_computer_counts_wins_losses_and_streaks() -> None:
    records = [
        played_record("domination", [you(), computer("medium")], seed, when=at(seed))
        for seed in range(8)
    ]
    results = ["win" if r.result and r.result["winner"] == 0 else "loss" for r in records]
    stats = compute(records)
    mine = stats.players["You"].games["domination"]
    assert mine.tally.games == 8
    assert mine.tally.wins == results.count("win")
    assert mine.tally.losses == results.count("loss")
    best = run = 0
    for result in results:
        run = run + 1 if result == "win" else 0
        best = max(best, run)
    assert (mine.tally.streak, mine.tally.best_streak) == (run, best)
    against = mine.by_opponent["computer:medium"]
    assert (against.wins, against.losses) == (mine.tally.wins, mine.tally.losses)
    assert "Computer" not in stats.players  # the computer is an opponent, not a player


def test_a_resignation_is_a_loss_and_counted_as_one() -> None:
    record = played_record("territory", [you(), computer("hard")], 3, resign_at=(0, 0))
    mine = compute([record]).players["You"].games["territory"]
    assert (mine.tally.losses, mine.tally.resignations, mine.tally.wins) == (1, 1, 0)
    assert mine.by_opponent["computer:hard"].losses == 1


def test_hot_seat_games_count_for_each_named_player_and_per_preset() -> None:
    records = [
        played_record("trick", [person("Ann"), person("Bob")], s, preset=p, when=at(s))
        for s, p in enumerate(["standard", "standard", "original"])
    ]
    stats = compute(records)
    ann, bob = stats.players["Ann"].games["trick"], stats.players["Bob"].games["trick"]
    assert ann.tally.games == bob.tally.games == 3
    assert ann.tally.wins == bob.tally.losses
    assert ann.by_opponent["Bob"].wins == bob.by_opponent["Ann"].losses
    assert ann.by_preset["standard"].games == 2 and ann.by_preset["original"].games == 1
    chips = [r.result["scores"][0] for r in records if r.result]
    figures = {f.label: v for f, v in ann.figures()}
    assert figures["Chips a game"] == pytest.approx(sum(chips) / 3)
    steals = 0
    for record in records:
        _, events = record.replay_with_events()
        steals += sum(
            1
            for e in events
            if e.kind == "reveal"
            and e.data.to_json()["taker"] == 0
            and e.data.to_json()["taken_by"] == "steal"
        )
    assert figures["Pots stolen"] == steals


def test_domination_figures_come_from_the_rounds_won() -> None:
    records = [played_record("domination", [you(), computer()], s, when=at(s)) for s in range(4)]
    points = []
    for record in records:
        _, events = record.replay_with_events()
        points += [
            e.data.to_json()["points"]
            for e in events
            if e.kind == "round_won" and e.data.to_json()["seat"] == 0
        ]
    figures = {f.label: v for f, v in compute(records).players["You"].games["domination"].figures()}
    assert figures["Biggest round"] == max(points)
    assert figures["Average round score"] == pytest.approx(sum(points) / len(points))


def test_stress_places_and_pick_ups_in_a_game_of_three() -> None:
    seats = [you(), person("Ann"), computer("easy")]
    records = [played_record("stress", seats, s, when=at(s), max_moves=400) for s in range(3)]
    stats = compute(records)
    mine = stats.players["You"].games["stress"]
    places = [place_of(0, r.result["ranking"]) for r in records if r.result]
    figures = {f.label: v for f, v in mine.figures()}
    assert figures["Average finishing place"] == pytest.approx(sum(places) / 3)  # type: ignore[arg-type]
    pickups = 0
    for record in records:
        _, events = record.replay_with_events()
        pickups += sum(1 for e in events if e.kind == "pickup" and e.data.to_json()["seat"] == 0)
    assert figures["Pick-ups a game"] == pytest.approx(pickups / 3)
    assert mine.by_opponent.keys() == {"Ann", "computer:easy"}


def test_a_rating_moves_as_openskill_says_and_the_computer_stays_put() -> None:
    won = played_record("domination", [you(), computer("medium")], 0)
    assert won.result is not None
    winner = won.result["winner"]
    stats = compute([won])
    game = stats.players["You"].games["domination"]
    model = PlackettLuce()
    medium = model.rating(mu=computer_ratings("domination")["medium"], sigma=COMPUTER_SIGMA)
    ranks = [1, 2] if winner == 0 else [2, 1]
    [[expected], _] = model.rate([[model.rating()], [medium]], ranks=ranks)
    assert game.rating == Rating(expected.mu, expected.sigma)
    assert (game.rating.mu > 25) == (winner == 0)
    assert computer_rating("domination", "medium").mu == computer_ratings("domination")["medium"]


def test_a_win_raises_the_rating_and_a_loss_lowers_it() -> None:
    win = played_record("territory", [you(), computer("easy")], 1, resign_at=(0, 1), when=at(1))
    loss = played_record("territory", [you(), computer("easy")], 2, resign_at=(0, 0), when=at(2))
    stats = compute([loss, win])  # any order: rated in the order they ended
    played = stats.players["You"].games["territory"].played
    assert [p.result for p in played] == ["win", "loss"]
    assert played[0].rating_after.mu > played[0].rating_before.mu  # type: ignore[union-attr]
    assert played[1].rating_after.mu < played[1].rating_before.mu  # type: ignore[union-attr]
    assert played[1].rating_before == played[0].rating_after


def test_the_store_skips_unreadable_files_with_a_count_and_the_cache_changes_nothing(
    tmp_path: Path,
) -> None:
    store = SaveStore(tmp_path)
    for s in range(3):
        store.save(played_record("trick", [you(), computer()], s, when=at(s)))
    store.games_dir.joinpath("0badf00d.json").write_text("{not json")
    store.games_dir.joinpath("00c0ffee.json").write_text('{"format": "someone-else"}')
    unfinished = played_record("trick", [you(), computer()], 9)
    unfinished.status, unfinished.result = "playing", None
    store.save(unfinished)
    first = compute_store(store)
    assert len(first.skipped) == 2 and first.finished == 3 and first.unfinished == 1
    assert (tmp_path / CACHE_FILE).exists()
    again = compute_store(store)
    assert again.players["You"].games["trick"].to_json() == (
        first.players["You"].games["trick"].to_json()
    )
    (tmp_path / CACHE_FILE).write_text("[1, 2")  # a broken cache is rebuilt
    rebuilt = compute_store(store)
    assert rebuilt.players["You"].games["trick"].to_json() == (
        first.players["You"].games["trick"].to_json()
    )


def test_a_newcomer_starts_at_the_librarys_own_defaults() -> None:
    model = PlackettLuce()
    assert (model.mu, model.sigma) == (DEFAULT_MU, DEFAULT_SIGMA)


def test_a_game_started_without_a_preset_counts_under_the_preset_it_plays() -> None:
    plain = played_record("domination", [you(), computer()], 1, when=at(1))
    short = played_record("domination", [you(), computer()], 2, when=at(2), preset="short")
    custom = played_record(
        "domination", [you(), computer()], 3, when=at(3), options={"target_score": 20}
    )
    for record in (plain, short, custom):
        record.preset = None
    presets = compute([plain, short, custom]).players["You"].games["domination"].by_preset
    assert {name: t.games for name, t in presets.items()} == {
        "standard": 1,
        "short": 1,
        "custom": 1,
    }


def test_a_game_of_three_is_rated_from_its_finishing_order() -> None:
    seats = [you(), person("Ann"), computer("hard")]
    record = played_record("stress", seats, 5, max_moves=300)
    assert record.result is not None
    places = [place_of(s, record.result["ranking"]) for s in range(3)]
    model = PlackettLuce()
    hard = model.rating(mu=computer_ratings("stress")["hard"], sigma=COMPUTER_SIGMA)
    rated = model.rate([[model.rating()], [model.rating()], [hard]], ranks=places)
    stats = compute([record])
    for seat, name in ((0, "You"), (1, "Ann")):
        expected = rated[seat][0]
        assert stats.players[name].games["stress"].rating == Rating(expected.mu, expected.sigma)


def test_three_computers_of_one_level_are_one_opponent_met_once() -> None:
    """N21: one 4-player game against three medium computers is one game
    against "Computer (medium)", placed as the best of them; not three wins."""
    seats = [you(), computer("medium"), computer("medium"), computer("medium")]
    record = played_record("stress", seats, 1, when=at(1), max_moves=2000)
    assert record.result is not None
    ranking = record.result["ranking"]
    stats = compute([record])
    mine = stats.players["You"].games["stress"]
    tally = mine.by_opponent["computer:medium"]
    assert tally.games == 1 and mine.tally.games == 1
    best_of_them = min(place_of(s, ranking) for s in (1, 2, 3))
    expected = "win" if place_of(0, ranking) < best_of_them else "loss"
    assert (tally.wins, tally.losses) == ((1, 0) if expected == "win" else (0, 1))
