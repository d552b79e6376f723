"""The game contract, checked on every registered game, preset and player count.

Nothing here names a game: a game added to rules/registry.py is picked up with
all its presets. The heart is :func:`test_random_games_keep_the_contract`,
which plays random games (hypothesis picks the seeds) and checks the contract
after every move (see ``ContractRun`` in contract_helpers.py for the list).
Set ``CARDTABLE_CONTRACT_EXAMPLES`` to play more games per case (default 1, for
the default run's time; CI plays 30 in a separate step) and
``CARDTABLE_CONTRACT_GAME_CHECKS`` to check more of each game in full (default
300; CI's separate step 600; see ``full_check_budget``).

Random players end most games in a few dozen moves (the longest, 8-seat toy
games, in about 60), but not every game: in a shedding game they keep picking
the stack up, and only a cap of thousands of moves ends it. So a game is
checked in full for its first ``GAME_CHECKS`` seat-positions (a position is
checked once per seat and once for the spectator: by default two seats get 100
moves, eight seats 33); past that it is played to its end with the turns checked at
every move and everything at every 250th (``SPOT_CHECK``), the end and the
replay checked as ever, and the case's further games get a share of the
budget (``full_check_budget``), each still played and checked. For the same
reason, determinized playouts stop after ``PLAYOUT_MOVES`` moves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rules.cards import CardTextError, card_text, parse_card
from rules.errors import MoveError, NotationError, UnknownGame
from rules.events import EventData, EventError, SeatEvent
from rules.position import PositionError
from rules.registry import games, get_game
from tests.rules.contract_helpers import (
    AnyState,
    Case,
    ContractRun,
    check_advance_matches_play,
    check_determinized_playouts,
    config_for_players,
    contract_cases,
    first_preset_cases,
    json_roundtrip,
    perft,
    scripted_game,
)

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("CARDTABLE_CONTRACT_EXAMPLES", "1"))
GAME_CHECKS = int(os.environ.get("CARDTABLE_CONTRACT_GAME_CHECKS", "300"))
PLAYOUT_MOVES = 100
MIN_FULL_CHECKS = 10

# Deterministic in CI: the same examples every run, nothing remembered between runs.
# No shrinking: a seed is no simpler for being smaller, and each example is a game.
NO_SHRINK = (Phase.explicit, Phase.generate)
CONTRACT_SETTINGS = settings(
    max_examples=EXAMPLES,
    phases=NO_SHRINK,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CASES = contract_cases()
GAME_IDS = sorted(games())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# ------------------------------------------------------------------- the specs
def test_registry_knows_every_game_by_its_id() -> None:
    assert GAME_IDS, "no game is registered"
    for game_id, spec in games().items():
        assert spec.id == game_id
        assert get_game(game_id) is spec
        assert spec.state_type.spec is spec
    with pytest.raises(UnknownGame) as err:
        get_game("no-such-game")
    assert "no-such-game" in str(err.value) and GAME_IDS[0] in str(err.value)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spec_describes_its_game(game_id: str) -> None:
    spec = get_game(game_id)
    assert spec.title.strip() and spec.summary.strip() and "\n" not in spec.summary
    assert 1 <= spec.min_players <= spec.max_players
    assert spec.presets, "a game needs at least one preset"
    first = next(iter(spec.presets))
    assert spec.config() == spec.config(first), "the first preset is the default"
    for info in spec.Config.options():
        assert info.help.strip(), f"option {info.name} has no help text"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_event_types_are_plain_structs_a_schema_generator_takes(game_id: str) -> None:
    spec = get_game(game_id)
    declared = spec.all_event_types()
    assert {"resign", "timeout"} <= declared.keys()
    for kind, data_type in declared.items():
        assert issubclass(data_type, EventData), kind
        assert (data_type.__doc__ or "").strip(), f"{kind}: say what the event means"
        schema = msgspec.json.schema(data_type)
        assert schema["$defs"][data_type.__name__]["type"] == "object", kind


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_malformed_event_fails_at_the_boundary_in_one_line(game_id: str) -> None:
    spec = get_game(game_id)
    good = {"kind": "timeout", "text": "{p0} ran out of time.", "data": {"seat": 0}}
    assert spec.read_event(good).data == SeatEvent(seat=0)
    bad: list[object] = [
        {**good, "data": {"seat": "zero"}},  # a field of the wrong type
        {**good, "data": {}},  # a field missing
        {**good, "data": None},
        {**good, "kind": "no_such_kind"},
        {**good, "text": 7},
        {"kind": "timeout"},
        ["timeout"],
    ]
    for data in bad:
        with pytest.raises(EventError) as err:
            spec.read_event(data)
        assert str(err.value).strip() and "\n" not in str(err.value), data


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_preset_is_a_valid_config_that_survives_json(game_id: str) -> None:
    spec = get_game(game_id)
    for preset in spec.presets:
        cfg = spec.config(preset)
        data = cfg.to_dict()
        json_roundtrip(data, f"config {preset}")
        assert type(cfg).from_dict(json.loads(json.dumps(data))) == cfg
        assert spec.max_moves(cfg) > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_configs_are_refused_with_a_sentence(game_id: str) -> None:
    spec = get_game(game_id)
    attempts: list[dict[str, Any]] = [
        {"players": spec.max_players + 1},
        {"players": spec.min_players - 1},
        {"no_such_option": 1},
        {"players": "two"},
    ]
    for overrides in attempts:
        with pytest.raises(ValueError) as err:
            spec.config(**overrides)
        message = str(err.value)
        assert message.strip() and "\n" not in message, overrides
    with pytest.raises(ValueError):
        spec.config("no-such-preset")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_player_count_in_the_range_can_be_seated(game_id: str) -> None:
    spec = get_game(game_id)
    for n in range(spec.min_players, spec.max_players + 1):
        found = [p for p in spec.presets if config_for_players(spec, p, n) is not None]
        assert found, f"{game_id} claims {n} players but no preset can seat them"


# ----------------------------------------------------------- random play
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@CONTRACT_SETTINGS
@given(seed=SEEDS, chooser_seed=SEEDS)
def test_random_games_keep_the_contract(case: Case, seed: int, chooser_seed: int) -> None:
    run = ContractRun(case, seed, chooser_seed, full_checks=full_check_budget(case))
    run.run()
    assert run.fully_checked >= min(len(run.record), MIN_FULL_CHECKS)
    if run.fully_checked < len(run.record):
        _ran_long.add(case.id)


def full_check_budget(case: Case) -> int:
    """Moves checked in full in the next game of ``case``: ``GAME_CHECKS``
    seat-positions; once a game of the case has run past that (random players
    keep picking up the stack of a shedding game), a share of it, so that each
    further example still plays and checks a whole game (every move's turns,
    every ``SPOT_CHECK``-th move in full, the end and the replay) while the
    case costs about what one long game does. Deterministic: the examples come
    in the same order every run."""
    budget = GAME_CHECKS // (case.players + 1)
    if case.id in _ran_long:
        budget = max(MIN_FULL_CHECKS, budget // EXAMPLES)
    return budget


# the checks beside the full contract run: fewer games, the same seeds every run
SIDE_CHECK_SETTINGS = settings(
    max_examples=max(2, EXAMPLES // 3),
    phases=NO_SHRINK,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
_ran_long: set[str] = set()  # cases that have had a game longer than its full checks


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@SIDE_CHECK_SETTINGS
@given(seed=SEEDS, chooser_seed=SEEDS)
def test_determinized_states_are_playable(case: Case, seed: int, chooser_seed: int) -> None:
    """What a bot searches: a determinized state must be one the rules could
    reach, so that a playout from it never meets a seat without a move."""
    check_determinized_playouts(case, seed, chooser_seed, positions=4, playout_moves=PLAYOUT_MOVES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@SIDE_CHECK_SETTINGS
@given(seed=SEEDS, chooser_seed=SEEDS)
def test_advance_reaches_the_states_play_reaches(case: Case, seed: int, chooser_seed: int) -> None:
    """The bots search with ``advance``: it must play the game ``play`` plays."""
    assert check_advance_matches_play(case, seed, chooser_seed) > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(text=st.text(max_size=40) | st.from_regex(r"[0-9AJQKTNaSHDCshdc :,+xX-]{1,12}"))
def test_parse_move_reads_its_own_notation_and_refuses_the_rest(game_id: str, text: str) -> None:
    spec = get_game(game_id)
    try:
        move = spec.parse_move(text)
    except NotationError as err:
        assert str(err).strip()
        return
    assert spec.parse_move(str(move)) == move


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_notation_errors_stay_on_one_line(game_id: str) -> None:
    """A message quotes what was typed; a line break typed (or sent over the
    wire) must not break the message (rules.errors.shown_input helps)."""
    spec = get_game(game_id)
    for text in ("a\nb", "x\r\ny", "\u2028zz", "q" * 500 + "\n"):
        try:
            spec.parse_move(text)
        except NotationError as err:
            message = str(err)
            assert len(message.splitlines()) == 1, f"{text!r} gives {message!r}"


@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(
    text=st.text(max_size=6)
    | st.builds(
        "".join,
        st.lists(st.sampled_from(["1", "0", "10", "A", "T", "K", "\u00b2", "\u0663", "+", " "])),
    ).map(lambda head: head + "H")
)
def test_card_text_reads_back_or_says_what_a_card_looks_like(text: str) -> None:
    """Every game's notation builds on rules.cards: bad card text must be a
    one-line CardTextError, never another exception."""
    try:
        card = parse_card(text)
    except CardTextError as err:
        assert len(str(err).splitlines()) == 1
        return
    assert parse_card(card_text(card)) == card


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_play_text_fails_on_bad_notation_as_parse_move_does(game_id: str) -> None:
    spec = get_game(game_id)
    state = spec.new(spec.config(), 1)
    seat = state.to_act()[0]
    before = state.snapshot()
    with pytest.raises(NotationError) as err:
        state.play_text(seat, "this is no move")
    assert "this is no move" in str(err.value), "the message should quote the text"
    with pytest.raises(NotationError):
        spec.parse_move("this is no move")
    assert state.snapshot() == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("thing", [None, 7, b"resign", ["10H"], {"move": "x"}])
def test_moves_that_are_not_text_are_notation_errors(game_id: str, thing: object) -> None:
    spec = get_game(game_id)
    state = spec.new(spec.config(), 1)
    with pytest.raises(NotationError):
        spec.parse_move(thing)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        state.play_text(state.to_act()[0], thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_record_that_ends_in_a_resignation_replays_to_the_same_outcome(game_id: str) -> None:
    spec = get_game(game_id)
    cfg = spec.config()
    state = spec.new(cfg, 5)
    record: list[tuple[int, str]] = []
    for _ in range(3):
        seat = state.to_act()[0]
        move = str(state.legal_moves(seat)[0])
        state.play_text(seat, move)
        record.append((seat, move))
    quitter = cfg.players - 1
    state.play_text(quitter, "resign")
    record.append((quitter, "resign"))
    again = spec.replay(cfg, 5, record)
    assert again.snapshot() == state.snapshot()
    if cfg.players == 2:
        outcome = again.outcome()
        assert again.is_over and outcome is not None
        assert outcome.winner == 1 - quitter and outcome.ranking[-1] == (quitter,)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_replay_rejects_a_bad_record_with_its_move_number(game_id: str) -> None:
    spec = get_game(game_id)
    cfg = spec.config()
    state = spec.new(cfg, 3)
    seat = state.to_act()[0]
    first = str(state.legal_moves(seat)[0])
    with pytest.raises(MoveError) as err:
        spec.replay(cfg, 3, [(seat, first), (seat, "this is no move")])
    assert "move 2" in str(err.value)


# --------------------------------------------------------- position texts
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_parse_position_refuses_what_is_no_position(game_id: str) -> None:
    """The round trip is checked at every position of the random games; here,
    text that is no position is refused with a one-line PositionError."""
    spec = get_game(game_id)
    cfg = spec.config()
    text = spec.new(cfg, 3).position_text()
    lines = text.splitlines()
    ply = next(i for i, line in enumerate(lines) if line.startswith("ply:"))
    attempts = {
        "empty": "",
        "another game": "\n".join(["no-such-game", *lines[1:]]),
        "a field missing": "\n".join(lines[:ply] + lines[ply + 1 :]),
        "a field twice": "\n".join([lines[0], lines[ply], *lines[1:]]),
        "no such field": "\n".join([lines[0], "colour: blue", *lines[1:]]),
        "a bad number": text.replace(lines[ply], "ply: many"),
        "a bad generator": text.replace("\nrng: ", "\nrng: x", 1),
    }
    for what, attempt in attempts.items():
        with pytest.raises(PositionError) as err:
            spec.parse_position(cfg, attempt)
        message = str(err.value)
        assert message.strip() and len(message.splitlines()) == 1, f"{what}: {message!r}"
    assert spec.parse_position(cfg, text).position_text() == text


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    line=st.integers(min_value=1, max_value=40),
    value=st.text(max_size=12) | st.from_regex(r"[0-9AJQKSHDC ,:+/*_|.-]{1,16}"),
)
def test_parse_position_reads_or_refuses_an_edited_field(
    game_id: str, line: int, value: str
) -> None:
    """A position text with one field's value changed is read (and then writes
    itself back) or refused with a PositionError; nothing else escapes."""
    spec = get_game(game_id)
    cfg = spec.config()
    lines = spec.new(cfg, 3).position_text().splitlines()
    index = line % (len(lines) - 1) + 1
    key = lines[index].partition(":")[0]
    lines[index] = f"{key}: {value}"
    try:
        state = spec.parse_position(cfg, "\n".join(lines))
    except PositionError as err:
        assert str(err).strip()
        return
    text = state.position_text()
    assert spec.parse_position(cfg, text).position_text() == text


# ------------------------------------------------------------- determinism
_CROSS_PROCESS = """
import json, sys
import tests.conftest  # registers the toy game, as pytest does
from tests.rules.contract_helpers import Case, scripted_game
out = {}
for game_id, preset, players in json.loads(sys.argv[1]):
    record, snapshot = scripted_game(Case(game_id, preset, players), 20240601, 77)
    out[f"{game_id}/{preset}"] = [record, snapshot]
print(json.dumps(out, sort_keys=True))
"""


def test_a_record_replays_the_same_in_another_process() -> None:
    """Saves are resumed by another process: the deal, the bots' chances and the
    snapshot must not depend on hash seeds or memory addresses."""
    cases = first_preset_cases()
    arg = json.dumps([[c.game_id, c.preset, c.players] for c in cases])
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _CROSS_PROCESS, arg],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
    here = {}
    for case in cases:
        record, snapshot = scripted_game(case, 20240601, 77)
        here[f"{case.game_id}/{case.preset}"] = [record, snapshot]
    here = json.loads(json.dumps(here, sort_keys=True))
    problems = []
    for key in here:
        first, second = outputs[0][key], outputs[1][key]
        if not first[0] == second[0] == here[key][0]:
            problems.append(f"{key}: the same seeds played differently")
            continue
        fields = sorted(set(first[1]) | set(here[key][1]))
        diff = [k for k in fields if not first[1].get(k) == second[1].get(k) == here[key][1].get(k)]
        if diff:
            problems.append(f"{key}: snapshot fields {diff} differ between processes")
    assert not problems, "; ".join(problems)


# -------------------------------------------------------------------- perft
@dataclass(frozen=True)
class PerftRow:
    """A fixed position and its exact leaf counts at depths 1, 2, ... (perft).

    ``top`` fixes the first cards of the deck (top first); the rest of the deck
    follows in sorted card-text order, so the deal does not depend on how a game
    shuffles. ``moves`` are played first, as "seat:notation"."""

    game: str
    preset: str
    options: tuple[tuple[str, Any], ...]
    seed: int
    top: str | None
    moves: tuple[str, ...]
    counts: tuple[int, ...]

    @property
    def id(self) -> str:
        return f"{self.game}-{self.preset}-s{self.seed}-m{len(self.moves)}"


_DUEL = "3C 5H 9S 9D KH 2S 5S 9H JD QC"  # seat 1: 3C 5H 9S 9D KH; seat 2: 2S 5S 9H JD QC
_FIRST = (("first_leader", "0"),)
# territory: seat 0's hand, seat 1's hand, then the square (0,0) (1,0) (0,1) (1,1)
_SQUARE = "AS 2S 3S 4H 5H 6H 2D 3D AD 7C"
_ROYAL_SQUARE = "AS 2S KS 4H 5H 6H 2D 3D AD 7C"
# stress: seat 0's face-down, face-up and hand cards, seat 1's, then the starter
_STRESS = "4C 5C 6C 7C 9S JS QS KS 7S 7H 2C KD 4D 5D 6D 7D 9H JH QH KH 6S 8D JD AS 5H"
_TWO_STRESS = (("players", 2), ("first_player", "0"))
PERFT = [
    # Counted by hand to depth 3. Depth 2, replies of rank >= the lead: 3C 4, 5H 4,
    # 9S 3, 9D 3, and KH none, so the round ends and seat 1 leads 5 cards: 19.
    # Depth 3, seat 1's answers: after 3C: 5S 4, 9H 3, JD 1, QC (clubs: Domination,
    # no higher club) ends the round, seat 2 leads 5: 13. After 5H: 5S 3, 9H
    # (Domination) KH 1, JD 1, QC 1: 6. After 9S: 9H 2, JD 1, QC 1: 4. After 9D:
    # 9H 2, JD (Domination) ends it, 5, QC 1: 8. After KH: seat 1 leads again
    # with 10C drawn, seat 2's replies 4 + 4 + 3 + 3 + 2: 16. Total 47.
    PerftRow("domination", "standard", _FIRST, 0, _DUEL, (), (5, 19, 47, 188)),
    # 5H then 9H starts Domination in hearts: only KH may follow (by hand: 1).
    PerftRow("domination", "standard", _FIRST, 0, _DUEL, ("0:5H", "1:9H"), (1, 5, 16, 62)),
    # ...and with allow_concede, conceding is the second move (by hand: 2).
    PerftRow("domination", "concede", _FIRST, 0, _DUEL, ("0:5H", "1:9H"), (2, 10, 39, 177)),
    # By hand: none, 4 single actions, Block with 5 targets or none (6), 6 pairs
    # without Block, 4 x 6 pairs with it: 41; the other seat's 41 are independent.
    PerftRow("trick", "standard", (), 5, None, (), (41, 1681)),
    # By hand: exactly two different actions (6 + 24) or none, and `missed`: 32.
    PerftRow("trick", "original", (), 5, None, (), (32, 1024)),
    # territory. Seat 0 (horizontal) holds AS 2S 3S, seat 1 4H 5H 6H; the square
    # is 2D 3D (vertical, y=0) over AD 7C. By hand: 8 open cells along the
    # square's sides x 3 cards, and AS (matching AD) takes the 2D above it: 25.
    # Depth 2: each exploration opens 2 new cells (9 open), seat 1 has no
    # match: 24 x 27; after the conquest the 3D is seat 1's last card, so no
    # blitz; seat 1 explores 3 x 8: 648 + 24 = 672.
    PerftRow("territory", "standard", (("first_player", "0"),), 0, _SQUARE, (), (25, 672)),
    # Royal Domination with KS for 3S: 2 x 8 explorations, AS takes the 2D, KS
    # takes either vertical card (any value), KS fortifies either horizontal
    # card: 21. Depth 2: 16 x 27 + 5 x 24 (seat 1 only explores) = 552.
    PerftRow("territory", "royal", (("first_player", "0"),), 0, _ROYAL_SQUARE, (), (21, 552)),
    # stress, two seats. The swaps (both seats at once; perft moves the first of
    # to_act): 4 hand cards x 4 face-up cards, or ready: 17. Depth 2: after a
    # swap seat 0 moves again (17), after its ready seat 1 does (17): 289. Depth
    # 3: 16 x 16 x 17 + 16 x 17 + 16 x 17, and after both readies seat 0's 5
    # plays (below): 4901.
    PerftRow("stress", "standard", _TWO_STRESS, 0, _STRESS, (), (17, 289, 4901)),
    # After the swaps seat 0 holds 2C 7S 7H KD on the starter 5H: 7S, 7H, 7S+7H,
    # 2C, KD: 5. Seat 1 (6S 8D JD AS) answers a 7 with 8D, JD or AS (3 x 3), a
    # 2 with anything (4), a K with AS (1): 14. Depth 3 by the engine.
    PerftRow("stress", "standard", _TWO_STRESS, 0, _STRESS, ("0:ready", "1:ready"), (5, 14, 29)),
]
_UNKNOWN_PERFT = sorted({row.game for row in PERFT} - set(GAME_IDS))
assert not _UNKNOWN_PERFT, f"PERFT has rows for games that are not registered: {_UNKNOWN_PERFT}"


def perft_position(row: PerftRow) -> AnyState:
    spec = get_game(row.game)
    cfg = spec.config(row.preset, **dict(row.options))
    deck = None
    if row.top is not None:
        top = row.top.split()
        rest = spec.new(cfg, row.seed).all_cards() - Counter(top)
        deck = top + sorted(rest.elements())
    state = spec.new(cfg, row.seed, deck)
    for entry in row.moves:
        seat, text = entry.split(":", 1)
        state.play_text(int(seat), text)
    return state


@pytest.mark.parametrize("row", PERFT, ids=[r.id for r in PERFT])
def test_perft(row: PerftRow) -> None:
    state = perft_position(row)
    before = state.snapshot()
    counted = tuple(perft(state, depth) for depth in range(1, len(row.counts) + 1))
    assert counted == row.counts
    assert state.snapshot() == before, "perft searches copies: the position must not change"
