"""Where a player's data lives: ``--data-dir``, else ``$CARDTABLE_DATA_DIR``,
else the platform's user data folder.

Its own light module: the home screen needs the folder (is there a seats
file?) at start-up, without the save store and the record format it imports
(tests/tui/test_start_imports.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs  # (Textual has loaded it already for the app)

ENV_VAR = "CARDTABLE_DATA_DIR"


def data_root(data_dir: Path | None = None) -> Path:
    """The data folder for ``data_dir`` (None: the environment's, else the user's)."""
    if data_dir is not None:
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return platformdirs.user_data_path("cardtable")


def held_seats_file(root: Path) -> Path:
    """Where the app keeps its seats at tables elsewhere (``tui.network.HeldSeats``)
    under the data folder ``root``: here, so that the home screen asks whether
    there are any without importing the network client."""
    return root / "network" / "seats.json"
