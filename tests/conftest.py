"""Every test session knows the toy game (tests/toy_game.py): registered here,
at import, so that the suites that run over every registered game (the
contract, the table) cover a game of 3 to 8 seats with a private draw, a
card face down even to its owner, turns of several steps and a simultaneous
phase. It has no bots of its own: ``make_bot("toy", level)`` gives the
random bot."""

from __future__ import annotations

from rules.registry import register
from tests import toy_game

register(toy_game.SPEC)
