"""What a Five-Card Trick event says happened: one typed payload per kind.

Seats are numbers, moves their notation (``claim+block:score``), actions
their ids (score, grow, claim, steal, block), as in the view. A private
event and its redacted form share a kind: what the redacted form leaves out
(a submission's move) is an optional field."""

from __future__ import annotations

from collections.abc import Mapping

from ..events import EventData, SeatEvent
from .view import RoundReveal


class Submitted(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``submit``: a seat chose its move for the round. The seat itself is
    told the ``move``; the other seat, in the redacted form, only that it
    submitted (a missed round reads the same to it)."""

    seat: int
    move: str | None = None


class PriorityUsed(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``priority``: a seat used Claim Priority and took ``taken`` chips;
    ``chips`` and ``pot`` are as they stand after."""

    seat: int
    taken: int
    chips: list[int]
    pot: int


class PriorityWindow(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``priority_window``: the Claims collided; ``seat`` may use Claim
    Priority to take the ``pot`` before the next round ends."""

    seat: int
    pot: int


class RoundReplayed(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``replay``: both seats missed ``round``; it is played again (this is
    replay number ``replays``)."""

    round: int
    replays: int


class RoundRevealed(RoundReveal, EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``reveal``: both submissions of the round and what came of them, as a
    spectator sees them (the view's ``last_round``), and ``lines``, the
    narration sentence by sentence (the same template language as the text)."""

    lines: list[str]


class BlockTargetKept(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``block_target`` (private to ``seat``): its Block named ``target`` but
    did not go live, so the other seat does not learn the target."""

    seat: int
    target: str


class RoundsExtended(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``extension``: the chips were tied after ``round``; the game now ends
    after round ``end_round``."""

    round: int
    end_round: int


class GameOver(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``game_over``: the winner (None: a draw), the final chips and why."""

    winner: int | None
    chips: list[int]
    reason: str  # "more chips", or which tie-break decided


TRICK_EVENTS: Mapping[str, type[EventData]] = {
    "submit": Submitted,
    "missed": SeatEvent,
    "priority": PriorityUsed,
    "priority_window": PriorityWindow,
    "replay": RoundReplayed,
    "reveal": RoundRevealed,
    "block_target": BlockTargetKept,
    "extension": RoundsExtended,
    "game_over": GameOver,
}
