"""Domination's rules: every worked example of seed 000 and every ruling in RULINGS.md.

Deals are scripted with explicit deck orders (top first): seat 1 (index 0)
gets the first five cards, seat 2 the next five, and the stock follows in
order; ``first_leader`` fixes who leads round 1. The generic contract (copies,
replays, views leaking nothing, notation round trips) is tested for every game
in test_contract.py; this file is about what the rules say.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.cards import card_text, deck, parse_card
from rules.domination import CONCEDE, SPEC, DominationConfig, DominationState, Play
from rules.errors import IllegalMove, NotationError
from rules.events import Event, visible_events
from rules.game import Outcome

ALL_TEXTS = [card_text(c) for c in deck()]


def deal(seat1: str, seat2: str, stock: str = "") -> list[str]:
    """A deck order naming the two hands and the top of the stock; the deck's
    fixed order fills in the rest (rules.cards.stack_deck)."""
    assert len(seat1.split()) == 5 and len(seat2.split()) == 5
    return [*seat1.split(), *seat2.split(), *stock.split()]


def game(
    seat1: str, seat2: str, stock: str = "", leader: str = "0", **options: object
) -> DominationState:
    config = SPEC.config(first_leader=leader, **options)
    return SPEC.new(config, seed=0, deck_order=deal(seat1, seat2, stock))


def play(state: DominationState, *moves: str) -> list[Event]:
    """Play moves in notation, each by the seat whose turn it is; all their events."""
    events: list[Event] = []
    for text in moves:
        seat = state.turn
        assert not state.is_over, f"the match ended before {text}"
        events += state.play_text(seat, text)
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def round_won(events: list[Event]) -> Event:
    (won,) = [e for e in events if e.kind == "round_won"]
    return won


def hand(state: DominationState, seat: int) -> list[str]:
    return list(state.view(seat).hand)


# --------------------------------------------------------------- the deal
def test_the_deck_order_deals_seat_1_first_and_the_stock_in_order() -> None:
    s = game("AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "KC QC")
    assert hand(s, 0) == ["AS", "2S", "3S", "4S", "5S"]
    assert hand(s, 1) == ["AH", "2H", "3H", "4H", "5H"]
    assert s.snapshot()["stock"][-2:] == ["QC", "KC"]  # the top is the end of the list
    assert s.view(None).stock == 42


def test_a_deck_order_names_each_card_at_most_once() -> None:
    with pytest.raises(ValueError, match="'AS' is not in the deck, or is named more often"):
        SPEC.new(SPEC.config(), 0, deck_order=[*ALL_TEXTS[:51], "AS"])
    with pytest.raises(ValueError, match="not a card"):
        SPEC.new(SPEC.config(), 0, deck_order=["ZZ", *ALL_TEXTS[1:]])


def test_first_leader_fixes_who_leads_and_random_depends_on_the_seed() -> None:
    assert game("AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", leader="1").to_act() == (1,)
    assert game("AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", leader="0").to_act() == (0,)
    leaders = {SPEC.new(SPEC.config(), seed).leader for seed in range(40)}
    assert leaders == {0, 1}


# ------------------------------------------------------- the seed's figures
def test_4h_8h_is_16_domination_doubles_the_8() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C")
    events = play(s, "4H", "8H")  # seat 1 holds no heart above 8: the round ends
    won = round_won(events)
    assert won.data.seat == 1 and won.data.points == 16
    assert won.data.multiplier == 2 and won.data.run == ["4H", "8H"]
    assert s.points == [0, 16]


def test_4h_8h_10h_is_30() -> None:
    s = game("4H 10H 2C 3D 5S", "8H 2S 3C 5D 7C")
    won = round_won(play(s, "4H", "8H", "10H"))
    assert (won.data.seat, won.data.points, won.data.multiplier) == (0, 30, 3)


def test_4h_8h_10h_jh_kh_is_65_and_the_multiplier_climbs_each_card() -> None:
    s = game("4H 10H KH 2C 3D", "8H JH 2S 3C 5D")
    seen = []
    for text in ("4H", "8H", "10H", "JH"):
        play(s, text)
        v = s.view(None)
        seen.append((v.multiplier, v.round_value))
    assert seen == [(1, 4), (2, 16), (3, 30), (4, 44)]
    won = round_won(play(s, "KH"))
    assert (won.data.seat, won.data.points, won.data.multiplier) == (0, 65, 5)


def test_3c_5h_5s_9s_is_18_the_chain_counts_from_its_first_card() -> None:
    s = game("3C 5S 2D 4D 6D", "5H 9S 2H 3H 4S")
    events = play(s, "3C", "5H", "5S")
    assert "domination" not in kinds(events)  # 3C 5H 5S: no two of a suit in a row
    events = play(s, "9S")
    (dom,) = [e for e in events if e.kind == "domination"]
    assert dom.data.to_json() == {"suit": "S", "multiplier": 2, "start": "5S"}
    won = round_won(events)
    assert (won.data.seat, won.data.points) == (1, 18)


# ------------------------------------------------------------- climbing
def test_any_suit_of_equal_or_higher_rank_follows() -> None:
    s = game("5H 2C 4D 9S KD", "5S 3C 4C 6D JC")
    play(s, "5H")
    assert sorted(map(str, s.legal_moves(1))) == ["5S", "6D", "JC"]  # not 3C, not 4C
    play(s, "5S")  # an equal rank climbs
    assert s.view(None).domination_start is None


def test_a_lower_card_is_refused_with_the_reason() -> None:
    s = game("5H 2C 4D 9S KD", "5S 3C 4C 6D JC")
    play(s, "5H")
    with pytest.raises(IllegalMove, match="4C is lower than 5H: play a card of rank 5 or higher"):
        s.play_text(1, "4C")
    assert s.ply == 1 and hand(s, 1) == ["3C", "4C", "5S", "6D", "JC"]  # unchanged


def test_in_domination_only_a_higher_card_of_the_suit_follows() -> None:
    s = game("3C 9C QD KS 2H", "5C 10C KH 4D 6S")
    play(s, "3C", "5C")
    assert s.view(None).domination_suit == "C"
    # seat 1 holds QD and KS, higher but off-suit: only 9C may follow
    assert [str(m) for m in s.legal_moves(0)] == ["9C"]
    with pytest.raises(IllegalMove, match="Domination is on: only clubs higher than 5C"):
        s.play_text(0, "KS")
    play(s, "9C")
    # 10C follows; KH is higher but not a club
    assert [str(m) for m in s.legal_moves(1)] == ["10C"]
    play(s, "10C")  # seat 1 holds no club above 10: the round ends
    assert s.points == [0, 40]


def test_a_lower_card_of_the_suit_is_refused_in_domination() -> None:
    s = game("3C 9C 2D 4D 6D", "5C 10C 4C 7S 8S")
    play(s, "3C", "5C", "9C")
    with pytest.raises(IllegalMove, match="4C is lower than 9C: Domination needs a higher club"):
        s.play_text(1, "4C")


# ------------------------------------------------------------ Inelegance
def _spades_2_4_q_k_discarded(answer: str) -> DominationState:
    """Round 1 discards 2S 4S QS KS (seat 2 wins it 13 x 4 = 52); seat 2 then leads.

    Seat 1 is left with 3D 4D 5D and draws ``answer`` and 7D."""
    s = game("2S QS 3D 4D 5D", "4S KS JS 2H 3H", f"5H 6H {answer} 7D")
    won = round_won(play(s, "2S", "4S", "QS", "KS"))
    assert (won.data.seat, won.data.points) == (1, 52)
    assert s.view(None).discards["S"] == [2, 4, 12, 13]
    assert s.turn == 1
    return s


def test_the_seeds_example_the_strongest_spade_is_the_jack() -> None:
    s = _spades_2_4_q_k_discarded("QH")  # seat 1 can answer: the round goes on
    events = play(s, "JS")
    (inelegant,) = [e for e in events if e.kind == "inelegant"]
    assert inelegant.data.to_json() == {"seat": 1, "card": "JS"}
    assert "the highest spade left" in inelegant.text  # one spade, not "spades"
    assert s.view(None).inelegant_lead is True
    assert s.view(None).round_value == 1


def test_an_unanswered_inelegant_lead_scores_1() -> None:
    s = _spades_2_4_q_k_discarded("6D")
    events = play(s, "JS")  # seat 1 holds nothing of rank J or above
    won = round_won(events)
    assert (won.data.seat, won.data.points, won.data.inelegant) == (1, 1, True)
    assert s.points == [0, 53]


def test_any_answer_cancels_inelegance() -> None:
    s = _spades_2_4_q_k_discarded("QH")
    play(s, "JS")
    events = play(s, "QH")  # seat 2 holds nothing of rank Q or above
    won = round_won(events)
    assert (won.data.seat, won.data.points, won.data.inelegant) == (0, 12, False)


def test_a_lead_below_a_card_still_out_is_not_inelegant() -> None:
    # JS is still in a hand (not discarded), so 10S is not the strongest spade
    s = game("2S QS 3D 4D 5D", "4S KS 10S 2H 3H", "5H 6H JS 7D")
    play(s, "2S", "4S", "QS", "KS")
    events = play(s, "10S")
    assert "inelegant" not in kinds(events)
    assert s.view(None).inelegant_lead is False


def test_with_nothing_discarded_every_king_is_inelegant() -> None:
    s = game("KD 2C 3C 4C 5C", "AS 2S 3S 4S QH")
    events = play(s, "KD")
    assert "inelegant" in kinds(events)
    won = round_won(events)  # seat 2 has no king
    assert (won.data.seat, won.data.points) == (0, 1)


def test_a_queen_is_elegant_while_its_king_is_out() -> None:
    s = game("QD 2C 3C 4C 5C", "AS 2S 3S 4S JH")
    won = round_won(play(s, "QD"))
    assert (won.data.points, won.data.inelegant) == (12, False)


def test_the_inelegant_leader_who_wins_after_an_answer_scores_in_full() -> None:
    s = game("KD KH 2C 3C 4C", "KS AS 2S 3S 4S")
    play(s, "KD", "KS")
    won = round_won(play(s, "KH"))  # KS then KH: different suits, no Domination
    assert (won.data.seat, won.data.points, won.data.inelegant) == (0, 13, False)


# ----------------------------------------------------- the end of a round
def test_an_empty_hand_cannot_play_and_ends_the_round() -> None:
    s = game("AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "6C 7C 8C 9C 10C 6D 7D 8D 9D 10D")
    play(s, "AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H", "5S")
    assert s.view(0).hand == [] and s.turn == 1
    won = round_won(play(s, "5H"))  # seat 1, to move, has no card at all
    assert (won.data.seat, won.data.points) == (1, 5)
    # the winner leads and draws first: five each, in stock order
    assert s.turn == 1 and s.leader == 1
    assert hand(s, 1) == ["6C", "7C", "8C", "9C", "10C"]
    assert hand(s, 0) == ["6D", "7D", "8D", "9D", "10D"]


def test_the_winner_leads_the_next_round() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C")
    play(s, "4H", "8H")
    assert s.to_act() == (1,) and s.view(None).leader == 1 and s.view(None).round == 2
    with pytest.raises(IllegalMove, match="not your turn"):
        s.play_text(0, "2C")


def test_unplayed_cards_carry_over_and_the_next_leader_draws_first() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C", "JC QC")
    events = play(s, "4H", "8H")
    # seat 2 won: it draws the top card, then seat 1 the next
    assert hand(s, 1) == ["2S", "3C", "5D", "7C", "JC"]
    assert hand(s, 0) == ["2C", "3D", "5S", "6S", "QC"]
    assert [e.data.seat for e in events if e.kind == "draw"] == [1, 0]
    assert s.view(None).stock == 40
    assert s.view(None).run == [] and s.view(None).discards["H"] == [4, 8]


def test_draws_are_private_to_the_drawer() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C", "JC QC")
    events = play(s, "4H", "8H")
    mine = [e for e in visible_events(events, 0) if e.kind == "draw"]
    assert [e.data.to_json() for e in mine] == [
        {"seat": 1, "count": 1},
        {"seat": 0, "cards": ["QC"]},
    ]
    assert "JC" not in json.dumps([e.to_json() for e in visible_events(events, 0)])
    spectator = [e.data.to_json() for e in visible_events(events, None) if e.kind == "draw"]
    assert spectator == [{"seat": 1, "count": 1}, {"seat": 0, "count": 1}]
    assert [e.render(["Ann", "Bob"]) for e in mine] == ["Bob draws 1 card.", "Ann draws QC."]


def _play_randomly_until(state: DominationState, rng: random.Random, stop: object) -> list[Event]:
    """Random legal moves until ``stop(state_before, events)`` holds; those events."""
    while True:
        before = state.copy()
        seat = state.turn
        events = state.play(seat, rng.choice(state.legal_moves(seat)))
        if stop(before, events):  # type: ignore[operator]
            return events


def test_a_reshuffle_when_the_stock_cannot_refill_both_hands() -> None:
    s = SPEC.new(SPEC.config(target_score=10_000, first_leader="0"), seed=5)
    rng = random.Random(5)
    reshuffled: list[DominationState] = []

    def stop(before: DominationState, events: list[Event]) -> bool:
        if "reshuffle" in kinds(events):
            reshuffled.append(before)
            return True
        return False

    events = _play_randomly_until(s, rng, stop)
    before = reshuffled[0]
    won = round_won(events)
    # the hands, less the card that ended the round, needed more than the stock held
    need = 10 - (len(before.hands[0]) + len(before.hands[1]) - 1)
    assert need > len(before.stock)
    # all 52 collected and shuffled, discards cleared, 5 each, scores carried on
    v = s.view(None)
    assert v.hand_sizes == [5, 5] and v.stock == 42
    assert v.discards == {"S": [], "H": [], "D": [], "C": []}
    assert list(s.scores()) == won.data.scores and sum(s.scores()) > 0
    assert s.all_cards() == Counter(ALL_TEXTS)
    assert kinds(events)[-3:] == ["reshuffle", "draw", "draw"]


def test_no_reshuffle_while_the_stock_can_just_complete_the_refill() -> None:
    for seed in range(200):
        s = SPEC.new(SPEC.config(target_score=10_000, first_leader="0"), seed=seed)
        rng = random.Random(seed)
        exact: list[DominationState] = []

        def stop(before: DominationState, events: list[Event], exact: list = exact) -> bool:
            if "round_won" not in kinds(events):
                return False
            need = 10 - (len(before.hands[0]) + len(before.hands[1]) - 1)
            if need == len(before.stock):
                exact.append(before)
            return need >= len(before.stock)

        events = _play_randomly_until(s, rng, stop)
        if exact:
            assert "reshuffle" not in kinds(events)
            assert s.view(None).stock == 0 and s.view(None).hand_sizes == [5, 5]
            return
    pytest.fail("no seed emptied the stock exactly")


# --------------------------------------------------------- the match end
def test_a_complete_short_match() -> None:
    """Preset `short` (first to 50). Three rounds, scored by hand:

    round 1, seat 1 leads: 4H, 8H (Domination), seat 1 has no heart above 8:
        seat 2 scores 8 x 2 = 16.                                    0 - 16
        seat 2 draws AS, seat 1 draws JD.
    round 2, seat 2 leads: 2C, 7D, 9S, 10S (Domination), seat 2 has no spade
        above 10: seat 1 scores 10 x 2 = 20.                        20 - 16
        seat 1 draws QD KD, seat 2 draws 7C 8D.
    round 3, seat 1 leads: 2D, 8D (Domination), JD (x3), seat 2 has no
        diamond above J: seat 1 scores 11 x 3 = 33.                 53 - 16
    53 >= 50: seat 1 wins the match 53 to 16.
    """
    config = SPEC.config("short", first_leader="0")
    order = deal("4H 7D 10S 2D 3S", "8H 2C 9S 5C 6C", "AS JD QD KD 7C 8D")
    s = SPEC.new(config, seed=0, deck_order=order)
    moves = ["4H", "8H", "2C", "7D", "9S", "10S", "2D", "8D", "JD"]
    record: list[tuple[int, str]] = []
    events: list[Event] = []
    for text in moves:
        record.append((s.turn, text))
        events += s.play_text(s.turn, text)
    assert [e.data.points for e in events if e.kind == "round_won"] == [16, 20, 33]
    assert [e.data.seat for e in events if e.kind == "round_won"] == [1, 0, 0]
    assert s.is_over and s.to_act() == () and s.legal_moves(0) == s.legal_moves(1) == []
    assert s.outcome() == Outcome(0, ((0,), (1,)), (53, 16), "first to 50 points")
    assert events[-1].kind == "game_over"
    assert events[-1].render(["Ann", "Bob"]) == "Ann wins the match 53 to 16."
    with pytest.raises(IllegalMove, match="the game is over"):
        s.play_text(1, "5C")
    # the record replays to the same end
    again = SPEC.replay(config, 0, record, deck_order=order)
    assert again.snapshot() == s.snapshot()


def test_a_match_of_rounds_goes_on_while_tied() -> None:
    """rounds=2, no target. Seat 2 takes round 1 for 9, seat 1 round 2 for 9:
    tied 9 - 9 after two rounds, so a third is played; seat 1 takes it for 5."""
    s = game(
        "2C 3D 4D 5S 6C",
        "9H 3H 2S 3S 4S",
        "AH 9D 7C AC",
        target_score=0,
        rounds=2,
    )
    play(s, "2C", "9H")  # seat 1 holds nothing of rank 9 or above
    assert s.points == [0, 9]
    play(s, "3H", "9D")  # seat 2 leads; holds nothing of rank 9 or above
    assert s.points == [9, 9] and not s.is_over and s.view(None).round == 3
    play(s, "5S")  # seat 2's 2S 3S 4S are lower spades, AH AC lower still
    assert s.is_over
    assert s.outcome() == Outcome(0, ((0,), (1,)), (14, 9), "ahead after 3 rounds")


def test_a_match_of_rounds_ends_after_the_last_round_when_not_tied() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C", target_score=0, rounds=1)
    play(s, "4H", "8H")
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.scores == (0, 16)


def test_the_target_ends_the_match_as_soon_as_it_is_reached() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C", target_score=16)
    play(s, "4H", "8H")
    assert s.is_over and s.outcome() == Outcome(1, ((1,), (0,)), (0, 16), "first to 16 points")


def test_a_match_needs_a_target_or_a_number_of_rounds() -> None:
    with pytest.raises(ValueError, match="set a target score or a number of rounds"):
        SPEC.config(target_score=0, rounds=0)
    with pytest.raises(ValueError, match="first_leader"):
        SPEC.config(first_leader="2")


def test_the_presets() -> None:
    assert SPEC.config("standard") == DominationConfig()
    assert DominationConfig().target_score == 100 and DominationConfig().rounds == 0
    assert DominationConfig().allow_concede is False
    assert SPEC.config("short").target_score == 50
    assert (SPEC.config("ten-rounds").target_score, SPEC.config("ten-rounds").rounds) == (0, 10)
    assert SPEC.config("concede").allow_concede is True


def test_in_a_rematch_the_loser_leads() -> None:
    config = SPEC.config()
    assert SPEC.rematch_config(config, Outcome.from_scores([100, 40], "x")).first_leader == "1"
    assert SPEC.rematch_config(config, Outcome.from_scores([40, 100], "x")).first_leader == "0"
    rematch = SPEC.rematch_config(config, Outcome.from_scores([40, 100], "x"))
    assert SPEC.new(rematch, seed=1).to_act() == (0,)


# ------------------------------------------------------------ conceding
def test_conceding_gives_the_round_to_the_last_player() -> None:
    s = game("4H 10H 2C 3D 5S", "8H 2S 3C 5D 7C", allow_concede=True)
    play(s, "4H", "8H")
    assert CONCEDE in s.legal_moves(0)  # seat 1 could play 10H but may concede
    won = round_won(play(s, "concede"))
    assert (won.data.seat, won.data.points, won.data.conceded) == (1, 16, True)
    assert won.render(["Ann", "Bob"]).startswith("Ann concedes. Bob wins round 1 for 16")
    assert "10H" in hand(s, 0)  # kept for later


def test_the_leader_cannot_concede() -> None:
    s = game("4H 10H 2C 3D 5S", "8H 2S 3C 5D 7C", allow_concede=True)
    assert CONCEDE not in s.legal_moves(0)
    with pytest.raises(IllegalMove, match="you lead this round: play a card"):
        s.play(0, CONCEDE)


def test_conceding_is_off_by_default() -> None:
    s = game("4H 10H 2C 3D 5S", "8H 2S 3C 5D 7C")
    play(s, "4H")
    assert CONCEDE not in s.legal_moves(1)
    with pytest.raises(IllegalMove, match="conceding a round is off in this match"):
        s.play_text(1, "concede")


def test_conceding_to_an_inelegant_lead_gives_1() -> None:
    s = game("KD 2C 3C 4C 5C", "KS 2S 3S 4S QH", allow_concede=True)
    play(s, "KD")
    won = round_won(play(s, "concede"))  # KS could have answered
    assert (won.data.seat, won.data.points, won.data.inelegant) == (0, 1, True)


# ------------------------------------------------------------- notation
def test_every_move_reads_back_from_its_notation() -> None:
    for c in deck():
        move = Play(c)
        assert SPEC.parse_move(str(move)) == move
    assert SPEC.parse_move("concede") == CONCEDE
    assert SPEC.parse_move(" 10h ") == Play(parse_card("10H"))
    assert SPEC.parse_move("th") == Play(parse_card("10H"))
    assert SPEC.parse_move("CONCEDE") == CONCEDE


@pytest.mark.parametrize("text", ["", "11H", "1H", "hello", "NS", "QX", "10", "AS 2S"])
def test_text_that_is_no_move_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="is not a domination move: play a card like 10H"):
        SPEC.parse_move(text)


def test_playing_bad_text_says_why() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C")
    with pytest.raises(NotationError, match="'4X' is not a domination move"):
        s.play_text(0, "4X")
    with pytest.raises(IllegalMove, match="KS is not in your hand"):
        s.play_text(0, "KS")


# --------------------------------------------------------------- events
def test_domination_and_its_chain_are_announced() -> None:
    s = game("4H 10H KH 2C 3D", "8H JH 2S 3C 5D")
    events = play(s, "4H", "8H", "10H")
    dom = [e for e in events if e.kind == "domination"]
    assert [e.data.to_json() for e in dom] == [{"suit": "H", "multiplier": 2, "start": "4H"}]
    assert dom[0].text == "Domination in hearts! Only higher hearts may follow. Multiplier x2."
    assert [e.data.to_json() for e in events if e.kind == "multiplier"] == [{"multiplier": 3}]


def test_the_round_won_event_says_who_won_and_for_how_much() -> None:
    s = game("4H 10H 2C 3D 5S", "8H 2S 3C 5D 7C")
    won = round_won(play(s, "4H", "8H", "10H"))
    assert won.render(["Ann", "Bob"]) == (
        "Bob cannot play. Ann wins round 1 for 30 points "
        "(10H is the last card: 10 x 3 for Domination)."
    )
    assert won.data.scores == [30, 0]


# ------------------------------------------------------------------ view
def test_a_players_view() -> None:
    s = game("3C 5S 2D 4D 6D", "5H 9S 2H 3H 4S")
    play(s, "3C", "5H", "5S", "9S")  # seat 2 wins 18; 3C 5H 5S 9S are discarded
    play(s, "2H")  # seat 2 leads round 2 (after drawing 2 cards each)
    v = s.view(0)
    assert v.hand == sorted(v.hand, key=lambda t: (parse_card(t) & 15, parse_card(t) >> 4))
    assert len(v.hand) == 5 and v.hand_sizes == [5, 4]
    assert v.run == ["2H"] and v.domination_start is None and v.domination_suit is None
    assert v.multiplier == 1 and v.round_value == 2 and v.inelegant_lead is False
    assert v.discards == {"S": [5, 9], "H": [5], "D": [], "C": [3]}
    assert s.scores() == (0, 18) and v.turn == 0 and s.to_act() == (0,)
    assert v.leader == 1 and v.round == 2 and v.stock == 38
    assert v.target_score == 100 and not s.is_over and s.outcome() is None
    legal = [str(m) for m in s.legal_moves(0)]
    assert set(legal) <= set(v.hand) and legal
    # the opponent's hand is not in it
    opponent = set(s.snapshot()["hands"][1])
    assert not opponent & set(json.dumps(v.to_json()).replace('"', " ").replace(",", " ").split())
    assert s.legal_moves(1) == []  # not its turn


def test_the_view_during_domination() -> None:
    s = game("4H 10H KH 2C 3D", "8H JH 2S 3C 5D")
    play(s, "4H", "8H", "10H")
    v = s.view(1)
    assert v.domination_start == 0 and v.domination_suit == "H"
    assert v.multiplier == 3 and v.round_value == 30
    assert [str(m) for m in s.legal_moves(1)] == ["JH"]


def test_a_spectator_sees_no_hand() -> None:
    s = game("4H 2C 3D 5S 6S", "8H 2S 3C 5D 7C")
    v = s.view(None)
    assert v.hand is None and not hasattr(v, "legal_moves")
    assert v.hand_sizes == [5, 5] and v.seat is None


# ------------------------------------------------- what the table learns
def test_a_hand_that_could_not_play_is_known_to_hold_no_follower() -> None:
    """Seat 2 could not follow 9C with four cards left, then drew one: every
    sample seat 1 draws of its hand holds at most one card of rank 9 or more."""
    s = game("2C 9C 3D 4D 5D", "4S 2S 3S 5H 6H")
    play(s, "2C", "4S", "9C")
    assert s.points == [9, 0] and s.turn == 0
    rng = random.Random(1)
    highs = []
    for _ in range(300):
        sample = s.determinize(0, rng)
        assert sample.view(0) == s.view(0)
        assert sorted(sample.hands[0]) == sorted(s.hands[0])
        highs.append(sum(c & 15 >= 9 for c in sample.hands[1]))
    # without the fact, four or five high cards would turn up (20 of 42 unseen cards are)
    assert max(highs) == 1 and min(highs) == 0


def test_a_conceding_hand_tells_nothing() -> None:
    s = game("2C 9C 3D 4D 5D", "4S KS 2S 3S 5H", allow_concede=True)
    play(s, "2C", "4S", "9C", "concede")  # KS could have followed
    rng = random.Random(2)
    assert any(sum(c & 15 >= 9 for c in s.determinize(0, rng).hands[1]) >= 2 for _ in range(300))


def test_samples_depend_only_on_what_the_seat_knows() -> None:
    s = SPEC.new(SPEC.config(), seed=11)
    rng = random.Random(3)
    for _ in range(25):
        seat = s.turn
        s.play(seat, rng.choice(s.legal_moves(seat)))
    other = s.determinize(0, random.Random(4))  # seat 2's hand and the stock differ
    assert other.snapshot()["hands"][1] != s.snapshot()["hands"][1]
    a = s.determinize(0, random.Random(9)).snapshot()
    b = other.determinize(0, random.Random(9)).snapshot()
    assert a == b
