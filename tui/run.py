"""Running the app full-screen for the command line (``cardtable``, ``play``,
``resume``...): only on a terminal, with library warnings kept off the screen."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .app import CardTableApp


def run_app(
    data_dir: Path | None,
    ascii: bool,
    launch: dict[str, Any] | None,
    config_dir: Path | None = None,
) -> int:
    """Run the app full-screen; the exit code for the CLI."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # never draw to a pipe or a file: a full-screen app there is garbage
        print(
            "cardtable: the game needs a terminal (stdin and stdout are not a TTY)", file=sys.stderr
        )
        return 2
    env_dir = os.environ.get("CARDTABLE_DATA_DIR")
    app = CardTableApp(
        data_dir or (Path(env_dir) if env_dir else None), config_dir, ascii=ascii, launch=launch
    )
    # Library warnings (a failed autosave, a bot error) must not scribble over the
    # screen: while the app runs they go to Textual's log (devtools), and the
    # player sees what matters as notifications.
    import logging

    from textual.logging import TextualHandler

    root = logging.getLogger()
    handler = TextualHandler(stderr=False, stdout=False)
    root.addHandler(handler)
    try:
        result = app.run()
    finally:
        root.removeHandler(handler)
    return result if isinstance(result, int) else 0
