"""Every test session knows the toy game (tests/toy_game.py): registered here,
at import, so that the suites that run over every registered game (the
contract, the table) cover a game of 3 to 8 seats with a private draw, a
card face down even to its owner, turns of several steps and a simultaneous
phase. It has no bots of its own: ``make_bot("toy", level)`` gives the
random bot."""

from __future__ import annotations

import sys

from rules.registry import register
from tests import toy_game

register(toy_game.SPEC)

# Where the environment sets PYTHONDONTWRITEBYTECODE (this machine does), pytest
# would rewrite the assertions of every test module anew in each worker on every
# run: collection took 6.5 s instead of 2.6 s. Let the rewritten modules be
# cached in __pycache__ (ignored by git) like any other bytecode.
sys.dont_write_bytecode = False
