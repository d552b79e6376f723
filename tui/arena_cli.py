"""`cardtable arena GAME --a A --b B`: bot against bot, with win rates.

Headless (no textual): the games are played by :mod:`rules.bots.arena`. The
results go to stdout, one line per figure (or one JSON object with
``--json``); a progress bar goes to stderr, and only when stderr is a
terminal, so pipes and scripts get clean output.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rules.bots.arena import ArenaSpec, Summary, Times, arena, make_player
from rules.errors import UnknownGame
from rules.registry import games
from tui.game_names import game_named

BAR_WIDTH = 30


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``arena`` command's flags and handler."""
    parser.description = (
        "Play bot A against bot B (B takes every other seat), seats rotated "
        "so that no side keeps the first move; print A's win rate with a 95% interval, "
        "the average game length and decision times."
    )
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(sorted(games()))}")
    parser.add_argument(
        "--a",
        required=True,
        metavar="BOT",
        help="easy, medium, hard, random, engine, or a scripted player the game declares",
    )
    parser.add_argument("--b", required=True, metavar="BOT", help="the opponent, as for --a")
    parser.add_argument("--games", type=int, default=100, metavar="N", help="default 100")
    parser.add_argument("--preset", default=None, metavar="P", help="a named rule variant")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="K",
        help="how many play: A takes one seat, B the other K-1 (default: the game's own, "
        f"{_default_players()})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="default 0")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="processes to play in (default 1)"
    )
    parser.add_argument(
        "--ceiling",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a lower time ceiling for every search, as a busy server gives them (docs/bots.md)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_arena)


def run_arena(args: argparse.Namespace) -> int:
    try:
        spec = ArenaSpec(
            game=game_named(args.game).id,
            a=args.a,
            b=args.b,
            games=args.games,
            preset=args.preset,
            players=args.players,
            seed=args.seed,
            ceiling=args.ceiling,
        )
        if spec.games < 1 or args.jobs < 1:
            raise ValueError("--games and --jobs take a number of at least 1")
        if spec.ceiling is not None and not 0 < spec.ceiling <= 60:
            raise ValueError(
                f"--ceiling must be more than 0 and at most 60 seconds, not {spec.ceiling:g}"
            )
        spec.config()  # a bad preset or number of players, in one line
        make_player(spec.game, spec.a)
        make_player(spec.game, spec.b)
    except (ValueError, UnknownGame) as err:
        print(f"cardtable: {err}", file=sys.stderr)
        return 2
    bar = _Bar(sys.stderr) if _is_tty(sys.stderr) else None
    summary, _ = arena(spec, args.jobs, bar.update if bar else None)
    if bar:
        bar.close()
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print("\n".join(report_lines(summary)))
    return 0


def report_lines(s: Summary) -> list[str]:
    lo, hi = s.ci_low * 100, s.ci_high * 100
    lines = [
        f"{s.game} ({s.preset}, {s.players} players), {s.games} games, seed {s.seed}: "
        f"{s.a} (A) against {s.b} (B)",
    ]
    if s.players > 2:
        # what "A wins" means at a table of more than two (in 80 columns)
        lines.append(
            f"A holds one seat (another each game), B the other {s.players - 1}; "
            "A wins when it comes first"
        )
    else:
        lines.append("A and B swap seats each game, playing each deal from both sides")
    lines += [
        f"A wins {s.wins}, ties {s.draws}, loses {s.losses}: "
        f"{s.rate:.1%} (95% interval {lo:.1f}% to {hi:.1f}%)",
        f"average game: {s.mean_moves:.1f} moves, every seat's counted",
    ]
    if s.limited:
        # such a game was ranked by the limit's rule, not played to a finish
        # (why the average game can be so long)
        lines.append(f"{s.limited} of {s.games} games reached {s.limit}")
    lines += [
        f"A ({s.a}) decision time: {_times(s.a_times)}",
        f"B ({s.b}) decision time: {_times(s.b_times)}"
        + (f", over its {s.players - 1} seats" if s.players > 2 else ""),
        # why the two counts can differ so much: forced moves are left out
        "a decision is a move with more than one legal choice; forced moves are not timed",
    ]
    return lines


def _default_players() -> str:
    """``domination 2, stress 4, ...``: a game's number of players with no --players."""
    return ", ".join(f"{g} {spec.config().players}" for g, spec in sorted(games().items()))


def _times(t: Times) -> str:
    if t.median is None or t.p99 is None:
        return "no decisions with a choice"
    return f"median {_secs(t.median)}, p99 {_secs(t.p99)} ({t.decisions} decisions)"


def _secs(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds >= 0.001 else f"{seconds * 1e6:.0f} us"


class _Bar:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def update(self, done: int, total: int) -> None:
        filled = BAR_WIDTH * done // total
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _is_tty(stream: Any) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
