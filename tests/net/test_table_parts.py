"""The parts a table is built from (net/table_parts/), each on its own: the
spectators' encoded history and the move clocks with a fake clock."""

from __future__ import annotations

import msgspec

from net import protocol as p
from net.local import LocalClient, open_table
from net.table import Table
from rules.registry import get_game
from saves.record import GameRecord

from .helpers import HUMAN, HUMAN2, domination_config


def _two_people() -> LocalClient:
    return open_table(None, "domination", domination_config(), [HUMAN, HUMAN2], (0, 1), seed=5)


def _wire(client: LocalClient, seat: int | None) -> bytes:
    """The history as the lobby built it before: every event, each time."""
    return msgspec.json.encode(p.wire_events(client.table.history(seat)))


async def _play(client: LocalClient, moves: int) -> None:
    for _ in range(moves):
        seat = client.table.state.to_act()[0]
        await client.play(seat, client.snapshot(seat).legal[0], client.table.state_id)
    await client.idle()


async def test_the_encoded_history_is_the_wire_history_after_every_move() -> None:
    client = _two_people()
    audience = client.table.audience
    await client.start()
    assert audience.history_json(None) == _wire(client, None)
    for _ in range(6):
        await _play(client, 1)
        for seat in (None, 0, 1):
            # a seat's own draws stay its own: each perspective has its own history
            assert audience.history_json(seat) == _wire(client, seat)
    assert audience.history_json(0) != audience.history_json(1)
    await client.close()


async def test_the_encoded_history_starts_over_when_the_game_is_dealt_again() -> None:
    played = _two_people()
    await played.start()
    await _play(played, 3)
    # a table brought back with events (as a resumed one is), dealt again before its start
    spec, config = get_game("domination"), domination_config()
    record = GameRecord.new("domination", config, 5, [HUMAN, HUMAN2])
    events = played.table.history(None)
    table = Table(spec, spec.new(config, 5, None), record, None, events=events)
    before = table.audience.history_json(None)
    assert before == _wire(played, None) != b"[]"
    table.redeal(99)
    assert table.audience.history_json(None) == b"[]"
    await played.close()
