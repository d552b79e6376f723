"""Scripted Five-Card Trick strategies: the pool the hard bot is measured against.

Each script lists the submissions it wants, best first; it plays the first
that the rules would not disregard, and otherwise a random such submission.
They are sparring partners for tests and benchmarks, not levels of play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from ..bots.base import Bot, Situation
from . import SPEC, Position, Submission, TrickConfig, TrickState, parse_move
from .solver import clean_moves, position_of
from .view import TrickView

Prefs = Callable[[TrickView, int, Position], list[str]]


def _last(view: TrickView, seat: int, back: int = 1) -> str | None:
    history = view.history
    if len(history) < back:
        return None
    return str(history[-back][seat]).replace("block:?", "block:claim")


def always_claim(view: TrickView, seat: int, pos: Position) -> list[str]:
    return ["score+claim", "grow+claim", "claim+block:steal", "claim+steal"]


def always_steal(view: TrickView, seat: int, pos: Position) -> list[str]:
    return ["score+steal", "grow+steal", "steal+block:claim", "claim+steal"]


def score_and_grow(view: TrickView, seat: int, pos: Position) -> list[str]:
    return ["score+grow", "score+claim", "grow+claim", "score+block:score"]


def copy_opponent(view: TrickView, seat: int, pos: Position) -> list[str]:
    last = _last(view, 1 - seat)
    return [last] if last else ["score+grow"]


def alternate(view: TrickView, seat: int, pos: Position) -> list[str]:
    pairs = ["score+claim", "grow+steal"]
    return [pairs[len(view.history) % 2], pairs[(len(view.history) + 1) % 2]]


def greedy(view: TrickView, seat: int, pos: Position) -> list[str]:
    if pos.pot >= 2:
        return ["score+claim", "grow+claim", "claim+steal"]
    return ["score+grow", "score+block:score", "grow+block:score"]


def blocker(view: TrickView, seat: int, pos: Position) -> list[str]:
    last = _last(view, 1 - seat)
    target = "score"
    if last and last != "-":
        target = last.split("+")[0].split(":")[0]
    return [f"score+block:{target}", f"grow+block:{target}", f"claim+block:{target}"]


def cycler(view: TrickView, seat: int, pos: Position) -> list[str]:
    cycle = ["score+grow", "claim+steal", "score+block:score", "grow+claim", "steal+block:claim"]
    n = len(view.history)
    return [cycle[(n + i) % len(cycle)] for i in range(len(cycle))]


def thief(view: TrickView, seat: int, pos: Position) -> list[str]:
    """Steal after the opponent Claimed, else Claim."""
    last = _last(view, 1 - seat)
    if last and "claim" in last.split("+"):
        return ["score+steal", "grow+steal"]
    return ["score+claim", "grow+claim"]


def lights_chaser(view: TrickView, seat: int, pos: Position) -> list[str]:
    """Play the actions whose lights are still off, Score first."""
    off = [a for a in ("score", "grow", "claim", "steal", "block") if a not in view.lights[seat]]
    names = [a if a != "block" else "block:score" for a in off]
    names += ["score", "grow", "claim"]
    return [f"{a}+{b}" for i, a in enumerate(names) for b in names[i + 1 :] if a != b]


def score_steal(view: TrickView, seat: int, pos: Position) -> list[str]:
    return ["score+steal", "grow+steal", "score+grow", "score+block:claim"]


def pot_builder(view: TrickView, seat: int, pos: Position) -> list[str]:
    """Grow (and block the opponent's Claim) until the pot holds 3, then Claim."""
    if pos.pot >= 3:
        return ["score+claim", "grow+claim", "claim+block:steal"]
    return ["grow+block:claim", "score+grow", "grow+block:steal"]


def punisher(view: TrickView, seat: int, pos: Position) -> list[str]:
    """Answer the opponent's last pot move: Steal after a Claim, Claim after a Steal."""
    last = (_last(view, 1 - seat) or "").split("+")
    if "claim" in last:
        return ["score+steal", "grow+steal", "steal+block:claim"]
    if "steal" in last:
        return ["score+claim", "grow+claim", "claim+block:steal"]
    return ["score+grow", "score+claim", "grow+claim"]


def sensible_random(view: TrickView, seat: int, pos: Position) -> list[str]:
    """A random pick among reasonable pairs each round (the order is shuffled by the
    round number, so it is the same for the same round of the same game)."""
    pairs = ["score+claim", "score+steal", "score+grow", "grow+claim", "score+block:score"]
    rng = random.Random(hash((len(view.history), tuple(view.chips), pos.pot)))
    rng.shuffle(pairs)
    return pairs


def scorer(view: TrickView, seat: int, pos: Position) -> list[str]:
    """Score whenever it may, with the second card that looks best."""
    second = "claim" if pos.pot >= 2 else "grow"
    return [f"score+{second}", "score+grow", "score+claim", "score+steal", "grow+claim"]


SCRIPTS: dict[str, Prefs] = {
    "always_claim": always_claim,
    "always_steal": always_steal,
    "score_and_grow": score_and_grow,
    "copy_opponent": copy_opponent,
    "alternate": alternate,
    "greedy": greedy,
    "blocker": blocker,
    "cycler": cycler,
    "thief": thief,
    "lights_chaser": lights_chaser,
    # added after tuning the hard bot
    "score_steal": score_steal,
    "pot_builder": pot_builder,
    "punisher": punisher,
    "sensible_random": sensible_random,
    "scorer": scorer,
}


class ScriptBot(Bot):
    def __init__(self, name: str) -> None:
        self.name = name
        self.prefs = SCRIPTS[name]

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        _, pos = position_of(situation, rng)
        clean = clean_moves(situation, pos)
        ok = set(clean)
        for text in self.prefs(TrickView.read(situation.view), situation.seat, pos):
            move = parse_move(text)
            if move in ok:
                return move
        plain = [m for m in clean if not m.overload] or situation.legal
        return rng.choice(plain)


class RandomLegalBot(Bot):
    """Any legal submission, including ones the rules partly disregard."""

    name = "random"

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        plain = [m for m in situation.legal if isinstance(m, Submission) and not m.overload]
        return rng.choice(plain or situation.legal)


def play_game(
    config: TrickConfig, bots: tuple[Bot, Bot], seed: int
) -> tuple[int | None, TrickState]:
    """One whole game between two bots; the winner's seat (None: a draw)."""
    state = SPEC.new(config, seed)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    while not state.is_over:
        for seat in state.to_act():
            move = bots[seat].choose(Situation(state, seat), rngs[seat])
            state.play(seat, move)  # type: ignore[arg-type]
            if state.is_over:
                break
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner, state


def pool() -> dict[str, Callable[[], Bot]]:
    """Every scripted strategy by name, plus the uniformly random player."""
    out: dict[str, Callable[[], Bot]] = {name: script_bot(name) for name in SCRIPTS}
    out["random"] = RandomLegalBot
    return out


def script_bot(name: str) -> Callable[[], Bot]:
    """A maker of the scripted player ``name``."""
    return lambda: ScriptBot(name)
