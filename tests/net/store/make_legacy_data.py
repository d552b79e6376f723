"""Writes tests/net/store/legacy_data/: a server data dir as the file-based
server (before the store) leaves it, by playing on that server over
loopback: two names claimed, a game under way between two people (seats
held, tokens kept), a game Ada resigned against the computer, a table where
Ada waits alone. ``expected.json`` beside it has the secrets, tokens and
moves a test needs. Run from the checkout's root, with the code before the
store: ``uv run python -m tests.net.store.make_legacy_data``.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from net import protocol as p
from tests.net.netkit import Raw, serving

HERE = Path(__file__).parent / "legacy_data"


class Player:
    def __init__(self, raw: Raw) -> None:
        self.raw = raw
        self.update: dict[str, Any] | None = None

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = await self.raw.recv()
            if "update" in message:
                self.update = message["update"]
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    def my_turn(self) -> bool:
        u = self.update
        return u is not None and u["seat"] in u["to_act"] and bool(u["legal"])

    async def move(self) -> str:
        assert self.update is not None
        choice = next(m for m in self.update["legal"] if m not in ("resign", "concede"))
        self.raw.send({"type": "move", "move": choice, "state_id": self.update["state_id"]})
        await self.until("ok")
        return str(choice)


async def hello(served: Any, name: str) -> tuple[Player, str]:
    raw = await served.raw()
    raw.send(
        {"type": "hello", "version": p.VERSION, "client": "t", "name": name, "name_secret": ""}
    )
    player = Player(raw)
    welcome = await player.until("welcome")
    return player, welcome["name_secret"]


async def main() -> None:
    expected: dict[str, Any] = {"secrets": {}, "tokens": {}, "moves": {}}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        async with serving(data) as served:
            ada, expected["secrets"]["Ada"] = await hello(served, "Ada")
            bea, expected["secrets"]["Bea"] = await hello(served, "Bea")
            game = "domination"
            ada.raw.send({"type": "create", "game": game, "seats": ["open", "open"], "sit": True})
            joined = await ada.until("joined")
            table = joined["table"]["table"]
            tokens = {joined["seat"]: joined["token"]}
            bea.raw.send({"type": "join", "table": table})
            joined = await bea.until("joined")
            tokens[joined["seat"]] = joined["token"]
            await ada.until("game")
            moves = 0
            while moves < 12:
                for player in (ada, bea):
                    if player.my_turn():
                        await player.move()
                        moves += 1
                        break
                else:
                    await asyncio.sleep(0.01)
                    for player in (ada, bea):
                        with_timeout = asyncio.wait_for(player.raw.recv(), 0.05)
                        try:
                            message = await with_timeout
                        except TimeoutError:
                            continue
                        if "update" in message:
                            player.update = message["update"]
            expected["tokens"][table] = {str(k): v for k, v in tokens.items()}
            expected["moves"][table] = moves
            # a game Ada resigns against the computer: finished, counted in the standings
            ada.raw.send({"type": "leave"})
            await ada.until("ok")
            ada.raw.send(
                {"type": "create", "game": game, "seats": ["open", "computer:easy"], "sit": True}
            )
            joined = await ada.until("joined")
            expected["finished"] = joined["table"]["table"]
            ada.raw.send({"type": "resign"})
            await ada.until("ok")
            # Bea waits alone at a table whose game has not begun
            bea.raw.send({"type": "leave"})
            await bea.until("ok")
            bea.raw.send({"type": "create", "game": game, "seats": ["open", "open"], "sit": True})
            joined = await bea.until("joined")
            expected["waiting"] = joined["table"]["table"]
            expected["tokens"][joined["table"]["table"]] = {str(joined["seat"]): joined["token"]}
            for hosted in served.server.tables.values():
                await hosted.table.idle()
            served.server._persist()
        shutil.rmtree(HERE, ignore_errors=True)
        (HERE / "server").mkdir(parents=True)
        for name in ("tables.json", "names.json"):
            shutil.copy(data / "server" / name, HERE / "server" / name)
        shutil.copytree(data / "games", HERE / "games")
        (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
