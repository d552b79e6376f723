"""The hard Five-Card Trick bot: each round is a zero-sum simultaneous game.

For the position after every pair of submissions (ours x the opponent's) we
estimate how likely we are to win (:func:`evaluate`: chips, lights, the pot and
who can reach it next round, blocks and restrictions in force, items, rounds
left); the round is then a matrix game, solved exactly by linear programming
(:mod:`rules.bots.matrix_game`), and we sample the optimal mixed strategy, so nothing
about our choice can be read from the position.

Submissions with the same effect are merged first (a submission with
disregarded actions is the same as the one without them), which leaves about
30 distinct choices a side in the standard game.

Exploiting a predictable opponent, safely: :class:`OpponentModel` scores a few
simple predictors (its most frequent choice, its reply to our last move, its own
last-but-one move...) on the rounds so far. When one predicts well, the matrix
is blended toward our payoff against that prediction (a restricted Nash
response): we still solve for a mixed strategy, but one that leans on the
opponent's habits by as much as they have proved reliable.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from ..bots.advice import Advice, Choice
from ..bots.base import Bot, Situation
from ..bots.matrix_game import solve
from ..errors import NotationError
from . import (
    BLOCK,
    CLAIM,
    NO_TARGET,
    PRIORITY_MOVE,
    STEAL,
    Position,
    Submission,
    TrickConfig,
    TrickState,
    disregarded,
    parse_move,
    resolve,
)
from .core import effective
from .notation import OVERLOAD, PRIORITY, RESET
from .state import submissions_for
from .view import TrickView
from .words import Words, submission_words

Key = tuple[tuple[int, int, int, int, int], int, bool, bool]

# What being able to use an action next round is worth, in chips (rough).
ACTION_WORTH = (0.35, 0.05, 0.10, 0.05, 0.10)
POT_WORTH_CLAIM = 0.10  # per chip in the pot, for being able to Claim next round
POT_WORTH_STEAL = 0.05
ITEM_WORTH = (0.6, 0.3, 0.4)  # overload, reset, priority, unused


def _bits(mask: int) -> int:
    return bin(mask).count("1")


def light_worth(mask: int, rounds_left: int) -> float:
    """Lit lights are a share of the next bonus chip, if it can still come."""
    k = _bits(mask)
    need = (5 - k + 1) // 2
    return k / 5 if need <= rounds_left else 0.0


def evaluate(pos: Position, me: int, cfg: TrickConfig, defender: int) -> float:
    """Our winning chances in [-1, 1] after a round (1: a sure win)."""
    opp = 1 - me
    chips = pos.chips
    diff = chips[me] - chips[opp]
    done = pos.round_no - 1
    if done >= pos.end_round:
        if diff:
            return 1.0 if diff > 0 else -1.0
        if pos.end_round >= cfg.round_cap:
            return _tie_value(pos, me, cfg, defender)
        rounds_left = 5
    else:
        rounds_left = pos.end_round - done
    v = float(diff)
    v += light_worth(pos.lights[me], rounds_left) - light_worth(pos.lights[opp], rounds_left)
    for seat, sign in ((me, 1.0), (opp, -1.0)):
        banned = pos.restricted(seat)
        blocked = pos.blocked[seat]
        for a in range(5):
            if a in banned or a == blocked:
                worth = ACTION_WORTH[a]
                if a == CLAIM:
                    worth += POT_WORTH_CLAIM * pos.pot
                elif a == STEAL:
                    worth += POT_WORTH_STEAL * pos.pot
                v -= sign * worth
        for i in range(3):
            if pos.items[seat][i] == 1:
                v += sign * ITEM_WORTH[i]
    scale = 0.9 * math.sqrt(rounds_left) + 0.6
    return math.tanh(v / scale)


def _tie_value(pos: Position, me: int, cfg: TrickConfig, defender: int) -> float:
    rule = cfg.tie_rule
    if rule == "last_taker":
        if pos.last_taker < 0:
            return 0.0
        return 1.0 if pos.last_taker == me else -1.0
    if rule == "items":
        unused = [sum(1 for i in pos.items[s] if i == 1) for s in (0, 1)]
        if unused[me] != unused[1 - me]:
            return 1.0 if unused[me] > unused[1 - me] else -1.0
    return 1.0 if defender == me else -1.0


class Choices:
    """A seat's distinct choices: submissions merged by what they actually do."""

    __slots__ = ("effective", "keys", "moves")

    def __init__(self, pos: Position, seat: int, subs: Sequence[Submission]) -> None:
        self.keys: list[Key] = []
        self.moves: list[Submission] = []  # a legal submission with that effect
        self.effective: list[Submission] = []  # what it does, as a submission
        index: dict[Key, int] = {}
        for sub in subs:
            dropped = disregarded(pos, seat, sub)
            eff = effective(sub, dropped)
            target = sub.target if eff[BLOCK] else NO_TARGET
            key: Key = (eff, target, sub.overload, sub.reset)
            at = index.get(key)
            if at is None:
                index[key] = len(self.keys)
                self.keys.append(key)
                self.moves.append(sub)
                self.effective.append(Submission(eff, target, sub.overload, sub.reset))
            elif not dropped:
                self.moves[at] = sub  # prefer a submission with nothing disregarded

    def index_of(self, pos: Position, seat: int, sub: Submission) -> int | None:
        dropped = disregarded(pos, seat, sub)
        eff = effective(sub, dropped)
        target = sub.target if eff[BLOCK] else NO_TARGET
        key: Key = (eff, target, sub.overload, sub.reset)
        try:
            return self.keys.index(key)
        except ValueError:
            return None


def clean_moves(situation: Situation, pos: Position) -> list[Submission]:
    """Legal submissions of which the rules would disregard nothing."""
    seat = situation.seat
    return [
        m
        for m in situation.legal
        if isinstance(m, Submission) and not m.reset and not disregarded(pos, seat, m)
    ]


def position_of(situation: Situation, rng: random.Random) -> tuple[TrickState, Position]:
    """The public position (a determinized state holds nothing else we use)."""
    state = situation.sample(rng)
    assert isinstance(state, TrickState)
    return state, state.pos


def own_choices(state: TrickState, pos: Position, seat: int) -> Choices:
    cfg = state.config
    items = pos.items[seat]
    subs = list(submissions_for(cfg, False, False))
    if items[OVERLOAD] == 1:
        subs += [s for s in submissions_for(cfg, True, False) if s.overload]
    if items[RESET] == 1 and (pos.restricted(seat) or pos.repeat_pair(seat)):
        # Limit Reset only matters for a submission that would lose actions
        subs += [
            Submission(s.counts, s.target, s.overload, True)
            for s in subs
            if not s.reset and disregarded(pos, seat, s)
        ]
    return Choices(pos, seat, subs)


def opponent_choices(state: TrickState, pos: Position, seat: int) -> Choices:
    # the opponent's items are left out: they would multiply the matrix for a
    # once-a-game surprise
    return Choices(pos, seat, submissions_for(state.config, False, False))


def payoff_matrix(
    state: TrickState, pos: Position, me: int, mine: Choices, theirs: Choices
) -> list[list[float]]:
    cfg = state.config
    defender = state.defender
    opp = 1 - me
    rows = []
    for sub in mine.effective:
        row = []
        for other in theirs.effective:
            nxt = pos.copy()
            if me == 0:
                resolve(nxt, sub, other)
            else:
                resolve(nxt, other, sub)
            for seat, s in ((me, sub), (opp, other)):
                if s.overload:
                    nxt.items[seat][OVERLOAD] = 2
                if s.reset:
                    nxt.items[seat][RESET] = 2
            row.append(evaluate(nxt, me, cfg, defender))
        rows.append(row)
    return rows


class OpponentModel:
    """Predicts the opponent's next submission from the public history.

    Each predictor gives a distribution over submission texts; its score is the
    average probability it gave to what the opponent then actually did."""

    PREDICTORS = ("frequency", "after_own", "after_ours", "two_back", "copy_ours")

    def __init__(self, history: Sequence[Sequence[str]], me: int) -> None:
        opp = 1 - me
        self.theirs = [_clean_text(h[opp]) for h in history]
        self.ours = [_clean_text(h[me]) for h in history]

    def predict(self, name: str, upto: int) -> Counter[str]:
        """The predictor's counts for round ``upto`` (0-based) from rounds before it."""
        theirs, ours = self.theirs[:upto], self.ours[:upto]
        out: Counter[str] = Counter()
        if name == "frequency":
            out.update(theirs)
        elif name == "after_own" and theirs:
            last = theirs[-1]
            out.update(theirs[i + 1] for i in range(len(theirs) - 1) if theirs[i] == last)
        elif name == "after_ours" and ours:
            last = ours[-1]
            out.update(theirs[i + 1] for i in range(len(ours) - 1) if ours[i] == last)
        elif name == "two_back" and len(theirs) >= 2:
            out[theirs[-2]] += 1
        elif name == "copy_ours" and ours:
            out[ours[-1]] += 1
        return out

    def best(self) -> tuple[Counter[str], float]:
        """The most reliable predictor's next prediction and its hit rate."""
        n = len(self.theirs)
        best_counts: Counter[str] = Counter()
        best_score = 0.0
        for name in self.PREDICTORS:
            hit = 0.0
            tried = 0
            for t in range(max(2, n - 12), n):  # recent rounds weigh as much as all
                counts = self.predict(name, t)
                total = sum(counts.values())
                tried += 1
                if total:
                    hit += counts[self.theirs[t]] / total
            if tried < 3:
                continue
            score = hit / tried
            if score > best_score:
                nxt = self.predict(name, n)
                if nxt:
                    best_score = score
                    best_counts = nxt
        return best_counts, best_score


def _clean_text(text: str) -> str:
    # an unrevealed Block target reads "block:?": predict it as a Block on Claim
    return text.replace("block:?", "block:claim")


# The solver is exact for its evaluation, which is a rule of thumb: its
# chances are stated to 5 points (docs/bots.md, "Advice")
JUDGE_ERROR = 0.05
# choices worth within this of the best are as good as it (the solver's
# arithmetic, not a margin of error)
TIE = 1e-6


def round_game(
    situation: Situation, rng: random.Random
) -> tuple[TrickState, Position, Choices, Choices, list[list[float]]]:
    """This round as a matrix game: the seat's distinct choices, the
    opponent's, and the payoff of each pair (:func:`evaluate` after it)."""
    state, pos = position_of(situation, rng)
    me = situation.seat
    mine = own_choices(state, pos, me)
    theirs = opponent_choices(state, pos, 1 - me)
    return state, pos, mine, theirs, payoff_matrix(state, pos, me, mine, theirs)


def judge(situation: Situation, rng: random.Random, budget: Any = None) -> Advice:
    """The hard level's judgement of a round (the advice's, for hints and
    analysis): each distinct choice worth its payoff against the opponent's
    optimal mix, as a chance to win; the best first, and among choices worth
    the same the one the solver plays most often. Submissions with thrown-out
    parts are merged with what they amount to (:class:`Choices`); a choice
    that only such a submission can make says so in its note."""
    state, pos, mine, _, matrix = round_game(situation, rng)
    me = situation.seat
    x, y, _ = solve(matrix)
    words = Words.of(state.config.names)
    choices: list[Choice] = []
    for i, move in enumerate(mine.moves):
        worth = sum(v * q for v, q in zip(matrix[i], y, strict=True))
        note = ""
        if disregarded(pos, me, move):
            done = mine.effective[i]
            note = f"thrown out: same as {submission_words(done, words)}"
        choices.append(Choice(str(move), 0.5 + 0.5 * worth, None, JUDGE_ERROR, note, x[i]))
    top = max(c.win_chance for c in choices)
    choices.sort(
        key=lambda c: (c.win_chance >= top - TIE, c.share or 0.0, c.win_chance), reverse=True
    )
    if PRIORITY_MOVE in situation.legal:
        # taking the pot now (the round goes on after it): the hard level's rule
        after = pos.copy()
        after.chips[me] += after.pot
        after.pot = 1
        after.items[me][PRIORITY] = 2
        worth = evaluate(after, me, state.config, state.defender)
        take = Choice(str(PRIORITY_MOVE), 0.5 + 0.5 * worth, None, JUDGE_ERROR, "", 1.0)
        if _priority_pays(state, pos, me):
            choices = [take] + [replace(c, share=0.0) for c in choices]
        else:
            choices.append(replace(take, share=0.0))
    same: dict[str, str] = {}
    for m in situation.legal:
        if isinstance(m, Submission):
            j = mine.index_of(pos, me, m)
            if j is not None:
                same[str(m)] = str(mine.moves[j])
        elif m == PRIORITY_MOVE:
            same[str(m)] = str(m)
    return Advice(tuple(choices), same, mixed=True)


def _priority_pays(state: TrickState, pos: Position, me: int) -> bool:
    """Whether taking the pot with Claim Priority now leaves the seat better off."""
    after = pos.copy()
    after.chips[me] += after.pot
    after.pot = 1
    after.items[me][PRIORITY] = 2
    cfg = state.config
    return evaluate(after, me, cfg, state.defender) > evaluate(pos, me, cfg, state.defender)


class HardBot(Bot):
    name = "hard"

    def __init__(self, exploit: bool = True) -> None:
        self.exploit = exploit

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        legal = situation.legal
        if len(legal) == 1:
            return legal[0]
        state, pos, mine, theirs, matrix = round_game(situation, rng)
        me = situation.seat
        if PRIORITY_MOVE in legal and _priority_pays(state, pos, me):
            return PRIORITY_MOVE
        if self.exploit:
            matrix = self._lean_on_habits(TrickView.read(situation.view), pos, me, theirs, matrix)
        x, _, _ = solve(matrix)
        pick = _sample(x, rng)
        return mine.moves[pick]

    def _lean_on_habits(
        self,
        view: TrickView,
        pos: Position,
        me: int,
        theirs: Choices,
        matrix: list[list[float]],
    ) -> list[list[float]]:
        model = OpponentModel(view.history, me)
        counts, score = model.best()
        if not counts or score < 0.3:
            return matrix
        q = [0.0] * len(theirs.keys)
        total = 0
        for text, c in counts.items():
            try:
                sub = parse_move(text)
            except NotationError:
                continue
            if not isinstance(sub, Submission):
                continue
            j = theirs.index_of(pos, 1 - me, Submission(sub.counts, sub.target))
            if j is not None:
                q[j] += c
                total += c
        if not total:
            return matrix
        lam = min(0.8, (score - 0.2) * 1.2)
        out = []
        for row in matrix:
            expected = sum(v * p for v, p in zip(row, q, strict=True)) / total
            out.append([lam * expected + (1 - lam) * v for v in row])
        return out


def _sample(p: Sequence[float], rng: random.Random) -> int:
    r = rng.random()
    acc = 0.0
    for i, w in enumerate(p):
        acc += w
        if r < acc:
            return i
    return max(range(len(p)), key=lambda i: p[i])
