"""`cardtable stats [GAME] [--player NAME] [--json]`: your record, headless.

Computed from the saved games (saves/stats.py); prints each player's record
per game, or one JSON object with ``--json``. Unreadable files are counted,
named with ``--json``, and never stop the command.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules.registry import games, get_game
from saves.stats import Statistics, compute_store
from saves.store import SaveStore
from tui.cli_output import print_out
from tui.plain import plain
from tui.stats_text import game_lines, summary_line


def add_stats_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """The ``stats`` subcommand, on the parser's ``add_subparsers()`` object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "stats",
        parents=[common],
        help="your record: wins, streaks, ratings, per opponent and game",
        description="Every player's record from the saved games: games, wins, losses, "
        "draws, resignations, streaks, rating, per opponent and preset, and each game's "
        "own figures (docs/stats.md).",
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help=f"only this game: {', '.join(sorted(games()))}"
    )
    parser.add_argument("--player", metavar="NAME", help="only this player (as on the seat)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    game = get_game(args.game).id if args.game else None
    store = SaveStore.default(args.data_dir)
    stats = compute_store(store)
    names = stats.names()
    if args.player is not None:
        if args.player not in stats.players:
            known = ", ".join(names[:10]) or "none yet"
            message = f"no finished games of a player called {args.player!r}; players: {known}"
            print(f"cardtable: {plain(message)}", file=sys.stderr)
            return 1
        names = [args.player]
    if args.json:
        print_out(json.dumps(_json(stats, names, game, str(store.games_dir)), ensure_ascii=False))
        return 0
    print_out(f"Statistics of the saved games in {store.games_dir}")
    print_out(summary_line(stats))
    shown = 0
    for name in names:
        player = stats.players[name]
        ids = [g for g in sorted(player.games) if game is None or g == game]
        if not ids:
            continue
        shown += 1
        print_out("")
        print_out(name)
        for game_id in ids:
            for line in game_lines(get_game(game_id).title, player.games[game_id]):
                print_out(line)
    if not shown:
        what = f" of {get_game(game).title}" if game else ""
        print_out(f"No finished games{what} yet: play one, and it counts here.")
    return 0


def _json(stats: Statistics, names: list[str], game: str | None, folder: str) -> dict[str, Any]:
    return {
        "folder": folder,
        "finished": stats.finished,
        "unfinished": stats.unfinished,
        "skipped": stats.skipped,
        "players": {
            name: {
                g: s.to_json()
                for g, s in sorted(stats.players[name].games.items())
                if game is None or g == game
            }
            for name in names
        },
    }
