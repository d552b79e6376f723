"""The command palette offers what the current screen can do: its key bindings,
by their descriptions, so the palette and the footer never disagree."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenActions(Provider):
    """Every enabled, described binding of the screen the palette was opened on."""

    def _actions(self) -> Iterator[tuple[str, Callable[[], Awaitable[object]], str]]:
        seen: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.description or not active.enabled or binding.action in seen:
                continue
            if binding.action in ("command_palette", "quit"):
                continue  # the palette itself, and the app's own Quit command
            seen.add(binding.action)
            keys = binding.key_display or self.app.get_key_display(binding) or key
            run = partial(self.app.run_action, binding.action, active.node)
            yield binding.description, run, f"key: {keys}"

    async def discover(self) -> Hits:
        for description, run, help_text in self._actions():
            yield DiscoveryHit(description, run, help=help_text)

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
