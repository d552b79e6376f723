"""The search engine (rules/bots/search.py) on toy games with known answers and
on domination: simultaneous moves stay hidden, every seat keeps its own value,
the engine searches samples only, and its answers are reproducible."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from rules.bots.base import Situation
from rules.bots.review import review
from rules.bots.search import (
    Adapter,
    Budget,
    Comparison,
    EngineBot,
    State,
    analyse,
    compare,
    engine_for,
)
from rules.domination import SPEC as DOMINATION
from rules.domination import DominationState
from rules.domination.bots import DominationAdapter, MediumBot, SearchBot
from rules.registry import shipped
from rules.trick import SPEC as TRICK
from rules.trick import TrickState
from rules.trick.engine import TrickAdapter
from tests.rules.toy_games import TOY

from .test_domination_bots import random_positions


class SeesEverything(Adapter):
    """A broken adapter: every seat sees every move, even in a simultaneous phase."""

    def observe(self, state: State, seat: int, move: Hashable, observer: int) -> Hashable:
        return move


def values(
    situation: Situation, adapter: Adapter, iterations: int, seed: int = 1
) -> dict[Hashable, float]:
    analysis = analyse(situation, adapter, Budget(iterations), random.Random(seed))
    return {e.move: e.value for e in analysis.moves}


def test_a_simultaneous_move_is_hidden_from_the_other_seats() -> None:
    state = TOY.new(TOY.config(mode="pennies"))
    assert state.to_act() == (0, 1)
    fair = values(Situation(state, 0), Adapter(), 3000)
    # matching pennies: either coin wins half the time against a blind opponent
    assert all(0.35 < v < 0.65 for v in fair.values()), fair
    # the same search with the moves in plain sight: seat 1 always matches
    seen = values(Situation(state, 0), SeesEverything(), 3000)
    assert all(v < 0.2 for v in seen.values()), seen


def test_a_pending_submission_is_searched_as_a_sample() -> None:
    state = TOY.new(TOY.config(mode="pennies"))
    state.play(0, 1)  # seat 0 has shown tails; seat 1 must not know it
    found = values(Situation(state, 1), Adapter(), 2000)
    assert all(0.35 < v < 0.65 for v in found.values()), found


def test_every_seat_keeps_its_own_value_with_many_seats() -> None:
    state = TOY.new(TOY.config(mode="highest", players=5))
    analysis = analyse(Situation(state, 0), Adapter(), Budget(600), random.Random(3))
    assert analysis.best == 3
    best = analysis.moves[0]
    assert best.value == 1.0  # a 3 said first cannot be beaten
    # seat 2, after a 3 and a 2: nothing it says wins, so it sees only losses
    state.play(0, 3)
    state.play(1, 2)
    late = analyse(Situation(state, 2), Adapter(), Budget(300), random.Random(3))
    assert all(e.value == 0.0 for e in late.moves)


def test_a_finished_game_is_worth_a_share_of_the_win() -> None:
    state = TOY.new(TOY.config(mode="highest", players=3))
    for seat, said in enumerate((2, 3, 1)):
        state.play(seat, said)
    assert Adapter().result(state) == [0.0, 1.0, 0.0]


def test_visits_add_up_and_the_best_is_most_visited() -> None:
    state = next(
        p for p in random_positions("standard", 3, seed=4) if len(p.legal_moves(p.turn)) > 2
    )
    situation = Situation(state, state.turn)
    analysis = analyse(situation, DominationAdapter(), Budget(400), random.Random(2))
    assert sorted(str(e.move) for e in analysis.moves) == sorted(str(m) for m in situation.legal)
    assert sum(e.visits for e in analysis.moves) == analysis.iterations == 400
    visits = [e.visits for e in analysis.moves]
    assert visits == sorted(visits, reverse=True)
    assert all(0.0 <= e.value <= 1.0 for e in analysis.moves)


def test_the_same_rng_gives_the_same_analysis() -> None:
    state = next(
        p for p in random_positions("concede", 2, seed=8) if len(p.legal_moves(p.turn)) > 2
    )
    situation = Situation(state, state.turn)
    runs = [analyse(situation, DominationAdapter(), Budget(300), random.Random(5)) for _ in "ab"]
    assert runs[0].moves == runs[1].moves


def test_a_time_budget_already_spent_stops_at_the_first_check() -> None:
    state = TOY.new(TOY.config(mode="highest", players=2))
    analysis = analyse(Situation(state, 0), Adapter(), Budget(10**9, 0.0), random.Random(1))
    assert analysis.iterations == 16


def test_the_engine_sees_only_what_the_seat_saw() -> None:
    """The same move from the real state and from one whose hidden cards were
    dealt again: the search cannot tell them apart."""
    bot = SearchBot(iterations=150, seconds=None)
    resample = random.Random(5)
    positions: list[DominationState] = random_positions("standard", 4, seed=6)[:12]
    for i, state in enumerate(positions):
        seat = state.turn
        other = state.determinize(seat, resample)
        a = bot.choose(Situation(state, seat), random.Random(i))
        b = bot.choose(Situation(other, seat), random.Random(i))
        assert a == b, f"position {i}"


def test_the_domination_adapter_plays_the_rules() -> None:
    """Its fast path gives the same states as the checked one."""
    adapter = DominationAdapter()
    rng = random.Random(9)
    state = DOMINATION.new(DOMINATION.config("concede"), 12)
    twin = state.copy()
    while not state.is_over:
        seat = adapter.to_act(state)[0]
        move = rng.choice(state.legal_moves(seat))
        adapter.advance(state, seat, move)
        twin.play(seat, move)
        assert state.snapshot() == twin.snapshot()


def test_each_game_registers_its_engine() -> None:
    adapter, budget = engine_for("domination")
    assert isinstance(adapter, DominationAdapter) and budget == SearchBot().budget
    assert isinstance(engine_for("trick")[0], TrickAdapter)
    state = next(
        p for p in random_positions("standard", 2, seed=1) if len(p.legal_moves(p.turn)) > 1
    )
    situation = Situation(state, state.turn)
    found = analyse(situation, adapter, Budget(100), random.Random(0))
    assert {e.move for e in found.moves} == set(situation.legal)


def test_review_replays_one_seats_decisions_dearest_first() -> None:
    config = DOMINATION.config("short")
    state = DOMINATION.new(config, 21)
    medium = MediumBot()
    rng = random.Random(4)
    record: list[tuple[int, str]] = []
    choices = 0
    while not state.is_over:
        seat = state.turn
        situation = Situation(state, seat)
        choices += seat == 0 and len(situation.legal) > 1
        move = medium.choose(situation, rng)
        record.append((seat, str(move)))
        state.play(seat, move)  # type: ignore[arg-type]
    moments = review(DOMINATION, config, 21, record, 0, Budget(60))
    assert len(moments) == choices > 0
    assert all(record[m.ply][0] == 0 and str(m.played) == record[m.ply][1] for m in moments)
    costs = [m.cost for m in moments]
    assert costs == sorted(costs, reverse=True) and min(costs) >= 0.0


def _rules_fields(state: TrickState) -> tuple[object, ...]:
    pos = state.pos
    return (
        pos.chips, pos.pot, pos.lights, pos.round_no, pos.end_round, pos.items, pos.blocked,
        pos.last1, pos.last2, state.over, state.winner, state.pending, state.priority_open,
        state.replays, state.ply,
    )  # fmt: skip


@pytest.mark.parametrize("preset", list(TRICK.presets))
def test_tricks_fast_path_keeps_the_rules(preset: str) -> None:
    """``TrickState.advance`` leaves what the rules read as ``play`` does."""
    adapter = TrickAdapter()
    for g in range(4):
        state = TRICK.new(TRICK.config(preset), g)
        twin = state.copy()
        rng = random.Random(g)
        while not state.is_over:
            seat = state.to_act()[0]
            move = rng.choice(state.legal_moves(seat))
            adapter.advance(state, seat, move)
            twin.play(seat, move)
            assert _rules_fields(state) == _rules_fields(twin)
        assert state.outcome() == twin.outcome()


def test_the_engine_plays_trick_as_a_mixed_strategy() -> None:
    state = TRICK.new(TRICK.config(), 5)
    situation = Situation(state, 0)
    analysis = analyse(situation, engine_for("trick")[0], Budget(300), random.Random(1))
    assert analysis.mixed
    assert {e.move for e in analysis.moves} == set(situation.legal)
    bot = EngineBot(Budget(60))
    rng = random.Random(2)
    while not state.is_over:
        for seat in state.to_act():
            if seat in state.to_act() and not state.is_over:
                situation = Situation(state, seat)
                move = bot.choose(situation, rng)
                assert move in situation.legal
                state.play(seat, move)  # type: ignore[arg-type]


def test_the_paired_mode_departs_from_the_default_only_when_clearly_better() -> None:
    # seat 0 names 1, 2 or 3, then seat 1 at random; the higher wins (seat 0 on a tie)
    state = TOY.new(TOY.config(mode="highest"))
    found = compare(Situation(state, 0), Adapter(), 200, random.Random(1))
    assert found.legal == [1, 2, 3]
    assert [len(v) for v in found.values] == [200, 200, 200]  # every move, every sample
    # 3 always wins (+1); 1 wins a third of the time (+1) and else loses (-1)
    mean, se = found.gain(2, 0)
    assert mean == pytest.approx(4 / 3, abs=0.2) and se > 0
    assert found.pick_over(1, confidence=2.0) == 3
    assert found.pick_over(3, confidence=2.0) == 3
    # no gain, however large, overrules the default beyond the confidence asked for
    assert found.pick_over(1, confidence=1e9) == 1


def test_the_paired_mode_weighs_samples_by_the_adapter() -> None:
    class OnlyFirstSample(Adapter):
        seen = 0

        def weight(self, state: State, seat: int) -> float:
            self.seen += 1
            return 1.0 if self.seen == 1 else 0.0

    state = TOY.new(TOY.config(mode="highest"))
    found = compare(Situation(state, 0), OnlyFirstSample(), 50, random.Random(2))
    assert found.weights == [1.0] + [0.0] * 49
    first = [v[0] for v in found.values]
    assert found.gain(2, 0)[0] == pytest.approx(first[2] - first[0])


@pytest.mark.parametrize("game", shipped())
def test_random_playouts_draw_every_legal_move_and_only_those(game: str) -> None:
    """Each adapter's ``random_move`` (the speed benchmark's playouts) is a
    draw from all the legal moves, however the game draws it."""
    from rules.bots.search import engine_for
    from rules.registry import get_game

    spec = get_game(game)
    adapter, _ = engine_for(game)
    rng = random.Random(7)
    for preset in spec.presets:
        state = spec.new(spec.config(preset), 11)
        checked = 0
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_act()[0]
            legal = state.legal_moves(seat)
            if 1 < len(legal) <= 300 and checked < 3 and rng.random() < 0.3:
                drawn = [adapter.random_move(state, seat, rng) for _ in range(30 * len(legal))]
                assert set(drawn) == set(legal), preset  # none missed, none made up
                checked += 1
            move = adapter.random_move(state, seat, rng)
            assert move in legal
            adapter.advance(state, seat, move)
        assert checked, preset


def test_the_paired_mode_picks_in_chance_by_the_error_it_states() -> None:
    # move 0 (the default) leads by more points; move 1 wins more often, by
    # more than either move's stated error: in chance, move 1 is the pick
    samples = 20
    found = Comparison(
        ["a", "b"],
        [[5.0] * samples, [1.0] * samples],
        [1.0] * samples,
        [[0.40 + 0.01 * (k % 3) for k in range(samples)], [0.55] * samples],
    )
    assert found.pick_over("a", confidence=2.0) == "a"
    assert found.pick_over("a", confidence=2.0, in_chance=True) == "b"
    # within the noise the default stands
    close = Comparison(
        ["a", "b"],
        [[0.0] * samples] * 2,
        [1.0] * samples,
        [
            [0.5 + 0.2 * (k % 2) for k in range(samples)],
            [0.5 + 0.2 * ((k + 1) % 2) for k in range(samples)],
        ],
    )
    assert close.pick_over("a", confidence=2.0, in_chance=True) == "a"


def test_weighted_samples_count_as_many_as_their_weights_are_worth() -> None:
    # two heavy samples among light ones: the error is nearly that of two samples
    even = Comparison(["a"], [[0.0, 1.0] * 10], [1.0] * 20, [[0.0, 1.0] * 10])
    heavy = Comparison(["a"], [[0.0, 1.0] * 10], [100.0] * 2 + [0.01] * 18, [[0.0, 1.0] * 10])
    assert even.effective_samples() == pytest.approx(20)
    assert heavy.effective_samples() < 2.1
    assert heavy.chance(0)[1] > 3 * even.chance(0)[1]
