"""Territory's bots: legal moves only, the greedy rule, blitz chains, the
search's candidate moves and grid reading, strength.

tests/perf/bench_territory_bots.py plays the long matches (hard against medium
and random); here medium beats random over a few deals, each played twice
with the seats swapped.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rules.bots import RandomBot, Situation, make_bot
from rules.bots.search import engine_for
from rules.territory import SPEC, Explore, TerritoryState
from rules.territory.board import OWNER_BIT, STEPS
from rules.territory.bots import (
    MediumBot,
    SearchBot,
    TerritoryAdapter,
    candidate_moves,
    grid_value,
    rollout_move,
    win_chance,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perf"))
from bench_territory_bots import _one


def position(diagram: str, hand0: str, hand1: str, **options: object) -> TerritoryState:
    return SPEC.position(SPEC.config(**options), diagram, [hand0.split(), hand1.split()])


def test_the_levels_are_registered() -> None:
    assert isinstance(make_bot("territory", "easy"), RandomBot)
    assert isinstance(make_bot("territory", "medium"), MediumBot)
    assert isinstance(make_bot("territory", "hard"), SearchBot)
    adapter, budget = engine_for("territory")  # the hints search as hard does
    assert isinstance(adapter, TerritoryAdapter) and budget == SearchBot().budget


@pytest.mark.parametrize("preset", list(SPEC.presets))
def test_medium_plays_only_legal_moves_to_the_end(preset: str) -> None:
    state = SPEC.new(SPEC.config(preset), seed=3)
    bot, rng = MediumBot(), random.Random(3)
    while not state.is_over:
        seat = state.turn
        move = bot.choose(Situation(state, seat), rng)
        assert move in state.legal_moves(seat)
        state.play(seat, move)
    assert state.ply <= SPEC.max_moves(state.config)


def test_medium_follows_a_blitz_chain_to_the_win() -> None:
    """The horizontal row lacks only a 6. Taking the 3H adds nothing by
    itself, and taking the 2H cuts the opponent's best region, so a bot that
    looked one capture ahead would take the 2H; the chain 8 (the 3H) then 3
    (the 6H next to it) wins."""
    s = position(
        """
        AC- 2C- 3C- 4C- 5C- 7C- 8C- 9C- 10C-
        .   2H| .   .   .   .   3H| .   .
        .   4H| 5D| 7H| 8H| .   6H| .   .
        """,
        "8S 3S 2D",
        "AH AD AS",
    )
    one_step = {}
    for text in ("conquer 2D 1,1", "conquer 8S 6,1"):
        after = s.copy()
        after.play(0, SPEC.parse_move(text))
        one_step[text] = grid_value(after, 0)
    assert one_step["conquer 2D 1,1"] > one_step["conquer 8S 6,1"]

    bot, rng = MediumBot(), random.Random(0)
    moves = []
    while not s.is_over and s.turn == 0:
        move = bot.choose(Situation(s, 0), rng)
        moves.append(str(move))
        s.play(0, move)
    assert moves == ["conquer 8S 6,1", "blitz 3S 6,2"]
    assert s.is_over and s.winner == 0


def test_medium_takes_the_blitz_worth_most() -> None:
    """After the 2 takes the 3H, a 3 may take the 4H (leaving the opponent
    two single cards) or the 3D (leaving it 4-5); the 4H is worth more, and
    either beats stopping."""
    s = position(
        """
        2C- 3H| 4H| 5H|
        .   3D| .   .
        """,
        "2D 3S 9S",
        "AH AD AS",
    )
    bot, rng = MediumBot(), random.Random(1)
    s.play(0, SPEC.parse_move("conquer 2D 1,0"))
    assert str(bot.choose(Situation(s, 0), rng)) == "blitz 3S 2,0"


def test_the_grid_value_puts_values_first_then_cutting_then_growing() -> None:
    base = position("2C- 3C- 4H| 5H| 6H|", "9S", "9H")
    more_values = position("2C- 3C- 7C- 5H| 6H|", "9S", "9H")
    smaller_opponent = position("2C- 3C- 4H| 5H| .  6H|", "9S", "9H")
    bigger_own = position("2C- 3C- 3D- 5H| 6H| 4H|", "9S", "9H")
    assert grid_value(more_values, 0) > grid_value(base, 0)
    assert grid_value(smaller_opponent, 0) > grid_value(base, 0)
    assert grid_value(base, 1) > grid_value(base, 0)
    assert grid_value(bigger_own, 0) > grid_value(position("2C- 3C- 5H| 6H| 4H|", "9S", "9H"), 0)


def test_medium_beats_random() -> None:
    config = SPEC.config()
    results = [_one(("medium", "random", config, g))[0] for g in range(16)]
    assert sum(results) >= 14, results


# ------------------------------------------------------------------ hard
WIN_BY_CHAIN = """
    AC- 2C- 3C- 4C- 5C- 7C- 8C- 9C- 10C-
    .   2H| .   .   .   .   3H| .   .
    .   4H| 5D| 7H| 8H| .   6H| .   .
    """


def test_the_search_tries_one_card_per_value_and_explores_next_to_its_own() -> None:
    s = position("2C- 5C- 4H| 5H|", "5S 5D 9S", "9H")
    legal = s.legal_moves(0)
    found = candidate_moves(s, 0)
    assert set(found) <= set(legal)
    keys = [(type(m), m.card & 15, m.at) for m in found if hasattr(m, "at")]
    assert len(keys) == len(set(keys)), "a value is searched once per cell"
    explores = [m for m in found if isinstance(m, Explore)]
    mine = {p for p, c in s.grid.items() if c & OWNER_BIT == 0}
    assert explores and all(any(m.at + d in mine for d in STEPS) for m in explores)
    # both ways of taking the 4H with a 5: one of them is searched
    assert sum(str(m).startswith("conquer 5") for m in found) == 1
    assert sum(str(m).startswith("conquer 5") for m in legal) == 2


def test_the_rollout_policy_blitzes_while_it_can() -> None:
    s = position(WIN_BY_CHAIN, "8S 3S 2D", "AH AD AS")
    s.play(0, SPEC.parse_move("conquer 8S 6,1"))
    assert str(rollout_move(s, 0, random.Random(0))) == "blitz 3S 6,2"


def test_the_win_chance_reads_the_lead_in_values() -> None:
    even = position("2C- 3C- 4H| 5H|", "9S", "9H")
    ahead = position("2C- 3C- 7C- 4H| 5H|", "9S", "9H")
    assert win_chance(even, 0) == pytest.approx(0.5)
    assert win_chance(ahead, 0) > 0.6 and win_chance(ahead, 1) < 0.4
    s = position(WIN_BY_CHAIN, "8S 3S 2D", "AH AD AS")
    s.play(0, SPEC.parse_move("conquer 8S 6,1"))
    s.play(0, SPEC.parse_move("blitz 3S 6,2"))
    assert s.is_over and win_chance(s, 0) == 1.0 and win_chance(s, 1) == 0.0


def test_hard_finds_the_blitz_chain_that_wins() -> None:
    s = position(WIN_BY_CHAIN, "8S 3S 2D", "AH AD AS")
    bot, rng = SearchBot(iterations=200, seconds=None), random.Random(0)
    moves = []
    while not s.is_over and s.turn == 0:
        move = bot.choose(Situation(s, 0), rng)
        moves.append(str(move))
        s.play(0, move)
    assert moves == ["conquer 8S 6,1", "blitz 3S 6,2"]
    assert s.winner == 0


@pytest.mark.parametrize("preset", ["standard", "royal"])
def test_hard_plays_only_legal_moves_to_the_end(preset: str) -> None:
    state = SPEC.new(SPEC.config(preset), seed=5)
    bots = [SearchBot(iterations=6, seconds=None, depth=4), RandomBot()]
    rng = random.Random(5)
    while not state.is_over:
        seat = state.turn
        move = bots[seat].choose(Situation(state, seat), rng)
        assert move in state.legal_moves(seat)
        state.play(seat, move)


def test_the_search_values_a_sooner_win_more() -> None:
    s = position(WIN_BY_CHAIN, "8S 3S 2D", "AH AD AS")
    adapter = TerritoryAdapter()
    adapter.horizon(s)
    now = s.copy()
    now.play(0, SPEC.parse_move("conquer 8S 6,1"))
    now.play(0, SPEC.parse_move("blitz 3S 6,2"))
    assert now.winner == 0
    later = now.copy()
    later._ply += 4  # the same win, four moves later
    sooner, late = adapter.result(now), adapter.result(later)
    assert sooner[0] > late[0] > win_chance(s, 0) and sooner[0] + sooner[1] == 1.0


@pytest.mark.parametrize("preset", ["standard", "royal"])
def test_random_playouts_draw_every_legal_move_and_only_those(preset: str) -> None:
    adapter = TerritoryAdapter()
    rng = random.Random(4)
    state = SPEC.new(SPEC.config(preset), 9)
    checked = 0
    while not state.is_over:
        seat = state.to_act()[0]
        legal = state.legal_moves(seat)
        if checked < 6 and len(legal) <= 40 and state.blitz_at < 0:
            drawn = [adapter.random_move(state, seat, rng) for _ in range(40 * len(legal))]
            assert set(drawn) == set(legal)  # none missed, none made up
            checked += 1
        move = adapter.random_move(state, seat, rng)
        assert move in legal
        state.play(seat, move)
    assert checked
