"""A player's statistics in words and rows: what ``cardtable stats`` prints
and the Statistics screen shows (saves/stats.py computes them). Names come
from files and sockets: the callers show them as plain text, never markup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from saves.ratings import Rating
from saves.stats import GameStats, Statistics, Tally, opponent_label

if TYPE_CHECKING:
    from net.client import RatingChange
    from net.protocol import WireGameRecord, WireTally


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def record_line(tally: Tally) -> str:
    """``6 games: 4 wins, 1 loss, 1 draw, 1 resignation (75%)``."""
    parts = [plural(tally.wins, "win"), plural(tally.losses, "loss", "losses")]
    if tally.draws:
        parts.append(plural(tally.draws, "draw"))
    if tally.resignations:
        parts.append(plural(tally.resignations, "resignation"))
    return f"{plural(tally.games, 'game')}: {', '.join(parts)} ({tally.win_rate:.0%})"


def streak_line(tally: Tally) -> str:
    return f"Wins in a row: {tally.streak} now, best {tally.best_streak}"


def figure_rows(stats: GameStats) -> list[tuple[str, str]]:
    """The game's own figures, ``-`` where there is nothing to tell yet."""
    rows = []
    for figure, value in stats.figures():
        rows.append((figure.label, "-" if value is None else f"{value:.{figure.digits}f}"))
    return rows


def tally_rows(tallies: dict[str, Tally], *, opponents: bool) -> list[tuple[str, str, str]]:
    """(who or which preset, W-L-D, share), most games first."""
    rows = []
    for key, tally in sorted(tallies.items(), key=lambda kv: (-kv[1].games, kv[0])):
        name = opponent_label(key) if opponents else key
        wld = f"{tally.wins}-{tally.losses}-{tally.draws}"
        rows.append((name, wld, f"{tally.win_rate:.0%}"))
    return rows


def game_lines(title: str, stats: GameStats) -> list[str]:
    """One game of one player, as the command line prints it."""
    rating = stats.rating
    lines = [
        f"  {title}: {record_line(stats.tally)}",
        f"    {streak_line(stats.tally)}",
        f"    Rating {rating.shown}" if rating else "    Rating: none yet",
    ]
    lines.append("    against (won-lost-drawn):")
    lines += [f"      {n}: {w} ({s})" for n, w, s in tally_rows(stats.by_opponent, opponents=True)]
    lines.append("    per preset:")
    lines += [f"      {n}: {w} ({s})" for n, w, s in tally_rows(stats.by_preset, opponents=False)]
    lines += [f"    {label}: {value}" for label, value in figure_rows(stats)]
    return lines


def summary_line(stats: Statistics) -> str:
    """``From 14 finished games (1 still being played; 2 files skipped).``"""
    extra = []
    if stats.unfinished:
        extra.append(f"{stats.unfinished} still being played")
    if stats.skipped:
        extra.append(f"{plural(len(stats.skipped), 'file')} skipped: unreadable or not a game")
    more = f" ({'; '.join(extra)})" if extra else ""
    return f"From {plural(stats.finished, 'finished game')}{more}."


def rating_change_lines(changes: Sequence[RatingChange], at_server: bool = False) -> list[str]:
    """What one finished game did to each person's rating, for the result
    dialog: ``Your rating: 25.0 → 28.1 (+3.1)``, ``Ann's rating: ...``
    (``at_server``: ``Your rating at this server: ...``; the dialog writes the
    arrow as ``->`` in ASCII mode, :func:`tui.glyphs.in_words`)."""
    where = " at this server" if at_server else ""
    lines = []
    for change in changes:
        whose = "Your" if change.yours else f"{change.name}'s"
        before, after = change.before, change.after
        lines.append(f"{whose} rating{where}: {before:.1f} → {after:.1f} ({after - before:+.1f})")
    return lines


def wire_tally(tally: WireTally) -> Tally:
    """A tally as a server sends it (docs/protocol.md, "Standings"); a
    negative count reads as 0, so a server's mistake is no crash here."""
    return Tally(
        games=max(0, tally.games),
        wins=max(0, tally.wins),
        losses=max(0, tally.losses),
        draws=max(0, tally.draws),
        resignations=max(0, tally.resignations),
        streak=max(0, tally.streak),
        best_streak=max(0, tally.best_streak),
    )


def server_game_lines(title: str, data: WireGameRecord) -> list[str]:
    """One game of a name's record at a server (``player_stats``), as
    ``cardtable stats --server`` prints it: the lines of :func:`game_lines`."""
    tally = wire_tally(data)
    rating = data.rating
    shown = None if rating is None else Rating(rating.mu, rating.sigma).shown
    lines = [
        f"  {title}: {record_line(tally)}",
        f"    {streak_line(tally)}",
        f"    Rating {shown}" if shown else "    Rating: none yet",
        "    against (won-lost-drawn):",
    ]
    for found, opponents in ((data.by_opponent, True), (data.by_preset, False)):
        if not opponents:
            lines.append("    per preset:")
        tallies = {str(k): wire_tally(v) for k, v in found.items()}
        lines += [f"      {n}: {w} ({r})" for n, w, r in tally_rows(tallies, opponents=opponents)]
    for label, value in data.figures.items():
        shown_value = f"{value:.1f}" if isinstance(value, int | float) else "-"
        lines.append(f"    {label}: {shown_value}")
    return lines
