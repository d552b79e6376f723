"""The app's own actions on a screen: what the ^p palette offers and the keys
panel lists, so that both show cardtable's keys, never Textual's generic
scrolling and cursor bindings of the focused widget ("Scroll Left", "Page
Up", "Copy selected text").

The rule: an app action is a binding with an id. Every binding cardtable
declares has one ("home.new", "stress.moves.cancel"; tests/tui/test_keys.py
holds every screen to it); Textual's widgets declare theirs without.
"""

from __future__ import annotations

import re
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


# the arrows a key label may draw ("←→", "←↑↓→"), and the keys they are
_ARROWS = {"←": "left", "→": "right", "↑": "up", "↓": "down"}


def keys_named(label: str) -> set[str]:
    """The keys a key label stands for: "1-5" the digits 1 to 5, "←→" the
    left and right arrows, any other label only itself."""
    span = re.fullmatch(r"(\d)-(\d)", label)
    if span:
        return {str(n) for n in range(int(span[1]), int(span[2]) + 1)}
    return {_ARROWS[c] for c in label if c in _ARROWS} or {label}


def app_actions(screen: Screen[object]) -> Iterator[AppAction]:
    """The enabled, described actions of ``screen`` (its focused widgets and the
    app included), once each, in the order their bindings apply.

    A key another entry's label already names is left out: "2 Play card 2"
    under "1-5 Play", "→ Choose" under "←→ Choose". The footer shows only the
    first of such a family; the keys panel and the palette now agree with it."""
    seen: set[str] = set()
    # the screen's own first, the app's last: home's "q Quit" before the app's ^q
    ordered = sorted(screen.active_bindings.items(), key=lambda item: isinstance(item[1].node, App))
    listed: list[tuple[str, AppAction]] = []
    for key, active in ordered:
        binding = active.binding
        if not binding.id or binding.system or not binding.description:
            continue
        if not active.enabled or binding.action in seen:
            continue
        seen.add(binding.action)
        shown = binding.key_display or screen.app.get_key_display(binding) or key
        listed.append(
            (key, AppAction(shown, binding.description, binding.action, active.node, binding))
        )
    for key, found in listed:
        if not any(_names(other, found, key) for _, other in listed):
            yield found


def _names(other: AppAction, found: AppAction, key: str) -> bool:
    """Whether ``other``'s label stands for ``found``'s key too: another binding
    of the same action family ("play_number") on the same node."""
    return (
        other is not found
        and not found.binding.show
        and other.node is found.node
        and other.action.split("(")[0] == found.action.split("(")[0]
        and key in keys_named(other.key)
    )
