"""The client, not the screen, knows whether leaving a game keeps an empty
save: a table in this process with no move forgets its record on request;
a game with a move, or a table without a store, never does."""

from __future__ import annotations

from pathlib import Path

from net.client import TableClient
from net.local import open_table
from rules.registry import get_game
from saves.record import SeatInfo
from saves.store import SaveStore

SEATS = [SeatInfo("You", "human"), SeatInfo("Ann", "human")]


async def test_an_unplayed_local_game_is_forgotten_once_closed(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    config = get_game("domination").config(first_leader="0")
    client = open_table(store, "domination", config, SEATS, (0, 1), seed=3)
    await client.start()
    await client.idle()
    assert client.unplayed()
    await client.close()
    assert store.path(client.record_id).exists()
    assert client.forget_unplayed()
    assert not store.path(client.record_id).exists()
    assert not client.forget_unplayed()  # already gone: nothing more to do


async def test_a_played_local_game_is_never_forgotten(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    config = get_game("domination").config(first_leader="0")
    client = open_table(store, "domination", config, SEATS, (0, 1), seed=3)
    await client.start()
    update = client.snapshot(0)
    await client.play(0, update.legal[0], update.state_id)
    await client.idle()
    assert not client.unplayed()
    await client.close()
    assert not client.forget_unplayed()
    assert store.load(client.record_id).moves


async def test_a_table_without_a_store_and_a_table_elsewhere_keep_nothing_here() -> None:
    config = get_game("domination").config(first_leader="0")
    client = open_table(None, "domination", config, SEATS, (0, 1), seed=3)
    assert not client.unplayed() and not client.forget_unplayed()
    await client.close()
    # the default of every other transport (the server keeps its own record)
    assert TableClient.unplayed(client) is False
    assert TableClient.forget_unplayed(client) is False
