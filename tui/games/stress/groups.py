"""The cards of the Stress screen as rows of faces: the hand grouped by rank,
the face-down row by position, the top of the stack; and which play a choice
of cards makes. Pure functions: the legal moves are read with the rules'
own ``parse_move``, never split by hand.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rules.cards import card_text, parse_card
from rules.stress import Play, StressView, make_play, parse_move
from tui.widgets.cards import CARD_WIDTH, GAP, CardFace

from .words import POWER, rank_of, see_through

GROUP_KEYS = 9  # number keys 1-9 choose a group; arrows reach the rest
STACK_SHOWN = 12  # at most this many top cards of the stack are drawn
BACK = "##"  # the text of a face-down card (drawn as a card back)
# cards a player keeps for when nothing else goes: the cursor starts elsewhere
KEPT_FOR_LATER = ("2", "3", "10")


@dataclass(frozen=True)
class Group:
    """The cards of one rank in the row being played from, and how many of
    them may be played together now (empty: none)."""

    rank: str
    cards: tuple[str, ...]
    counts: tuple[int, ...] = ()

    @property
    def playable(self) -> bool:
        return bool(self.counts)


def plays_in(legal: Collection[str]) -> list[Play]:
    """The legal plays of cards (not a blind card, a pick-up, a swap or ready)."""
    return [move for move in map(parse_move, legal) if isinstance(move, Play)]


def play_cards(play: Play) -> list[str]:
    return [card_text(c) for c in play.cards]


def first_choice(groups: Sequence[Group]) -> int:
    """The group the cursor starts on: the lowest playable rank that is not a
    2, 3 or 10 (those are worth keeping), else the first playable one."""
    playable = [i for i, g in enumerate(groups) if g.playable]
    plain_ranks = [i for i in playable if groups[i].rank not in KEPT_FOR_LATER]
    return (plain_ranks or playable or [0])[0]


def hand_groups(cards: Sequence[str], legal: Collection[str] = ()) -> list[Group]:
    """``cards`` grouped by rank, lowest rank first, each with the numbers of
    its cards that ``legal`` lets be played together."""
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(rank_of(card), []).append(card)
    counts: dict[str, set[int]] = {}
    for play in plays_in(legal):
        counts.setdefault(rank_of(card_text(play.cards[0])), set()).add(len(play.cards))
    return [
        Group(rank, tuple(by_rank[rank]), tuple(sorted(counts.get(rank, ()))))
        for rank in sorted(by_rank, key=POWER.__getitem__)
    ]


def play_for(group: Group, count: int, legal: Collection[str]) -> str | None:
    """The notation of playing ``count`` cards of ``group`` (its first ones), if legal."""
    chosen = str(make_play([parse_card(c) for c in group.cards[:count]]))
    if chosen in legal:
        return chosen
    # suits never matter: any legal play of that many of the rank will do
    for play in plays_in(legal):
        if rank_of(card_text(play.cards[0])) == group.rank and len(play.cards) == count:
            return str(play)
    return None


def group_faces(
    groups: Sequence[Group],
    cursor: int | None,
    count: int,
    width: int,
    active: bool,
    labels: bool = True,
) -> list[CardFace]:
    """A row of groups: every card while they fit ``width``, else one card per
    group with its size (``1×3``). The group under ``cursor`` has its first
    ``count`` cards chosen; with ``active``, playable groups are marked."""
    total = sum(len(g.cards) for g in groups)
    compact = total * (CARD_WIDTH + GAP) - GAP > width
    faces = []
    for i, group in enumerate(groups):
        playable = group.playable if active else None
        key = str(i + 1) if labels and i < GROUP_KEYS else ""
        chosen = i == cursor
        if compact:
            size = len(group.cards)
            label = key
            if size > 1:
                label = f"{count}/{size}" if chosen else f"{key}×{size}"
            faces.append(CardFace(group.cards[0], playable, chosen, label=label))
            continue
        # every card of a group carries the group's key: two 6s both say 1,
        # so nine cards with keys 1-7 read plainly
        for j, card in enumerate(group.cards):
            faces.append(CardFace(card, playable, chosen and j < count, label=key))
    return faces


# what a drawn-together group's label means, for the caption beside it
COMPACT_LEGEND = "1×4: key 1, four cards of one rank"


def compact_legend(faces: Sequence[CardFace]) -> str:
    """The legend for a row drawn one card per rank ("" when every card shows)."""
    return COMPACT_LEGEND if any("×" in f.label or "/" in f.label for f in faces) else ""


def down_faces(
    row: Sequence[bool], cursor: int | None, active: bool, labels: bool = True
) -> list[CardFace]:
    """The face-down row by position (1-4): the backs still there, labelled
    with their positions (which keep their numbers all game)."""
    return [
        CardFace(BACK, playable=True if active else None, selected=cursor == i,
                 label=str(i + 1) if labels else "", face_down=True)
        for i, there in enumerate(row)
        if there
    ]  # fmt: skip


def stack_faces(view: StressView, width: int) -> list[CardFace]:
    """The top cards of the stack that fit ``width``, oldest first: the card
    that counts is marked "top", the 3s on it "see-through" (muted)."""
    room = max(1, (width + GAP) // (CARD_WIDTH + GAP))
    shown = view.stack[-min(room, STACK_SHOWN) :]
    through = see_through(view)
    counts = view.top is not None
    faces = []
    for i, card in enumerate(shown):
        from_top = len(shown) - 1 - i
        if from_top < through:
            faces.append(CardFace(card, playable=False, label="see"))
        elif from_top == through and counts:
            faces.append(CardFace(card, playable=True, label="top"))
        else:
            faces.append(CardFace(card))
    return faces
