"""The loop a table server runs on (net/server/event_loop.py): uvloop where
installed, the standard loop when asked for."""

from __future__ import annotations

import asyncio

import pytest

from net.server.event_loop import loop_name, run


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
