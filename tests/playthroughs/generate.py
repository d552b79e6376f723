"""Golden playthroughs: one game per registered game and preset, move by move.

Like OpenSpiel's integration_tests/playthroughs: each file lists, before every
move, the position text, the spectator's view, what each seat's view adds to
it or changes, the legal moves of each seat to act, and then the move played.
A change to the rules, the notation, the views or the position texts shows up
as a diff (test_playthroughs.py regenerates every file and compares), and a
seat's view that shows what it should not is there to be read.

Deterministic: the game's seed and the chooser's seed are fixed, and the
chooser picks a seat among those to act and one of its legal moves with
``random.Random`` (never resigning). Files stay small: a game past
``HEAD_MOVES + TAIL_MOVES`` moves shows its first ``HEAD_MOVES`` and its last
``TAIL_MOVES``, and the positions between are left out (said so in the file).

Regenerate after an intended change, and read the diff before committing::

    uv run python -m tests.playthroughs.generate
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import tests.conftest  # noqa: F401  (registers the toy game, as pytest does)
from rules.game import GameSpec, GameState
from rules.registry import games

HERE = Path(__file__).resolve().parent
SEED = 20261124
CHOOSER_SEED = 7
HEAD_MOVES = 10
TAIL_MOVES = 2
SUFFIX = ".txt"

AnyState = GameState[Any, Any]


def cases() -> list[tuple[str, str]]:
    """Every registered game and preset, in a fixed order."""
    return [(gid, preset) for gid, spec in sorted(games().items()) for preset in spec.presets]


def file_name(game_id: str, preset: str) -> str:
    return f"{game_id}-{preset}{SUFFIX}"


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _position_block(state: AnyState, spec: GameSpec[Any, Any]) -> list[str]:
    lines = [f"## after {state.ply} moves"]
    lines += ["position:", *(f"  {line}" for line in state.position_text().splitlines())]
    spectator = state.view(None).to_json()
    lines.append(f"view spectator: {_json(spectator)}")
    for seat in range(state.config.players):
        view = state.view(seat).to_json()
        changed = {k: v for k, v in view.items() if spectator.get(k, ...) != v}
        gone = sorted(k for k in spectator if k not in view)
        text = _json(changed) + (f" without {' '.join(gone)}" if gone else "")
        lines.append(f"view {seat} (beside the spectator's): {text}")
    for seat in state.to_act():
        moves = [str(m) for m in state.legal_moves(seat)]
        lines.append(f"legal {seat} ({len(moves)}): {' '.join(moves)}")
    return lines


def playthrough(game_id: str, preset: str) -> str:
    """The playthrough file's text for ``game_id`` and ``preset``."""
    spec = games()[game_id]
    config = spec.config(preset)
    state = spec.new(config, SEED)
    chooser = random.Random(CHOOSER_SEED)
    bound = spec.max_moves(config)
    played: list[tuple[int, str, list[str]]] = []  # seat, move, the position before it
    while not state.is_over:
        assert state.ply < bound, f"{game_id}/{preset} passed its bound of {bound} moves"
        block = _position_block(state, spec) if state.ply < HEAD_MOVES else []
        seat = chooser.choice(state.to_act())
        move = chooser.choice(state.legal_moves(seat))
        played.append((seat, str(move), block))
        state.play(seat, move)
    total = len(played)
    lines = [
        f"# {spec.title}: a playthrough (tests/playthroughs/generate.py)",
        f"game: {game_id}",
        f"preset: {preset}",
        f"config: {_json(config.to_dict())}",
        f"seed: {SEED}",
        f"chooser seed: {CHOOSER_SEED}",
        f"moves: {total}",
        f"record: {_json([[s, m] for s, m, _ in played])}",
        "",
    ]
    tail_start = max(HEAD_MOVES, total - TAIL_MOVES)
    if total > HEAD_MOVES:
        # the tail's positions: replay to them (the head's were kept on the way)
        again = spec.new(config, SEED)
        for i, (seat, move, _) in enumerate(played):
            if i >= tail_start:
                played[i] = (seat, move, _position_block(again, spec))
            again.play_text(seat, move)
    for i, (seat, move, block) in enumerate(played):
        if i == HEAD_MOVES and tail_start > HEAD_MOVES:
            lines += [f"# moves {HEAD_MOVES + 1} to {tail_start} are left out", ""]
        if block:
            lines += [*block, f"play {seat}: {move}", ""]
    lines += _position_block(state, spec)
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"outcome: {_json(outcome.to_json())}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write every playthrough file (and remove those of presets now gone)."""
    wanted = {file_name(g, p): (g, p) for g, p in cases()}
    for stale in sorted(HERE.glob(f"*{SUFFIX}")):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed {stale.name}")
    for name, (game_id, preset) in wanted.items():
        path = HERE / name
        text = playthrough(game_id, preset)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {name} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
