"""Plunder flip advice: which deck to flip (or none) to learn the most from the answers.

Implements docs/plunder.md (rule decision 6, "Answer vectors with the unnamed values
lumped"; seed ``seeds/003_cfc377110defcf34.txt``): the exact number of deals giving
each answer vector to a clue, and the expected information of each flip, in bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput, expect
from isles.models.jsonio import probability_json
from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Category, Code
from isles.models.plunder.record import Record, check_player
from isles.models.status import Status
from isles.solvers.plunder.answers import answer_counts, named_values
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.counting import allowed_codes

__all__ = [
    "ENTROPY_ERROR_BITS",
    "FlipAdvice",
    "FlipOption",
    "answer_distribution",
    "flip_advice",
    "rank_flips",
]

IntArray = npt.NDArray[np.int64]

ENTROPY_ERROR_BITS = 1e-9
"""Bound on the absolute error of every entropy / information gain (float64 from
exact integer counts: at most 2**5 terms, each with relative error ~1e-15)."""


def answer_distribution(record: Record, clue: Code, active: int) -> dict[tuple[bool, ...], int]:
    """How many consistent deals give each answer vector to ``clue``.

    Parameters
    ----------
    record : Record
        The record.
    clue : Code
        The combination on the table.
    active : int
        The active player (who does not answer).

    Returns
    -------
    dict
        Answer vector of the other players (in player order) -> number of
        consistent deals giving it; vectors with no deal are left out.

    Raises
    ------
    InvalidInput
        ``clue`` not a Code, or ``active`` not a player index.

    Notes
    -----
    A forward pass over players with one column per answer prefix, the
    values no clue names lumped into one class per category
    (:func:`~isles.solvers.plunder.answers.answer_counts`): exact int64
    counts. docs/plunder.md, "Answer vectors with the unnamed values lumped";
    seed ``seeds/003_cfc377110defcf34.txt``.

    Examples
    --------
    >>> answer_distribution(Record(2), Code(0, 0, 0), 0)
    {(False,): 15625, (True,): 11375}
    """
    active = check_player(record, active)
    if not isinstance(clue, Code):
        raise InvalidInput("clue", clue, "a Code")
    (counts,) = answer_counts(allowed_codes(record), named_values(record), active, [clue])
    return _as_distribution(counts, record.players - 1)


def _as_distribution(counts: IntArray, answerers: int) -> dict[tuple[bool, ...], int]:
    """Answer vector -> deals, from counts indexed by vectors (bit j: j-th answerer)."""
    out = {
        tuple(bool(idx >> j & 1) for j in range(answerers)): int(n)
        for idx, n in enumerate(counts)
        if n
    }
    return dict(sorted(out.items()))


def _entropy_bits(counts: Sequence[int]) -> float:
    total = sum(counts)
    return sum(n / total * math.log2(total / n) for n in counts if n) if total else 0.0


@dataclass(frozen=True)
class FlipOption:
    """One choice of the active player: no flip (``deck`` None) or flip one deck.

    Attributes
    ----------
    deck : Category or None
        The deck flipped, or None for no flip.
    expected_bits : float
        The expected information (bits) the answers will give about the
        opponents' codes, averaged over the card that can come up; absolute
        error below :data:`ENTROPY_ERROR_BITS`.
    cards : tuple of (int, Fraction, float)
        ``(value, probability of that card, bits with it)`` for each card
        that can come up (empty for no flip).

    Examples
    --------
    >>> FlipOption(None, 1.5, ()).to_dict()
    {'deck': None, 'expected_bits': 1.5, 'cards': []}
    """

    deck: Category | None
    expected_bits: float
    cards: tuple[tuple[int, Fraction, float], ...]

    def to_dict(self) -> dict[str, Any]:
        """The option as JSON; card probabilities as ``p`` and ``p_exact``."""
        return {
            "deck": self.deck.value if self.deck else None,
            "expected_bits": self.expected_bits,
            "cards": [
                {"value": v, **probability_json("p", x), "bits": b} for v, x, b in self.cards
            ],
        }


@dataclass(frozen=True)
class FlipAdvice:
    """Which deck to flip: the options, best first (ties keep the order none, island,
    marker, trap).

    Attributes
    ----------
    clue : Code
        The combination on the table before the choice.
    active : int
        The active player.
    options : tuple of FlipOption
        No flip and each deck that is not exhausted, most expected bits first.

    Examples
    --------
    >>> adv = flip_advice(Record(2), Code(0, 0, 0), 0)
    >>> adv.to_dict()["status"], adv.best.deck
    ('exact', None)
    """

    clue: Code
    active: int
    options: tuple[FlipOption, ...]

    @property
    def status(self) -> Status:
        """``exact``: exact counts; the floats carry :data:`ENTROPY_ERROR_BITS`."""
        return Status.EXACT

    @property
    def best(self) -> FlipOption:
        """The option with the most expected bits."""
        return self.options[0]

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON, with the ``error_bound`` (bits) of every float."""
        return {
            "status": str(self.status),
            "clue": self.clue.to_dict(),
            "active": self.active,
            "error_bound": ENTROPY_ERROR_BITS,
            "options": [o.to_dict() for o in self.options],
        }


def _deck_odds(seen: Sequence[int]) -> list[tuple[int, Fraction]]:
    left = [COPIES - seen[v] for v in range(VALUES)]
    total = sum(left)
    return [(v, Fraction(left[v], total)) for v in range(VALUES) if left[v]]


def _check_seen(seen: object) -> list[list[int]]:
    shape = f"three rows (island, marker, trap) of six counts in 0..{COPIES}"
    if isinstance(seen, str | bytes) or not isinstance(seen, Sequence) or len(seen) != 3:
        raise InvalidInput("seen", seen, shape)
    rows = []
    for row in seen:
        if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != VALUES:
            raise InvalidInput("seen", seen, shape)
        for n in row:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= COPIES:
                raise InvalidInput("seen", seen, shape)
        rows.append(list(row))
    return rows


def _clue_bits(record: Record, active: int, clues: Sequence[Code]) -> dict[Code, float]:
    """The entropy (bits) of the answers to each clue: from a :class:`Belief` when the
    record has ``me``, else from :func:`~isles.solvers.plunder.answers.answer_counts`
    (all the clues in a few passes)."""
    unique = list(dict.fromkeys(clues))
    if record.me is not None:
        belief = Belief.from_record(record)
        dists = [belief.answer_distribution(c, active) for c in unique]
    else:
        counts = answer_counts(allowed_codes(record), named_values(record), active, unique)
        dists = [_as_distribution(row, record.players - 1) for row in counts]
    if not dists[0]:
        raise InvalidInput("record", "inconsistent", "a consistent record for advice")
    return {c: _entropy_bits(list(d.values())) for c, d in zip(unique, dists, strict=True)}


def flip_advice(
    record: Record,
    clue: Code,
    active: int,
    seen: Sequence[Sequence[int]] | None = None,
) -> FlipAdvice:
    """Which deck to flip (or none) to learn the most from the answers.

    Parameters
    ----------
    record : Record
        A consistent record.
    clue : Code
        The combination on the table before the active player's choice.
    active : int
        The active player.
    seen : three sequences of six ints, optional
        Cards of each value already out of each deck (default: ``record.seen``).
        With all zeros the flipped card is uniform over the six values; else a
        value comes up with probability proportional to its copies left (3 -
        seen). An exhausted deck is not an option.

    Returns
    -------
    FlipAdvice
        Options sorted by expected information gain, best first.

    Raises
    ------
    InvalidInput
        An inconsistent record or a bad ``clue``/``active``/``seen``.

    Notes
    -----
    Answers are a function of the deal, so the information they give about the
    deal (hence about the opponents' codes, my own being known) is the entropy
    of the answer vector, computed from the exact counts of
    :func:`answer_distribution`: with ``record.me`` given, taken from a
    :class:`~isles.solvers.plunder.belief.Belief`; else every clue an option
    can give counted in one lumped pass per deck
    (:func:`~isles.solvers.plunder.answers.answer_counts`). Both take
    milliseconds for 6 players (the passes over every value took 0.35 to
    0.6 s). docs/plunder.md, rule decision 6 and "Answer vectors with the
    unnamed values lumped".

    Examples
    --------
    >>> adv = flip_advice(Record(2), Code(0, 0, 0), 0)
    >>> [o.deck for o in adv.options][0] is None
    True
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    active = check_player(record, active)
    if not isinstance(clue, Code):
        raise InvalidInput("clue", clue, "a Code")
    return rank_flips(record, clue, active, _check_seen(record.seen if seen is None else seen))


def rank_flips(
    record: Record, clue: Code, active: int, seen: Sequence[Sequence[int]]
) -> FlipAdvice:
    """:func:`flip_advice` on arguments already checked (a question's, a record's ``seen``).

    Examples
    --------
    >>> rank_flips(Record(2), Code(0, 0, 0), 0, Record(2).seen).best.deck is None
    True
    """
    decks = [(cat, _deck_odds(row)) for cat, row in zip(CATEGORIES, seen, strict=True)]
    bits = _clue_bits(
        record, active, [clue, *(clue.replace(cat, v) for cat, odds in decks for v, _ in odds)]
    )
    options = [FlipOption(None, bits[clue], ())]
    for cat, odds in decks:
        if not odds:
            continue
        cards = tuple((v, p, bits[clue.replace(cat, v)]) for v, p in odds)
        options.append(FlipOption(cat, sum(float(p) * b for _, p, b in cards), cards))
    order = sorted(range(len(options)), key=lambda i: (-round(options[i].expected_bits, 9), i))
    return FlipAdvice(clue, active, tuple(options[i] for i in order))
