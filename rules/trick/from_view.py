"""A Five-Card Trick position rebuilt from one seat's view (``state_from_view``).

Everything that decides the game is public in Trick except the opponent's
pending submission and the target of an opponent's Block that did not go
live, so the rebuilt state is the real one up to those: the opponent's
pending choice is a placeholder (``determinize`` resamples it) and a hidden
target is any action (it changed nothing: the Block was not live).

The restrictions (``last1``/``last2`` of core.Position) are not in the view
as such: they are worked out by running the restriction rules over the
view's history of revealed rounds, which is exactly what the table did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..views import View
from .core import Position, disregarded, effective, mask_of
from .notation import (
    ACTION_IDS,
    ACTIONS,
    EMPTY,
    HIDDEN_TARGET,
    NO_TARGET,
    Missed,
    Submission,
    parse_move,
)
from .options import TrickConfig
from .state import ITEM_NAMES, ITEM_STATES, TrickState
from .view import TrickView


def trick_state_from_view(config: TrickConfig, view: View, scores: Sequence[int]) -> TrickState:
    """The position ``view`` shows its seat, as a state to sample from (a game
    still being played: a view does not say whether the game is over)."""
    shown = TrickView.read(view)
    seat = shown.seat
    if seat is None:
        raise ValueError("a spectator's view holds no seat to play from")
    state = TrickState(config, 0)
    pos = state.pos
    pos.chips = [int(scores[0]), int(scores[1])]
    pos.pot = int(shown.pot)
    pos.lights = [_mask(lit) for lit in shown.lights]
    pos.round_no = int(shown.round)
    pos.end_round = int(shown.end_round)
    pos.blocked = [NO_TARGET if b is None else ACTION_IDS.index(b) for b in shown.blocked]
    taker = shown.last_taker
    pos.last_taker = -1 if taker is None else int(taker)
    pos.items = [[ITEM_STATES.index(items[name]) for name in ITEM_NAMES] for items in shown.items]
    state.defender = int(shown.defender)
    state.replays = int(shown.replays)
    state.priority_open = [bool(x) for x in shown.priority_window]
    history = [(_revealed(a), _revealed(b)) for a, b in shown.history]
    _replay_restrictions(pos, [(a[0], b[0]) for a, b in history])
    # whether a target was kept from the other seat: the seat's own are known
    # to it only as the view's flags say
    kept = shown.history_hidden
    state.history = [
        (a, b, bool(flags[0]), bool(flags[1]))
        for ((a, _), (b, _)), flags in zip(history, kept, strict=True)
    ]
    last = shown.last_round
    state.last = None if last is None else _unredacted(last.to_json())
    pending: list[Submission | Missed | None] = [None, None]
    for s in (0, 1):
        if s == seat and shown.pending is not None:
            move = parse_move(shown.pending)
            assert isinstance(move, (Submission, Missed))
            pending[s] = move
        elif s != seat and shown.submitted[s]:
            pending[s] = EMPTY  # unknown: determinize draws one it could have made
    state.pending = pending
    state._ply = 2 * len(shown.history) + sum(p is not None for p in pending)
    return state


def _mask(actions: Sequence[str]) -> int:
    mask = 0
    for action in actions:
        mask |= 1 << ACTION_IDS.index(action)
    return mask


def _revealed(text: str) -> tuple[Submission, bool]:
    """A revealed submission from a view's history, and whether its Block's
    target was hidden (written ``?``: any action stands in for it)."""
    move = parse_move(text)
    assert isinstance(move, Submission)
    if move.target != HIDDEN_TARGET:
        return move, False
    return Submission(move.counts, ACTIONS[0], move.overload, move.reset), True


def _replay_restrictions(pos: Position, rounds: Sequence[tuple[Submission, Submission]]) -> None:
    """``last1``/``last2`` as the rounds left them (the rules of core.resolve)."""
    for subs in rounds:
        eff = [effective(sub, disregarded(pos, s, sub)) for s, sub in enumerate(subs)]
        for s, sub in enumerate(subs):
            pos.last2[s] = 0 if sub.reset else mask_of(pos.last1[s])
            pos.last1[s] = eff[s]


def _unredacted(shown: Mapping[str, Any]) -> dict[str, Any]:
    """The state's record of the last round from the seat's copy of it: a
    hidden target becomes any action (the seat's view shows it the same)."""
    last = {k: v for k, v in shown.items() if k != "block_targets"}
    moves, targets = [], []
    for move_text, target in zip(shown["moves"], shown["block_targets"], strict=True):
        sub, hidden = _revealed(move_text)
        moves.append(str(sub))
        if hidden:
            targets.append(sub.target)
        else:
            targets.append(NO_TARGET if target is None else ACTION_IDS.index(target))
    last["moves"] = moves
    last["targets"] = targets
    return last
