"""The Five-Card Trick game state: simultaneous rounds, reveal, narration, views.

Both seats act at once: each submits once per round (submitting is locking:
the table lets a player edit a choice before pressing submit, which is how
dm12's "change your submission until the deadline" is played). A pending
submission is seen by its owner only; once the second arrives the round is
revealed and resolved (core.resolve) and everything becomes public except
the target of a Block that did not go live.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Self

import msgspec

from ..errors import IllegalMove
from ..events import Event, SeatEvent
from ..game import SAMPLE_SEED, GameState, MoveClock, Outcome
from ..rng import GameRng
from .core import (
    NO_BLOCK_TARGET,
    REPEATED_PAIR,
    Position,
    RoundReport,
    resolve,
)
from .events import (
    BlockTargetKept,
    GameOver,
    PriorityUsed,
    PriorityWindow,
    RoundReplayed,
    RoundRevealed,
    RoundsExtended,
    Submitted,
)
from .notation import (
    ACTION_IDS,
    ACTIONS,
    BLOCK,
    CLAIM,
    EMPTY,
    HIDDEN_TARGET,
    MISSED,
    NO_TARGET,
    OVERLOAD,
    PRIORITY,
    PRIORITY_MOVE,
    RESET,
    Missed,
    Submission,
    TrickMove,
    UsePriority,
    all_submissions,
    format_submission,
    parse_move,
)
from .options import TrickConfig
from .view import RoundReveal, TrickView
from .words import NAMES, WORDS, Words, round_lines, submission_words

if TYPE_CHECKING:
    from .spec import TrickSpec

ITEM_STATES = (None, "unused", "used")
ITEM_NAMES = ("overload", "reset", "priority")

_SUBMISSIONS: dict[tuple[bool, bool, bool, bool], list[Submission]] = {}


def submissions_for(config: TrickConfig, overload: bool, reset: bool) -> list[Submission]:
    """Every well-formed submission for a seat holding these unused items (cached)."""
    key = (config.doubles, config.exact_two, overload, reset)
    subs = _SUBMISSIONS.get(key)
    if subs is None:
        subs = _SUBMISSIONS[key] = all_submissions(*key)
    return subs


class TrickState(GameState[TrickMove, TrickConfig]):
    __slots__ = (
        "_ply",
        "config",
        "defender",
        "history",
        "last",
        "over",
        "pending",
        "pos",
        "priority_open",
        "replays",
        "rng",
        "seed",
        "win_reason",
        "winner",
    )

    # every seat saw every move made (what was submitted is hidden, not that
    # it was), replayed rounds included, which the view does not count
    public_memory = ("_ply",)

    spec: ClassVar[TrickSpec]

    def __init__(self, config: TrickConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = GameRng(seed)  # used at setup only: the defender, the item split
        self.pos = Position(config.rounds)
        self.pending: list[Submission | Missed | None] = [None, None]
        self.replays = 0  # times the current round was replayed (both missed)
        self.priority_open = [False, False]
        self.defender = 0
        # the last round as revealed, with the Block targets (hidden ones too)
        self.last: dict[str, Any] | None = None
        # every revealed round: both submissions and whether each Block target stays hidden
        self.history: list[tuple[Submission, Submission, bool, bool]] = []
        self.over = False
        self.winner: int | None = None
        self.win_reason = ""
        self._ply = 0

    # ------------------------------------------------------------------ copy
    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        new.rng = self.rng.copy()
        new.pos = self.pos.copy()
        new.pending = self.pending[:]
        new.replays = self.replays
        new.priority_open = self.priority_open[:]
        new.defender = self.defender
        new.last = self.last  # never mutated in place: replaced each round
        new.history = self.history[:]
        new.over = self.over
        new.winner = self.winner
        new.win_reason = self.win_reason
        new._ply = self._ply
        return new

    # ----------------------------------------------------------- who acts
    def to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return tuple(s for s in (0, 1) if self.pending[s] is None)

    def legal_moves(self, seat: int) -> list[TrickMove]:
        if self.over or seat not in (0, 1) or self.pending[seat] is not None:
            return []
        items = self.pos.items[seat]
        moves: list[TrickMove] = list(
            submissions_for(self.config, items[OVERLOAD] == 1, items[RESET] == 1)
        )
        if self.config.missed_replays:
            # what the timer plays where a round both players miss is replayed
            moves.append(MISSED)
        if self.priority_open[seat]:
            moves.append(PRIORITY_MOVE)
        return moves

    def clock(self, seat: int) -> MoveClock | None:
        if self.config.timer == 0 or seat not in self.to_act():
            return None
        # `missed` differs from `-` only where a round both players miss is
        # replayed. The clock runs per round (a replayed round is a new one);
        # Claim Priority restarts it ("the timer for the next round will reset").
        items = self.pos.items
        used = sum(items[s][PRIORITY] == 2 for s in (0, 1))
        turn = (self.pos.round_no, self.replays, used)
        return MoveClock(self.config.timer, MISSED if self.config.missed_replays else EMPTY, turn)

    def check(self, seat: int, sub: Submission) -> str | None:
        """Why ``sub`` is not a submission this seat may make now, or None."""
        cfg = self.config
        counts = sub.counts
        if len(counts) != 5 or any(c not in (0, 1, 2) for c in counts):
            return "each action may appear at most twice"
        if sub.target == HIDDEN_TARGET:
            return (
                "block:? is how a Block looks to a seat that may not see its target; "
                "name the action to block, e.g. block:claim"
            )
        if not NO_TARGET <= sub.target < 5 or (sub.target != NO_TARGET and not counts[BLOCK]):
            return "only a Block names a target"
        if not cfg.doubles and max(counts) > 1:
            return "the same action may not be played twice in this game (only in final)"
        items = self.pos.items[seat]
        n = sub.cards
        if sub.overload:
            if items[OVERLOAD] != 1:
                return _no_item(items[OVERLOAD], "Overload")
            if n != 3:
                return "with Overload, play exactly 3 cards"
        elif n > 2:
            return "play at most two cards (three only with Overload)"
        elif cfg.exact_two and n not in (0, 2):
            return "play exactly two cards, or none"
        if sub.reset and items[RESET] != 1:
            return _no_item(items[RESET], "Limit Reset")
        return None

    # ------------------------------------------------------------------ play
    def resign(self, seat: int) -> list[Event]:
        self._finish(1 - seat, f"{{p{seat}}} resigned")
        self._ply += 1
        return [
            Event(
                "resign",
                f"{{p{seat} resigns|resign}}: {{p{1 - seat} wins|win}}.",
                SeatEvent(seat=seat),
            )
        ]

    def play_move(self, seat: int, move: TrickMove) -> list[Event]:
        if self.pending[seat] is not None:
            raise IllegalMove("you have already submitted this round; wait for your opponent")
        if type(move) is UsePriority:
            return self._use_priority(seat)
        if type(move) is Missed:
            if not self.config.missed_replays:
                raise IllegalMove(
                    "'missed' is the timer's move only where missed rounds are replayed "
                    "(original); submit - for no actions"
                )
            self.pending[seat] = MISSED
            # private like any submission until the reveal: in a simultaneous
            # round nobody may learn whether the other seat chose or ran out
            events = [
                Event(
                    "missed",
                    f"{{p{seat}}} ran out of time: no actions this round.",
                    SeatEvent(seat=seat),
                    private_to=seat,
                    redacted=Event(
                        "submit", f"{{p{seat} has|have}} submitted.", Submitted(seat=seat)
                    ),
                )
            ]
        elif type(move) is Submission:
            why = self.check(seat, move)
            if why:
                raise IllegalMove(f"{format_submission(move)}: {why}")
            self.pending[seat] = move
            text = self._move_words(move)
            events = [
                Event(
                    "submit",
                    f"{{p{seat} submits|submit}} {text}.",
                    Submitted(seat=seat, move=str(move)),
                    private_to=seat,
                    redacted=Event(
                        "submit", f"{{p{seat} has|have}} submitted.", Submitted(seat=seat)
                    ),
                )
            ]
        else:
            raise IllegalMove(f"{move} is not a Five-Card Trick move")
        self._ply += 1
        if self.pending[0] is not None and self.pending[1] is not None:
            self._end_of_submissions(events)
        return events

    def advance(self, seat: int, move: TrickMove) -> None:
        # play_move's own steps with events=None: what only the narration and
        # the views read (``last``, ``history``) is not kept
        if type(move) is UsePriority:
            self._use_priority(seat)
            return
        self.pending[seat] = move if type(move) is Submission else MISSED
        self._ply += 1
        if self.pending[0] is not None and self.pending[1] is not None:
            self._end_of_submissions(None)

    def _use_priority(self, seat: int) -> list[Event]:
        if not self.priority_open[seat]:
            item = self.pos.items[seat][PRIORITY]
            if item != 1:
                raise IllegalMove(_no_item(item, "Claim Priority"))
            raise IllegalMove(
                "Claim Priority can be used only after a round in which both Claims collided"
            )
        pos = self.pos
        taken = pos.pot
        pos.chips[seat] += taken
        pos.pot = 1
        pos.last_taker = seat
        pos.items[seat][PRIORITY] = 2
        self.priority_open = [False, False]
        self._ply += 1
        w = WORDS[self.config.names]
        return [
            Event(
                "priority",
                f"{{p{seat} uses|use}} Claim Priority and {{p{seat}:takes|take}} the pot: "
                f"{_n(taken, w)}. "
                f"The pot is refilled to 1 {w['chip']}; the round's timer restarts.",
                PriorityUsed(seat=seat, taken=taken, chips=pos.chips[:], pot=pos.pot),
            )
        ]

    def _end_of_submissions(self, events: list[Event] | None) -> None:
        """Both seats have chosen: replay a round both missed, else resolve it
        (``events`` None: for search, unnarrated, ``last`` and ``history`` not kept)."""
        p0, p1 = self.pending
        self.pending = [None, None]
        if type(p0) is Missed and type(p1) is Missed and self.replays < self.config.missed_replays:
            self.replays += 1
            if events is not None:
                events.append(
                    Event(
                        "replay",
                        f"Both players missed round {self.pos.round_no}: it is replayed "
                        f"({self.replays} of at most {self.config.missed_replays}).",
                        RoundReplayed(round=self.pos.round_no, replays=self.replays),
                    )
                )
            return
        s0 = p0 if type(p0) is Submission else EMPTY
        s1 = p1 if type(p1) is Submission else EMPTY
        self._resolve_round(s0, s1, (type(p0) is Missed, type(p1) is Missed), events)

    def _resolve_round(
        self,
        s0: Submission,
        s1: Submission,
        missed: tuple[bool, bool],
        events: list[Event] | None,
    ) -> None:
        pos = self.pos
        round_no = pos.round_no
        subs = (s0, s1)
        for seat, sub in enumerate(subs):
            if sub.overload:
                pos.items[seat][OVERLOAD] = 2
            if sub.reset:
                pos.items[seat][RESET] = 2
        rep = resolve(pos, s0, s1, report=events is not None)
        self.replays = 0
        self.priority_open = [False, False]
        if events is not None and rep is not None:
            self._narrate_round(round_no, subs, rep, missed, events)
        ended = self._check_end(round_no)
        if events is not None:
            events.extend(ended)
        # A Claim Priority window opens when the Claims collided (the round's
        # effective counts are now ``last1``): a collision leaves no live
        # Claim, so nobody took the pot and either holder may use the item.
        if not self.over and pos.last1[0][CLAIM] == pos.last1[1][CLAIM] > 0:
            for seat in (0, 1):
                if pos.items[seat][PRIORITY] == 1:
                    self.priority_open[seat] = True
                    if events is not None:
                        events.append(
                            Event(
                                "priority_window",
                                f"Both Claims collided: {{p{seat}}} may use Claim Priority "
                                "to take the pot before the next round ends.",
                                PriorityWindow(seat=seat, pot=pos.pot),
                            )
                        )

    def _narrate_round(
        self,
        round_no: int,
        subs: tuple[Submission, Submission],
        rep: RoundReport,
        missed: tuple[bool, bool],
        events: list[Event],
    ) -> None:
        """The round just resolved, for the views (``last``, ``history``) and the log."""
        live_block = [False, False]
        for seat, _target in rep.block_set:
            live_block[seat] = True
        self.last = self._reveal_data(round_no, subs, rep, live_block)
        self.last["missed"] = list(missed)
        hidden = self.last["target_hidden"]
        self.history.append((subs[0], subs[1], hidden[0], hidden[1]))
        events.append(self._reveal_event())
        for seat in (0, 1):
            sub = subs[seat]
            if sub.counts[BLOCK] and sub.target != NO_TARGET and not live_block[seat]:
                events.append(
                    Event(
                        "block_target",
                        f"Your Block named {self._name(sub.target)}; it did not go live, "
                        f"so {{p{1 - seat} does|do}} not learn its target.",
                        BlockTargetKept(seat=seat, target=ACTION_IDS[sub.target]),
                        private_to=seat,
                    )
                )

    def _check_end(self, round_no: int) -> list[Event]:
        pos = self.pos
        cfg = self.config
        if round_no < pos.end_round:
            return []
        c0, c1 = pos.chips
        w = WORDS[cfg.names]
        if c0 != c1:
            self._finish(0 if c0 > c1 else 1, "more chips")
        elif pos.end_round < cfg.round_cap:
            pos.end_round += 5
            return [
                Event(
                    "extension",
                    f"Tied at {c0} {w['chips']} after round {round_no}: 5 more rounds "
                    f"(to round {pos.end_round}).",
                    RoundsExtended(round=round_no, end_round=pos.end_round),
                )
            ]
        else:
            winner, reason = self._tie_break()
            self._finish(winner, reason)
        if self.winner is None:
            text = f"The game ends in a draw, {c0} {w['chips']} each."
        else:
            hi, lo = max(c0, c1), min(c0, c1)
            text = f"{{p{self.winner} wins|win}}, {hi} {w['chips']} to {lo}"
            text += f" ({self.win_reason})." if self.win_reason != "more chips" else "."
        return [
            Event(
                "game_over",
                text,
                GameOver(winner=self.winner, chips=pos.chips[:], reason=self.win_reason),
            )
        ]

    def _tie_break(self) -> tuple[int | None, str]:
        rule = self.config.tie_rule
        pos = self.pos
        if rule == "last_taker":
            if pos.last_taker < 0:
                return None, "tied, and nobody ever took the pot"
            return pos.last_taker, "tied: last to take the pot"
        if rule == "items":
            unused = [sum(1 for i in pos.items[s] if i == 1) for s in (0, 1)]
            if unused[0] != unused[1]:
                return (0 if unused[0] > unused[1] else 1), "tied: more unused items"
        return self.defender, "tied: the defender wins"

    def _finish(self, winner: int | None, reason: str) -> None:
        self.over = True
        self.winner = winner
        self.win_reason = reason
        self.priority_open = [False, False]

    # ------------------------------------------------------------ narration
    def _name(self, action: int) -> str:
        return NAMES[self.config.names][action]

    def _move_words(self, sub: Submission, show_target: bool = True) -> str:
        return submission_words(sub, Words.of(self.config.names), show_target=show_target)

    def _reveal_data(
        self,
        round_no: int,
        subs: tuple[Submission, Submission],
        rep: RoundReport,
        live_block: list[bool],
    ) -> dict[str, Any]:
        pos = self.pos
        actions: list[list[dict[str, Any]]] = [[], []]
        for seat in (0, 1):
            sub = subs[seat]
            for a in ACTIONS:
                if not sub.counts[a]:
                    continue
                entry: dict[str, Any] = {"action": ACTION_IDS[a], "copies": sub.counts[a]}
                if a in rep.dropped[seat]:
                    entry["status"] = "disregarded"
                    entry["reason"] = rep.dropped[seat][a]
                    entry["blocked"] = False
                else:
                    st, blocked = rep.status[seat][a]
                    entry["status"] = st
                    entry["blocked"] = blocked
                actions[seat].append(entry)
        return {
            "round": round_no,
            "moves": [str(s) for s in subs],
            "targets": [s.target for s in subs],
            "target_hidden": [
                bool(s.counts[BLOCK] and s.target != NO_TARGET and not live_block[i])
                for i, s in enumerate(subs)
            ],
            "overload": [s.overload for s in subs],
            "reset": [s.reset for s in subs],
            "actions": actions,
            "pot_before": rep.pot_before,
            "scored": rep.scored,
            "grew": rep.grew if rep.grew >= 0 else None,
            "taker": rep.taker if rep.taker >= 0 else None,
            "taken": rep.taken,
            "taken_by": rep.taken_by or None,
            "failed_steal": rep.failed_steal,
            "blocks_next": [None if t == NO_TARGET else ACTION_IDS[t] for t in pos.blocked],
            "bonus": rep.bonus,
            "refilled": rep.refilled,
            "chips": pos.chips[:],
            "pot": pos.pot,
            "lights": [lit_actions(pos.lights[s]) for s in (0, 1)],
            "claims_tied": rep.claims_tied,
        }

    def _reveal_event(self) -> Event:
        # told from what a spectator may see: the text is public
        data = _redact_reveal(self.last, None)
        lines = round_lines(msgspec.convert(data, RoundReveal), Words.of(self.config.names))
        return Event(
            "reveal", " ".join(lines), msgspec.convert({**data, "lines": lines}, RoundRevealed)
        )

    # ------------------------------------------------------------- the end
    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        chips = tuple(self.pos.chips)
        if self.winner is None:
            return Outcome(None, ((0, 1),), chips, self.win_reason)
        w = self.winner
        return Outcome(w, ((w,), (1 - w,)), chips, self.win_reason)

    # ----------------------------------------------------------- information
    def scores(self) -> tuple[int, ...]:
        return (self.pos.chips[0], self.pos.chips[1])

    def view(self, seat: int | None) -> TrickView:
        pos = self.pos
        cfg = self.config
        me = seat if seat in (0, 1) else 0
        restrictions = []
        pairs = []
        for s in (0, 1):
            restrictions.append({ACTION_IDS[a]: why for a, why in pos.restricted(s).items()})
            pair = pos.repeat_pair(s)
            pairs.append(None if pair is None else [ACTION_IDS[a] for a in ACTIONS if pair[a]])
        pending = self.pending[seat] if seat in (0, 1) else None
        # a game that ended with a round resolved has moved its counter on; a
        # resignation ends it mid-round, in the round still being played
        resigned = self.win_reason.endswith("resigned")
        round_no = pos.round_no - 1 if self.over and not resigned else pos.round_no
        return TrickView(
            game="trick",
            seat=seat,
            names=cfg.names,
            action_names=list(NAMES[cfg.names]),
            words=dict(WORDS[cfg.names]),
            chips=pos.chips[:],
            difference=pos.chips[me] - pos.chips[1 - me],
            pot=pos.pot,
            lights=[lit_actions(pos.lights[s]) for s in (0, 1)],
            round=round_no,
            rounds=cfg.rounds,
            end_round=pos.end_round,
            round_cap=cfg.round_cap,
            extension=(pos.end_round - cfg.rounds) // 5,
            replays=self.replays,
            restrictions=restrictions,
            repeat_pair=pairs,
            blocked=[None if t == NO_TARGET else ACTION_IDS[t] for t in pos.blocked],
            defender=self.defender,
            items=[
                {name: ITEM_STATES[pos.items[s][i]] for i, name in enumerate(ITEM_NAMES)}
                for s in (0, 1)
            ],
            priority_window=self.priority_open[:],
            last_taker=pos.last_taker if pos.last_taker >= 0 else None,
            timer=cfg.timer,
            exact_two=cfg.exact_two,
            doubles=cfg.doubles,
            tie_rule=cfg.tie_rule,
            submitted=[self.pending[s] is not None for s in (0, 1)],
            pending=None if pending is None else str(pending),
            last_round=(
                msgspec.convert(_redact_reveal(self.last, seat), RoundReveal) if self.last else None
            ),
            history=[
                [
                    format_submission(a, not (ha and seat != 0)),
                    format_submission(b, not (hb and seat != 1)),
                ]
                for a, b, ha, hb in self.history
            ],
            history_hidden=[[ha, hb] for _, _, ha, hb in self.history],
        )

    def snapshot(self) -> dict[str, Any]:
        pos = self.pos
        return {
            "view": self.view(None).to_json(),
            "pending": [None if p is None else str(p) for p in self.pending],
            "last": self.last,
            "history": [[str(a), str(b)] for a, b, _, _ in self.history],
            "last1": [list(c) for c in pos.last1],
            "last2": pos.last2[:],
            "items": [r[:] for r in pos.items],
            "rng": self.rng.fingerprint(),
            "ply": self._ply,
        }

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        new = self.copy()
        new.seed = SAMPLE_SEED
        for s in (0, 1):
            if s == seat:
                continue
            if self.pending[s] is not None:
                # what the opponent submitted is unknown, and so is whether it
                # ran out of time instead: any submission it could make
                items = self.pos.items[s]
                pool = submissions_for(self.config, items[OVERLOAD] == 1, items[RESET] == 1)
                new.pending[s] = rng.choice(pool)
        last = self.last
        if last is not None and any(last["target_hidden"][s] for s in (0, 1) if s != seat):
            last = dict(last)
            targets = list(last["targets"])
            for s in (0, 1):
                if s != seat and last["target_hidden"][s]:
                    targets[s] = rng.randrange(5)
            last["targets"] = targets
            last["moves"] = [
                _with_target(m, t) if hidden and s != seat else m
                for s, (m, t, hidden) in enumerate(
                    zip(last["moves"], targets, last["target_hidden"], strict=True)
                )
            ]
            new.last = last
        for i, (a, b, ha, hb) in enumerate(self.history):
            if (ha and seat != 0) or (hb and seat != 1):
                if ha and seat != 0:
                    a = Submission(a.counts, rng.randrange(5), a.overload, a.reset)
                if hb and seat != 1:
                    b = Submission(b.counts, rng.randrange(5), b.overload, b.reset)
                new.history[i] = (a, b, ha, hb)
        # the setup's generator would tell the real game: a sample has its own
        # (drawn last, so that the resampling above draws as it always did)
        new.rng = GameRng(rng.getrandbits(64))
        return new


# position texts (docs/rules/trick.md, "Position text")


def disregarded_in_view(view: TrickView, seat: int, sub: Submission) -> dict[str, str]:
    """What the rules would disregard of ``sub`` if ``seat`` submitted it now, by
    action id, worked out from a view alone (the table warns before submitting)."""
    out: dict[str, str] = {}
    if not sub.reset:
        pair = view.repeat_pair[seat]
        if pair and all(sub.counts[ACTION_IDS.index(a)] for a in pair):
            out.update(dict.fromkeys(pair, REPEATED_PAIR))
        for action, why in view.restrictions[seat].items():
            if sub.counts[ACTION_IDS.index(action)]:
                out[action] = why
    if sub.counts[BLOCK] and sub.target == NO_TARGET:
        out["block"] = NO_BLOCK_TARGET
    return out


def _with_target(move: str, target: int) -> str:
    sub = parse_move(move)
    assert isinstance(sub, Submission)
    return str(Submission(sub.counts, target, sub.overload, sub.reset))


def _redact_reveal(last: dict[str, Any] | None, seat: int | None) -> dict[str, Any]:
    """The last round as ``seat`` may see it: a Block that did not go live keeps
    its target secret from everyone but its owner."""
    assert last is not None
    # a fresh copy: whoever holds a view may change it without touching the state
    out = {k: _fresh(v) for k, v in last.items() if k != "targets"}
    moves = []
    targets = []
    for s in (0, 1):
        hidden = last["target_hidden"][s] and s != seat
        t = last["targets"][s]
        sub = parse_move(last["moves"][s])
        assert isinstance(sub, Submission)
        moves.append(format_submission(sub, show_target=not hidden))
        targets.append(None if t == NO_TARGET or hidden else ACTION_IDS[t])
    out["moves"] = moves
    out["block_targets"] = targets
    return out


def _fresh(value: Any) -> Any:
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


def lit_actions(mask: int) -> list[str]:
    return [ACTION_IDS[a] for a in ACTIONS if mask >> a & 1]


def _n(count: int, words: dict[str, str]) -> str:
    return f"{count} {words['chip'] if count == 1 else words['chips']}"


def _no_item(state: int, name: str) -> str:
    return f"you have already used {name}" if state == 2 else f"you do not have {name}"
