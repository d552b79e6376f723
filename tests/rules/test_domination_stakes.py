"""The stakes-aware heuristic (rules/domination/stakes.py): points weighed by
what they do to the chance to win the match, a playout policy the hard level
can search with (off: docs/bots.md, "Eighth session")."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rules.bots import Situation
from rules.domination import SPEC
from rules.domination.bots import HardBot, heuristic_move
from rules.domination.stakes import stakes, stakes_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perf"))
from bench_domination_policy import POLICIES
from bench_domination_policy import match as policy_match

from .test_domination_bots import random_positions


def test_points_at_the_start_of_a_match_count_as_points() -> None:
    even = stakes(0, 0, 100)
    assert even.ours(20) == pytest.approx(20.0)
    assert 0.0 < even.ours(5) < even.ours(20) < even.ours(60)
    # a seat's gain is the other's loss, so at an even score they mirror
    assert even.their(20) == pytest.approx(even.ours(20), rel=0.05)


def test_a_win_that_ends_the_match_is_worth_the_match_whatever_its_size() -> None:
    near = stakes(95, 95, 100)
    assert near.ours(5) == near.ours(60) > 0.0
    assert near.their(5) == near.their(60) > 0.0
    # on 95 against 0, even 40 points change little: the match is nearly won;
    # against a seat on 95, its 5 points cost far more than at 50-50
    assert stakes(95, 0, 100).ours(40) < 10.0
    assert stakes(50, 95, 100).their(5) > 3 * stakes(50, 50, 100).their(5)


def test_without_a_target_the_heuristic_is_mediums() -> None:
    assert stakes_of([40, 10], 0, 0) is None
    rounds = SPEC.config("ten-rounds")
    for g in range(4):
        state = SPEC.new(rounds, seed=70 + g)
        while not state.is_over:
            assert heuristic_move(state, staked=True) == heuristic_move(state)
            state.advance(state.turn, heuristic_move(state))


def test_the_memo_keeps_the_stakes_aware_moves_apart() -> None:
    """One memo for both heuristics and many scores answers as each does afresh."""
    memo: dict[tuple[object, ...], object] = {}
    positions = random_positions("standard", 8, seed=12)
    differ = 0
    for state in positions + [p.copy() for p in positions]:
        staked = heuristic_move(state, memo, staked=True)
        assert staked == heuristic_move(state, staked=True)
        assert heuristic_move(state, memo) == heuristic_move(state)
        differ += staked != heuristic_move(state)
    assert differ > 0  # the scores do change some moves


def test_the_hard_level_with_stakes_aware_playouts_keeps_that_heuristics_move() -> None:
    """With one sample too few to depart on, the level plays its default: the
    stakes-aware heuristic's move, read from the seat's own knowledge."""
    positions = [
        s for s in random_positions("standard", 2, seed=13) if len(s.legal_moves(s.turn)) > 1
    ]
    for state in positions[:4]:
        situation = Situation(state, state.turn)
        for staked in ("both", "own"):
            bot = HardBot(samples=2, staked=staked, seconds=None)
            found, move = bot.weigh(situation, random.Random(0), samples=2)
            assert move == heuristic_move(state, staked=True)
            assert len(found.weights) == 2


@pytest.mark.slow
def test_the_stakes_aware_heuristic_beats_medium_as_a_player() -> None:
    """Policy against policy, 10,000 fixed deals (both heuristics are
    deterministic, so the figure is too: 5,131 wins, 51.3%)."""
    won = sum(
        policy_match(POLICIES["staked"], POLICIES["medium"], 700_000 + g // 2, g % 2)
        for g in range(10_000)
    )
    assert won > 5_050, won
