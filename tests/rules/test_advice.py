"""The advice (rules/bots/advice.py): one judgement of a position for the
hint, the analysis and the hard computers; only choices that count whole;
honest figures. Small budgets: the same code as at the table, fewer samples."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.bots import Situation, make_bot
from rules.bots.advice import Advice, Choice, advice_lines, advise, chance_words, position_key
from rules.bots.review import mistakes, review
from rules.bots.search import Budget
from rules.registry import games, get_game
from rules.trick import Submission, TrickState, disregarded
from rules.trick.bots import MediumBot as TrickMedium

QUICK = Budget(16)  # samples or iterations a judgement: fast, and the same code


def random_positions(game_id: str, preset: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """Positions of random games with a seat to choose among several moves."""
    spec = get_game(game_id)
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < count:
        state = spec.new(spec.config(preset), seed * 100 + game)
        game += 1
        for _ in range(300):
            if state.is_over or len(out) >= count:
                break
            seat = state.to_act()[0]
            legal = state.legal_moves(seat)
            if len(legal) > 1 and rng.random() < 0.2:
                out.append((state.copy(), seat))
            state.play(seat, rng.choice(legal))
    return out


def counts_whole(state: Any, seat: int, move: str) -> bool:
    """The rules would count every part of ``move`` (Trick throws parts out;
    in the other games every legal move counts whole)."""
    if not isinstance(state, TrickState):
        return True
    sub = state.spec.parse_move(move)
    return not isinstance(sub, Submission) or not disregarded(state.pos, seat, sub)


def clean_way_exists(state: Any, seat: int, advice: Advice, choice: Choice) -> bool:
    """Some legal move amounting to ``choice`` counts whole."""
    return any(
        target == choice.move and counts_whole(state, seat, move)
        for move, target in advice.same.items()
    )


CASES = [(game_id, preset) for game_id, spec in games().items() for preset in spec.presets]


@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_the_best_choice_counts_whole_in_every_game_and_preset(game_id: str, preset: str) -> None:
    for state, seat in random_positions(game_id, preset, 4, seed=len(preset)):
        situation = Situation(state, seat)
        advice = advise(situation, QUICK)
        legal = {str(m) for m in situation.legal}
        listed = [c.move for c in advice.choices]
        assert listed and set(listed) <= legal and len(set(listed)) == len(listed)
        for choice in advice.choices:
            # a choice is played by a move that counts whole wherever one exists;
            # else it says what it amounts to
            whole = counts_whole(state, seat, choice.move)
            assert whole or not clean_way_exists(state, seat, advice, choice), choice
            assert whole == (choice.note == ""), choice
            assert 0.0 <= choice.win_chance <= 1.0 and choice.error >= 0.0
        assert "(no target)" not in "\n".join(advice_lines(advice.choices, str, 99))


@pytest.mark.parametrize("preset", list(get_game("trick").presets))
def test_the_hard_computer_plays_only_choices_that_count(preset: str) -> None:
    hard = make_bot("trick", "hard")
    for state, seat in random_positions("trick", preset, 3, seed=3):
        situation = Situation(state, seat)
        move = hard.choose(situation, random.Random(1))
        advice = advise(situation, QUICK)
        choice = advice.choice_of(str(move))
        assert choice is not None and choice.move == str(move)
        assert counts_whole(state, seat, str(move)) or not clean_way_exists(
            state, seat, advice, choice
        )


def trick_at_round(rounds: list[tuple[str, str]], chips: tuple[int, int], until: int) -> TrickState:
    """A standard Trick game whose last rounds were ``rounds`` (seat 0's move,
    seat 1's), other rounds played by the medium bot, and the chips set."""
    spec = get_game("trick")
    state = spec.new(spec.config(), 9)
    assert isinstance(state, TrickState)
    medium, rng = TrickMedium(), random.Random(2)
    first = until - len(rounds)
    while state.pos.round_no < until:
        if state.pos.round_no >= first:
            mine, theirs = rounds[state.pos.round_no - first]
            state.play(0, spec.parse_move(mine))
            state.play(1, spec.parse_move(theirs))
            continue
        for seat in (0, 1):
            state.play(seat, medium.choose(Situation(state, seat), rng))  # type: ignore[arg-type]
    state.pos.chips = list(chips)
    return state


def test_n02_behind_24_25_with_three_rounds_left_no_certainty_no_empty_block() -> None:
    # round 23 of 25, 24-25 behind; Block played the two rounds before (N01, N02)
    rounds = [
        ("score+steal", "grow+block:score"),
        ("grow+claim", "score+steal"),
        ("score+block:grow", "grow+claim"),
        ("grow+block:claim", "score+steal"),
    ]
    state = trick_at_round(rounds, (24, 25), 23)
    assert state.pos.round_no == 23 and 4 in state.pos.restricted(0)  # Block: three in a row
    advice = advise(Situation(state, 0))
    words = get_game("trick").move_words
    text = "\n".join(advice_lines(advice.choices, lambda m: words(state.config, m), 99))
    assert "100%" not in text and "(no target)" not in text
    assert "Block" not in text  # Block is thrown out this round: no choice names it
    assert all(c.win_chance < 1.0 for c in advice.choices)


def test_the_symmetric_first_round_of_trick_reads_even() -> None:
    spec = get_game("trick")
    for seed in range(3):
        state = spec.new(spec.config(), seed)
        best = advise(Situation(state, 0)).best
        assert 0.45 <= best.win_chance <= 0.55, best


def test_figures_never_claim_a_certainty_the_judge_has_not() -> None:
    assert chance_words(Choice("x", 0.998, None, 0.004)) == "99%"
    # a margin that would reach past 0 or 100 is said as the bound it vouches for
    assert chance_words(Choice("x", 0.001, None, 0.01)) == "under 2%"
    assert chance_words(Choice("x", 0.01, None, 0.05)) == "under 6%"
    assert chance_words(Choice("x", 0.97, None, 0.05)) == "over 92%"
    assert chance_words(Choice("x", 0.0, None, 0.05)) == "under 5%"
    assert chance_words(Choice("x", 0.06, None, 0.05)) == "6% ± 5"
    assert chance_words(Choice("x", 1.0)) == "100%"  # a move that wins at once
    assert chance_words(Choice("x", 0.523, None, 0.061)) == "52% ± 6"


@pytest.mark.parametrize("game_id", ["domination", "territory", "stress"])
def test_the_same_position_gets_the_same_judgement(game_id: str) -> None:
    from rules.bots.advice import clear_cache

    for state, seat in random_positions(game_id, next(iter(get_game(game_id).presets)), 2, 5):
        first = advise(Situation(state, seat), QUICK)
        clear_cache()  # judged afresh, not remembered
        again = advise(Situation(state.copy(), seat), QUICK)
        assert first == again


@pytest.mark.parametrize("game_id", ["domination", "trick", "territory"])
def test_the_analysis_finds_no_cost_in_the_hints_best(game_id: str) -> None:
    """A player who follows every hint is never told afterwards that those
    moves cost more than the error the screen states."""
    spec = get_game(game_id)
    config = spec.config(next(iter(spec.presets)))
    state = spec.new(config, 3)
    other = make_bot(game_id, "medium")
    rng = random.Random(4)
    record: list[tuple[int, str]] = []
    seen: list[Any] = []
    from rules.events import visible_events

    decisions = 0
    while not state.is_over and decisions < 6:
        seat = state.to_act()[0]
        if seat == 0:
            situation = Situation(state, 0, seen)
            move = spec.parse_move(advise(situation, QUICK).best.move)
            decisions += len(situation.legal) > 1
        else:
            move = other.choose(Situation(state, seat), rng)
        record.append((seat, str(move)))
        seen.extend(visible_events(state.play(seat, move), 0))
    moments = review(spec, config, 3, record, 0, QUICK)
    assert len(moments) == decisions > 0
    assert all(m.cost <= m.error for m in moments) and not mistakes(moments)


def test_the_position_key_reads_only_what_the_seat_knows() -> None:
    from rules.domination import DominationState

    spec = get_game("domination")
    state = spec.new(spec.config(), 8)
    assert isinstance(state, DominationState)
    other = state.determinize(0, random.Random(1))
    other.hands[0] = state.hands[0][:]
    assert position_key(Situation(state, 0)) == position_key(Situation(other, 0))
    state.play(0, state.legal_moves(0)[0])
    assert position_key(Situation(state, 1)) != position_key(Situation(other, 1))


def test_the_analysis_says_what_a_move_with_thrown_out_parts_amounted_to() -> None:
    from rules.bots.review import moment_words

    spec = get_game("trick")
    config = spec.config()
    mine = ["score+block:claim", "grow+block:score", "claim+block:grow"]  # Block thrice
    theirs = ["grow+steal", "score+claim", "score+steal"]
    record = [
        (seat, move) for pair in zip(mine, theirs, strict=True) for seat, move in enumerate(pair)
    ]
    moments = review(spec, config, 1, record, 0)
    third = next(m for m in moments if m.ply == 4)
    assert str(third.played_as) == "claim"
    text = moment_words(third, lambda m: spec.move_words(config, m))
    assert "your move: Claim + Block (on Grow) (thrown out in part: same as Claim)" in text


@pytest.mark.parametrize("preset", list(get_game("domination").presets))
def test_dominations_best_is_never_below_another_choice_beyond_the_stated_error(
    preset: str,
) -> None:
    """The hard level (and so the hint's Best) is picked in chance to win, the
    figure the hint shows: never "3♣ 47% ± 3" as Best above "3♥ 52% ± 3"."""
    for state, seat in random_positions("domination", preset, 6, 15):
        choices = advise(Situation(state, seat), QUICK).choices
        best = choices[0]
        for other in choices[1:]:
            assert other.win_chance - best.win_chance <= max(best.error, other.error) + 1e-9
