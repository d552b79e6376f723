"""The hard level's reading of the cards a medium opponent kept from the last
round (rules/domination/kept.py): the true hand explains the last round's
plays, a sample's hand less well on average, and a reshuffle ends what the
last round can say."""

from __future__ import annotations

import random
import statistics

from rules.bots import Situation
from rules.cards import Card
from rules.domination import SPEC
from rules.domination.bots import MediumBot, choose_card
from rules.domination.kept import KeptCards, last_round
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
            kept = KeptCards(last, seat, 0.2, choose_card)
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
        kept = KeptCards(last, situation.seat, 0.2, choose_card)
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
        kept = KeptCards(last, situation.seat, 0.2, choose_card)
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
