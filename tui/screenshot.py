"""The palette's Screenshot: an SVG of the screen into the data folder's
``screenshots/`` (a Downloads folder often does not exist over SSH), and a
notice that says where, or why not."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from textual.app import App


def save_screenshot(app: App[Any], folder: Path, filename: str | None = None) -> None:
    name = filename or datetime.now().strftime("cardtable_%Y-%m-%d_%H-%M-%S.svg")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(app.export_screenshot(), "utf-8")
    except OSError as err:
        app.notify(
            f"No screenshot: {err.strerror or err} ({folder})", severity="error", markup=False
        )
        return
    app.notify(f"Screenshot saved: {folder / name}", markup=False)
