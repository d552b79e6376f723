"""Line mode at a table elsewhere that waits for its players: the player who
opened it hears what it waits for (an empty screen said nothing), and hears
the game begin when the other seat is taken."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.lines.test_session import ScriptedIO, at_prompt
from tests.net.netkit import serving, until
from tui.lines.table import TableSession


async def test_the_creator_hears_the_table_wait_for_its_other_seat_then_the_game(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options={"first_leader": "0"})
        await ada.join(created.table, 0)

        def answer(lines: list[str]) -> str | None:
            return "quit" if at_prompt(lines) else None  # her turn: she leaves

        io = ScriptedIO(answer)
        session = TableSession(ada, io, "letters", new=True)
        task = asyncio.ensure_future(session.run())
        await until(lambda: any("to sit down" in line for line in io.lines), "the wait said")
        (waiting,) = [line for line in io.lines if "to sit down" in line]
        assert waiting.startswith("Waiting for ") and f"(table {created.table})" in waiting
        assert "the game starts when every seat is taken" in waiting
        assert not any("your turn" in line.lower() for line in io.lines)  # nothing to play yet

        bo = await served.client("Bo")
        await bo.join(created.table, 1)
        await until(lambda: task.done(), "Ada's turn, then quit")
        assert any(line.startswith("Ada, your turn.") for line in io.lines)
        assert [line for line in io.lines if "to sit down" in line] == [waiting]  # said once
        await bo.close()
        await ada.close()
