"""The hard level's search with its reply searched too (rules/domination/replies.py):
one reply per what the seat would see, picked on the other half of the
samples (off: docs/bots.md, "Ninth session")."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rules.bots import Situation
from rules.bots.search import compare
from rules.domination.bots import DominationAdapter, HardBot
from rules.domination.replies import Branch, chosen_replies, compare_replies
from rules.domination.state import DominationState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perf"))
from bench_domination_ceiling import Seeing

from .test_domination_bots import random_positions

# an option the shipped level leaves off: its searches (about 1.3 s in all)
# run in the slow step, not in every default run
pytestmark = pytest.mark.slow


def test_each_half_plays_the_reply_the_other_half_picked() -> None:
    """Reply 1 wins in the even samples and loses in the odd ones: the even
    samples are scored by the odd half's pick (medium's reply, 0) and the
    odd ones by the even half's (1), never by their own best."""
    branch = Branch(["medium's", "other"], default=0)
    for k in range(8):
        branch.lines[k] = [(0.0, 0.5), (0.0, 0.9 if k % 2 == 0 else 0.2 + 0.01 * k)]
    chosen = chosen_replies(branch, [1.0] * 8, confidence=1.0)
    assert chosen == {0: 0, 2: 0, 4: 0, 6: 0, 1: 1, 3: 1, 5: 1, 7: 1}


def test_mediums_reply_stands_unless_another_gains_clearly() -> None:
    branch = Branch(["medium's", "other"], default=0)
    # each half (even samples, odd ones) sees gains of 0.3 and losses of
    # 0.28, a mean gain well inside one standard error
    for k in range(10):
        gain = 0.3 if (k // 2) % 2 == 0 else -0.28
        branch.lines[k] = [(0.0, 0.5), (0.0, 0.5 + gain)]
    weights = [1.0] * 10
    assert set(chosen_replies(branch, weights, confidence=1.0).values()) == {0}
    assert 1 in chosen_replies(branch, weights, confidence=0.0).values()


def positions_in_a_round() -> list[DominationState]:
    """Positions where the seat answers a card and has a choice."""
    found = [
        state
        for state in random_positions("standard", 6, seed=37)
        if state.run and len(state.legal_moves(state.turn)) > 1
    ]
    return found[:8]


def test_with_mediums_reply_forced_it_is_the_levels_search() -> None:
    """No reply may depart (an infinite threshold): every sample's figures
    are the paired mode's, sample for sample (the same rng, the same samples)."""
    for state in positions_in_a_round():
        situation = Seeing(state, state.turn)
        flat = compare(situation, DominationAdapter(), 8, random.Random(1))
        forced = compare_replies(
            situation, DominationAdapter(), 8, random.Random(1), confidence=float("inf")
        )
        assert forced.legal == flat.legal
        assert forced.chances == flat.chances
        assert forced.values == flat.values


def test_seeing_every_card_a_searched_reply_is_never_worse_and_sometimes_better() -> None:
    """Where every sample is the true state, both halves see the same
    playouts, so the reply picked is the best there is: each move's chance
    is at least the one medium's reply gives it, and above it somewhere."""
    better = 0
    for state in positions_in_a_round():
        situation = Seeing(state, state.turn)
        flat = compare(situation, DominationAdapter(), 8, random.Random(2))
        searched = compare_replies(
            situation, DominationAdapter(), 8, random.Random(2), confidence=0.0
        )
        for i in range(len(flat.legal)):
            assert searched.chance(i)[0] >= flat.chance(i)[0] - 1e-12
            better += searched.chance(i)[0] > flat.chance(i)[0] + 1e-9
    assert better > 0


def test_the_level_with_replies_keeps_its_playout_cap_and_its_rng() -> None:
    """Samples are drawn until the playouts reach the cap (each sample
    plays every move at least once), and the same rng gives the same move."""
    for state in positions_in_a_round()[:4]:
        live = Situation(state, state.turn)
        bot = HardBot(replies=True, max_playouts=120, seconds=None)
        found, move = bot.weigh(live, random.Random(5))
        assert move in live.legal
        assert 2 <= len(found.weights) <= -(-120 // len(live.legal))
        again, same = HardBot(replies=True, max_playouts=120, seconds=None).weigh(
            live, random.Random(5)
        )
        assert same == move and again.chances == found.chances
