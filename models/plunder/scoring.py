"""Plunder's scoring: crew cards in the chest, the points of a dig, a finished game's scores.

Implements docs/plunder.md ("The game", rule decision 8) for seed
``seeds/003_cfc377110defcf34.txt``: 3, 2, 1 points by order of correct digs, the
treasure falling 6, 3, 1, 0, only a player's first card on a target counting,
ties to the first digger.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import MAX_PLAYERS, MIN_PLAYERS, Code, check_deal, is_int
from isles.models.status import Status

__all__ = [
    "CrewCard",
    "GameScore",
    "dig_points",
    "score_game",
    "score_range",
    "treasure_left",
]

_DIG_POINTS = (3, 2, 1)
_TREASURE = (6, 3, 1, 0)


def dig_points(earlier_digs: int) -> int:
    """Points for a correct dig after ``earlier_digs`` correct digs on that treasure.

    Parameters
    ----------
    earlier_digs : int
        Correct digs by others on that treasure before this one.

    Returns
    -------
    int
        3, 2, 1, then 0 (docs/plunder.md, "The game").

    Examples
    --------
    >>> [dig_points(k) for k in range(5)]
    [3, 2, 1, 0, 0]
    """
    return _DIG_POINTS[earlier_digs] if earlier_digs < len(_DIG_POINTS) else 0


def treasure_left(digs: int) -> int:
    """What a treasure is worth to its owner after ``digs`` correct digs (6, 3, 1, 0).

    Parameters
    ----------
    digs : int
        Correct digs on the treasure.

    Returns
    -------
    int

    Examples
    --------
    >>> [treasure_left(k) for k in range(5)]
    [6, 3, 1, 0, 0]
    """
    return _TREASURE[min(digs, len(_TREASURE) - 1)]


def score_range(players: int) -> tuple[int, int]:
    """The lowest and highest total one player can score in a game of ``players``.

    Parameters
    ----------
    players : int
        2..6.

    Returns
    -------
    (int, int)
        Lowest: the treasure after every other player dug it
        (``treasure_left(players - 1)``, nothing dug); highest: the whole
        treasure kept and the first correct dig on every other treasure
        (``treasure_left(0) + (players - 1) * dig_points(0)``).

    Raises
    ------
    InvalidInput
        ``players`` not an integer in MIN_PLAYERS..MAX_PLAYERS.

    Notes
    -----
    docs/plunder.md, "The game" (seed ``seeds/003_cfc377110defcf34.txt``): the
    bounds follow from :func:`treasure_left` and :func:`dig_points`; both are
    reached (a player whose treasure all others dig and who digs nothing; a
    player nobody digs who digs every other treasure first).

    Examples
    --------
    >>> [score_range(n) for n in range(2, 7)]
    [(3, 9), (1, 12), (0, 15), (0, 18), (0, 21)]
    """
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput("players", players, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
    return treasure_left(players - 1), treasure_left(0) + (players - 1) * dig_points(0)


@dataclass(frozen=True)
class CrewCard:
    """A crew card in the chest: ``proposer`` guesses that ``target`` holds ``code``.

    Parameters
    ----------
    proposer, target : int
        Player indices (their range is checked by :func:`score_game`).
    code : Code
        The guessed code.

    Raises
    ------
    InvalidInput
        A player that is not an integer, or a code that is not a :class:`Code`.

    Examples
    --------
    >>> CrewCard(0, 1, Code(1, 1, 1)).target
    1
    """

    proposer: int
    target: int
    code: Code

    def __post_init__(self) -> None:
        for name in ("proposer", "target"):
            if not is_int(getattr(self, name)):
                raise InvalidInput(f"crew card.{name}", getattr(self, name), "a player index")
        if not isinstance(self.code, Code):
            raise InvalidInput("crew card.code", self.code, "a Code")


@dataclass(frozen=True)
class GameScore:
    """The scores of a finished game.

    Attributes
    ----------
    treasure : tuple of int
        What remains of each player's own treasure.
    dug : tuple of int
        Points each player dug from others.
    total : tuple of int
        ``treasure + dug`` per player.
    counted : tuple of bool
        Per crew card in chest order: whether it counts (the proposer's first
        card on that target) and was correct.
    first_dig : tuple of int or None
        Per player, the chest position of their first correct dig.
    winners : tuple of int
        The player(s) with the highest total after the tie-break (ties go to
        whoever dug a treasure first; tied players who never dug stay tied).

    Examples
    --------
    >>> s = score_game([Code(0, 0, 0), Code(1, 1, 1)], [CrewCard(0, 1, Code(1, 1, 1))])
    >>> s.treasure, s.dug, s.winners
    ((6, 3), (3, 0), (0,))
    """

    treasure: tuple[int, ...]
    dug: tuple[int, ...]
    total: tuple[int, ...]
    counted: tuple[bool, ...]
    first_dig: tuple[int | None, ...]
    winners: tuple[int, ...]

    @property
    def status(self) -> Status:
        """Always ``exact``: the scores follow from the deal and the chest."""
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """The scores as JSON (docs/json.md): lists indexed by player, ``null`` for no dig.

        >>> score_game([Code(0, 0, 0), Code(1, 1, 1)], []).to_dict()["total"]
        [6, 6]
        """
        return {
            "status": str(self.status),
            "treasure": list(self.treasure),
            "dug": list(self.dug),
            "total": list(self.total),
            "counted": list(self.counted),
            "first_dig": list(self.first_dig),
            "winners": list(self.winners),
        }


def score_game(codes: Sequence[Code], chest: Iterable[CrewCard]) -> GameScore:
    """Score a finished game from the true codes and the chest, read in order.

    Parameters
    ----------
    codes : sequence of Code
        The true deal, one code per player (2..6 players, distinct per category).
    chest : iterable of CrewCard
        The crew cards in the order they went in.

    Returns
    -------
    GameScore

    Raises
    ------
    InvalidInput
        An illegal deal, a crew card naming a player out of range or its own
        proposer, or a player using more crew cards than there are players.

    Notes
    -----
    docs/plunder.md, "The game" and rule decision 8: only a player's first
    crew card on a target counts; a correct guess is worth 3, 2, 1, then 0
    points by order of correct digs; the treasure falls 6 -> 3 -> 1 -> 0.
    Ties go to the first digger.

    Examples
    --------
    >>> deal = [Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2)]
    >>> s = score_game(deal, [CrewCard(0, 1, Code(1, 1, 1)), CrewCard(2, 1, Code(1, 1, 1))])
    >>> s.total, s.winners
    ((9, 1, 8), (0,))
    """
    codes = list(codes)
    n = len(codes)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput("codes", n, f"one code per player, {MIN_PLAYERS}..{MAX_PLAYERS}")
    for p, code in enumerate(codes):
        if not isinstance(code, Code):
            raise InvalidInput(f"codes[{p}]", code, "a Code")
    check_deal(n, codes)
    digs = [0] * n
    dug = [0] * n
    used = [0] * n
    first_dig: list[int | None] = [None] * n
    played: set[tuple[int, int]] = set()
    counted: list[bool] = []
    for k, card in enumerate(chest):
        where = f"chest[{k}]"
        if not isinstance(card, CrewCard):
            raise InvalidInput(where, card, "a CrewCard")
        if not 0 <= card.proposer < n:
            raise InvalidInput(f"{where}.proposer", card.proposer, f"a player in 0..{n - 1}")
        if not 0 <= card.target < n or card.target == card.proposer:
            raise InvalidInput(f"{where}.target", card.target, "another player's index")
        used[card.proposer] += 1
        if used[card.proposer] > n:
            raise InvalidInput(where, card.proposer, f"at most {n} crew cards per player")
        key = (card.proposer, card.target)
        ok = key not in played and codes[card.target] == card.code
        played.add(key)
        counted.append(ok)
        if ok:
            dug[card.proposer] += dig_points(digs[card.target])
            digs[card.target] += 1
            if first_dig[card.proposer] is None:
                first_dig[card.proposer] = k
    treasure = [treasure_left(d) for d in digs]
    total = [t + d for t, d in zip(treasure, dug, strict=True)]
    best = max(total)
    tied = [p for p in range(n) if total[p] == best]
    diggers = [p for p in tied if first_dig[p] is not None]
    winners: tuple[int, ...] = tuple(tied)
    if len(tied) > 1 and diggers:
        winners = (min(diggers, key=lambda p: first_dig[p] or 0),)
    return GameScore(
        tuple(treasure), tuple(dug), tuple(total), tuple(counted), tuple(first_dig), winners
    )
