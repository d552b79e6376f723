"""A server's standings: names kept by a secret, the leaderboard and a
player's record, counted from the games it saved (net/standings.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from net import protocol as p
from net.remote import RemoteError
from saves.ratings import DEFAULT_MU

from .netkit import serving


async def test_the_first_client_to_claim_a_name_keeps_it_with_its_secret(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada", name_secret="")
        secret = ada.welcome["name_secret"]
        assert len(secret) == 32
        for name, given in (("Ada", None), ("ada", ""), ("Ada", "0" * 32)):
            with pytest.raises(RemoteError) as refused:
                await served.client(name, name_secret=given)
            assert refused.value.code == p.NAME_TAKEN
            assert "kept by another player" in str(refused.value)
        again = await served.client("Ada", name_secret=secret)
        assert again.welcome["name"] == "Ada" and "name_secret" not in again.welcome
        # a name nobody claimed is played as before, by any client
        first = await served.client("Bo")
        second = await served.client("Bo")
        assert "name_secret" not in first.welcome and second.welcome["name"] == "Bo"
        for client in (ada, again, first, second):
            await client.close()
    kept = (tmp_path / "server" / "names.log").read_text()
    assert secret not in kept  # only its hash
    assert [json.loads(line)["name"] for line in kept.splitlines()] == ["ada"]


async def test_the_leaderboard_and_a_record_count_the_games_played_there(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada", name_secret="")
        bo = await served.client("Bo")
        table = (await ada.create("domination", ["open", "open"]))["table"]
        await ada.join(table, 0)
        await bo.join(table, 1)
        await ada.wait_for(lambda u: bool(u.legal) or 0 in u.to_act or 1 in u.to_act)
        await bo.resign(1)
        await ada.wait_for(lambda u: u.over)
        await served.server.tables[table].table.idle()
        board = await ada.leaderboard("domination")
        assert [row["name"] for row in board["players"]] == ["Ada", "Bo"]
        top, last = board["players"]
        assert (top["place"], top["games"], top["wins"], top["claimed"]) == (1, 1, 1, True)
        assert (last["losses"], last["claimed"]) == (1, False)
        assert top["rating"]["mu"] > DEFAULT_MU > last["rating"]["mu"]
        mine = await bo.player_stats()
        record = mine["games"]["domination"]
        assert mine["name"] == "Bo" and record["resignations"] == 1
        assert record["by_opponent"] == {
            "Ada": {
                "games": 1,
                "wins": 0,
                "losses": 1,
                "draws": 0,
                "resignations": 1,
                "streak": 0,
                "best_streak": 0,
            }
        }
        with pytest.raises(RemoteError) as refused:
            await ada.leaderboard("chess")
        assert refused.value.code == p.BAD_MESSAGE
        nobody = await ada.player_stats("Zed")
        assert nobody == {"type": "player_stats", "id": nobody["id"], "name": "Zed", "games": {}}
        await ada.close()
        await bo.close()
