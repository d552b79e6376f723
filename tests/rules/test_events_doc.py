"""docs/protocol/events.md is what a client written without our code relies
on: it lists every kind of event of every game with its fields, and its
reference renderer of the template language renders as cardtable does."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from rules.events import fill_names
from rules.registry import get_game, shipped

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol" / "events.md"
# the games cardtable ships (the tests register toy games of their own)
GAME_IDS = sorted(shipped())


def _section(text: str, title: str) -> str:
    """The part of the document under the heading that ends with ``title``."""
    start = text.index(f"(`{title}`)")
    end = text.find("\n### ", start)
    return text[start : end if end > 0 else len(text)]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_kind_and_field_is_documented(game_id: str) -> None:
    spec = get_game(game_id)
    part = _section(DOC.read_text("utf-8"), game_id)
    for kind, data_type in spec.event_types.items():
        row = next((line for line in part.splitlines() if line.startswith(f"| `{kind}` |")), "")
        assert row, f"{game_id}: kind {kind!r} is not in docs/protocol/events.md"
        assert f"`{data_type.__name__}`" in row, f"{game_id} {kind}: its data type"
        fields = [f.encode_name for f in msgspec.structs.fields(data_type)]
        listed = row if data_type.__name__ != "RoundRevealed" else part
        missing = [name for name in fields if f"`{name}`" not in listed]
        assert not missing, f"{game_id} {kind}: fields {missing} are not documented"


def _reference_renderer() -> Callable[[str, list[str], set[int]], str]:
    code = re.search(r"### Reference renderer.*?```python\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert code, "the reference renderer is a python block"
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)  # the document's own code, as a reader would copy it
    render: Callable[[str, list[str], set[int]], str] = namespace["render"]
    return render


def test_the_documented_test_cases_render_as_cardtable_does() -> None:
    render = _reference_renderer()
    text = DOC.read_text("utf-8")
    table = text[text.index("### Test cases") :]
    rows = re.findall(r"^\| `(.+?)` \| (none|\d) \| `(.+?)` \|$", table, re.M)
    assert len(rows) >= 8
    names = ["Ann", "Bob"]
    for template, you, expected in rows:
        template = template.replace("\\|", "|")
        seats = set() if you == "none" else {int(you)}
        assert render(template, names, seats) == expected == fill_names(template, names, seats)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_reference_renderer_renders_every_event_of_a_game_as_cardtable(game_id: str) -> None:
    render = _reference_renderer()
    spec = get_game(game_id)
    config = spec.config()
    state = spec.new(config, seed=3)
    rng = random.Random(3)
    names = [f"P{i}" for i in range(config.players)]
    texts: list[str] = []
    while not state.is_over and len(texts) < 400:
        seat = rng.choice(state.to_act())
        for event in state.play(seat, rng.choice(state.legal_moves(seat))):
            texts += [e.text for e in (event, event.redacted) if e is not None]
    assert texts
    for text in texts:
        for you in (set(), {0}, {1}):
            assert render(text, names, you) == fill_names(text, names, you), text
