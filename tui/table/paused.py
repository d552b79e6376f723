"""A dialog over a table screen with every clock stopped (:func:`push_paused`):
the menu, a hint, a round's summary, the hot seat's hand-off."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui.table.side import TableSide


def push_paused(
    table: TableSide,
    screen: Screen[Any],
    then: Callable[[Any], Any] | None = None,
    still_wanted: Callable[[], bool] | None = None,
) -> None:
    """Show ``screen`` over ``table`` with every clock stopped (where the
    table lets us: local play), and start them again when it closes.
    ``then`` gets its result. ``still_wanted``: asked once the clocks stand,
    since the game may move meanwhile; False drops the screen."""

    async def closed(result: Any) -> None:
        if not table.closed and not table.over:
            await table.client.pause(False)
        if then is not None:
            outcome = then(result)
            if inspect.isawaitable(outcome):
                await outcome

    async def show() -> None:
        if not table.closed and not table.over:
            await table.client.pause(True)
        if still_wanted is not None and not still_wanted():
            await closed(None)
            return
        await table.app.push_screen(screen, closed)

    table.run_worker(show(), group="pause", exit_on_error=False)
