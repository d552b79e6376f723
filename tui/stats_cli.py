"""`cardtable stats [GAME] [--player NAME] [--json]`: your record, headless.

Computed from the saved games (saves/stats.py); prints each player's record
per game, or one JSON object with ``--json``. Unreadable files are counted,
named with ``--json``, and never stop the command.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from typing import TYPE_CHECKING, Any

from rules.registry import games, get_game
from saves.stats import Statistics, compute_store
from saves.store import SaveStore
from tui.cli_output import print_out
from tui.network import parse_address
from tui.plain import plain
from tui.settings import config_dir_of, load_settings
from tui.stats_text import game_lines, server_game_lines, summary_line

if TYPE_CHECKING:
    from net.protocol import PlayerRecord


def add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``stats`` command's flags and handler."""
    parser.description = (
        "Every player's record from the saved games: games, wins, losses, "
        "draws, resignations, streaks, rating, per opponent and preset, and each game's "
        "own figures (docs/stats.md)."
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help=f"only this game: {', '.join(sorted(games()))}"
    )
    parser.add_argument("--player", metavar="NAME", help="only this player (as on the seat)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="the record kept at a table server instead (of --player, else your name there)",
    )
    parser.set_defaults(handler=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    game = get_game(args.game).id if args.game else None
    if args.server is not None:
        return _server_stats(args, game)
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


def _server_stats(args: argparse.Namespace, game: str | None) -> int:
    """A name's record at a server (``player_stats``, docs/protocol.md)."""
    try:
        host, port = parse_address(args.server)
    except ValueError as err:
        return _fail(str(err))
    from net.remote import RemoteError  # only this option talks to a server

    name = args.player or _my_name(args)
    try:
        reply = asyncio.run(_ask_server(host, port, name, game))
    except (OSError, ConnectionError, RemoteError, TimeoutError) as err:
        reason = getattr(err, "strerror", None) or str(err) or "no answer"
        return _fail(f"cannot read the record at {host}:{port}: {reason}")
    if args.json:
        import msgspec

        print_out(json.dumps(msgspec.to_builtins(reply), ensure_ascii=False))
        return 0
    print_out(f"{plain(reply.name or name, 32)} at {host}:{port}")
    if not reply.games:
        print_out("No finished games there yet.")
    for game_id, data in sorted(reply.games.items()):
        title = get_game(game_id).title if game_id in games() else plain(game_id, 32)
        for line in server_game_lines(title, data):
            print_out(line)
    return 0


async def _ask_server(host: str, port: int, name: str, game: str | None) -> PlayerRecord:
    from net.remote import RemoteClient

    # a reader says hello under a name of its own: the player's may be kept by a secret
    client = await asyncio.wait_for(RemoteClient.connect(host, port, "stats reader"), 10)
    try:
        if not client.has_standings:
            raise ConnectionError("that server keeps no standings (an older cardtable)")
        return await asyncio.wait_for(client.player_stats(name, game), 30)
    finally:
        await client.close()


def _my_name(args: argparse.Namespace) -> str:
    """The name this player plays under: the settings', else the login name."""
    settings, _ = load_settings(config_dir_of(args))
    if settings.player_name.strip():
        return settings.player_name.strip()
    try:
        return getpass.getuser() or "Player"
    except (OSError, KeyError):
        return "Player"


def _fail(message: str) -> int:
    print(f"cardtable: {plain(message)}", file=sys.stderr)
    return 2
