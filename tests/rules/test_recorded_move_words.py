"""Every game names a move it cannot read (one of another game's, or
garbage from a file) without raising: the words of a record's moves are
read from files (`cardtable saves show`, H5)."""

from __future__ import annotations

from rules.registry import get_game, shipped

CATALOGUE = shipped()

FOREIGN = ["explore 6S 0,-1", "play 5S 5H", "score+block:claim", "resign", "", "@@@", "9" * 50]


def test_every_game_names_a_move_it_cannot_read() -> None:
    for spec in map(get_game, shipped()):
        config = spec.config()
        for move in FOREIGN:
            words = spec.words_of_recorded_move(config, move)
            assert isinstance(words, str) and words, (spec.id, move)
        assert spec.words_of_recorded_move(config, "@@@") == f"(not a {spec.title} move)"
