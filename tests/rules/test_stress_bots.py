"""stress bots: the levels, the medium bot's rules of thumb from explicit
positions, whole legal games, and a small strength check (the larger tables
come from the arena: ``cardtable arena stress ...``)."""

from __future__ import annotations

import random

import pytest

from rules.bots import RandomBot, make_bot
from rules.bots.arena import ArenaSpec, arena
from rules.bots.base import Situation
from rules.bots.search import Budget, analyse, engine_for
from rules.bots.stress_bots import MediumBot, StressAdapter
from rules.stress import READY, SPEC, Blind, StressState, Swap
from tests.rules.test_stress import cards, deal, play, position


def choice(state: StressState, seat: int) -> object:
    return MediumBot().choose(Situation(state, seat), random.Random(1))


def test_levels_are_registered() -> None:
    assert isinstance(make_bot("stress", "easy"), RandomBot)
    assert isinstance(make_bot("stress", "medium"), MediumBot)
    assert isinstance(make_bot("stress", "hard"), MediumBot)  # until the engine measures stronger


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
