"""The cyclic garbage collector while the app starts, and after.

Importing Textual, the app and its screens makes some 70,000 objects that
live as long as the program, and almost no cyclic garbage (1,953 objects
found unreachable after the first frame). Yet the collector runs about a
hundred times during that start (40-50 ms of a 600 ms start on this 2-core
machine, a seventh of it a slow SSH session's wait), each time scanning the
young objects to free nothing. So ``launch_app`` holds the collector before
Textual loads, and the app lets it go once its first frame is drawn, freezing
what exists then (``gc.freeze``): the full collections of the rest of the
session scan only what came later, never the 70,000 (one cost 50-110 ms
as the first table opened). A held collector is held only here: an app that
did not start this way (the tests, a visitor's spare process) is untouched.
"""

from __future__ import annotations

import gc

_held = False


def hold_collector() -> None:
    """No cyclic collection until :func:`release_collector` (start-up)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release_collector() -> None:
    """The first frame is drawn: freeze what start-up made, collect again."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
