"""A turn's many choices in groups (rules/choices.py, tui/lines/choices.py):
every legal move keeps a number, every prompt lists its choices or says how
to hear them in a dozen lines at most, and words of a move pick it out."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.events import fill_names
from rules.registry import get_game, shipped
from tui.lines.cards import card_name
from tui.lines.choices import PROMPT_LINES, TurnChoices

from .pty_driver import listed_numbers


def turns(game: str, preset: str | None, plies: int = 30) -> list[tuple[Any, Any, Any, list[str]]]:
    """(spec, config, view, legal moves) at each ply of a random game."""
    spec = get_game(game)
    config = spec.config(preset)
    state = spec.new(config, 11)
    rng = random.Random(11)
    found = []
    for _ in range(plies):
        if state.is_over:
            break
        seat = state.to_act()[0]
        legal = state.legal_moves(seat)
        found.append((spec, config, state.view(seat), [str(m) for m in legal]))
        state.play(seat, rng.choice(legal))
    return found


def choices_of(spec: Any, config: Any, view: Any, legal: list[str]) -> TurnChoices:
    groups = spec.choice_groups(config, legal, view)
    return TurnChoices(
        legal,
        groups,
        lambda m: spec.move_words_seen(config, m, view),
        lambda text: fill_names(text, ["You", "Computer", "Ann", "Bo"], {0}),
    )


CASES = [(g, p) for g in shipped() for p in get_game(g).presets]


@pytest.mark.parametrize(("game", "preset"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_every_move_keeps_a_number_and_every_prompt_lists_its_choices(
    game: str, preset: str
) -> None:
    # Stress swaps for its first dozen moves: its plays come later
    for spec, config, view, legal in turns(game, preset, 120 if game == "stress" else 30):
        turn = choices_of(spec, config, view, legal)
        assert sorted(turn.moves) == sorted(legal)  # each move once, numbered
        grouped = [m for g in turn.groups for m in g.moves] or legal
        assert len(grouped) == len(set(grouped)) == turn.listed
        said = {turn.words(m) for m in grouped}
        for move in set(legal) - set(grouped):  # left out: said like a listed move
            assert turn.words(move) in said, move
        lines = turn.prompt_lines()
        prompt = "\n".join(lines)
        assert listed_numbers(prompt) == set(range(1, turn.listed + 1)), prompt
        assert "{p" not in prompt and "\x1b" not in prompt
        if turn.grouped:
            assert len(lines) <= max(PROMPT_LINES, len(turn.groups)), prompt
            for group in turn.groups:  # "9s" would be heard as the 9 of spades
                for word in group.title.split(" "):
                    if card_name(word.strip(".,:;()")) is not None:
                        assert word in " ".join(group.moves), group.title
            every = "\n".join(turn.all_lines())
            for n in range(1, turn.listed + 1):
                assert f" {n} for " in every or f"\n{n}: " in f"\n{every}", (n, every)


def test_many_choices_are_grouped_and_few_are_not() -> None:
    biggest = {
        game: max(turns(game, None), key=lambda t: len(t[3]))
        for game in ("territory", "trick", "domination")
    }
    territory = choices_of(*biggest["territory"])
    assert territory.grouped and territory.groups[0].name == "explore"
    trick = choices_of(*biggest["trick"])
    assert [g.name for g in trick.groups] == ["one", "score", "grow", "claim", "steal"]
    assert trick.prompt_lines()[1].startswith("Score and: 12 for Grow, 13 for Claim,")
    assert not choices_of(*biggest["domination"]).grouped


def test_words_of_a_move_pick_it_out() -> None:
    spec, config, view, legal = turns("trick", "standard", 1)[0]
    trick = choices_of(spec, config, view, legal)
    assert trick.matching("score claim") == ["score+claim"]  # exactly those words
    assert set(trick.matching("block claim")) == {"block:claim", "claim+block"}
    assert set(trick.matching("steal block score")) == {"steal+block:score", "score+block:steal"}
    assert trick.matching("steal") == ["steal"]  # not every move with a Steal
    assert trick.matching("fly") == []
    spec, config, view, legal = next(
        t for t in turns("territory", "standard") if any(m.startswith("explore") for m in t[3])
    )
    territory = choices_of(spec, config, view, legal)
    explore = next(m for m in legal if m.startswith("explore"))
    _, card, cell = explore.split(" ")
    value = card[:-1]
    # a value alone, without its suit; "at" and "a" between the words
    fits = territory.matching(f"{value} at {cell}")
    assert fits and all(cell in m and f" {value}" in m for m in fits)
    assert territory.matching(f"explore a {value} at {cell}")[0].startswith(f"explore {value}")
