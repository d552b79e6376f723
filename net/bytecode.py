"""The visitors' program, compiled once by its host.

A visitor's cardtable (ssh-host, web) runs with PYTHONDONTWRITEBYTECODE
(net/visitors.py): it reads the host's bytecode and writes nothing into the
host's folders. On an install without bytecode (uv writes none unless told
to: ``--compile-bytecode``) every visitor would compile Textual and cardtable
from source: on this machine the websocket to the home screen took 1.7 s
that way, 0.9 s with bytecode. So the host compiles what a visitor's start
imports as it starts, in the background: the first time about 3 s of CPU,
then a look at the files' times. A folder the host may not write is left
as it is (its visitors compile, as before).
"""

from __future__ import annotations

import compileall
import importlib.util
import threading
from collections.abc import Iterable
from pathlib import Path

PACKAGES = ("rules", "saves", "net", "tui")
# the libraries a visitor's start imports (by name: net never imports Textual)
LIBRARIES = ("textual", "rich", "platformdirs", "typing_extensions")


def program_folders() -> list[Path]:
    """cardtable's packages, and the libraries its start imports (a folder, or
    a one-file module), as the Python that runs the visitors finds them."""
    root = Path(__file__).resolve().parents[1]
    found = [root / name for name in PACKAGES]
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            places = spec.submodule_search_locations
            found.append(Path(next(iter(places))) if places else Path(spec.origin))
    return found


def compile_folders(folders: Iterable[Path]) -> None:
    """Bytecode for every module in ``folders`` (or a module file) that lacks
    it or is newer; what cannot be compiled or written is skipped, silently."""
    for folder in folders:
        if folder.is_dir():
            compileall.compile_dir(folder, quiet=2, workers=1)
        elif folder.suffix == ".py":
            compileall.compile_file(folder, quiet=2)


def compile_program_in_background() -> threading.Thread:
    """Compile :func:`program_folders` in a thread that never holds the host up,
    nor its exit."""
    thread = threading.Thread(
        target=compile_folders, args=(program_folders(),), name="bytecode", daemon=True
    )
    thread.start()
    return thread
