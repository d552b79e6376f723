"""SVG snapshots of several positions of one app (issue 41 item 4).

pytest-textual-snapshot's ``snap_compare`` starts an app for each picture
(``App.run``, then the test's keys, then the screenshot): a game's launch,
0.3 CPU s, before every picture, and the positions on the way played again
for each. Where pictures lie on one path through one game (its start, a hint
asked there, a few moves on), a :class:`Tour` plays that path once in a
module's shared app and takes each picture as it passes, and each test
compares its own picture with its own stored snapshot, exactly as
``snap_compare`` does:

- the picture is taken after the same waits as ``snap_compare``'s (a pause,
  the scheduled animations, two pauses, the animations again), by the same
  call (``export_screenshot`` with the app's title, simplified), so a stored
  snapshot reads byte for byte the same either way;
- it is compared through syrupy with the plugin's own extension, under the
  test's own name, so a picture that changed fails its test, the HTML report
  shows the difference, and ``--snapshot-update`` writes it, as before.

A tour's path is fixed: whichever of its tests runs first plays it up to its
own picture (the pictures on the way are kept for the others), so the order
of the tests does not matter. A step that fails fails its test, and every
later picture of the tour says which step it could not get past.
"""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Awaitable, Callable
from typing import Any

from pytest_textual_snapshot import (
    PseudoApp,
    PseudoConsole,
    SVGImageExtension,
    node_to_report_path,
)
from rich.console import Console
from syrupy import SnapshotAssertion
from textual.pilot import Pilot

Step = Callable[[Pilot[Any]], Awaitable[str]]


async def take(pilot: Pilot[Any]) -> str:
    """The screen as ``snap_compare`` takes it once its ``run_before`` is done."""
    app = pilot.app
    await pilot.pause()
    await pilot.press()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    return app.export_screenshot(title=app.title, simplify=True)


class Tour:
    """The pictures along one path through a shared app: ``steps`` in order,
    each played from where the one before left the app, each returning its
    picture (a step that opens a dialog to take it closes it after)."""

    def __init__(self, pilot: Pilot[Any], steps: dict[str, Step]) -> None:
        self.pilot = pilot
        self.steps = list(steps.items())
        self.taken: dict[str, str] = {}
        self.stuck_at: str | None = None

    async def picture(self, name: str) -> str:
        assert name in dict(self.steps), f"no step {name!r} in the tour"
        while name not in self.taken:
            step_name, step = self.steps[len(self.taken)]
            if self.stuck_at is not None:
                raise AssertionError(f"the tour did not get past its step {self.stuck_at!r}")
            self.stuck_at = step_name
            self.taken[step_name] = await step(self.pilot)
            self.stuck_at = None
        return self.taken[name]


def picture_comparer(snapshot: SnapshotAssertion, node: Any) -> Callable[[str], bool]:
    """``snap_compare`` for a picture already taken (the ``compare_picture``
    fixture): the test's stored snapshot compared with it (or written, with
    ``--snapshot-update``), and the data of the plugin's HTML report of
    differences written as the plugin writes it."""
    snapshot = snapshot.use_extension(SVGImageExtension)

    def compare(svg: str) -> bool:
        result = snapshot == svg
        # from here on as pytest_textual_snapshot's `compare` (1.0.0) does it
        execution_index = (
            snapshot._custom_index and snapshot._execution_name_index.get(snapshot._custom_index)
        ) or snapshot.num_executions - 1
        assertion_result = snapshot.executions.get(execution_index)
        snapshot_exists = bool(
            execution_index in snapshot.executions
            and assertion_result
            and assertion_result.final_data is not None
        )
        console = Console(legacy_windows=False, force_terminal=True)
        p_app = PseudoApp(PseudoConsole(console.legacy_windows, console.size))
        full_path, line_number, name = node.reportinfo()
        data = (
            result,
            str(snapshot),
            svg,
            p_app,
            full_path,
            line_number,
            name,
            inspect.getdoc(node.function) or "",
            "",
            snapshot_exists,
        )
        node_to_report_path(node).write_bytes(pickle.dumps(data))
        return bool(result)

    return compare
