"""Hints: the engine's view of a seat's legal moves, asked through the client,
searched from what the seat has seen, counted and saved with the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from net.client import Hint, HintEstimate, NoHints
from net.local import open_table
from rules.bots import search
from rules.registry import get_game
from saves.record import SeatInfo
from saves.store import SaveStore


@pytest.fixture(autouse=True)
def quick_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small search: the same engine, fewer iterations, no wall-clock cap."""
    real = search.engine_for

    def small(game_id: str) -> tuple[search.Adapter, search.Budget]:
        adapter, _ = real(game_id)
        return adapter, search.Budget(iterations=60)

    monkeypatch.setattr(search, "engine_for", small)


@pytest.mark.parametrize("game_id", ["domination", "trick"])
async def test_a_hint_weighs_every_choice_and_is_counted_and_saved(
    tmp_path: Path, game_id: str
) -> None:
    spec = get_game(game_id)
    config = spec.config()
    seats = [SeatInfo("Ada", "human"), SeatInfo("Computer", "bot", "easy")]
    store = SaveStore(tmp_path)
    client = open_table(store, game_id, config, seats, (0,), seed=4)
    await client.start()
    await client.idle()
    update = client.snapshot(0)  # the computer has answered or led: Ada's turn
    assert update.legal
    before = client.table.state.snapshot()
    hint = await client.hint(0)
    listed = [m.move for m in hint.moves]
    # every choice once, played by a legal move; moves that amount to the
    # same (a Trick Block naming nothing) are one choice
    assert len(set(listed)) == len(listed) and set(listed) <= set(update.legal)
    if game_id == "domination":
        assert sorted(listed) == sorted(update.legal)
    assert hint.best in update.legal and hint.state_id == update.state_id
    assert all(0.0 <= m.win_chance <= 1.0 for m in hint.moves)
    assert hint.used == 1
    assert client.table.state.snapshot() == before  # asking changes nothing in the game
    await client.hint(0)
    assert client.snapshot(0).hints == (2, 0)
    assert store.load(client.record_id).hints == [2, 0]
    await client.close()


async def test_no_hint_out_of_turn_or_where_the_table_gives_none(tmp_path: Path) -> None:
    spec = get_game("domination")
    seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    client = open_table(None, "domination", spec.config(first_leader="0"), seats, (0, 1), seed=2)
    await client.start()
    with pytest.raises(NoHints, match="your own turn"):
        await client.hint(1)
    client.table.hints_allowed = False
    with pytest.raises(NoHints, match="off at this table"):
        await client.hint(0)
    assert client.snapshot(0).hints == ()
    await client.close()


def test_a_hint_round_trips_through_json() -> None:
    hint = Hint(7, 1, (HintEstimate("10H", 0.75, 3.5), HintEstimate("2C", 0.25)), 3)
    assert Hint.from_json(hint.to_json()) == hint
    assert hint.best == "10H"


async def test_a_hint_reads_only_what_its_seat_has_seen(monkeypatch: Any) -> None:
    """The hint's search gets a Situation: the seat's view and the events it
    saw, never the table's state (the same mechanism the bots use)."""
    from net import table as table_module

    seen: list[Any] = []

    def spy(situation: Any, rng: Any) -> tuple[HintEstimate, ...]:
        seen.append(situation)
        return tuple(HintEstimate(str(m), 0.5) for m in situation.legal)

    monkeypatch.setattr(table_module, "_hint", spy)
    spec = get_game("domination")
    seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    config = spec.config(first_leader="0")
    client = open_table(None, "domination", config, seats, (0, 1), seed=2)
    await client.start()
    await client.hint(0)
    await client.close()
    situation = seen[0]
    assert situation.seat == 0 and situation.view.hand is not None
    assert situation.view == spec.new(config, 2).view(0)
