"""The hard level's reading of the cards a medium opponent kept from the last
round (rules/domination/kept.py): the true hand explains the last round's
plays, a sample's hand less well on average, and a reshuffle ends what the
last round can say."""

from __future__ import annotations

import random
import statistics

from rules.bots import Situation
from rules.cards import Card, parse_card
from rules.domination import SPEC
from rules.domination.bots import (
    HardBot,
    MediumBot,
    card_scores,
    medium_plays,
    medium_would_play,
)
from rules.domination.kept import KeptCards, last_round, past_rounds
from rules.events import Event, visible_events

Start = tuple[list[list[Card]], list[int]]  # the hands and discards as a round began


def medium_game(seed: int) -> list[tuple[Situation, Start, float]]:
    """Each decision of a medium-against-medium match after its first round:
    the situation, the hands and discards when the last round began (the
    truth), and the kept-card weight of the true state."""
    state = SPEC.new(SPEC.config(None), seed)
    histories: list[list[Event]] = [[], []]
    bot, rng = MediumBot(), random.Random(seed)
    started: Start = ([state.hands[0][:], state.hands[1][:]], state.discards[:])
    at_start = started
    out = []
    while not state.is_over:
        seat = state.turn
        situation = Situation(state, seat, histories[seat])
        last = last_round(situation.history)
        if last is not None:
            kept = KeptCards(last, seat, 0.2, medium_plays)
            out.append((situation, at_start, kept.weight(state)))
        round_no = state.round_no
        events = state.play(seat, bot.choose(situation, rng))
        for s in (0, 1):
            histories[s].extend(visible_events(events, s))
        if state.round_no != round_no:
            at_start = started
            started = ([state.hands[0][:], state.hands[1][:]], state.discards[:])
    return out


def test_the_true_hand_explains_a_medium_opponents_last_round() -> None:
    decisions = [d for seed in range(3, 9) for d in medium_game(seed)]
    assert len(decisions) > 60
    for situation, (hands, discards), true_weight in decisions:
        last = last_round(situation.history)
        assert last is not None
        kept = KeptCards(last, situation.seat, 0.2, medium_plays)
        # medium is deterministic: from the hand it really held, every play is its own
        assert kept._replay(list(hands[situation.seat ^ 1]), discards) == 1.0
        # and that hand is one of the ways of choosing the kept cards
        assert true_weight >= 1 / 10
    # the hard level weighs the truth by it too (no reshuffle in between)
    assert any(w < 1.0 for _, _, w in decisions)


def test_samples_explain_it_less_well_than_the_truth() -> None:
    rng = random.Random(1)
    truth, sampled = [], []
    for situation, _, true_weight in medium_game(5)[:12]:
        last = last_round(situation.history)
        assert last is not None
        kept = KeptCards(last, situation.seat, 0.2, medium_plays)
        truth.append(true_weight)
        worlds = [situation.sample(rng) for _ in range(20)]
        sampled.append(statistics.mean(kept.weight(w) for w in worlds))  # type: ignore[arg-type]
    assert statistics.mean(truth) > statistics.mean(sampled) + 0.05


def test_nothing_is_read_before_a_round_ends_or_after_a_reshuffle() -> None:
    decisions = medium_game(7)
    situation = decisions[0][0]
    history = list(situation.history)
    assert last_round([e for e in history if e.kind != "round_won"]) is None
    assert last_round([*history, Event("reshuffle", "reshuffled")]) is None


def medium_rounds(seed: int, stop: int = 10_000) -> list[tuple[Situation, list[Start]]]:
    """Each decision of a medium-against-medium match (the first ``stop``):
    the situation and the hands and discards as each earlier round since the
    last reshuffle began (the truth), the latest first."""
    state = SPEC.new(SPEC.config(None), seed)
    histories: list[list[Event]] = [[], []]
    bot, rng = MediumBot(), random.Random(seed)
    starts: list[Start] = []
    current: Start = ([state.hands[0][:], state.hands[1][:]], state.discards[:])
    out = []
    while not state.is_over and len(out) < stop:
        seat = state.turn
        situation = Situation(state, seat, histories[seat])
        out.append((situation, starts[::-1]))
        round_no = state.round_no
        events = state.play(seat, bot.choose(situation, rng))
        for s in (0, 1):
            histories[s].extend(visible_events(events, s))
        if state.round_no != round_no:
            starts.append(current)
            if any(e.kind == "reshuffle" for e in events):
                starts = []
            current = ([state.hands[0][:], state.hands[1][:]], state.discards[:])
    return out


def test_every_past_round_replays_from_the_true_hands_as_medium_played_it() -> None:
    checked = 0
    for seed in (3, 4, 5):
        for situation, starts in medium_rounds(seed, 30):
            rounds = past_rounds(situation.history, 3)
            assert len(rounds) == min(3, len(starts))
            if not rounds:
                continue
            kept = KeptCards(rounds, situation.seat, 0.05, medium_would_play)
            kept.weight(situation.sample(random.Random(0)))  # type: ignore[arg-type]
            assert kept.discards is not None
            for back, past in enumerate(rounds):
                hands, discards = starts[back]
                # the grid as that round began, worked back from today's
                assert kept.discards[back] == discards
                # every play medium made, and the cards it could not answer with
                true_hand = list(hands[situation.seat ^ 1])
                assert kept._replay(true_hand, discards, past) == 1.0
                checked += 1
    assert checked > 80


def test_reading_more_rounds_tells_the_truth_from_samples_better() -> None:
    rng = random.Random(2)
    ratios: dict[int, list[float]] = {1: [], 2: []}
    for situation, _ in medium_rounds(6, 20)[8:]:
        worlds = [situation.sample(rng) for _ in range(10)]
        for back in ratios:
            rounds = past_rounds(situation.history, back)
            if not rounds:
                continue
            kept = KeptCards(rounds, situation.seat, 0.05, medium_would_play)
            truth = kept.weight(situation._state)  # type: ignore[arg-type]
            sampled = statistics.mean(kept.weight(w) for w in worlds)  # type: ignore[arg-type]
            ratios[back].append(truth / sampled)
    assert ratios[1] and len(ratios[1]) == len(ratios[2])
    # the truth stands out from the samples more with two rounds read than one
    assert statistics.geometric_mean(ratios[2]) > statistics.geometric_mean(ratios[1]) > 1.0


def test_medium_ties_count_as_its_play() -> None:
    # on a 6D, 7S and 7H alone in untouched suits score alike: which medium
    # plays hangs on its hand's order, which nobody else sees
    hand = [parse_card(t) for t in ("7S", "7H", "2D", "3C", "4C")]
    legal, run, grid = hand[:2], [parse_card("6D")], [0, 0, 0, 0]
    scores, _ = card_scores(hand, legal, run, -1, grid, 4, False)
    assert scores[0] == scores[1]
    assert all(medium_would_play(hand, legal, run, -1, grid, 4, c) for c in legal)
    # the shipped model counts only the one its own order puts first
    assert [medium_plays(hand, legal, run, -1, grid, 4, c) for c in legal] == [True, False]
    # a card that scores lower is not medium's play in either model
    low = [parse_card(t) for t in ("7S", "KH", "2D", "3C", "4C")]
    assert not medium_would_play(low, low[:2], run, -1, grid, 4, low[1])


def test_the_hard_level_reads_two_rounds_when_asked() -> None:
    situation = next(s for s, starts in medium_rounds(4, 20) if len(starts) >= 2)
    bot = HardBot(remember=True, rounds_back=2, slip=0.05, ties=True)
    found, move = bot.weigh(situation, random.Random(0), samples=12)
    assert move in situation.legal
    kept = bot.adapter.kept
    assert kept is not None and len(kept.rounds) == 2
    # the samples were weighed by both rounds: some explain them less well
    assert min(found.weights) < max(found.weights)
