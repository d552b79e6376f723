"""Every test session knows the toy game (tests/toy_game.py): registered here,
at import, so that the suites that run over every registered game (the
contract, the table) cover a game of 3 to 8 seats with a private draw, a
card face down even to its owner, turns of several steps and a simultaneous
phase. It has no bots of its own: ``make_bot("toy", level)`` gives the
random bot."""

from __future__ import annotations

import atexit
import gc
import logging
import os
import sys
from collections.abc import Iterator

import pytest

from rules.registry import register
from tests import toy_game

register(toy_game.SPEC)

# Where the environment sets PYTHONDONTWRITEBYTECODE (this machine does), pytest
# would rewrite the assertions of every test module anew in each worker on every
# run: collection took 6.5 s instead of 2.6 s. Let the rewritten modules be
# cached in __pycache__ (ignored by git) like any other bytecode. The same for
# what a process imports before this file (pytest, its plugins, execnet: 1.2 s
# of compiling in each of the three processes of a run, where the environment
# was installed without bytecode) and for the programs the tests start: the
# workers and those programs, started after this, inherit the environment.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_configure(config: pytest.Config) -> None:
    """A test process that has run a thousand tests ends with a heap of
    everything they left in caches and modules, and Python's last garbage
    collections at exit walk all of it: a second between a worker's last
    test and its end, which the run waits for (the controller too waits for
    its workers to end). Registered as the run starts, this runs after the
    exit functions the tests registered, and leaves those collections nothing
    to walk: what is frozen is still freed as the modules go."""
    atexit.register(gc.freeze)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Fewer garbage collections in a test process. Python collects its
    youngest objects every 700 allocations, and every tenth of those the
    older ones too, walking everything a worker imported; an app test
    allocates millions of short-lived objects (every style, strip and
    message), so that was a fifth of the app tests' CPU (10 s of 45 in
    tests/tui/test_screens.py and test_hot_seat_handoff.py). What was
    imported and collected stays for the whole run and is set aside
    (``gc.freeze``), and the young objects are collected every 50,000
    allocations: garbage is still collected, only less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@pytest.fixture(autouse=True)
def no_disk_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every save, settings file and claimed name is written with ``os.fsync``
    (saves/atomic.py): on this machine's shared disk a flush took 3 ms quiet
    and 15 ms under load, a few hundred of them a test run for nothing a test
    reads, since a test never loses power. What is written, and when, is
    unchanged. Tests of the flushing itself are marked ``fsync`` and flush
    for real (tests/saves/test_atomic.py); the crash tests in tests/perf/ run
    the real thing in processes of their own."""
    if request.node.get_closest_marker("fsync") is not None:
        yield
        return
    real = os.fsync
    os.fsync = _not_flushed
    try:
        yield
    finally:
        os.fsync = real


def _not_flushed(fd: int) -> None:
    os.fstat(fd)  # a closed or bad descriptor still fails as fsync would


class _FailedListeners(logging.Handler):
    """The listeners a client, a table or a link calls are guarded: one that
    raises is logged ("an update listener failed") and the others still run.
    A test's own listener (a recorder, a leak scan) that raises is then a check
    that silently stopped checking: tests/net/helpers.py's leak scan did so for
    weeks, when views became Structs. Every such failure fails its test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.failures: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().endswith("listener failed"):
            self.failures.append(self.format(record))


_FAILED_LISTENERS = _FailedListeners()
logging.getLogger("net").addHandler(_FAILED_LISTENERS)


@pytest.fixture(autouse=True)
def no_failed_listener() -> Iterator[None]:
    _FAILED_LISTENERS.failures.clear()
    yield
    failures, _FAILED_LISTENERS.failures = _FAILED_LISTENERS.failures, []
    if failures:
        pytest.fail("a listener raised (and the code under test only logged it):\n" + failures[0])
