"""CI: the textual cardtable is locked to is the newest release on PyPI.

cardtable reaches into a few of Textual's internals (tui/textual_seams.py), so
pyproject.toml bounds textual below its next major release. This check keeps
that bound honest: when Textual releases, CI fails with what to do (lock the
new release and run the tests; move the bound once they pass), so the project
never sits on an old Textual unnoticed. Without network it says so and passes.
"""

from __future__ import annotations

import json
import sys
import tomllib
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def locked_version() -> str:
    lock = tomllib.loads((ROOT / "uv.lock").read_text("utf-8"))
    return next(p["version"] for p in lock["package"] if p["name"] == "textual")


def newest_release() -> str | None:
    try:
        with urllib.request.urlopen("https://pypi.org/pypi/textual/json", timeout=10) as reply:
            return str(json.load(reply)["info"]["version"])
    except (OSError, ValueError, KeyError) as err:
        print(f"textual bound: PyPI not reachable ({err}); not checked")
        return None


def main() -> int:
    locked, newest = locked_version(), newest_release()
    if newest is None or newest == locked:
        if newest:
            print(f"textual bound: locked {locked}, the newest release")
        return 0
    print(
        f"textual bound: textual {newest} is out, the lock has {locked}. Run "
        "`uv lock --upgrade-package textual` and the tests (tests/tui/test_textual_seams.py "
        "first); if they pass, commit the lock and move the bound in pyproject.toml."
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
