"""Domination's paired search with the searcher's reply searched too.

The hard level's search (:func:`rules.bots.search.compare`) plays every
legal move in each sample, then the medium heuristic for both seats. Its own
later moves are medium's, which reads only the seat's hand and the public
table: they are chosen once per information set, never per sample, so that
search has no strategy fusion (a determinized searcher that *chose* its
later moves in each sample would value lines it could not follow, not
knowing which sample is true). What it lacks is a better reply than
medium's once the opponent has answered.

:func:`compare_replies` adds that reply, still without fusion: after each
candidate, the opponent answers as medium would from the sample's hand
(the same model of it as the playouts); if the round goes on, the seat
tries each of its legal replies, and the reply counted for a sample is one
chosen *from everything the seat would see then* (the candidate and the
answer: its hand and the table are the same in every sample), by the mean
over the samples that share that answer. So one reply serves every sample
the seat cannot tell apart. The reply is picked on the other half of those
samples (two-fold cross-fitting): picked and scored on the same samples,
the best of several noisy means would read higher than it is worth, and
candidates with more replies would look better for it. Medium's reply
stands unless another gains more than ``confidence`` standard errors there
(docs/bots.md, "Ninth session").
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from ..bots.base import Situation
from ..bots.search import Adapter, Comparison, note_stopped_by_cap, play_out, search_deadline
from .state import DominationState

# a sample's playouts after one candidate: (margin, chance) per reply, or one
# line where the seat has no choice to make before the round ends
Line = tuple[float, float]


@dataclass
class Branch:
    """What the seat would see after a candidate and the opponent's answer,
    and what each of its replies was worth in the samples that led there."""

    replies: list[Hashable]
    default: int  # medium's reply: the same in every sample of the branch
    # per sample index: the (margin, chance) of each reply
    lines: dict[int, list[Line]] = field(default_factory=dict)


def pick_reply(branch: Branch, samples: list[int], weights: list[float], confidence: float) -> int:
    """The reply the seat plays in this branch, judged on ``samples`` alone:
    medium's unless another gains more than ``confidence`` standard errors
    of the paired differences in chance to win (then the one with the
    highest mean)."""
    if len(samples) < 2:
        return branch.default
    total = sum(weights[k] for k in samples)
    if total <= 0.0:
        return branch.default
    square = sum(weights[k] ** 2 for k in samples)
    effective = max(total * total / square, 1.0)
    base = branch.default
    means = []
    for r in range(len(branch.replies)):
        means.append(sum(weights[k] * branch.lines[k][r][1] for k in samples) / total)
    best = max(range(len(means)), key=lambda r: means[r])
    if best == base:
        return base
    gains = [branch.lines[k][best][1] - branch.lines[k][base][1] for k in samples]
    mean = sum(weights[k] * g for k, g in zip(samples, gains, strict=True)) / total
    var = sum(weights[k] * (g - mean) ** 2 for k, g in zip(samples, gains, strict=True)) / total
    se = (var / effective) ** 0.5
    return best if mean > 0.0 and mean > confidence * se else base


def chosen_replies(branch: Branch, weights: list[float], confidence: float) -> dict[int, int]:
    """The reply counted in each sample of ``branch`` (sample index: reply
    index): one reply for every sample of a half, the one the other half
    picks (:func:`pick_reply`), so that no sample is scored by a reply
    chosen from its own playouts."""
    halves = ([k for k in branch.lines if k % 2 == 0], [k for k in branch.lines if k % 2])
    chosen: dict[int, int] = {}
    for half, other in ((0, 1), (1, 0)):
        reply = pick_reply(branch, halves[other], weights, confidence)
        for k in halves[half]:
            chosen[k] = reply
    return chosen


def compare_replies(
    situation: Situation,
    adapter: Adapter,
    samples: int,
    rng: random.Random,
    max_playouts: int | None = None,
    seconds: float | None = None,
    confidence: float = 1.0,
) -> Comparison:
    """Every legal move played out in the same samples, as
    :func:`rules.bots.search.compare` does, but with the seat's reply to
    the opponent's answer (within the round) chosen once per what it would
    see, from the other half of the samples (module docstring).
    ``max_playouts`` caps the playouts (a reply is one): samples are drawn
    until it or ``samples`` is reached; ``seconds`` is a time ceiling,
    checked after each sample (a busy server may lower it:
    :func:`rules.bots.search.ceiling_cap`)."""
    deadline, capped = search_deadline(time.perf_counter(), seconds)
    legal = list(situation.legal)
    seat = situation.seat
    opponent = seat ^ 1
    weights: list[float] = []
    # per candidate: each sample's one line, or its replies' in the branch of
    # the answer it met
    single: list[dict[int, Line]] = [{} for _ in legal]
    branches: list[dict[Hashable, Branch]] = [{} for _ in legal]
    playouts = 0
    k = 0
    while k < samples:
        if max_playouts is not None and playouts >= max_playouts and k >= 2:
            break
        if deadline is not None and weights and time.perf_counter() >= deadline:
            if capped:
                note_stopped_by_cap()  # a busy server's ceiling, not the level's own
            break
        world = situation.sample(rng)
        assert isinstance(world, DominationState)
        weights.append(adapter.weight(world, seat))
        horizon = adapter.horizon(world)
        root_round = world.round_no
        for i, move in enumerate(legal):
            state = world.copy()
            adapter.advance(state, seat, move)
            answer: Hashable = None
            if not state.over and state.round_no == root_round and state.turn == opponent:
                answer = adapter.rollout_move(state, opponent, rng)
                adapter.advance(state, opponent, answer)
            if answer is None or state.over or state.round_no != root_round:
                play_out(adapter, state, horizon, 1 if answer is None else 2, rng)
                single[i][k] = _line(adapter, state, seat)
                playouts += 1
                continue
            replies = adapter.legal(state, seat)
            branch = branches[i].get(answer)
            if branch is None:
                default = replies.index(adapter.rollout_move(state, seat, rng))
                branch = branches[i][answer] = Branch(replies, default)
            lines = []
            for reply in replies:
                line = state.copy()
                adapter.advance(line, seat, reply)
                play_out(adapter, line, horizon, 3, rng)
                lines.append(_line(adapter, line, seat))
            branch.lines[k] = lines
            playouts += len(replies)
        k += 1
    count = len(weights)
    values: list[list[float]] = [[0.0] * count for _ in legal]
    chances: list[list[float]] = [[0.0] * count for _ in legal]
    for i in range(len(legal)):
        for k, (margin, chance) in single[i].items():
            values[i][k], chances[i][k] = margin, chance
        for branch in branches[i].values():
            for k, r in chosen_replies(branch, weights, confidence).items():
                values[i][k], chances[i][k] = branch.lines[k][r]
    return Comparison(legal, values, weights, chances)


def _line(adapter: Adapter, state: DominationState, seat: int) -> Line:
    ends = adapter.result(state) if state.is_over else adapter.evaluate(state, seat)
    return adapter.margin(state, seat), ends[seat]
