"""A person whose seat the computer played while they were away is told, when
they are back, how many moves it made for them (issue 38, N13): nobody finds
plays in their name that they never made without a word."""

from __future__ import annotations

from net.client import Notice
from net.local import open_table
from rules.events import fill_names

from .helpers import HUMAN, HUMAN2, domination_config


async def test_the_returning_player_hears_how_many_moves_the_computer_made_for_them() -> None:
    # seat 0 (Ada) is a person elsewhere; this client plays seat 1 (Bo)
    client = open_table(None, "domination", domination_config(), [HUMAN, HUMAN2], (1,), seed=3)
    table = client.table
    told: list[Notice] = []
    client.subscribe(lambda update: told.extend(update.notices))
    table.attach((0,))
    await client.start()
    table.detach((0,))
    table.hand_to_computer(0, "easy")  # Ada is gone for good: the computer plays for her
    before = len(table.record.moves)
    while sum(1 for seat, _ in table.record.moves[before:] if seat == 0) < 1:
        await client.idle()
        if 1 in table.state.to_act():
            await client.play(1, client.snapshot(1).legal[0], table.state_id)
    await client.idle()
    played = sum(1 for seat, _ in table.record.moves[before:] if seat == 0)
    moves = "a move" if played == 1 else f"{played} moves"
    table.hand_back(0)
    table.attach((0,))  # Ada is back
    await client.idle()
    [back] = [n for n in told if n.kind == "back"]
    assert fill_names(back.text, ["You", "Bo"], (0,)) == (
        "You are back and play again: the computer stops. "
        f"While you were away it made {moves} for you."
    )
    assert fill_names(back.text, ["Ada", "Bo"]).endswith(
        f"While Ada was away it made {moves} for Ada."
    )
    # Ada watches the table only from her snapshot on: it tells her too, once
    assert table.snapshot(0).notices == (back,)
    assert table.snapshot(0).notices == ()
    await client.close()
