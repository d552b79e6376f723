"""The home screen says where you are awaited (issue 39 item 3): "Your turn at
1 table", asked of the server in the background; `y` goes there and takes the
seat back with the token the app kept, as `cardtable join HOST:PORT --table`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events

from tests.net.netkit import serving
from tui.awaited import SeatAt
from tui.network import HeldSeats
from tui.notify import BEL, ESC
from tui.screens.your_turns import REMIND_SECONDS, Caller

from .conftest import make_app, screen_text, settle


async def test_home_says_your_turn_elsewhere_and_y_takes_the_seat_back(
    dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    data, _ = dirs
    async with serving(tmp_path / "server") as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        summary = await ada.create("domination", ["open", "open"], options={"first_leader": "0"})
        await ada.join(summary.table)
        await bo.join(summary.table)
        await ada.wait_for(lambda u: bool(u.to_act))
        assert ada.token is not None
        HeldSeats.of(data).keep(ada.address, summary.table, ada.token, 0)
        await ada.close()  # the app was closed mid-game: the seat is held for Ada
        app = make_app(dirs)
        async with app.run_test(size=(80, 24)) as pilot:
            home: Any = app.screen
            said = "Your turn at 1 table: y goes there."
            await settle(pilot, lambda: bool(home.turns) and said in screen_text(app))
            assert said in screen_text(app)
            await pilot.press("y")
            await settle(
                pilot,
                lambda: (
                    getattr(app.screen, "client", None) is not None
                    and getattr(app.screen.client, "table_id", None) == summary.table
                ),
            )
            table: Any = app.screen
            await settle(pilot, lambda: table.my_turn)
            assert table.seat == 0 and table.my_turn  # Ada's own seat, her turn
        await bo.close()


async def test_home_says_nothing_without_seats_elsewhere(dirs: tuple[Path, Path]) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Your turn" not in screen_text(app)
        assert not app.screen.check_action("your_turn", ())


def _seat(table: str, clock: int | None = None) -> SeatAt:
    return SeatAt(
        address="127.0.0.1:7777",
        table=table,
        game="domination",
        status="playing",
        seat=0,
        names=("Ada", "Bo"),
        acting=(0,),
        clocks={} if clock is None else {0: clock},
    )


def test_the_caller_calls_a_new_turn_once_and_a_clock_nearly_out_once() -> None:
    caller = Caller()
    titles = {"domination": "Domination"}
    # what waits for you when home opens is on the screen: nothing is called
    assert caller.calls([_seat("aaaaaa")], titles) == []
    assert caller.calls([_seat("aaaaaa"), _seat("bbbbbb")], titles) == [
        "Your turn at Domination, you vs Bo: your turn (127.0.0.1:7777)"
    ]
    assert caller.calls([_seat("aaaaaa"), _seat("bbbbbb")], titles) == []
    near = _seat("aaaaaa", clock=REMIND_SECONDS - 60)
    assert caller.calls([near, _seat("bbbbbb")], titles) == [
        "59:00 left to move at Domination (127.0.0.1:7777)"
    ]
    assert caller.calls([near, _seat("bbbbbb")], titles) == []  # reminded once
    assert caller.calls([_seat("bbbbbb")], titles) == []  # aaaaaa's turn is over
    assert caller.calls([near, _seat("bbbbbb")], titles) == [
        "59:00 left to move at Domination (127.0.0.1:7777)"
    ]


async def test_an_unfocused_home_reminds_of_a_clock_running_out_elsewhere(
    dirs: tuple[Path, Path], tmp_path: Path, sent_to_terminal: list[str]
) -> None:
    data, _ = dirs
    sent = sent_to_terminal
    async with serving(tmp_path / "server") as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        summary = await ada.create("territory", ["open", "open"], options={"timer": 90})
        await ada.join(summary.table)
        await bo.join(summary.table)
        first = await ada.wait_for(lambda u: bool(u.to_act))
        mine = first.to_act[0]
        client = ada if mine == 0 else bo
        assert client.token is not None
        HeldSeats.of(data).keep(client.address, summary.table, client.token, mine)
        app = make_app(dirs)
        async with app.run_test(size=(80, 24)) as pilot:
            home: Any = app.screen
            # the ask home makes as it opens, done while the terminal had focus
            await settle(pilot, lambda: bool(home.turns) and not home._asking)
            assert sent == []
            app.post_message(events.AppBlur())
            await settle(pilot, lambda: not app.app_focus)
            home._caller = None  # as a home opened while away: the reminder is due
            home.ask_for_turns()
            await settle(pilot, lambda: bool(sent) and not home._asking)
            assert len(sent) == 1
            assert sent[0].startswith(BEL + f"{ESC}]9;cardtable: 1:30 left to move at Territory")
        await ada.close()
        await bo.close()
