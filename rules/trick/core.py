"""The public position of a Five-Card Trick game and one round's resolution.

:class:`Position` holds everything the rules need between rounds (all of it
public), small and cheap to copy: the game state wraps it with the pending
submissions and the narration, and the bots search it directly.

:func:`resolve` applies RULINGS.md's order of a round:

1. disregard (three rounds in a row, a repeated pair, a double last round in
   ``final``, a Block without a target; Limit Reset lifts the first three);
2. light every remaining action;
3. live = more copies than the opponent and not blocked by last round's Block;
4. Score, Grow; 5. Claim and Steal; 6. Block for next round;
7. all five lights: +1 chip, lights off; an empty pot gets 1 chip.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .notation import (
    ALL_LIGHTS,
    BLOCK,
    CLAIM,
    EMPTY_COUNTS,
    GROW,
    NO_TARGET,
    STEAL,
    Counts,
    Submission,
)

# why an action was disregarded
THREE_IN_A_ROW = "three_in_a_row"
REPEATED_PAIR = "repeated_pair"
DOUBLED_LAST_ROUND = "doubled_last_round"
NO_BLOCK_TARGET = "no_block_target"

# what became of an action that was not disregarded
LIVE = "live"
COLLIDED = "collided"  # the opponent played as many copies
OUTNUMBERED = "outnumbered"  # the opponent played more copies (final)
BLOCKED = "blocked"


class Position:
    """Chips, pot, lights, restrictions, blocks in force, round counter, items."""

    __slots__ = (
        "blocked",
        "chips",
        "end_round",
        "items",
        "last1",
        "last2",
        "last_taker",
        "lights",
        "pot",
        "round_no",
    )

    def __init__(self, rounds: int) -> None:
        self.chips = [0, 0]
        self.pot = 1
        self.lights = [0, 0]  # bit per action
        # each seat's last effective submission (counts) and the actions of the one before
        self.last1: list[Counts] = [EMPTY_COUNTS, EMPTY_COUNTS]
        self.last2 = [0, 0]
        self.blocked = [NO_TARGET, NO_TARGET]  # the action blocked for a seat this round
        self.last_taker = -1  # who last took the pot (the standard tie rule)
        self.round_no = 1  # the round now being played
        self.end_round = rounds  # the round after which the game ends unless tied
        # per seat: [overload, reset, priority], each 0 = not owned, 1 = unused, 2 = used
        self.items = [[0, 0, 0], [0, 0, 0]]

    def copy(self) -> Position:
        new = object.__new__(Position)
        new.chips = self.chips[:]
        new.pot = self.pot
        new.lights = self.lights[:]
        new.last1 = self.last1[:]
        new.last2 = self.last2[:]
        new.blocked = self.blocked[:]
        new.last_taker = self.last_taker
        new.round_no = self.round_no
        new.end_round = self.end_round
        new.items = [self.items[0][:], self.items[1][:]]
        return new

    def restricted(self, seat: int) -> dict[int, str]:
        """Actions that would be disregarded if ``seat`` played them next, and why
        (the pair rule is separate: see :meth:`repeat_pair`)."""
        last1 = self.last1[seat]
        out: dict[int, str] = {}
        for a in range(5):
            if last1[a] == 2:
                out[a] = DOUBLED_LAST_ROUND
            elif last1[a] and self.last2[seat] >> a & 1:
                out[a] = THREE_IN_A_ROW
        return out

    def repeat_pair(self, seat: int) -> Counts | None:
        """Last round's pair, if it had exactly two cards: playing it again is disregarded."""
        last1 = self.last1[seat]
        return last1 if sum(last1) == 2 else None


def mask_of(counts: Counts) -> int:
    return (
        (counts[0] > 0)
        | (counts[1] > 0) << 1
        | (counts[2] > 0) << 2
        | (counts[3] > 0) << 3
        | (counts[4] > 0) << 4
    )


def disregarded(pos: Position, seat: int, sub: Submission) -> dict[int, str]:
    """The actions of ``sub`` the rules disregard, and why (all copies of each)."""
    counts = sub.counts
    out: dict[int, str] = {}
    if not sub.reset:
        last1 = pos.last1[seat]
        # (unrolled: the search resolves hundreds of thousands of rounds a second)
        if (
            sum(last1) == 2
            and counts[0] >= last1[0]
            and counts[1] >= last1[1]
            and counts[2] >= last1[2]
            and counts[3] >= last1[3]
            and counts[4] >= last1[4]
        ):
            for a in range(5):
                if last1[a]:
                    out[a] = REPEATED_PAIR
        if mask_of(counts) & mask_of(last1):
            last2 = pos.last2[seat]
            for a in range(5):
                if counts[a] and last1[a]:
                    if last1[a] == 2:
                        out[a] = DOUBLED_LAST_ROUND
                    elif last2 >> a & 1:
                        out[a] = THREE_IN_A_ROW
    if counts[BLOCK] and sub.target == NO_TARGET:
        out[BLOCK] = NO_BLOCK_TARGET
    return out


def effective(sub: Submission, dropped: dict[int, str]) -> Counts:
    if not dropped:
        return sub.counts
    c = sub.counts
    return (
        0 if 0 in dropped else c[0],
        0 if 1 in dropped else c[1],
        0 if 2 in dropped else c[2],
        0 if 3 in dropped else c[3],
        0 if 4 in dropped else c[4],
    )


@dataclass
class RoundReport:
    """What happened in a round, for the narration (the bots skip it)."""

    dropped: tuple[dict[int, str], dict[int, str]]
    effective: tuple[Counts, Counts]
    # per seat: action -> (status, blocked by the opponent this round)
    status: tuple[dict[int, tuple[str, bool]], dict[int, tuple[str, bool]]]
    pot_before: int
    scored: list[int] = field(default_factory=list)  # seats that Scored
    grew: int = -1  # seat whose Grow went live
    taker: int = -1  # seat that took the pot
    taken: int = 0  # chips taken from the pot
    taken_by: str = ""  # "claim" | "steal"
    failed_steal: list[int] = field(default_factory=list)  # live Steals with no Claim to take
    block_set: list[tuple[int, int]] = field(default_factory=list)  # (seat, target) live Blocks
    bonus: list[int] = field(default_factory=list)  # seats whose five lights paid a chip
    refilled: bool = False
    claims_tied: bool = False


def resolve(
    pos: Position, s0: Submission, s1: Submission, report: bool = False
) -> RoundReport | None:
    """Resolve one round in place on ``pos`` (items are the caller's business)."""
    subs = (s0, s1)
    d0 = disregarded(pos, 0, s0)
    d1 = disregarded(pos, 1, s1)
    e0 = effective(s0, d0)
    e1 = effective(s1, d1)
    eff = (e0, e1)
    blocked = pos.blocked
    # live[seat] is a bit mask of live actions
    live = [0, 0]
    status: tuple[dict[int, tuple[str, bool]], dict[int, tuple[str, bool]]] = ({}, {})
    for a in range(5):
        m, o = e0[a], e1[a]
        if m > o and blocked[0] != a:
            live[0] |= 1 << a
        if o > m and blocked[1] != a:
            live[1] |= 1 << a
        if report:
            for seat, mine, theirs in ((0, m, o), (1, o, m)):
                if mine:
                    is_blocked = blocked[seat] == a
                    if theirs == mine:
                        st = COLLIDED
                    elif theirs > mine:
                        st = OUTNUMBERED
                    else:
                        st = BLOCKED if is_blocked else LIVE
                    status[seat][a] = (st, is_blocked)
    rep = (
        RoundReport((d0, d1), eff, status, pos.pot, claims_tied=e0[CLAIM] == e1[CLAIM] > 0)
        if report
        else None
    )
    chips = pos.chips
    lights = pos.lights
    lights[0] |= mask_of(e0)
    lights[1] |= mask_of(e1)
    for seat in (0, 1):
        lv = live[seat]
        if lv & 1:  # Score
            chips[seat] += 1
            if rep:
                rep.scored.append(seat)
        if lv >> GROW & 1:
            pos.pot += 1
            if rep:
                rep.grew = seat
    claimer = 0 if live[0] >> CLAIM & 1 else 1 if live[1] >> CLAIM & 1 else -1
    for seat in (0, 1):
        if live[seat] >> STEAL & 1 and claimer != 1 - seat and rep:
            rep.failed_steal.append(seat)
    if claimer >= 0:
        other = 1 - claimer
        taker = other if live[other] >> STEAL & 1 else claimer
        chips[taker] += pos.pot
        if rep:
            rep.taker = taker
            rep.taken = pos.pot
            rep.taken_by = "steal" if taker == other else "claim"
        pos.pot = 0
        pos.last_taker = taker
    new_blocked = [NO_TARGET, NO_TARGET]
    for seat in (0, 1):
        if live[seat] >> BLOCK & 1:
            new_blocked[1 - seat] = subs[seat].target
            if rep:
                rep.block_set.append((seat, subs[seat].target))
    pos.blocked = new_blocked
    for seat in (0, 1):
        if lights[seat] == ALL_LIGHTS:
            chips[seat] += 1
            lights[seat] = 0
            if rep:
                rep.bonus.append(seat)
    if pos.pot == 0:
        pos.pot = 1
        if rep:
            rep.refilled = True
    for seat in (0, 1):
        # Limit Reset: next round's restrictions come from this round only
        pos.last2[seat] = 0 if subs[seat].reset else mask_of(pos.last1[seat])
        pos.last1[seat] = eff[seat]
    pos.round_no += 1
    return rep
