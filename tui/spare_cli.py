"""A visitor's cardtable started before its visitor comes (`cardtable web`'s
spare, net/web_spare.py): the app's modules loaded, it waits to be told who
it is, then runs as `python -m tui.cli --data-dir ...` would.

It is started exactly as a visitor's program is (net/visitors.py: the
environment built from scratch, its pty as controlling terminal, nice, CPU
and memory ceilings), in a folder of its own; what makes it one visitor's
comes last, in one JSON line on the socket ``$CARDTABLE_SPARE_FD`` (where it
says ``loaded`` first, its imports done): ``{"env": {...}, "cwd": "...",
"argv": [...]}``, the whole environment, the folder and the arguments the
cold start would have had. Nothing of the
spare's own environment survives that line. Importing is most of a start
(half a second of CPU): a visitor who takes the spare skips it.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

from net.web_spare import LOADED, SPARE_FD


def await_visitor() -> list[str]:
    """Wait for who this program is, take on their environment and folder;
    the arguments to run with. Exits (quietly) if the host goes first."""
    fd = int(os.environ[SPARE_FD])
    os.write(fd, LOADED)
    with os.fdopen(fd, "rb") as channel:
        line = channel.readline()
    if not line:
        raise SystemExit(0)  # the host stopped before a visitor came
    given = json.loads(line)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in given["env"].items()})
    os.chdir(given["cwd"])
    tempfile.tempdir = None  # a temp folder looked up while waiting: theirs from now
    argv = [str(a) for a in given["argv"]]
    sys.argv[1:] = argv
    return argv


def main() -> int:
    # what `cardtable` imports to draw its home screen (tests/test_start_imports.py)
    import tui.cli
    import tui.run
    import tui.screens.home

    return tui.cli.main(await_visitor())


if __name__ == "__main__":
    sys.exit(main())
