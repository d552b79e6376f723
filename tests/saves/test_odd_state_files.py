"""M2: a cache or settings file that is something odd (a FIFO, a link, a
file far too large) is "not there": never a hang, never an unbounded read.
Every reader goes through saves/regular_file.py; these check each reader."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from saves import regular_file
from saves.errors import SaveError
from saves.stats_cache import CACHE_FORMAT, CACHE_VERSION, SampleCache
from tui.learn.progress import PROGRESS_FILE, load_progress
from tui.settings import SETTINGS_FILE, load_settings

GOOD_CACHE = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "games": {"abc12345": ["t", 3, []]}}


def within_seconds(call: Callable[[], Any], seconds: float = 10.0) -> Any:
    """``call()``'s result, or a failure if it has not returned (it hangs on a
    FIFO when the reader blocks: the thread is a daemon, left behind)."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as err:  # raised again in the test's own thread
            errors.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the reader hangs"
    if errors:
        raise errors[0]
    return out[0]


def test_a_fifo_as_the_stats_cache_is_rebuilt_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "stats-cache.json"
    os.mkfifo(path)
    cache = within_seconds(lambda: SampleCache.load(path))
    assert cache.entries == {} and cache.changed  # rebuilt, and written over the FIFO
    cache.save(path)
    assert path.is_file() and json.loads(path.read_text())["format"] == CACHE_FORMAT


def test_a_link_as_the_stats_cache_is_not_followed(tmp_path: Path) -> None:
    """A link to /dev/zero would be read for ever; no link is followed, even
    to a good cache."""
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps(GOOD_CACHE))
    assert SampleCache.load(target).entries  # a good cache, read as a file
    path = tmp_path / "stats-cache.json"
    path.symlink_to(target)
    cache = SampleCache.load(path)
    assert cache.entries == {} and cache.changed


def test_a_cache_over_its_size_limit_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from saves import stats_cache

    path = tmp_path / "stats-cache.json"
    path.write_text(json.dumps(GOOD_CACHE))
    assert SampleCache.load(path).entries
    monkeypatch.setattr(stats_cache, "MAX_CACHE_BYTES", 20)
    assert SampleCache.load(path).entries == {}


def test_the_settings_and_lesson_progress_as_fifos_are_defaults(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / SETTINGS_FILE)
    os.mkfifo(tmp_path / PROGRESS_FILE)
    _, notice = within_seconds(lambda: load_settings(tmp_path))
    assert notice is not None and "FIFO" in notice
    assert within_seconds(lambda: load_progress(tmp_path)).finished == set()


def test_reading_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to("/dev/zero")
    for name, kind in (("fifo", "a FIFO"), ("link", "a symbolic link")):
        with pytest.raises(SaveError, match=kind):
            within_seconds(lambda name=name: regular_file.read_small_text(tmp_path / name, 99))
    (tmp_path / "big").write_bytes(b"x" * 100)
    with pytest.raises(SaveError, match="over 99 bytes"):
        regular_file.read_small_text(tmp_path / "big", 99)


def test_the_name_secrets_as_a_fifo_are_none(tmp_path: Path) -> None:
    from tui.name_secrets import FILE, secret_for

    os.mkfifo(tmp_path / FILE)
    assert within_seconds(lambda: secret_for(tmp_path, "h:1", "Ada")) == ""
