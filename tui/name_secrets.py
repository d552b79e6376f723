"""The secrets that keep this player's names at the servers they play at
(docs/protocol.md, "Standings"): the first time the app says hello with a
name at a server, it claims the name; the secret the server gives back is
kept here, one per server and name, and sent with every later hello.

The file is ``name-secrets.json`` beside the settings (the config folder),
written atomically and readable by its owner only. A file that cannot be
read is as good as none: the names are claimed afresh, and a server that
knows them refuses them with a sentence saying so.
"""

from __future__ import annotations

import json
from pathlib import Path

from saves.atomic import write_json_atomically
from saves.errors import SaveError
from saves.regular_file import read_small_text

FILE = "name-secrets.json"
FORMAT = "cardtable-name-secrets"
MAX_BYTES = 1024 * 1024  # a secret per server and name: far less than this


def _load(config_dir: Path) -> dict[str, dict[str, str]]:
    try:
        # never blocking on a FIFO nor following a link: odd is as good as none
        data = json.loads(read_small_text(config_dir / FILE, MAX_BYTES))
        if data.get("format") != FORMAT:
            return {}
        return {
            str(server): {str(n): str(s) for n, s in names.items()}
            for server, names in data["servers"].items()
        }
    except (OSError, SaveError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def secret_for(config_dir: Path, server: str, name: str) -> str:
    """The secret kept for ``name`` at ``server`` (``host:port``), or "" (claim it)."""
    return _load(config_dir).get(server, {}).get(name.casefold(), "")


def keep_secret(config_dir: Path, server: str, name: str, secret: str) -> None:
    """Remember the secret a server gave for a name (a failure to write only
    means the name is claimed afresh next time, and refused)."""
    kept = _load(config_dir)
    kept.setdefault(server, {})[name.casefold()] = secret
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
        write_json_atomically(config_dir / FILE, {"format": FORMAT, "servers": kept}, indent=1)
    except OSError:
        pass
