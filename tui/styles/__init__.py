"""Style sheets loaded with the screens that use them (Screen.CSS_PATH), so the
home screen parses only tui/app.tcss at startup."""

from __future__ import annotations

from pathlib import Path

STYLES = Path(__file__).parent
FORMS = STYLES / "forms.tcss"
TABLE = STYLES / "table.tcss"
LISTS = STYLES / "lists.tcss"
DIALOGS = STYLES / "dialogs.tcss"
