"""The command palette offers what the current screen can do: its key bindings,
by their descriptions, so the palette and the footer never disagree
(tui/app_keys.py decides which bindings are the app's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial

from textual.command import Hit, Hits, Provider

from .app_keys import app_actions


class ScreenActions(Provider):
    """Every enabled, described app action of the screen the palette was opened on."""

    def _actions(self) -> Iterator[tuple[str, Callable[[], Awaitable[object]], str]]:
        for found in app_actions(self.screen):
            if found.action in ("command_palette", "quit"):
                continue  # the palette itself, and the app's own Quit command
            run = partial(self.app.run_action, found.action, found.node)
            yield found.description, run, f"key: {found.key}"

    async def discover(self) -> Hits:
        # The palette opens on the screen's own actions, in their order, above
        # Textual's commands (Keys, Maximize, Theme...): it lists what it is
        # given by score, and discovery hits all score 0 in whatever order the
        # providers answer; these score just above, highest first.
        for rank, (description, run, help_text) in enumerate(self._actions()):
            yield Hit(1.0 - rank / 1000, description, run, text=description, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for description, run, help_text in self._actions():
            score = matcher.match(description)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(description),
                    run,
                    text=description,
                    help=help_text,
                )
