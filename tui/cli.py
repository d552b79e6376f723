"""The `cardtable` command (placeholder until the CLI lands)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("cardtable: the app is being built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
