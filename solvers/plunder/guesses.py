"""Plunder guess advice: the best crew card on each opponent now, and its expected points.

Implements docs/plunder.md (rule decision 7: myopic guesses; seed
``seeds/003_cfc377110defcf34.txt``): each opponent's most likely code from the exact
posterior, its probability and the points of a correct dig after the digs before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from isles.models.errors import InvalidInput, expect
from isles.models.jsonio import probability_json
from isles.models.plunder.codes import Code
from isles.models.plunder.record import Record, check_player
from isles.models.plunder.scoring import dig_points
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.posterior import Posterior

__all__ = ["Guess", "guess_advice", "rank_guesses"]


@dataclass(frozen=True)
class Guess:
    """The best crew card on one opponent now.

    Attributes
    ----------
    target : int
        The opponent.
    code : Code
        Their most likely code (ties by code index).
    probability : Fraction
        P(target holds ``code``), exact.
    earlier_digs : int
        Correct digs by others on that treasure before mine.
    expected_points : Fraction
        ``probability`` x the points of a correct dig after ``earlier_digs``
        (3, 2, 1, 0).

    Examples
    --------
    >>> g = Guess(1, Code(4, 4, 4), Fraction(1, 2), 0, Fraction(3, 2))
    >>> g.to_dict()["expected_points_exact"]
    '3/2'
    """

    target: int
    code: Code
    probability: Fraction
    earlier_digs: int
    expected_points: Fraction

    def to_dict(self) -> dict[str, Any]:
        """The guess as JSON: ``p``, ``expected_points`` and their exact ``"p/q"``."""
        return {
            "target": self.target,
            "code": self.code.to_dict(),
            **probability_json("p", self.probability),
            "earlier_digs": self.earlier_digs,
            **probability_json("expected_points", self.expected_points),
        }


def _check_digs(record: Record, earlier_digs: Mapping[int, int] | None) -> dict[int, int]:
    if earlier_digs is None:
        return {}
    if not isinstance(earlier_digs, Mapping):
        raise InvalidInput("earlier_digs", earlier_digs, "a mapping of player index to a count")
    for p, k in earlier_digs.items():
        check_player(record, p, "earlier_digs")
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise InvalidInput(f"earlier_digs.{p}", k, "a count >= 0")
    return dict(earlier_digs)


def guess_advice(
    record: Record,
    post: Posterior | None = None,
    earlier_digs: Mapping[int, int] | None = None,
) -> tuple[Guess, ...]:
    """For each opponent, the most likely code, its probability, its expected points.

    Parameters
    ----------
    record : Record
        The record.
    post : Posterior, optional
        The posterior of ``record`` (computed when omitted).
    earlier_digs : mapping player -> int, optional
        Correct digs already made on each target's treasure (default 0: I
        would be the first, worth 3 points).

    Returns
    -------
    tuple of Guess
        One per opponent (every player but me), best expected points first.
        Empty for an inconsistent record.

    Raises
    ------
    InvalidInput
        ``earlier_digs`` naming a player out of range or a count below 0.

    Notes
    -----
    Myopic: the crew card now, not whether to keep it for later
    (docs/plunder.md, rule decision 7).

    Examples
    --------
    >>> g = guess_advice(Record(2))[0]
    >>> g.probability, g.expected_points
    (Fraction(1, 216), Fraction(1, 72))
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    return rank_guesses(record, post or posterior(record), _check_digs(record, earlier_digs))


def rank_guesses(record: Record, post: Posterior, digs: Mapping[int, int]) -> tuple[Guess, ...]:
    """:func:`guess_advice` on arguments already checked (a question's ``earlier_digs``).

    Examples
    --------
    >>> [g.target for g in rank_guesses(Record(3), posterior(Record(3)), {1: 3})]
    [0, 2, 1]
    """
    if not post.deals:
        return ()
    out = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        code, prob = post.codes(p)[0]
        k = digs.get(p, 0)
        out.append(Guess(p, code, prob, k, prob * dig_points(k)))
    return tuple(sorted(out, key=lambda g: (-g.expected_points, g.target)))
