"""Event narration in the second person for the seat addressed as "you": made
by the templates (rules/events.py), not patched afterwards."""

from __future__ import annotations

from typing import cast

import msgspec

from rules.domination import SPEC as DOMINATION
from rules.domination import DominationView
from rules.events import Event, fill_names, visible_events
from rules.game import Outcome
from rules.registry import get_game
from tui.games.domination import run_caption
from tui.screens.game_over import result_text
from tui.seating import addressed_as_you
from tui.widgets.cards import CardStyle

NAMES = ["You", "Computer"]


def test_a_verb_agrees_with_its_subject() -> None:
    text = "{p0 plays|play} 5H. {p1 wins|win}."
    assert fill_names(text, NAMES, {0}) == "You play 5H. Computer wins."
    assert fill_names(text, NAMES, ()) == "You plays 5H. Computer wins."  # third person
    assert fill_names("{p1 has|have} submitted.", ["Ann", "Bo"], {1}) == "You have submitted."


def test_you_is_capitalised_only_where_a_sentence_starts() -> None:
    text = "{p1} claims, but {p0 steals|steal} the pot."
    assert fill_names(text, NAMES, {0}) == "Computer claims, but you steal the pot."
    assert fill_names("Round 3: {p0 plays|play} 2S.", NAMES, {0}) == "Round 3: You play 2S."


def test_possessives_and_a_second_verb() -> None:
    assert fill_names("{p0's} Steal finds nothing.", NAMES, {0}) == "Your Steal finds nothing."
    assert fill_names("{p1 blocks|block} {p0's} Score.", NAMES, {0}) == (
        "Computer blocks your Score."
    )
    text = "{p0 uses|use} Claim Priority and {p0:takes|take} the pot."
    assert fill_names(text, NAMES, {0}) == "You use Claim Priority and take the pot."
    assert fill_names(text, ["Ann", "Bo"], ()) == "Ann uses Claim Priority and takes the pot."


def test_other_braces_and_unknown_seats_stay() -> None:
    assert fill_names("{p5 wins|win} {file}", NAMES, {0}) == "{p5 wins|win} {file}"


def test_only_this_screens_person_named_you_is_addressed_so() -> None:
    assert addressed_as_you(["You", "Computer"], (0,)) == {0}
    assert addressed_as_you(["Player 1", "Player 2"], (0, 1)) == frozenset()
    # a seat across the network that calls itself You is still "they"
    assert addressed_as_you(["Ann", "You"], (0,)) == frozenset()


def test_domination_narrates_a_round_for_you() -> None:
    spec = get_game("domination")
    state = spec.new(spec.config(), seed=3)
    texts: list[str] = []
    while not state.is_over and len(texts) < 400:
        seat = state.to_act()[0]
        events = state.play(seat, state.legal_moves(seat)[0])
        texts += [e.render(NAMES, {0}) for e in visible_events(events, 0)]
    joined = " ".join(texts)
    assert "You play" in joined and "You plays" not in joined
    assert "You wins" not in joined and "You's" not in joined
    assert "You draw" in joined


def test_trick_reveal_and_resignation_read_in_the_second_person() -> None:
    spec = get_game("trick")
    state = spec.new(spec.config("setna"), seed=1)
    state.play_text(0, "score+raise")
    events = state.play_text(1, "claim+steal")
    texts = [e.render(NAMES, {0}) for e in visible_events(events, 0)]
    joined = " ".join(texts)
    assert "raise the pot" in joined and "grows" not in joined, texts
    assert "You play" in joined and "You score 1" in joined, texts
    (resign,) = state.resign(0)
    assert resign.render(NAMES, {0}) == "You resign: Computer wins."
    assert Event("x", "{p1 resigns|resign}: {p0 wins|win}.").render(NAMES, {0}) == (
        "Computer resigns: You win."
    )


def test_the_result_and_the_caption_say_you_win_and_you_lead() -> None:
    outcome = Outcome(0, ((0,), (1,)), (60, 20), "{p1} resigned")
    text = result_text(outcome, NAMES, (), {0})
    assert text.startswith("You win.")
    view = msgspec.structs.replace(
        cast(DominationView, DOMINATION.new(seed=1).view(0)), run=[], leader=0, round=4
    )
    assert run_caption(view, NAMES, CardStyle(), {0}) == "Round 4: You lead, any card."
    assert run_caption(view, ["Ann", "Bo"], CardStyle()) == "Round 4: Ann leads, any card."


def test_the_result_labels_its_score_column_places_each_seat_and_names_a_resignation() -> None:
    outcome = Outcome(None, ((1,), (2, 3), (0,)), (18, 0, 0, 0), "{p1} is left holding cards")
    names = ["You", "Computer 2", "Computer 3", "Computer 4"]
    text = result_text(outcome, names, (), {0}, "cards left (fewer is better)", resigned={0})
    lines = text.splitlines()
    assert lines[1] == "(Computer 2 is left holding cards; You resigned)"
    assert lines[3].startswith("Place") and lines[3].endswith("Cards left (fewer is better)")
    assert [line.split()[0] for line in lines[4:8]] == ["1st", "=2nd", "=2nd", "4th"]
    assert lines[4].split()[1:] == ["Computer", "2", "0"]
    assert lines[7].split() == ["4th", "You", "18"]
    # the resignation is not said twice where the reason is the resignation
    two = result_text(Outcome.resigned(0, 2, (12, 12)), ["A", "B"], resigned={0})
    assert two.count("resigned") == 1 and "Place" in two and "Points" in two


def test_domination_moves_and_moments_in_words() -> None:
    config = DOMINATION.config()
    assert DOMINATION.move_words(config, "10H") == "play 10H"
    assert DOMINATION.move_words(config, "concede") == "concede the round"
    state = DOMINATION.new(config, seed=3)
    assert DOMINATION.turn_label(state, 0) == "Round 1, card 1"
    seat = state.to_act()[0]
    state.play_text(seat, str(state.legal_moves(seat)[0]))
    assert DOMINATION.turn_label(state, 1) == "Round 1, card 2"
    assert DOMINATION.score_label(config) == "points"
    assert get_game("trick").score_label(get_game("trick").config()) == "chips"
    territory = get_game("territory")
    # N05: the scores count the distinct values of the best region ("best 8/10")
    from rules.territory.board import best_regions

    state = territory.new(territory.config(), 3)
    assert state.scores() == tuple(best[0] for best in best_regions(state.grid))
    assert territory.score_label(territory.config()) == "values in the best region"


def test_the_other_hands_are_counted_apart_from_whose_hand_it_is() -> None:
    from tui.games.domination import holdings_caption

    assert holdings_caption([4, 5], ["You", "Computer"], {0}, 0) == "Computer holds 5"
    # a replay seen by the computer: the person is still addressed as you
    assert holdings_caption([4, 5], ["You", "Computer"], {0}, 1) == "You hold 4"
    # a spectator: every hand, and no "Your hand" (the screen says "Watching")
    assert holdings_caption([5, 4], ["A", "Bea"], (), None) == "A holds 5, Bea holds 4"


def test_the_analysis_numbers_moments_by_the_games_own_unit() -> None:
    from saves.record import GameRecord, SeatInfo
    from tui.screens.analysis import turn_labels

    config = DOMINATION.config(first_leader="0")
    state = DOMINATION.new(config, seed=4)
    moves = []
    for _ in range(3):
        seat = state.to_act()[0]
        move = str(state.legal_moves(seat)[0])
        state.play_text(seat, move)
        moves.append((seat, move))
    seats = [SeatInfo("You", "human"), SeatInfo("Computer", "bot", "easy")]
    record = GameRecord.new("domination", config, 4, seats)
    record.moves = moves
    labels = turn_labels(record, [0, 2])
    assert labels[0] == "Round 1, card 1"
    assert labels[2].startswith("Round ") and set(labels) == {0, 2}


def test_trick_numbers_its_moments_by_round_both_submissions_alike() -> None:
    trick = get_game("trick")
    state = trick.new(trick.config(), seed=2)
    assert trick.turn_label(state, 0) == "Round 1"
    state.play_text(0, "score+grow")
    assert trick.turn_label(state, 1) == "Round 1"  # the second submission of round 1
    state.play_text(1, "score+claim")
    assert trick.turn_label(state, 2) == "Round 2"


def test_stress_and_territory_number_their_moments_by_turn() -> None:
    stress = get_game("stress")
    state = stress.new(stress.config(players=2), seed=2)
    assert stress.turn_label(state, 0) == "The swaps"
    for seat in state.to_act():
        state.play_text(seat, "ready")
    assert stress.turn_label(state, 2) == "Turn 1"
    seat = state.to_act()[0]
    state.play_text(seat, str(state.legal_moves(seat)[0]))
    assert stress.turn_label(state, 3) == "Turn 2"
    territory = get_game("territory")
    grid = territory.new(territory.config(), seed=2)
    assert territory.turn_label(grid, 0) == "Turn 1"


def test_the_hand_caption_names_whose_hand_and_none_for_a_spectator() -> None:
    from types import SimpleNamespace

    from tui.games.domination import DominationScreen

    def caption(seat: int | None, people_here: tuple[int, ...]) -> str:
        screen = SimpleNamespace(
            seat=seat, people_here=people_here, seat_name=["You", "Computer"].__getitem__
        )
        return DominationScreen.hand_caption(screen)  # type: ignore[arg-type]

    assert caption(0, (0,)) == "Your hand"
    assert caption(None, ()) == "Watching: no hand of your own"
    assert caption(1, (0, 1)) == "Computer's hand"  # a hot seat: by name
    # a replay seen by the computer, played here by You
    assert caption(1, (0,)) == "Computer's hand"


def test_a_replay_counts_the_people_who_played_it_as_the_people_at_the_screen() -> None:
    """The replay's client says nobody plays there; the screen's people are
    those who played the game here, so the computer's eyes get its name."""
    from net.replay import ReplayClient, ReplayGame
    from tests.saves.helpers import finished_record
    from tui.games.domination import DominationScreen

    game = ReplayGame.build(finished_record())
    screen = DominationScreen(ReplayClient(game, 1, game.last))
    assert not screen.interactive and not screen.can_act()
    assert screen.people == (1,) and screen.people_here == (0,)
    assert screen.hand_caption() == "Computer (hard)'s hand"
    assert screen.replay_keys is not None
    mine = DominationScreen(ReplayClient(game, 0, game.last))
    assert mine.hand_caption() == "Your hand"


def test_the_replay_text_says_you_lead_and_names_an_empty_discard_none() -> None:
    """N09: the replay's text view, like the table: "You lead", "Discarded ♥: none"."""
    from tui.games.domination import describe

    view = msgspec.structs.replace(
        cast(DominationView, DOMINATION.new(seed=1).view(0)), run=[], leader=0, round=2
    )
    group = describe(view, [0, 0], ["You", "Computer"], CardStyle())
    text = "\n".join(line.plain for line in group.renderables)  # type: ignore[attr-defined]
    assert "Round 2: You lead, any card." in text
    assert "Discarded ♥: none" in text and ": -" not in text
