"""The golden playthroughs (generate.py) still come out the same, line for line.

A difference means the rules, the notation, a view or a position text changed:
if that was meant, regenerate (``uv run python -m tests.playthroughs.generate``)
and read the diff before committing it; if not, the first differing line says
where to look.
"""

from __future__ import annotations

import pytest

from tests.playthroughs.generate import HERE, SUFFIX, cases, file_name, playthrough

REGENERATE = "regenerate with `uv run python -m tests.playthroughs.generate`"


def test_every_game_and_preset_has_a_playthrough_and_no_other() -> None:
    expected = {file_name(g, p) for g, p in cases()}
    found = {path.name for path in HERE.glob(f"*{SUFFIX}")}
    assert not expected - found, f"no playthrough for {sorted(expected - found)}: {REGENERATE}"
    assert not found - expected, f"playthroughs of no preset: {sorted(found - expected)}"


@pytest.mark.parametrize(("game_id", "preset"), cases(), ids=[file_name(*c) for c in cases()])
def test_playthrough_is_unchanged(game_id: str, preset: str) -> None:
    path = HERE / file_name(game_id, preset)
    if not path.exists():
        pytest.fail(f"{path.name} is missing: {REGENERATE}")
    golden = path.read_text(encoding="utf-8").splitlines()
    now = playthrough(game_id, preset).splitlines()
    for number, (old, new) in enumerate(zip(golden, now, strict=False), start=1):
        if old != new:
            pytest.fail(
                f"{path.name} line {number} differs:\n  file: {old[:300]}\n  now:  {new[:300]}\n"
                f"If the change is meant, {REGENERATE}"
            )
    assert len(now) == len(golden), (
        f"{path.name} has {len(golden)} lines, the playthrough now {len(now)}: {REGENERATE}"
    )
