"""The loop a table server runs on (net/server/event_loop.py): uvloop where
installed, the standard loop when asked for."""

from __future__ import annotations

import asyncio
import sys

import pytest

from net.server.event_loop import SWITCH_INTERVAL, loop_name, run


async def _loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


def test_the_server_runs_on_uvloop_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("uvloop", reason="uvloop is not built for this platform")
    monkeypatch.delenv("CARDTABLE_LOOP", raising=False)
    assert loop_name() == "uvloop"
    assert run(_loop_module()).startswith("uvloop")


def test_the_standard_loop_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_LOOP", "asyncio")
    assert loop_name() == "asyncio"
    assert run(_loop_module()).startswith("asyncio")


async def _switch_interval() -> float:
    return sys.getswitchinterval()


def test_threads_take_turns_every_millisecond_while_it_serves() -> None:
    """The store's commit thread waits at most about 1 ms for the interpreter
    (not Python's 5), and the process gets its own setting back after."""
    before = sys.getswitchinterval()
    assert run(_switch_interval()) == SWITCH_INTERVAL == 0.001
    assert sys.getswitchinterval() == before
