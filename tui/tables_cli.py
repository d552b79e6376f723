"""`cardtable tables`: every table you sit at, at every server you have played
at, with whose turn it is and the time left (tui/awaited.py asks them)."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from tui.cli_output import print_out


def add_tables_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tables`` command's flags and handler."""
    parser.description = (
        "Every table where this app holds a seat, at every server it has "
        "played at, with whose turn it is and the time left on your clock. Each server "
        "is asked once (at most 5 s); `cardtable join HOST:PORT --table ID` goes there."
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=cmd_tables)


def cmd_tables(args: argparse.Namespace) -> int:
    from net.grants import Grants
    from rules.registry import games
    from saves.store import SaveStore
    from tui.awaited import ask_everywhere, report_lines, your_turns
    from tui.network import HeldSeats
    from tui.network_connect import default_name
    from tui.settings import config_dir_of, load_settings

    store = SaveStore.default(args.data_dir)
    settings, _ = load_settings(config_dir_of(args))
    answers = asyncio.run(
        ask_everywhere(
            HeldSeats.of(store.root),
            default_name(settings.player_name),
            grants=Grants.from_environ(),
            config_dir=config_dir_of(args),
        )
    )
    if args.json:
        print_out(json.dumps(_json(answers, len(your_turns(answers))), ensure_ascii=False))
        return 0
    for line in report_lines(answers, {gid: spec.title for gid, spec in games().items()}):
        print_out(line)
    return 0


def _json(answers: Any, turns: int) -> dict[str, Any]:
    return {
        "your_turn": turns,
        "servers": [
            {
                "address": a.address,
                "problem": a.problem,
                "gone": a.gone,
                "tables": [
                    {
                        "table": s.table,
                        "game": s.game,
                        "status": s.status,
                        "seat": s.seat,
                        "names": list(s.names),
                        "to_act": list(s.acting),
                        "your_turn": s.your_turn,
                        "seconds_left": s.your_clock,
                    }
                    for s in a.seats
                ],
            }
            for a in answers
        ],
    }
