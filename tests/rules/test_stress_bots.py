"""stress bots: the levels, the medium bot's rules of thumb from explicit
positions, whole legal games, and a small strength check (the larger tables
come from the arena: ``cardtable arena stress ...``)."""

from __future__ import annotations

import math
import random

import pytest

from rules.bots import RandomBot, make_bot
from rules.bots.advice import clear_cache
from rules.bots.arena import ArenaSpec, arena
from rules.bots.base import Situation
from rules.bots.search import Analysis, Budget, analyse, engine_for
from rules.stress import READY, SPEC, Blind, StressState, Swap
from rules.stress.bots import (
    HardBot,
    MediumBot,
    StressAdapter,
    position_burden,
    rollout_play,
    sensible_moves,
)
from tests.rules.test_stress import cards, deal, play, position


def choice(state: StressState, seat: int) -> object:
    return MediumBot().choose(Situation(state, seat), random.Random(1))


def test_levels_are_registered() -> None:
    assert isinstance(make_bot("stress", "easy"), RandomBot)
    assert isinstance(make_bot("stress", "medium"), MediumBot)
    assert isinstance(make_bot("stress", "hard"), HardBot)


def test_medium_swaps_its_strongest_cards_face_up_then_says_ready() -> None:
    # hand 10S 2S AS 4S, face up 5H 6H 3D 7C: the 10, 2, A and the 3 belong face up
    state = deal(
        [
            ("KD KC KH KS", "5H 6H 3D 7C", "10S 2S AS 4S"),
            ("QD QC QH QS", "JD JC JH JS", "9D 9C 9H 9S"),
        ],
        "8D",
    )
    for _ in range(10):
        move = choice(state, 0)
        if move == READY:
            break
        assert isinstance(move, Swap)
        state.play(0, move)
    assert move == READY
    assert sorted(state.up[0]) == sorted(cards("10S 2S AS 3D"))


def test_medium_plays_the_cheapest_rank_with_all_its_copies() -> None:
    state = position(["5S 5H 9D KS", "4C"], stack="4D")
    assert choice(state, 0) == play("5S 5H")


def test_medium_keeps_two_three_and_ten_while_an_ordinary_card_goes() -> None:
    state = position(["2S 3H 10D AS", "4C"], stack="JD")
    assert choice(state, 0) == play("AS")


def test_medium_uses_a_three_before_a_two_on_a_small_stack() -> None:
    state = position(["2S 3H 10D 4S", "4C"], stack="JD")
    assert choice(state, 0) == play("3H")


def test_medium_burns_a_big_stack_with_a_ten() -> None:
    state = position(["2S 3H 10D 4S", "4C"], stack="5C 6C 7C 8C 4D 7D")
    assert choice(state, 0) == play("10D")


def test_medium_picks_up_only_when_it_must_and_turns_up_face_down_cards() -> None:
    state = position(["4S 5S", "4C"], stack="KD")
    assert str(choice(state, 0)) == "pickup"
    state = position(["", "4C"], down=["4S 5S 6S 7S", ""], stack="KD")
    assert isinstance(choice(state, 0), Blind)


@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("preset", list(SPEC.presets))
def test_medium_and_easy_play_whole_games_legally(players: int, preset: str) -> None:
    # play() raises on an illegal move; the arena plays to the end or the cap
    summary, results = arena(
        ArenaSpec("stress", "medium", "easy", games=1, preset=preset, players=players, seed=5)
    )
    assert summary.games == 1 and results[0].moves > 0


def test_medium_beats_random_heads_up() -> None:
    summary, _ = arena(ArenaSpec("stress", "medium", "random", games=20, players=2, seed=11))
    assert summary.wins >= 18


def test_the_engine_reads_fewer_cards_left_as_better() -> None:
    adapter, _ = engine_for("stress")
    assert isinstance(adapter, StressAdapter)
    state = position(["4C", "5C 6C 7C 8C 9C"], stack="3H")
    mine, theirs = adapter.evaluate(state, 0)
    assert mine > 0.5 > theirs


def test_the_engine_gives_a_legal_move_from_what_its_seat_knows() -> None:
    state = position(["4C 9D KS", "5C 6C 7C"], stack="8H", stock="2D 3D")
    situation = Situation(state, 0)
    analysis = analyse(situation, StressAdapter(), Budget(iterations=60), random.Random(3))
    assert analysis.best in situation.legal


def test_medium_counts_what_is_gone_and_plays_a_card_nobody_can_follow() -> None:
    # Every other card is burned (position(): the cemetery holds the rest), so
    # no 2, 3, K or A is left for seat 1: the K forces it to pick up 3 cards.
    state = position(["5S KS", "4C 6C"], stack="4D 4H")
    assert choice(state, 0) == play("KS")
    # One 3 still unseen (in seat 1's face-down row): anything may follow, so
    # the cheapest rank goes as before.
    state = position(["5S KS", "4C 6C"], down=["", "3C"], stack="4D 4H")
    assert choice(state, 0) == play("5S")
    # On a stack of one card the strong card is not spent.
    state = position(["5S KS", "4C 6C"], stack="4D")
    assert choice(state, 0) == play("5S")


def test_medium_counts_ten_as_a_follower_only_where_tens_are_wild() -> None:
    state = position(["5S KS", "4C 6C"], down=["", "10C"], stack="4D 4H")
    assert choice(state, 0) == play("KS")  # a 10 may not go on a K
    state = position(["5S KS", "4C 6C"], down=["", "10C"], stack="4D 4H", ten_wild=True)
    assert choice(state, 0) == play("5S")


def test_sensible_moves_play_each_rank_whole_and_specials_alone_too() -> None:
    state = position(["5S 5H 5D 2S 2H KS", "4C"], stack="4D")
    moves = sensible_moves(state.legal_moves(0))
    assert sorted(map(str, moves)) == sorted(["5S+5H+5D", "2S", "2S+2H", "KS"])
    blind = position(["", "4C"], down=["4S 5S 6S 7S", ""], stack="KD")
    assert sensible_moves(blind.legal_moves(0)) == [Blind(1)]


def test_the_rollout_policy_is_the_medium_bots_choice() -> None:
    for hands, stack in [
        (["5S 5H 9D KS", "4C"], "4D"),
        (["2S 3H 10D AS", "4C"], "JD"),
        (["2S 3H 10D 4S", "4C"], "JD"),
        (["2S 3H 10D 4S", "4C"], "5C 6C 7C 8C 4D 7D"),
        (["4S 5S", "4C"], "KD"),
    ]:
        state = position(hands, stack=stack, stock="2C 3C")  # stock: nothing is "unbeatable"
        assert rollout_play(state, 0) == choice(state, 0)


def test_advance_plays_like_play_move() -> None:
    # games of every preset, 2 to 5 seats, both ways side by side: half the
    # moves random, half the medium bot's (so that games end)
    for players, preset in [(2, "standard"), (3, "house"), (2, "literal"), (5, "standard")]:
        cfg = SPEC.config(preset, players=players)
        for seed in range(3):
            slow = SPEC.new(cfg, seed)
            fast = slow.copy()
            rng = random.Random(seed)
            while not slow.is_over:
                seat = slow.to_act()[0]
                legal = slow.legal_moves(seat)
                move = rng.choice(legal) if rng.random() < 0.5 else rollout_play(slow, seat)
                slow.play(seat, move)
                fast.advance(seat, move)
                a, b = slow.snapshot(), fast.snapshot()
                for table_knowledge in ("known", "facts"):
                    del a[table_knowledge], b[table_knowledge]
                assert a == b, (players, preset, seed, str(move))
            assert fast.is_over and fast.outcome() == slow.outcome()


def test_the_evaluation_counts_a_stack_to_pick_up_and_strong_cards() -> None:
    # seat 0 to play cannot beat the K: it will take 4 more cards
    stuck = position(["4S 5S", "6C 7C"], stack="9D JD QD KD", stock="2C 3C")
    assert position_burden(stuck, 0) == 2 + 4
    strong = position(["2S 10S", "6C 7C"], stack="KD", stock="2C 3C")
    assert position_burden(strong, 0) < position_burden(strong, 1)


def test_hard_plays_at_once_where_one_move_makes_sense() -> None:
    # one rank in two suits: the search is skipped (a budget of 0 would fail)
    state = position(["5S 5H", "4C"], stack="4D", stock="2C 3C")
    bot = HardBot(Budget(iterations=0))
    assert bot.choose(Situation(state, 0), random.Random(1)) == play("5S 5H")


def test_hard_searches_a_real_choice_and_plays_a_legal_move() -> None:
    state = position(["4C 9D KS", "5C 6C 7C"], stack="8H", stock="2D 3D")
    situation = Situation(state, 0)
    move = HardBot(Budget(iterations=40)).choose(situation, random.Random(2))
    assert move in sensible_moves(situation.legal)


def test_the_evaluation_is_each_seats_chance_to_be_first_out() -> None:
    adapter = StressAdapter()
    # heads-up: 0.5 + 0.5 tanh(difference of burdens / score_scale)
    two = position(["4C 5C", "6C 7C 8C 9C JC"], stack="3H", stock="2C 3C")
    b0, b1 = position_burden(two, 0), position_burden(two, 1)
    mine, theirs = adapter.evaluate(two, 0)
    assert mine == pytest.approx(0.5 + 0.5 * math.tanh((b1 - b0) / adapter.score_scale))
    assert theirs == pytest.approx(1 - mine)
    # three seats: the chances add up to one, the leader's the largest; a
    # seat already out has won
    three = position(["4C", "6C 7C 8C", "9C JC QC KC"], stack="3H")
    values = adapter.evaluate(three, 0)
    assert sum(values) == pytest.approx(1) and values[0] > values[1] > values[2]
    three.play(0, play("4C"))
    assert three.finished == [0] and adapter.evaluate(three, 1) == [1.0, 0.0, 0.0]


def test_hard_keeps_the_medium_move_unless_the_search_finds_one_clearly_better() -> None:
    state = position(["4C 9D KS", "5C 6C 7C"], stack="8H", stock="2D 3D")
    situation = Situation(state, 0)
    usual = choice(state, 0)
    # a margin of a whole win chance: the medium bot's move always stands
    assert HardBot(Budget(iterations=60), margin=1.0).choose(situation, random.Random(2)) == usual
    # a margin below zero: the search's own choice, as the engine gives it
    searched = analyse(situation, StressAdapter(), Budget(iterations=60), random.Random(2)).best
    chosen = HardBot(Budget(iterations=60), margin=-1.0).choose(situation, random.Random(2))
    assert chosen == searched


def test_hard_searches_longer_with_three_seats_or_more(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.stress import bots as stress_bots

    budgets: list[Budget] = []

    def recording(
        situation: Situation, adapter: StressAdapter, budget: Budget, rng: random.Random
    ) -> Analysis:
        budgets.append(budget)
        return analyse(situation, adapter, Budget(iterations=20), random.Random(1))

    monkeypatch.setattr(stress_bots, "analyse", recording)
    default = HardBot()
    assert (default.crowd_budget.iterations or 0) > (default.budget.iterations or 0)
    two = position(["4C 9D KS", "5C 6C 7C"], stack="8H", stock="2D 3D")
    three = position(["4C 9D KS", "5C 6C 7C", "8C 9C JC"], stack="8H", stock="2D 3D")
    clear_cache()  # the level judges through the advice, which remembers positions
    for state in (two, three):
        default.choose(Situation(state, 0), random.Random(2))
    # the advice's judgement counts iterations only: the same answer every time
    assert budgets == [
        Budget(default.budget.iterations),
        Budget(default.crowd_budget.iterations),
    ]
