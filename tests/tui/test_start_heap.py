"""The collector held while the app starts (tui/start_heap.py): launch_app
holds it before Textual loads, the app lets it go after its first frame with
the start-up heap frozen; an app started otherwise is untouched."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

import tui.run
from tui import cli
from tui.start_heap import hold_collector, release_collector

from .conftest import make_app, settle


def test_launch_app_holds_the_collector_before_textual_loads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []

    def run_app(*args: Any) -> int:
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(cli, "is_tty", lambda stream: True)
    monkeypatch.setattr(tui.run, "run_app", run_app)
    args = cli.parse_command_line([])
    try:
        assert cli.launch_app(args, None) == 0
    finally:
        release_collector()  # (the app it would have run lets it go)
    assert seen == [False]


async def test_the_app_lets_it_go_after_its_first_frame_with_the_heap_frozen(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.isenabled()))
    hold_collector()
    try:
        assert not gc.isenabled()
        async with make_app(dirs).run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert gc.isenabled()
            assert frozen == [False]  # frozen once, before it collects again
    finally:
        gc.enable()


async def test_an_app_started_otherwise_leaves_the_collector_alone(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    async with make_app(dirs).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert gc.isenabled()
        assert frozen == []
