"""The player's settings: theme, card style, four-colour suits, bot pace, what
rings when a network table wants a player who is looking elsewhere.

Kept as JSON in ``platformdirs.user_config_path("cardtable")/settings.json``,
overridable by ``CARDTABLE_CONFIG_DIR`` (tests always point it at a temporary
dir). A missing file means defaults; a corrupt one means defaults plus a
notice for the player, never a crash, and the bad file is left alone until the
player changes a setting.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

SETTINGS_FILE = "settings.json"
CARD_STYLES = ("unicode", "ascii")
LINE_CARDS = ("words", "letters", "symbols")  # tui/lines/cards.py
# Seconds a computer player's move is held back so a person can follow it.
BOT_PACES = (0.0, 0.3, 0.6, 1.0, 2.0)
# Seconds the summary of a round stays (unless a key closes it); 0: no summary.
ROUND_SUMMARIES = (0.0, 2.0, 4.0, 8.0)
# Textual 8 renamed its ANSI theme; the issue (and older settings files) say textual-ansi.
THEME_ALIASES = {"textual-ansi": "ansi-dark"}


@dataclass(frozen=True)
class Settings:
    theme: str = "textual-dark"
    card_style: str = "unicode"  # unicode suits, or ASCII letters S H D C
    four_colour: bool = False  # spades black, hearts red, diamonds blue, clubs green
    bot_pace: float = 0.6
    # seconds the summary of a round stays unless a key closes it (0: no summary)
    round_summary: float = 4.0
    # a line on each special rule the first time it happens, in the first games
    # of each game (tui/learn/tips.py)
    tips: bool = True
    # the name other players see at a network table ("": ask the system)
    player_name: str = ""
    # the table server last joined (HOST:PORT), offered again by Join ("": none yet)
    last_server: str = ""
    # how line mode names cards (docs/lines.md): "words" (4 of spades),
    # "letters" (4S) or "symbols" (4♠)
    line_cards: str = "words"
    # while the terminal has no focus, a network table that wants you (your
    # turn, a rematch, a clock running out) rings the bell and sends a desktop
    # notification where the terminal shows one (tui/notify.py)
    away_bell: bool = True
    away_notifications: bool = True
    # (an "animations" setting changed nothing a player could see: it was
    # removed, and a file that still has it is read without it)

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Settings from parsed JSON; ValueError with a sentence if it is not settings."""
        if not isinstance(data, dict):
            raise ValueError("the settings file does not hold a JSON object")
        defaults = cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue  # a setting added after the file was written: its default
            value = data[f.name]
            default = getattr(defaults, f.name)
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, int | float) and not isinstance(value, bool)
                value = float(value) if ok else value
            else:
                ok = isinstance(value, type(default))
            if not ok:
                raise ValueError(f"setting '{f.name}' has a bad value: {value!r}")
            values[f.name] = value
        if values.get("card_style", "unicode") not in CARD_STYLES:
            raise ValueError(f"setting 'card_style' must be one of {', '.join(CARD_STYLES)}")
        if values.get("line_cards", "words") not in LINE_CARDS:
            raise ValueError(f"setting 'line_cards' must be one of {', '.join(LINE_CARDS)}")
        if not 0 <= values.get("bot_pace", 0.0) <= 10:
            raise ValueError("setting 'bot_pace' must be between 0 and 10 seconds")
        if not 0 <= values.get("round_summary", 0.0) <= 60:
            raise ValueError("setting 'round_summary' must be between 0 and 60 seconds")
        theme = values.get("theme")
        if theme in THEME_ALIASES:
            values["theme"] = THEME_ALIASES[theme]
        return cls(**values)


def default_config_dir() -> Path:
    env = os.environ.get("CARDTABLE_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs  # only when needed: keeps startup lean

    return platformdirs.user_config_path("cardtable")


def load_settings(config_dir: Path) -> tuple[Settings, str | None]:
    """The saved settings, or defaults; the second item is a notice for the player."""
    path = config_dir / SETTINGS_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except OSError as err:
        return Settings(), f"Could not read {path} ({err.strerror}); using default settings."
    try:
        import json  # here: a first start, with no settings yet, needs no JSON

        return Settings.from_json(json.loads(text)), None
    except (ValueError, TypeError) as err:  # JSONDecodeError is a ValueError
        return Settings(), f"{path} is not valid settings ({err}); using defaults."


def save_settings(config_dir: Path, settings: Settings) -> None:
    """Write atomically (saves.atomic) so a crash never leaves half a file."""
    # imported here: the saves package (the store, the record) is not needed to start
    from saves.atomic import write_json_atomically

    config_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomically(config_dir / SETTINGS_FILE, settings.to_json(), indent=2)
