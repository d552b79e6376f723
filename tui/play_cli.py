"""`cardtable play GAME` and `cardtable resume [ID]`: the app opened straight
into a new game or a saved one. The command line is checked here, headless,
so a mistake is one line on stderr, not an app that opens to an error."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rules.bots import LEVELS
from rules.config import parse_option_value
from rules.errors import UnknownGame, shown_input
from rules.game import GameSpec
from rules.registry import games
from saves.errors import SaveError
from saves.record import check_field
from saves.store import SaveStore
from tui.cli import UserError, option_key
from tui.game_names import game_named

DEFAULT_VS = "computer:medium"


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's flags and handler."""
    levels = "|".join(lv.id for lv in LEVELS)
    parser.description = "Start a new game."
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(sorted(games()))}")
    parser.add_argument(
        "--vs",
        default=DEFAULT_VS,
        metavar="OPPONENT",
        help=f"computer:{levels} or human (hot-seat at this terminal); default {DEFAULT_VS}",
    )
    parser.add_argument("--seed", type=int, default=None, metavar="N", help="deal from this seed")
    parser.add_argument("--preset", default=None, metavar="P", help="a named rule variant")
    parser.add_argument(
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a game option (repeatable); `cardtable rules GAME` describes them",
    )
    parser.set_defaults(handler=cmd_play)


def add_resume_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``resume`` command's flags and handler."""
    parser.description = (
        "Go on with a saved game; with no ID, the unfinished game played most "
        "recently (`cardtable saves list` shows them all)."
    )
    parser.add_argument("id", nargs="?", metavar="ID", help="a saved game's id (or its start)")
    parser.set_defaults(handler=cmd_resume)


def cmd_play(args: argparse.Namespace) -> int:
    from tui.cli import launch_app

    spec = game_or_error(args.game)
    vs = parse_vs(args.vs)
    options = parse_options(spec, args.options)
    if args.preset is not None and args.preset not in spec.presets:
        raise UserError(
            f"{spec.id} has no preset {shown_input(args.preset)}; "
            f"presets: {', '.join(spec.presets)}"
        )
    try:
        config = spec.config(args.preset, **options)
        # what the game's record will hold must read back
        check_field("config", config.to_dict(), "--option")
        if args.seed is not None:
            check_field("seed", args.seed, "--seed")
    except (ValueError, SaveError) as err:
        raise UserError(str(err)) from None
    launch = {
        "action": "play",
        "game": spec.id,
        "vs": vs,
        "seed": args.seed,
        "preset": args.preset,
        "options": options,
    }
    return launch_app(args, launch)


def cmd_resume(args: argparse.Namespace) -> int:
    from tui.cli import launch_app

    record_id = None
    if args.id is not None:
        store = SaveStore.default(args.data_dir)
        record_id = store.resolve(args.id)
        store.load(record_id).replay()  # refuse here, in one line, what the app could not open
    return launch_app(args, {"action": "resume", "id": record_id})


def parse_vs(text: str) -> str:
    """``computer[:LEVEL]`` or ``human``, as ``computer:LEVEL`` or ``human``."""
    levels = [lv.id for lv in LEVELS]
    low = text.strip().lower()
    if low == "human":
        return "human"
    kind, _, level = low.partition(":")
    if kind == "computer":
        level = level or DEFAULT_VS.partition(":")[2]
        if level in levels:
            return f"computer:{level}"
    raise UserError(f"--vs takes computer:{'|'.join(levels)} or human, not {shown_input(text)}")


def parse_options(spec: GameSpec[Any, Any], items: Sequence[str]) -> dict[str, Any]:
    """``name=value`` texts into typed option values (UserError if one is wrong)."""
    known = {info.name: info for info in spec.Config.options()}
    options: dict[str, Any] = {}
    for item in items:
        given, eq, value = item.partition("=")
        given = given.strip()
        if not eq or not given:
            raise UserError(f"--option takes NAME=VALUE, not {shown_input(item)}")
        # `Players=4`, `allow-concede=yes`: as `rules GAME` or a screen writes them
        info = known.get(option_key(given))
        if info is None:
            raise UserError(
                f"{spec.id} has no option {shown_input(given)}; options: {', '.join(sorted(known))}"
            )
        try:
            options[info.name] = parse_option_value(info, value)
        except ValueError:
            raise UserError(
                f"option '{info.name}' takes {_kind_text(info.kind)}, not {shown_input(value)}"
            ) from None
    return options


def _kind_text(kind: type) -> str:
    if kind is bool:
        return "yes or no"
    if kind is int:
        return "a whole number"
    if kind is float:
        return "a number"
    return "text"


def game_or_error(name: str) -> GameSpec[Any, Any]:
    """The game called ``name`` (as `play` and `rules` take them), else a UserError."""
    try:
        return game_named(name)
    except UnknownGame as err:
        raise UserError(str(err)) from None
