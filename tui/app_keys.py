"""The app's own actions on a screen: what the ^p palette offers and the keys
panel lists, so that both show cardtable's keys, never Textual's generic
scrolling and cursor bindings of the focused widget ("Scroll Left", "Page
Up", "Copy selected text").

The rule: an app action is a binding with an id. Every binding cardtable
declares has one ("home.new", "stress.moves.cancel"; tests/tui/test_keys.py
holds every screen to it); Textual's widgets declare theirs without.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen


@dataclass(frozen=True)
class AppAction:
    key: str  # as the footer shows it: "n", "?", "^t", "esc"
    description: str
    action: str
    node: DOMNode  # where the binding lives, to run the action there
    binding: Binding


def app_actions(screen: Screen[object]) -> Iterator[AppAction]:
    """The enabled, described actions of ``screen`` (its focused widgets and the
    app included), once each, in the order their bindings apply."""
    seen: set[str] = set()
    # the screen's own first, the app's last: home's "q Quit" before the app's ^q
    ordered = sorted(screen.active_bindings.items(), key=lambda item: isinstance(item[1].node, App))
    for key, active in ordered:
        binding = active.binding
        if not binding.id or binding.system or not binding.description:
            continue
        if not active.enabled or binding.action in seen:
            continue
        seen.add(binding.action)
        shown = binding.key_display or screen.app.get_key_display(binding) or key
        yield AppAction(shown, binding.description, binding.action, active.node, binding)
