"""Telling a player who is looking at another window: the terminal bell, and a
desktop notification by the escape sequences terminals understand.

Three notification sequences exist, each understood by some terminals and
ignored (or, worse, printed) by others, and a program cannot ask which one a
terminal speaks. So cardtable sends one only where the terminal identifies
itself as one that shows it (its ``TERM`` or the variables it sets), and
otherwise only the bell, which every terminal takes:

- OSC 9 (``ESC ] 9 ; text BEL``): iTerm2, WezTerm, Ghostty, ConEmu;
- OSC 777 (``ESC ] 777 ; notify ; title ; body BEL``): foot, urxvt, VTE
  terminals that carry the patch (GNOME Terminal on Fedora), WezTerm, Ghostty;
- OSC 99, kitty's protocol (title and body as two chunks of one notification).

Inside tmux the sequence is wrapped in tmux's passthrough (``ESC P tmux; ...``,
escapes doubled), which tmux 3.3+ forwards when ``allow-passthrough`` is on
and drops quietly otherwise. ``CARDTABLE_NOTIFY`` (``osc9``, ``osc777``,
``osc99``, a comma list, or ``none``) overrides the guess for a terminal we do
not recognise (over SSH only ``TERM`` travels). Text from other players (a
name) is made plain first and the separators of each sequence removed, so a
name can neither end the sequence early nor start one of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from rules.plain import plain

Protocol = Literal["osc9", "osc777", "osc99"]
PROTOCOLS: tuple[Protocol, ...] = ("osc9", "osc777", "osc99")
TEXT_LIMIT = 160  # characters: a notification is a line, not a letter

BEL, ESC, ST = "\x07", "\x1b", "\x1b\\"


def desktop_protocols(env: Mapping[str, str]) -> tuple[Protocol, ...]:
    """The notification sequences the terminal described by ``env`` shows
    (empty: none we know of, so only the bell is rung)."""
    chosen = env.get("CARDTABLE_NOTIFY", "").strip().lower()
    if chosen:
        wanted = [part.strip() for part in chosen.split(",")]
        return tuple(p for p in PROTOCOLS if p in wanted)
    term = env.get("TERM", "").lower()
    program = env.get("TERM_PROGRAM", "").lower()
    if "kitty" in term or env.get("KITTY_WINDOW_ID"):
        return ("osc99",)
    if program in ("iterm.app", "wezterm", "ghostty") or "ghostty" in term:
        return ("osc9",)
    if env.get("ITERM_SESSION_ID") or env.get("WEZTERM_PANE") or env.get("GHOSTTY_RESOURCES_DIR"):
        return ("osc9",)
    if term.startswith(("foot", "rxvt-unicode")) or env.get("VTE_VERSION"):
        return ("osc777",)
    return ()


def in_tmux(env: Mapping[str, str]) -> bool:
    return bool(env.get("TMUX")) or env.get("TERM_PROGRAM", "").lower() == "tmux"


def _clean(text: str, separators: str = "") -> str:
    cleaned = plain(text, TEXT_LIMIT)
    for separator in separators:
        cleaned = cleaned.replace(separator, " ")
    return cleaned


def notification(title: str, body: str, protocol: Protocol) -> str:
    """One desktop notification in ``protocol``'s escape sequence."""
    if protocol == "osc9":
        return f"{ESC}]9;{_clean(f'{title}: {body}')}{BEL}"
    if protocol == "osc777":
        return f"{ESC}]777;notify;{_clean(title, ';')};{_clean(body, ';')}{BEL}"
    # kitty: d=0 says more chunks follow; p= names the payload; ':' and ';'
    # separate its metadata, so neither may appear in a plain payload's place
    return (
        f"{ESC}]99;i=cardtable:d=0:p=title;{_clean(title)}{ST}"
        f"{ESC}]99;i=cardtable:d=1:p=body;{_clean(body)}{ST}"
    )


def through_tmux(sequence: str) -> str:
    """``sequence`` wrapped in tmux's passthrough, its escapes doubled."""
    return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"


def terminal_bytes(
    title: str,
    body: str,
    env: Mapping[str, str],
    *,
    bell: bool,
    desktop: bool,
) -> str:
    """What to write to the terminal to tell the player ``title``: ``body``
    (empty: nothing, both being off)."""
    out = BEL if bell else ""
    if desktop:
        wrap = through_tmux if in_tmux(env) else (lambda sequence: sequence)
        out += "".join(wrap(notification(title, body, p)) for p in desktop_protocols(env))
    return out
