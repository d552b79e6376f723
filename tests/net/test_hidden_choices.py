"""The leak scan for simultaneous choices, byte by byte: while a Five-Card
Trick round's submissions are hidden, nothing sent to the opponent or to a
spectator names the choice already submitted, until the reveal (real
sockets on 127.0.0.1; the card scan of test_server_games.py cannot see this:
a choice is no card).

The needles come from the game itself: the notation the test submits, and the
words the submitter's own private event uses for it. A choice whose notation
already went out (an earlier round's identical one, or a word that is part of
every view, like a lone ``claim`` in the lights) is not a usable needle, so
each round the submitter picks a choice that has not been sent before."""

from __future__ import annotations

import json
import random
from pathlib import Path

from net.server import Limits

from .netkit import serving
from .test_server_games import SHORT, pick


def _received(lines: list[bytes], since: int = 0) -> str:
    return b"".join(lines[since:]).decode()


def _without_own_moves(lines: list[bytes], since: int = 0) -> tuple[str, list[list[str]]]:
    """Every byte received, less the receiver's own legal moves (both seats
    may make the same submissions, so the opponent's list always holds the
    needle); and those lists, to check apart that they carry nothing."""
    kept, own = [], []
    for line in lines[since:]:
        if not line.strip():
            continue
        message = json.loads(line)
        update = message.get("update")
        if isinstance(update, dict) and "legal" in update:
            own.append(update.pop("legal"))
        kept.append(json.dumps(message, ensure_ascii=False))
    return "\n".join(kept), own


async def test_a_submitted_choice_reaches_nobody_else_before_the_reveal(tmp_path: Path) -> None:
    rng = random.Random(11)
    seen: dict[str, list[bytes]] = {"ada": [], "bo": [], "eve": []}
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada", tap=seen["ada"].append)
        bo = await served.client("Bo", tap=seen["bo"].append)
        eve = await served.client("Eve", tap=seen["eve"].append)
        summary = await ada.create("trick", ["open", "open"], options=dict(SHORT["trick"]))
        table = summary.table
        await eve.watch(table)
        await ada.join(table, 0)
        await bo.join(table, 1)
        leaks: list[str] = []
        checked = 0
        while True:
            update = await ada.wait_for(lambda u: u.over or bool(u.legal))
            if update.over:
                break
            others = _without_own_moves(seen["bo"])[0] + _received(seen["eve"])
            fresh = [m for m in update.legal if m not in others]
            if not fresh:  # nothing distinctive to look for this round: play on
                await ada.play(0, pick(update.legal, rng), update.state_id)
            else:
                choice = rng.choice(fresh)
                marks = {name: len(lines) for name, lines in seen.items()}
                bo_moves = list(bo.snapshot(1).legal)
                await ada.play(0, choice, update.state_id)
                after = update.state_id + 1
                for client in (ada, bo, eve):  # everyone has been told of the submission
                    await client.wait_for(lambda u, sid=after: u.state_id >= sid)
                # the words the submitter's own log shows for its choice
                mine = [e for e in ada.history(0) if e.data.to_json().get("move") == choice]
                assert mine  # its own log names its choice
                words = mine[-1].text.split("} ", 1)[1].rstrip(".")
                needles = [choice]
                if words not in others:
                    needles.append(words)
                # the needles are real: the submitter was sent them
                own = _received(seen["ada"], marks["ada"])
                assert all(needle in own for needle in needles), (needles, own[-400:])
                for name in ("bo", "eve"):
                    window, moves = _without_own_moves(seen[name], marks[name])
                    # the opponent's own moves are what they were before the
                    # submission (a spectator has none): they carry nothing of it
                    assert all(m == (bo_moves if name == "bo" else []) for m in moves), name
                    for needle in needles:
                        if needle in window:
                            leaks.append(f"round {update.view['round']}: {name} got {needle!r}")
                checked += 1
            # the opponent submits: the round is revealed
            reply = await bo.wait_for(lambda u: u.over or bool(u.legal))
            if reply.over:
                break
            await bo.play(1, pick(reply.legal, rng), reply.state_id)
        assert checked >= 3  # most rounds had a distinctive choice to look for
        assert leaks == []
        # and after the reveal the choices are public, as they should be
        assert any("history" in line.decode() for line in seen["eve"])
        for client in (ada, bo, eve):
            await client.close()
