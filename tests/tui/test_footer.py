"""The footer that fits 80 columns: which keys leave it, and in what order
(tui/widgets/footer.py), and when it is composed again."""

from __future__ import annotations

from typing import Any

from tui.games.trick import TrickScreen
from tui.table.screen import TableScreen
from tui.widgets.footer import PALETTE_WIDTH, key_width, keys_to_drop

# a network trick round at its fullest: Block picked, both items and Claim
# Priority open, and the chat key bound last
TRICK_ROUND = [
    ("pause", key_width("esc", "Menu")),
    ("rules", key_width("?", "Rules")),
    ("hint", key_width("h", "Hint")),
    ("score_history", key_width("s", "Scores")),
    ("pick", key_width("1-5", "Pick")),
    ("lock_in", key_width("⏎", "Lock in")),
    ("choose_target", key_width("t", "Target")),
    ("toggle_overload", key_width("o", "Overload")),
    ("toggle_reset", key_width("r", "Reset")),
    ("priority", key_width("p", "Priority")),
    ("clear", key_width("x", "Clear")),
    ("chat", key_width("^t", "Chat")),
]


def test_a_key_takes_its_text_a_space_and_a_margin() -> None:
    assert key_width("^t", "Chat") == len("^t Chat ")
    assert key_width("⏎", "Lock in") == len("⏎ Lock in ")


def test_nothing_leaves_a_footer_wide_enough() -> None:
    room = sum(w for _, w in TRICK_ROUND)
    assert keys_to_drop(TRICK_ROUND, TrickScreen.FOOTER_SPARE, room) == set()


def test_spare_keys_leave_in_order_and_no_more_than_needed() -> None:
    widths = dict(TRICK_ROUND)
    room = sum(widths.values()) - widths["clear"]  # one key too many
    assert keys_to_drop(TRICK_ROUND, TrickScreen.FOOTER_SPARE, room) == {"clear"}
    room -= 1  # now Clear alone is not enough: Scores goes next
    assert keys_to_drop(TRICK_ROUND, TrickScreen.FOOTER_SPARE, room) == {"clear", "score_history"}


def test_at_80_columns_the_fullest_trick_round_keeps_chat_and_the_moves() -> None:
    room = 80 - PALETTE_WIDTH
    dropped = keys_to_drop(TRICK_ROUND, TrickScreen.FOOTER_SPARE, room)
    kept = [(a, w) for a, w in TRICK_ROUND if a not in dropped]
    assert sum(w for _, w in kept) <= room
    assert {"chat", "pause", "pick", "lock_in", "choose_target", "priority"} <= dict(kept).keys()
    assert "rules" in dict(kept)  # N25: "? Rules" in every game's footer


def test_past_the_spare_keys_the_last_keys_leave_whole() -> None:
    # nothing spare is shown: the last key leaves, whole, rather than "^t Ch"
    keys = [("pause", 9), ("chat", 8)]
    assert keys_to_drop(keys, TableScreen.FOOTER_SPARE, 10) == {"chat"}
    assert keys_to_drop(keys, TableScreen.FOOTER_SPARE, 17) == set()
    # spare ones first, then from the end
    keys = [("pause", 9), ("rules", 8), ("play", 7), ("chat", 8)]
    assert keys_to_drop(keys, ("rules",), 24) == {"rules"}
    assert keys_to_drop(keys, ("rules",), 16) == {"rules", "chat"}


async def test_the_footer_is_composed_again_only_when_its_keys_change(
    dirs: Any, monkeypatch: Any
) -> None:
    # Textual recomposes a footer at every refresh of the bindings (each table
    # update, each change of focus): most change nothing it shows
    from tui.widgets.footer import FittingFooter

    from .conftest import make_app, play_launch, screen_text, settle

    composed: list[int] = []
    compose = FittingFooter.compose

    def counting(self: FittingFooter) -> Any:
        composed.append(1)
        return compose(self)

    monkeypatch.setattr(FittingFooter, "compose", counting)
    app = make_app(dirs, launch=play_launch(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        before = len(composed)
        for _ in range(5):
            screen.refresh_bindings()
            await settle(pilot)
        assert len(composed) == before  # the same keys: the same footer
        screen.number_keys = lambda: 3  # type: ignore[method-assign]  # a key's label changes
        screen.refresh_bindings()
        await settle(pilot)
        assert len(composed) == before + 1
        assert "1-3 Play" in screen_text(app).splitlines()[-1]
