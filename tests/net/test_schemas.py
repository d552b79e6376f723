"""docs/protocol/*.json are what net/schemas.py writes from the code's own
types: a message or a view changed without its schema fails here."""

from __future__ import annotations

from pathlib import Path

from net import schemas
from rules.registry import shipped


def test_the_checked_in_schemas_are_the_codes() -> None:
    folder = schemas.FOLDER
    wanted = schemas.expected()
    present = {str(path.relative_to(folder)) for path in folder.rglob("*.schema.json")}
    stale = sorted(
        name
        for name, text in wanted.items()
        if not (folder / name).exists() or (folder / name).read_text("utf-8") != text
    )
    extra = sorted(present - set(wanted))
    assert not stale and not extra, (
        f"docs/protocol/ differs from the code (out of date: {stale}; not written by the "
        f"code: {extra}): run `{schemas.REGENERATE}` and commit what it writes"
    )


def test_every_message_and_every_game_has_a_schema() -> None:
    names = set(schemas.expected())
    assert {"client-messages.schema.json", "server-messages.schema.json"} <= names
    for game in shipped():
        assert f"views/{game}.schema.json" in names
        assert f"options/{game}.schema.json" in names
        assert f"events/{game}.schema.json" in names


def test_each_event_is_checked_against_its_own_kind() -> None:
    from rules.registry import get_game

    spec = get_game("stress")
    schema = schemas.events_schema(spec)
    clauses = {c["if"]["properties"]["kind"]["const"]: c["then"] for c in schema["allOf"]}
    assert set(clauses) == set(spec.all_event_types()) and "resign" in clauses
    # the data of a draw is the draw's own record, not any event's
    ref = clauses["draw"]["properties"]["data"]["$ref"]
    drawn = schema["$defs"][ref.rsplit("/", 1)[1]]
    assert "seat" in drawn["properties"]


def test_the_generator_writes_only_what_changed(tmp_path: Path) -> None:
    assert sorted(schemas.write(tmp_path)) == sorted(schemas.expected())
    assert schemas.write(tmp_path) == []
