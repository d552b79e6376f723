"""After a game: the player's own moves through the search engine, costliest
first, in the game's words and its own unit ("Round 5, card 3"). Each moment
opens the replay at that position (before the move), seen by the player.

The engine sees, at each decision, only what the seat had seen then
(``rules.bots.review``), and judges it as the hint did (``rules.bots.advice``:
the hard computer's search, its budget, seeded by the position), so a move
the hint called best is never a mistake here; a cost within the judge's
error is not listed. It runs in a thread, with progress shown.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.bots.review import SHOWN, mistakes, moment_words, review
from rules.bots.search import engine_for
from saves.errors import SaveError
from tui.plain import plain, plain_text
from tui.screens.replay import open_replay
from tui.styles import LISTS
from tui.widgets.cards import CardStyle, card_style_of
from tui.widgets.event_log import display_text
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from rules.bots.review import Moment
    from saves.record import GameRecord
    from tui.table.side import EndingSide
    from tui.textual_seams import CSSPathType


def moment_text(
    moment: Moment,
    style: CardStyle,
    to_points: Callable[[float], float] | None = None,
    words: Callable[[str], str] = str,
    label: str = "",
) -> str:
    """One costly moment in words (``rules.bots.review.moment_words``), its
    cards drawn in the screen's card style."""
    return moment_words(moment, lambda move: display_text(words(move), style), label, to_points)


def moments_summary(
    moments: list[Moment],
    style: CardStyle,
    to_points: Callable[[float], float] | None = None,
    words: Callable[[str], str] = str,
    labels: Mapping[int, str] | None = None,
    words_at: Mapping[int, Callable[[str], str]] | None = None,
) -> list[str]:
    """The lines of the list, costliest first; a sentence if nothing cost
    anything. ``labels``: each moment's ``turn_label``, by its ply;
    ``words_at``: each moment's words where they depend on the table then
    (:func:`words_seen`), else ``words``."""
    costly = mistakes(moments, SHOWN)
    if not costly:
        return ["The engine found no move of yours it would have changed."]
    labels = labels or {}
    words_at = words_at or {}
    return [
        moment_text(m, style, to_points, words_at.get(m.ply, words), labels.get(m.ply, ""))
        for m in costly
    ]


def words_seen(
    record: GameRecord, plies: Collection[int], seat: int
) -> dict[int, Callable[[str], str]]:
    """The moves' words as ``seat`` read the table before each move in
    ``plies`` (``GameSpec.move_words_seen``: the card a move takes, as the
    hint and the move list name it, "conquer 9| at 2,1 with a 9"), by
    replaying the record once."""
    spec, config = record.spec(), record.game_config()
    state = spec.new(config, record.seed, record.deck_order)
    found: dict[int, Callable[[str], str]] = {}
    last = max(plies, default=-1)
    for ply, (mover, text) in enumerate(record.moves[: last + 1]):
        if ply in plies:
            found[ply] = functools.partial(spec.move_words_seen, config, view=state.view(seat))
        state.play_text(mover, text)
    return found


def turn_labels(record: GameRecord, plies: Collection[int]) -> dict[int, str]:
    """The game's own label (``GameSpec.turn_label``) of the moment before
    each move in ``plies``, by replaying the record once."""
    spec = record.spec()
    state = spec.new(record.game_config(), record.seed, record.deck_order)
    labels: dict[int, str] = {}
    last = max(plies, default=-1)
    for ply, (seat, text) in enumerate(record.moves[: last + 1]):
        if ply in plies:
            labels[ply] = spec.turn_label(state, ply)
        state.play_text(seat, text)
    return labels


class AnalysisScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [LISTS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", key_display="esc", id="analysis.close"),
    ]

    def __init__(self, record: GameRecord, seat: int) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.moments: list[Moment] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="analysis-head", classes="caption")
        yield OptionList(id="moments")
        yield FittingFooter()

    def on_mount(self) -> None:
        name = plain(self.record.seats[self.seat].name, 40)
        self.sub_title = f"analysis: {name}"
        self._head(f"Going through {name}'s moves with the engine…")
        self.run_worker(self._review, thread=True, group="analysis", exit_on_error=False)

    def _head(self, text: str) -> None:
        self.query_one("#analysis-head", Static).update(plain_text(text, None))

    def _review(self) -> None:
        record = self.record

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._head, f"Analysing move {done + 1} of {total}…")

        try:
            spec = record.spec()
            found = review(
                spec,
                record.game_config(),
                record.seed,
                record.moves,
                self.seat,
                None,  # the hint's judgement: the hard level's budget
                record.deck_order,
                progress,
            )
            plies = [m.ply for m in mistakes(found, SHOWN)]
            labels = turn_labels(record, plies)
            seen = words_seen(record, plies, self.seat)
        except Exception as err:  # a record that no longer replays, an engine bug
            self.app.call_from_thread(self._head, f"No analysis: {err}")
            return
        self.app.call_from_thread(self._show, found, labels, seen)

    def _show(
        self,
        moments: list[Moment],
        labels: Mapping[int, str],
        seen: Mapping[int, Callable[[str], str]],
    ) -> None:
        self.moments = mistakes(moments, SHOWN)
        adapter, _ = engine_for(self.record.game)
        to_points = adapter.points if adapter.value_kind == "points" else None
        spec, config = self.record.spec(), self.record.game_config()
        words = functools.partial(spec.move_words, config)
        lines = moments_summary(moments, card_style_of(self.app), to_points, words, labels, seen)
        listing = self.query_one("#moments", OptionList)
        listing.clear_options()
        listing.add_options(
            [Option(plain_text(line, None), id=str(i)) for i, line in enumerate(lines)]
        )
        listing.highlighted = 0
        listing.focus()
        self._head(
            "Your costliest moves, as the engine sees them: Enter replays from there."
            if self.moments
            else "Nothing to regret."
        )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        if index < len(self.moments):
            ply = self.moments[index].ply
            open_replay(self.app, self.record, start=ply, seat=self.seat)

    def action_close(self) -> None:
        self.dismiss()


async def analyse(game: EndingSide) -> None:
    """The analysis of the game on ``game``'s screen, for the seat it shows
    (the first person's, to a spectator): a game whose record this app keeps,
    local play."""
    if game.client.connection is not None:
        game.set_status(
            "No analysis: the server keeps this game, and analysis needs its record here.",
            problem=True,
        )
        return
    seat = game.seat if game.seat is not None else (game.people or (None,))[0]
    store = game.services.store
    await game.client.idle()  # the last move's save is behind it
    if seat is None:
        game.set_status("Only a player's own games can be analysed.", problem=True)
        return
    try:
        record = store.load(game.client.record_id)
    except SaveError as err:
        game.set_status(f"No analysis: {err}", problem=True)
        return
    game.app.push_screen(AnalysisScreen(record, seat))
