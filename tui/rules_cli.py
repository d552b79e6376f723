"""`cardtable rules GAME`: a game's rules page, as text (plain file reading:
no Textual)."""

from __future__ import annotations

import argparse

from rules.registry import games
from tui.cli import UserError
from tui.cli_output import print_out
from tui.play_cli import game_or_error
from tui.ruledocs import rules_markdown


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``rules`` command's flags and handler."""
    parser.description = "Print a game's rules."
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(sorted(games()))}")
    parser.set_defaults(handler=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    spec = game_or_error(args.game)
    try:
        text = rules_markdown(spec.id)
    except FileNotFoundError:
        raise UserError(f"{spec.title} has no rules page yet") from None
    print_out(text.rstrip("\n"))
    return 0
