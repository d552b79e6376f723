"""Whole games of every registered game over real sockets on 127.0.0.1: two
remote people (the rest computers on the server), a spectator, and a scan of
every byte each of them received for cards they must not see."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from net.client import StaleMove, Update
from net.remote import RemoteClient
from net.server import Limits
from rules.errors import IllegalMove
from rules.registry import games
from saves.store import SaveStore

from .netkit import HANG, LeakScan, record_visibility, serving

# shorter matches than the defaults, to keep the suite fast
SHORT: dict[str, dict[str, Any]] = {
    "domination": {"target_score": 30},
    "trick": {"rounds": 5},
    "stress": {"stop_at_first": True},
}


def pick(legal: tuple[str, ...], rng: random.Random) -> str:
    """A random legal move, or half the time the longest one: in a shedding
    game (stress) that plays the most cards at once, so that random play ends
    in a few hundred moves rather than wandering with huge hands."""
    return rng.choice(legal) if rng.random() < 0.5 else max(legal, key=len)


# Random players of a shedding game may wander up to its cap of 2,000 plays (a
# deal from `secrets` is different every run): past this many moves the people
# resign, so that a game ends all the same, by the rules, in bounded time.
RESIGN_AFTER = 400


async def play_out(players: list[RemoteClient], rng: random.Random) -> None:
    """Each person plays a random legal move whenever its update says it must.
    When several people may act at once (a simultaneous phase, a race), the
    lowest seat goes first: random racing would mostly produce stale moves."""
    people = {c.my_seats[0] for c in players}

    def my_turn(seat: int) -> Callable[[Update], bool]:
        def ready(u: Update) -> bool:
            first = min((s for s in u.to_act if s in people), default=None)
            return u.over or (bool(u.legal) and first == seat)

        return ready

    async def one(client: RemoteClient) -> None:
        seat = client.my_seats[0]
        while True:
            update = await client.wait_for(my_turn(seat))
            if update.over:
                return
            if update.state_id >= RESIGN_AFTER:
                await client.resign(seat)
                await client.wait_for(lambda u: u.over)
                return
            try:
                await client.play(seat, pick(update.legal, rng), update.state_id)
            except StaleMove:
                # another seat moved meanwhile: wait for the newer update
                await client.wait_for(lambda u, sid=update.state_id: u.state_id != sid)

    await asyncio.wait_for(asyncio.gather(*(one(c) for c in players)), HANG * 3)


@pytest.mark.parametrize("deal", [1, 2])  # each deal is fresh (the server seeds from secrets)
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_a_whole_game_between_remote_people_and_server_bots(
    tmp_path: Path, game_id: str, deal: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every move is saved; durability is not what this test is about, and
    # hundreds of fsyncs (a long game of stress) would take most of its time
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    spec = games()[game_id]
    players = max(2, spec.min_players)
    seats = ["open", "open"] + ["computer:easy"] * (players - 2)
    # the fake clock stands still, so the message rate would never refill: a long
    # game needs a burst as large as the game
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada", tap=None)
        summary = await ada.create(
            game_id, seats, options={"players": players, **SHORT.get(game_id, {})}
        )
        table_id = summary.table
        assert summary.status == "waiting"
        scans = [LeakScan(0), LeakScan(1), LeakScan(None)]
        record_visibility(served.server, table_id, scans)
        ada = await served.client("Ada", tap=scans[0].tap)
        bo = await served.client("Bo", tap=scans[1].tap)
        eve = await served.client("Eve", tap=scans[2].tap)
        await eve.watch(table_id)
        await ada.join(table_id)
        await bo.join(table_id)
        assert (ada.my_seats, bo.my_seats, eve.my_seats) == ((0,), (1,), ())
        await play_out([ada, bo], random.Random(f"{game_id}:{deal}"))
        final = await eve.wait_for(lambda u: u.over)
        table = served.server.tables[table_id].table
        assert final.state_id == table.state_id and table.status == "finished"
        # the spectator's last view is the table's own public view
        assert final.view == table.state.view(None) and final.legal == ()
        # the server saved the whole game (once its last save is done), and it replays
        await table.idle()
        saved = SaveStore(tmp_path).load(table_id)
        assert len(saved.moves) == table.state_id
        assert saved.replay().view(None) == table.state.view(None)
        for scan in scans:
            assert scan.leaks() == [], scan.seat
            # the deal's seed never went out
            assert all(str(saved.seed) not in line.decode() for line in scan.lines)
        for client in (ada, bo, eve):
            await client.close()


async def test_one_person_against_a_server_bot(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        summary = await ada.create(
            "domination", ["open", "computer:easy"], options={"target_score": 30}
        )
        await ada.join(summary.table)
        assert ada.seats[1].kind == "bot" and ada.seats[0].name == "Ada"
        await play_out([ada], random.Random(3))
        assert ada.snapshot(0).over and ada.snapshot(0).result is not None
        # the history the screen would show holds every event the seat saw
        assert len(ada.history(0)) >= ada.snapshot(0).state_id
        with pytest.raises(IllegalMove):
            await ada.play(0, "anything", ada.snapshot(0).state_id)
        await ada.close()
