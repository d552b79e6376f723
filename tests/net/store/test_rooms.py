"""Three real servers of one card room on a real PostgreSQL (issue 36): a
table created at one is listed at another; a player who joins through a
third follows the redirect; the server that holds the game is killed with
SIGKILL and the game goes on at another with every acknowledged move."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from net import protocol as p
from net.client import LinkDown
from net.remote import RemoteClient, RemoteError
from net.store import open_store
from rules.errors import IllegalMove

from .room_servers import Served, room

pytestmark = pytest.mark.slow

PATIENCE = 30.0  # seconds a room may take to settle on a loaded machine
# a match of 50 rounds (a round is a move at least): no deal ends it within
# the 10 or 12 moves these tests play. To a target score (the default, 100
# points), with each player's first legal card, about 1 deal in 1,000 ended by
# the 10th move and 1 in 200 by the 12th (counted over 20,000 deals): the
# game then stalled short of its moves, or its clocks had stopped when looked at
MATCH = {"first_leader": "0", "target_score": 0, "rounds": 50}


def where(players: Sequence[RemoteClient]) -> str:
    """Each player's connection and server, for a failure's message."""
    return str([(x.connection, x.address) for x in players])


async def until(
    check: Callable[[], Awaitable[bool]],
    what: str | Callable[[], str],
    servers: Sequence[Served] = (),
) -> None:
    """Wait for ``check``; failing, say what never came (``what``, or what it
    says then) and what each of ``servers`` logged (a room that never
    settles is told by its logs)."""
    deadline = time.monotonic() + PATIENCE
    while not await check():
        if time.monotonic() >= deadline:
            said = what if isinstance(what, str) else what()
            logs = "".join(f"\n--- {s.address}:\n{s.log()[-3000:]}" for s in servers)
            raise AssertionError(f"never: {said}{logs}")
        await asyncio.sleep(0.05)


async def play_one(players: list[RemoteClient], kept: list[tuple[int, str]]) -> bool:
    """The seat to act plays its first legal move; True once acknowledged
    (the move is then noted in ``kept``)."""
    for player in players:
        if player.connection != "connected":
            continue
        update = player.snapshot(player.my_seats[0])
        if update.legal and not update.over:
            move = update.legal[0]
            try:
                await player.play(player.my_seats[0], move, update.state_id)
            except (IllegalMove, LinkDown, ConnectionError):
                return False  # not acknowledged: asked again once the table is back
            kept.append((player.my_seats[0], move))
            return True
    return False


async def play_until(players: list[RemoteClient], kept: list[tuple[int, str]], moves: int) -> None:
    """Play until ``moves`` moves are acknowledged (a game that stalls fails
    the test, saying where each player is, rather than hanging it)."""
    deadline = time.monotonic() + PATIENCE
    while len(kept) < moves:
        if not await play_one(players, kept):
            states = [(pl.connection, pl.address, pl.snapshot(pl.my_seats[0])) for pl in players]
            assert time.monotonic() < deadline, f"the game stalled at {len(kept)} moves: {states}"
            await asyncio.sleep(0.02)


async def test_a_room_of_three_servers(pg_url: str, tmp_path: Path) -> None:
    async with room(pg_url, tmp_path, ["127.0.0.1"] * 3) as (a, b, c):
        ada = await RemoteClient.connect(a.host, a.port, "Ada", name_secret="")
        assert p.REDIRECT in ada.welcome.capabilities and ada.welcome.name_secret
        # the name is the room's: claimed at A, it is taken at C
        with pytest.raises(RemoteError) as taken_name:
            await RemoteClient.connect(c.host, c.port, "Ada", name_secret="")
        assert taken_name.value.code == p.NAME_TAKEN
        # a correspondence table: its terms go with it to the server that takes it over
        created = await ada.create("domination", ["open", "open"], options=MATCH, per_move=86_400)
        table = created.table
        await ada.join(table, 0)
        assert ada.address == a.address  # nothing elsewhere was less loaded
        # tries for as long as the test waits (PATIENCE): a slow take-over on a
        # loaded machine fails the wait for it, not a client that gave up first
        ada.retry_delays = (0.0, 0.5, *[1.0] * int(PATIENCE))

        # listed at B, from the room's lobby; B's subscribers hear of its changes
        heard: list[bytes] = []
        watcher = await RemoteClient.connect(b.host, b.port, "Cy", tap=heard.append)
        await watcher.request(p.Subscribe())

        async def listed_at_b() -> bool:
            return [t.table for t in await watcher.tables([table])] == [table]

        await until(listed_at_b, f"table {table} listed at {b.address}")

        # Bea joins through C and is sent to A
        bea = await RemoteClient.connect(c.host, c.port, "Bea")
        bea.retry_delays = ada.retry_delays
        await bea.join(table)
        assert bea.address == a.address and bea.my_seats == (1,)
        assert [t.table for t in await bea.tables([table])] == [table]

        async def pushed_to_b() -> bool:
            updates = [json.loads(line) for line in heard if b'"table_update"' in line]
            return any(
                u["table"]["table"] == table and u["table"]["status"] == "playing" for u in updates
            )

        await until(pushed_to_b, "B's subscriber told the game began at A")

        # an old client (no `redirect` in its hello) is told where, in words
        reader, writer = await asyncio.open_connection(c.host, c.port)
        writer.write(b'{"type":"hello","version":1,"client":"old","name":"Old"}\n')
        writer.write(b'{"type":"watch","table":"' + table.encode() + b'","id":2}\n')
        assert json.loads(await reader.readline())["type"] == "welcome"
        refusal = json.loads(await reader.readline())
        assert refusal["type"] == "error" and refusal["code"] == p.NOT_NOW
        assert f"connect to {a.address}" in refusal["message"]
        writer.close()

        players = [ada, bea]
        kept: list[tuple[int, str]] = []
        await ada.wait_for(lambda u: bool(u.to_act))
        await play_until(players, kept, 6)

        # Ada was welcomed as the room began (A may not have read B's or C's
        # first beat by then: her welcome listed A alone in one run in five
        # on a loaded machine, and she then had nowhere to go): A tells her
        # of the room's servers as it hears of them (`room`)
        async def ada_knows_the_room() -> bool:
            return set(ada.welcome.room) == {a.address, b.address, c.address}

        await until(ada_knows_the_room, lambda: f"Ada told of the room: {ada.welcome.room}", (a,))

        # A is killed in the middle of the game
        a.kill()
        await a.process.wait()
        killed = time.monotonic()

        # both seated again at another server: ``connected`` once a rejoin is
        # answered (net/remote.py), not at a try's hello; before, a player
        # welcomed at a server that was about to send it on passed for back
        # (one in six runs reach different servers first: Ada's welcome may
        # predate A's reading of C's first beat, so the two players' lists of
        # the room differ), and the other played on alone meanwhile
        async def back() -> bool:
            return all(pl.connection == "connected" and pl.address != a.address for pl in players)

        await until(
            back,
            lambda: f"both players at another server: {where(players)}",
            (a, b, c),
        )
        await play_until(players, kept, 10)
        taken = time.monotonic() - killed

        # both at the server that took the table (a link lost after the
        # moves, on a loaded machine, is back there within the wait)
        async def together() -> bool:
            return all(pl.connection == "connected" for pl in players) and (
                ada.address == bea.address
            )

        await until(
            together,
            lambda: f"both at one server: {where(players)}",
            (b, c),
        )
        assert {ada.address, bea.address} <= {b.address, c.address}
        (summary,) = await bea.tables([table])
        assert summary.status == "playing"
        assert summary.per_move == 86_400  # brought back with its terms (and clocks)
        assert any(s.clock is not None for s in summary.seats)
        for player in players:
            await player.close()
        await watcher.close()

    store = await open_store(pg_url, tmp_path)
    record = await store.tables.load_record(table)
    await store.close()
    # every acknowledged move, in order, none lost
    assert record.moves[: len(kept)] == kept
    print(f"playable again {taken:.1f} s after the kill")


async def test_a_server_gone_silent_is_taken_over_and_lets_go_when_back(
    pg_url: str, tmp_path: Path
) -> None:
    """A's machine vanishes (SIGSTOP: no reset, silence, connections that
    hang): its players notice by their own pings, reach B or C, whose probe
    finds A late and silent, and play on there with every acknowledged move.
    A, back (SIGCONT), finds its table taken and lets it go."""
    async with room(pg_url, tmp_path, ["127.0.0.1"] * 3) as (a, b, c):

        async def a_knows_the_room() -> bool:
            # (a client knows the servers live at its hello: A must have read C's first beat)
            hello = await RemoteClient.connect(a.host, a.port, "Cy")
            await hello.close()
            return set(hello.welcome.room) == {a.address, b.address, c.address}

        await until(a_knows_the_room, "A's welcome listing the three servers")
        ada = await RemoteClient.connect(a.host, a.port, "Ada")
        created = await ada.create("domination", ["open", "open"], options=MATCH)
        table = created.table
        await ada.join(table, 0)
        bea = await RemoteClient.connect(c.host, c.port, "Bea")
        await bea.join(table)
        assert ada.address == bea.address == a.address
        players = [ada, bea]
        kept: list[tuple[int, str]] = []
        await ada.wait_for(lambda u: bool(u.to_act))
        await play_until(players, kept, 6)

        a.stop()  # its machine is gone
        try:
            stopped = time.monotonic()

            async def back() -> bool:
                return all(
                    pl.connection == "connected" and pl.address in {b.address, c.address}
                    for pl in players
                )

            await until(
                back,
                lambda: f"both players at B or C: {where(players)}",
                (a, b, c),
            )
            await play_until(players, kept, 10)
            taken = time.monotonic() - stopped
            assert ada.address == bea.address
            assert "is silent" in b.log() + c.log()  # found by the room's probe, not by a refusal
        finally:
            a.resume()

        async def let_go() -> bool:
            return f"table {table} was taken over by another server: letting it go" in a.log()

        await until(let_go, "A letting its table go once back", (a, b, c))
        # A serves it no more: a watcher who asks A is sent where it is now
        watcher = await RemoteClient.connect(a.host, a.port, "Cy")
        await watcher.watch(table)
        assert watcher.address == ada.address != a.address
        await watcher.close()
        await play_until(players, kept, 12)  # and the game goes on where it is
        for player in players:
            await player.close()

    store = await open_store(pg_url, tmp_path)
    record = await store.tables.load_record(table)
    await store.close()
    assert record.moves[: len(kept)] == kept  # every acknowledged move, in order
    print(f"playable again {taken:.1f} s after A was stopped")
