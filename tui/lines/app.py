"""Line mode's home: a numbered menu for what the app's home screen offers
(a new game, resume, learn, join a network table, card words), and the
launches of the command line (``cardtable play GAME --lines`` and the rest).

Tables are opened exactly as the app opens them (tui/seating.py, net/local.py)
and saved in the same store: a game begun here resumes in the app, and the
other way round.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from net.client import TableClient
from rules.game import GameSpec
from rules.plain import plain
from rules.registry import CATALOGUE, get_game
from saves.errors import SaveError
from saves.store import SaveStore
from tui.save_words import result_words
from tui.seating import build_seats, coerce_options, kinds_from_vs, without_clocks
from tui.settings import config_dir_for, load_settings, save_settings

from .cards import CARD_WORDS, name_cards
from .io import EndOfInput, LineIO
from .menus import choose
from .table import TableSession

OPPONENTS = (
    ("the computer, easy", "computer:easy"),
    ("the computer, medium", "computer:medium"),
    ("the computer, hard", "computer:hard"),
    ("another person here (hot-seat: you take turns at this keyboard)", "human"),
)
CARD_WORD_LABELS = {
    "words": "words, like 4 of spades",
    "letters": "letters, like 4S",
    "symbols": "suit symbols, like 4♠",
}


class LineApp:
    """One sitting of line mode: its store, settings, card words and threads."""

    def __init__(
        self,
        data_dir: Path | None,
        cards: str | None,
        io: LineIO | None = None,
        config_dir: Path | None = None,
    ) -> None:
        self.io = io or LineIO()
        self.store = SaveStore.default(data_dir)
        # --config-dir, else --data-dir's folder: a run kept apart never reads
        # nor writes the player's own settings and name secrets (N26)
        self.config_dir = config_dir_for(data_dir, config_dir)
        self.settings, notice = load_settings(self.config_dir)
        if notice:
            self.io.say(notice)
        self.cards = cards or self.settings.line_cards
        self.threads: ThreadPoolExecutor | None = None

    # ------------------------------------------------------------ running
    async def run(self, launch: dict[str, Any] | None) -> int:
        try:
            if launch is None:
                await self.home()
            else:
                await self.launch(launch)
        except EndOfInput:
            self.io.say("End of input.")
        finally:
            if self.threads is not None:
                self.threads.shutdown(wait=False, cancel_futures=True)
        return 0

    async def launch(self, launch: dict[str, Any]) -> None:
        action = launch.get("action")
        if action == "play":
            await self.play_launch(launch)
        elif action == "resume":
            await self.resume(launch.get("id"))
        elif action == "learn":
            from .lesson import learn

            await learn(self, launch.get("game"))
        elif action == "join":
            from .lobby import join

            await join(self, str(launch.get("address") or ""))

    def table_options(self) -> dict[str, Any]:
        """Computers answer at once: there is no drawing to follow in lines,
        and the next line says what they did (docs/lines.md)."""
        if self.threads is None:
            from net.thinkers import thread_pool

            self.threads = thread_pool()
        return {"pace": 0.0, "executor": self.threads}

    # ------------------------------------------------------------ home
    async def home(self) -> None:
        self.io.say("cardtable, line mode. Type a number and Enter; help at any table.")
        while True:
            choice = await choose(
                self.io,
                "Home.",
                [
                    "play a new game",
                    "resume a saved game",
                    "learn a game (a guided first game)",
                    "join a table on the network",
                    f"card words (now {CARD_WORD_LABELS.get(self.cards, self.cards)})",
                ],
                back="quit",
            )
            if choice is None:
                self.io.say("Goodbye.")
                return
            if choice == 0:
                await self.new_game()
            elif choice == 1:
                await self.resume_menu()
            elif choice == 2:
                from .lesson import learn

                await learn(self, None)
            elif choice == 3:
                from .lobby import join

                await join(self, "")
            else:
                await self.card_words_menu()

    async def card_words_menu(self) -> None:
        choice = await choose(self.io, "Name cards in:", [CARD_WORD_LABELS[c] for c in CARD_WORDS])
        if choice is None:
            return
        self.cards = CARD_WORDS[choice]
        self.settings = self.settings.with_changes(line_cards=self.cards)
        try:
            save_settings(self.config_dir, self.settings)
        except OSError as err:
            self.io.say(f"Not saved for next time: {plain(err.strerror or err, 200)}.")
        self.io.say(name_cards("Cards are now named like this: 4S, QH.", self.cards))

    # ------------------------------------------------------------ new games
    async def new_game(self) -> None:
        ids = list(CATALOGUE)
        specs = [get_game(i) for i in ids]
        choice = await choose(
            self.io, "Which game?", [f"{s.title}: {plain(s.summary, 200)}" for s in specs]
        )
        if choice is None:
            return
        spec = specs[choice]
        preset = await self.choose_preset(spec)
        if preset is False:
            return
        vs = await choose(self.io, "Play against:", [label for label, _ in OPPONENTS])
        if vs is None:
            return
        launch: dict[str, Any] = {
            "game": spec.id,
            "preset": preset,
            "vs": OPPONENTS[vs][1],
            "options": {},
        }
        await self.play_launch(launch)

    async def choose_preset(self, spec: GameSpec[Any, Any]) -> str | bool | None:
        """A preset's name, None for the usual rules, False to go back."""
        presets = list(spec.presets)
        if len(presets) == 1:
            return None
        labels = [
            f"{name}: {plain(spec.preset_labels.get(name, ''), 200)}".rstrip(": ")
            for name in presets
        ]
        choice = await choose(self.io, f"{spec.title}: which rules?", labels)
        if choice is None:
            return False
        return None if choice == 0 else presets[choice]

    async def play_launch(self, launch: dict[str, Any]) -> None:
        """A new game as the app's ``start_from_launch`` opens it."""
        from net.local import open_table

        spec = get_game(str(launch.get("game")))
        options = coerce_options(spec, dict(launch.get("options") or {}))
        preset = launch.get("preset")
        players = spec.config(preset, **options).players
        kinds = kinds_from_vs(str(launch.get("vs") or "computer:medium"), players)
        config = spec.config(preset, **{**without_clocks(spec, preset, kinds), **options})
        seats, mine = build_seats(kinds, spec.seat_names(config))
        client = open_table(
            self.store,
            spec.id,
            config,
            seats,
            mine,
            seed=launch.get("seed"),
            preset=preset,
            **self.table_options(),
        )
        await self.play(client, new=True)

    async def play(self, client: TableClient, new: bool = False) -> None:
        """Play at ``client``'s table; once a game is over, a rematch or home."""
        while True:
            session = TableSession(client, self.io, self.cards, new=new)
            try:
                outcome = await session.run()
            except EndOfInput:
                await session.close()
                raise
            if outcome != "over":
                return
            again = await choose(self.io, "What next?", ["rematch"], back="home")
            if again is None:
                await session.close()
                return
            client = await client.rematch()
            new = True

    # ------------------------------------------------------------ resume
    async def resume_menu(self) -> None:
        entries = [
            e for e in self.store.list() if e.record is not None and e.record.status == "playing"
        ]
        if not entries:
            self.io.say("There is no unfinished game to resume.")
            return
        labels = []
        for e in entries[:20]:
            r = e.record
            assert r is not None
            names = " vs ".join(plain(s.name, 20) for s in r.seats)
            labels.append(
                f"{get_game(r.game).title}, {names}, {len(r.moves)} moves, "
                f"{result_words(r)} (id {r.id})"
            )
        choice = await choose(self.io, "Resume which game (last played first)?", labels)
        if choice is not None:
            await self.resume(entries[choice].id)

    async def resume(self, record_id: str | None) -> None:
        from net.local import resume_table

        if record_id is None:
            playing = [
                e
                for e in self.store.list()
                if e.record is not None and e.record.status == "playing"
            ]
            playing.sort(key=lambda e: e.last_played, reverse=True)
            if not playing:
                self.io.say("There is no unfinished game to resume.")
                return
            record_id = playing[0].id
        try:
            client = resume_table(self.store, record_id, **self.table_options())
        except SaveError as err:
            self.io.say(f"Cannot resume it: {plain(err, 300)}")
            return
        self.io.say(f"Resuming game {record_id}.")
        await self.play(client)


def run_lines(
    data_dir: Path | None,
    cards: str | None,
    launch: dict[str, Any] | None,
    config_dir: Path | None = None,
) -> int:
    """Line mode, for the command line: the exit code."""
    return asyncio.run(LineApp(data_dir, cards, config_dir=config_dir).run(launch))


__all__ = ["LineApp", "run_lines"]
