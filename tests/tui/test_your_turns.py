"""The home screen says where you are awaited (issue 39 item 3): "Your turn at
1 table", asked of the server in the background; `y` goes there and takes the
seat back with the token the app kept, as `cardtable join HOST:PORT --table`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.net.netkit import serving
from tui.network import HeldSeats

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
