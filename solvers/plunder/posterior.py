"""Plunder: the exact posterior over deals, as counts (shared by the solvers and the bots).

Implements docs/plunder.md ("How the posterior is computed"; seed
``seeds/003_cfc377110defcf34.txt``). :class:`Posterior` is the answer of
:func:`isles.solvers.plunder.counting.posterior` (counting passes) and of
:meth:`isles.solvers.plunder.belief.Belief.posterior` (an explicit set of
deals): both modules build on this one, which imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.plunder.codes import CATEGORIES, CODES, VALUES, Category, Code
from isles.models.status import Status

__all__ = ["CODE_VALUES", "Posterior"]

#: Value of every code index per category, shape (3, 216).
CODE_VALUES: npt.NDArray[np.int64] = np.array(
    [[Code.from_index(c).values[k] for c in range(CODES)] for k in range(3)], dtype=np.int64
)


@dataclass(frozen=True)
class Posterior:
    """The exact posterior over deals under the uniform prior.

    Attributes
    ----------
    players : int
        Number of players.
    deals : int
        Number of deals consistent with the record (exact).
    code_counts : tuple of tuple of int
        ``code_counts[p][c]``: consistent deals in which player p holds the code
        of index c (``Code.index``), shape (players, 216).

    Notes
    -----
    Every probability is a ``Fraction`` of two exact counts. When ``deals ==
    0`` (an inconsistent record) no probability is defined: the methods
    return 0 and :meth:`to_dict` writes ``null``.

    Examples
    --------
    >>> from isles.models.plunder.codes import Category
    >>> from isles.models.plunder.record import Record
    >>> from isles.solvers.plunder.counting import posterior
    >>> post = posterior(Record(2))
    >>> post.status, post.deals, post.value_probability(0, Category.ISLAND, 3)
    (<Status.EXACT: 'exact'>, 27000, Fraction(1, 6))
    """

    players: int
    deals: int
    code_counts: tuple[tuple[int, ...], ...]

    @property
    def status(self) -> Status:
        """``exact`` when at least one deal remains, else ``inconsistent``."""
        return Status.EXACT if self.deals else Status.INCONSISTENT

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidInput("player", player, f"a player index in 0..{self.players - 1}")
        if not 0 <= player < self.players:
            raise InvalidInput("player", player, f"a player index in 0..{self.players - 1}")

    def code_probability(self, player: int, code: Code) -> Fraction:
        """P(player holds exactly ``code``).

        >>> from isles.models.plunder.codes import Category
        >>> from isles.models.plunder.record import Record
        >>> from isles.solvers.plunder.counting import posterior
        >>> posterior(Record(2)).code_probability(0, Code(1, 2, 3))
        Fraction(1, 216)
        """
        self._check_player(player)
        if not self.deals:
            return Fraction(0)
        return Fraction(self.code_counts[player][code.index], self.deals)

    def value_counts(self, player: int, category: Category) -> tuple[int, ...]:
        """Consistent deals giving ``player`` each value 0..5 of ``category``.

        >>> from isles.models.plunder.codes import Category
        >>> from isles.models.plunder.record import Record
        >>> from isles.solvers.plunder.counting import posterior
        >>> posterior(Record(2)).value_counts(1, Category.TRAP)
        (4500, 4500, 4500, 4500, 4500, 4500)
        """
        self._check_player(player)
        k = CATEGORIES.index(category)
        counts = [0] * VALUES
        for c, n in enumerate(self.code_counts[player]):
            counts[int(CODE_VALUES[k, c])] += n
        return tuple(counts)

    def value_probability(self, player: int, category: Category, value: int) -> Fraction:
        """P(player holds ``value`` in ``category``)."""

        if not (isinstance(value, int) and 0 <= value < VALUES):
            raise InvalidInput("value", value, f"a value index in 0..{VALUES - 1}")
        if not self.deals:
            return Fraction(0)
        return Fraction(self.value_counts(player, category)[value], self.deals)

    def marginals(self, player: int) -> dict[Category, tuple[Fraction, ...]]:
        """Per category, the probabilities of the six values.

        >>> from isles.models.plunder.codes import Category
        >>> from isles.models.plunder.record import Record
        >>> from isles.solvers.plunder.counting import posterior
        >>> posterior(Record(2)).marginals(0)[Category.ISLAND][0]
        Fraction(1, 6)
        """
        return {
            cat: tuple(
                Fraction(n, self.deals) if self.deals else Fraction(0)
                for n in self.value_counts(player, cat)
            )
            for cat in CATEGORIES
        }

    def possible(self, player: int, category: Category) -> tuple[int, ...]:
        """The values the player can still hold (positive probability)."""
        return tuple(v for v, n in enumerate(self.value_counts(player, category)) if n)

    def forced(self, player: int, category: Category) -> int | None:
        """The value the player must hold, if the record forces one."""
        vals = self.possible(player, category)
        return vals[0] if len(vals) == 1 else None

    def codes(self, player: int) -> list[tuple[Code, Fraction]]:
        """The codes the player can hold, most likely first (ties by index).

        >>> from isles.models.plunder.codes import Category
        >>> from isles.models.plunder.record import Record
        >>> from isles.solvers.plunder.counting import posterior
        >>> posterior(Record(2)).codes(0)[0]
        (Code(island=0, marker=0, trap=0), Fraction(1, 216))
        """
        self._check_player(player)
        counts = self.code_counts[player]
        order = sorted((c for c in range(CODES) if counts[c]), key=lambda c: (-counts[c], c))
        return [(Code.from_index(c), Fraction(counts[c], self.deals)) for c in order]

    def to_dict(self) -> dict[str, Any]:
        """The posterior as JSON (docs/plunder.md, "JSON output").

        Per player: per category the six values with ``p`` and ``p_exact``,
        then every code the player can hold, most likely first. ``players``
        is ``null`` for an inconsistent record (no probability is defined).

        Examples
        --------
        >>> from isles.models.plunder.codes import Category
        >>> from isles.models.plunder.record import Record
        >>> from isles.solvers.plunder.counting import posterior
        >>> d = posterior(Record(2)).to_dict()
        >>> d["status"], d["deals"], d["players"][0]["island"][0]
        ('exact', 27000, {'value': 0, 'p': 0.16666666666666666, 'p_exact': '1/6'})
        """
        players: list[dict[str, Any]] | None = None
        if self.deals:
            players = []
            for p in range(self.players):
                entry: dict[str, Any] = {"player": p}
                for cat, probs in self.marginals(p).items():
                    entry[cat.value] = [
                        {"value": v, **probability_json("p", x)} for v, x in enumerate(probs)
                    ]
                entry["codes"] = [
                    {"code": c.to_dict(), **probability_json("p", x)} for c, x in self.codes(p)
                ]
                players.append(entry)
        return {"status": str(self.status), "deals": self.deals, "players": players}
