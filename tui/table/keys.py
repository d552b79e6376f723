"""The keys a table screen offers: only those that can work at its table
(:func:`offered_bindings`), and its number keys named for the cards held
(:func:`with_number_keys`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from textual.binding import ActiveBinding, BindingsMap


def offered_bindings(
    merged: BindingsMap | None, keep: Callable[[str], bool], chat: bool
) -> BindingsMap:
    """The game's own bindings (``merged``, all its class keeps) but those
    whose action ``keep`` refuses, with the chat's key where ``chat``: built
    again on each change (a copy for the screen)."""
    bindings = merged.copy() if merged is not None else BindingsMap()
    if chat:
        bindings.bind("ctrl+t", "chat", "Chat", key_display="^t")
    keys = bindings.key_to_bindings
    for key, bound in list(keys.items()):
        kept = [binding for binding in bound if keep(binding.action.split("(", 1)[0])]
        if kept:
            keys[key] = kept
        else:
            del keys[key]
    return bindings


def with_number_keys(
    bindings: dict[str, ActiveBinding], live: int | None
) -> dict[str, ActiveBinding]:
    """``bindings`` with the number keys that mean something now (``live``,
    the cards held; None for all): the footer, the keys panel and the
    palette then name "1-4", not the "1-5" of the largest hand."""
    first = bindings.get("1")
    if live is None or first is None:
        return bindings
    if re.fullmatch(r"1-\d", first.binding.key_display or ""):  # the family's label
        labelled = replace(first.binding, key_display=f"1-{live}" if live > 1 else "1")
        bindings["1"] = first._replace(binding=labelled)
    for key in [k for k in bindings if k.isdigit() and int(k) > max(live, 1)]:
        del bindings[key]  # still bound (a press is answered), no longer offered
    return bindings
