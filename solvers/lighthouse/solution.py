"""Lighthouses: the result every table shares, its error bound and its memory estimate.

Implements docs/lighthouse.md ("The dynamic programme", "Memory"; seed
000_aeb701e368f40145.txt): :class:`LighthouseSolution` (the win probability of
every position of a kit under one policy), the error bound of its floats, the
memory a solve needs, and its tables. The class DP (dp.py) and greedy play's
layer sweep (greedy.py) both build it; neither imports the other's solver.
"""

from __future__ import annotations

import itertools
import mmap
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import MAX_EXACT_ISLANDS, MAX_FRACTION_ISLANDS, Policy
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.position import Position
from isles.models.status import Status
from isles.solvers.lighthouse.policies import check_policy, policy_status
from isles.solvers.lighthouse.symmetry import colour_group

__all__ = [
    "MAX_DP_BYTES",
    "LighthouseSolution",
    "TableIndex",
    "by_sea_cards_json",
    "check_kit",
    "class_counts",
    "dp_memory_bytes",
    "error_bound",
    "new_table",
]

MAX_DP_BYTES = 8 * 2**30
"""Largest estimated memory (:func:`dp_memory_bytes`) an exact solve may use: 8 GiB."""


class TableIndex(Protocol):
    """Where a position's values sit in a table: a row per class (or per lighthouse code)."""

    @property
    def first_discs(self) -> int:
        """Discs laid in the first position solved (0: from the start)."""

    @property
    def size(self) -> int:
        """Rows of the table."""

    def row(self, kit: Kit, position: Position) -> int:
        """The row of ``position``'s lighthouses, or -1 when the table does not hold it."""

    @property
    def group_size(self) -> int:
        """Elements of the colour group the rows are classes of (1: none)."""


def by_sea_cards_json(values: tuple[Fraction | float, ...]) -> list[dict[str, Any]]:
    """``[{"sea_cards": k, "win_probability": p, "win_probability_exact": ...}]``, k = 1..

    Examples
    --------
    >>> by_sea_cards_json((Fraction(1, 2),))
    [{'sea_cards': 1, 'win_probability': 0.5, 'win_probability_exact': '1/2'}]
    """
    return [
        {"sea_cards": k, **probability_json("win_probability", v)} for k, v in enumerate(values, 1)
    ]


@dataclass(frozen=True, eq=False)
class LighthouseSolution:
    """The win probability of every position of a kit under one policy (from :func:`solve`).

    Rows are classes of positions (optimal and random play, :mod:`classes`) or
    lighthouse codes (greedy play); a table solved from a later position
    (:func:`~isles.solvers.lighthouse.advice.solve_from`) holds only the
    positions that can follow it.

    Parameters
    ----------
    kit : Kit
        The kit solved.
    policy : {"optimal", "greedy", "random"}
        The players' policy.
    index : TableIndex
        The rows: a position's row is ``index.row(kit, position)``.
    first_boat : int
        Boat position of the first position: only boats ``first_boat .. sea_cards``
        are valued (the boat never goes back).
    values : ndarray, shape (rows, sea_cards + 1 - first_boat, islands)
        ``values[j, b - first_boat, m]``: win probability of row ``j`` with the
        boat on ``b`` and Maurice ``m`` islands past his own; floats (within
        ``error_bound``) or Fractions (``exact``).
    exact : bool
        Whether ``values`` holds Fractions.
    error_bound : float
        Bound on the error of every float value (0 for Fractions).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.dp import solve
    >>> sol = solve(default_kit(2, 2), exact=True)
    >>> sol.exact_win_probability(), sol.status
    (Fraction(196809133707275, 304679870005248), <Status.OPTIMAL: 'optimal'>)
    """

    kit: Kit
    policy: Policy
    index: TableIndex = field(repr=False)
    first_boat: int
    values: npt.NDArray[Any] = field(repr=False)
    exact: bool
    error_bound: float

    @property
    def status(self) -> Status:
        """``optimal`` for optimal play, ``exact`` for greedy or random play."""
        return policy_status(self.policy)

    @property
    def classes(self) -> int:
        """Number of rows valued (classes, or lighthouse codes for greedy play)."""
        return self.index.size

    @property
    def positions(self) -> int:
        """Number of (row, boat, Maurice) values held."""
        return int(self.values.shape[0] * self.values.shape[1] * self.values.shape[2])

    @property
    def from_start(self) -> bool:
        """Whether the table was solved from the start (it then has start values)."""
        return self.index.first_discs == 0 and self.first_boat == 0

    def value(self, position: Position) -> Fraction | float:
        """Win probability of ``position`` under this policy.

        Parameters
        ----------
        position : Position
            A position of the kit; when the solution was computed from a later
            position, one that can follow it.

        Returns
        -------
        Fraction or float
            1 for a won position. A Fraction when ``exact``.

        Raises
        ------
        InvalidInput
            The position does not fit the kit, or cannot follow the first position.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.dp import solve
        >>> sol = solve(default_kit(1, 1), exact=True)
        >>> sol.value(Position((("red", "blue", "red"),), 1, 0))
        Fraction(25, 36)
        """
        position.check(self.kit)
        if position.is_won():
            return Fraction(1) if self.exact else 1.0
        row = self.index.row(self.kit, position)
        if row < 0 or position.boat < self.first_boat:
            raise InvalidInput(
                "position",
                position.to_dict(),
                "a position that can follow the position this table was solved from",
            )
        v = self.values[row, position.boat - self.first_boat, position.maurice]
        return Fraction(v) if self.exact else float(v)

    def by_code(self) -> npt.NDArray[Any]:
        """The values in the layout of lighthouse codes: ``(8**n, boats, n)``, one row per code.

        Row ``position_code(kit, position)`` holds the position's values (the
        finished code: 1); a code the table does not hold (it cannot follow
        the first position) is NaN (None in Fraction tables). For comparing
        tables and for array cores (kits of up to 7 islands: 8 islands have
        16.8 M codes).

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.models.lighthouse.position import position_code
        >>> from isles.solvers.lighthouse.dp import solve
        >>> kit = default_kit(2, 2)
        >>> sol = solve(kit)
        >>> pos = Position((("red",), ()), 1, 0)
        >>> float(sol.by_code()[position_code(kit, pos), 1, 0]) == sol.value(pos)
        True
        """
        n = len(self.kit.islands)
        codes = np.arange(8**n, dtype=np.int64)
        coding = getattr(self.index, "coding", None)
        if coding is None:
            rows = codes
        else:
            open_states, pool = coding.codes_to_state(codes)
            keys, _ = coding.canonical(open_states, pool)
            rows = self.index.indices(keys, coding.discs_laid(open_states, pool))  # type: ignore[attr-defined]
        out = np.empty((codes.size, *self.values.shape[1:]), dtype=self.values.dtype)
        found = rows >= 0
        out[found] = self.values[rows[found]]
        out[~found] = None if self.exact else np.nan
        return out

    def win_probability(self, sea_cards: int | None = None) -> float:
        """Win probability from the start with ``sea_cards`` sea cards (default: the kit's).

        A game with ``k`` cards is the kit's game with the boat already on card
        ``kit.sea_cards - k`` (docs/lighthouse.md, "Fewer sea cards"), so one
        solve answers every ``k`` in ``1..kit.sea_cards``.

        Raises
        ------
        InvalidInput
            ``sea_cards`` outside ``1..kit.sea_cards``, or a table solved from a
            later position (no start value).

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.dp import solve
        >>> sol = solve(default_kit(2, 3))
        >>> [round(sol.win_probability(k), 4) for k in (1, 2, 3)]
        [0.3792, 0.646, 0.8348]
        """
        return float(self._start(sea_cards))

    def exact_win_probability(self, sea_cards: int | None = None) -> Fraction | None:
        """The exact win probability from the start (Fraction tables), else None."""
        return Fraction(self._start(sea_cards)) if self.exact else None

    @property
    def by_sea_cards(self) -> tuple[Fraction | float, ...]:
        """Win probabilities from the start for ``1..kit.sea_cards`` sea cards.

        Fractions for exact tables, else floats; empty for a table solved from
        a later position.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.dp import solve
        >>> [round(p, 4) for p in solve(default_kit(3, 3)).by_sea_cards]
        [0.1603, 0.3785, 0.5777]
        """
        if not self.from_start:
            return ()
        conv: Callable[[Any], Fraction | float] = Fraction if self.exact else float
        return tuple(conv(self._start(k)) for k in range(1, self.kit.sea_cards + 1))

    def _start(self, sea_cards: int | None) -> Any:
        k = self.kit.sea_cards if sea_cards is None else sea_cards
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"an integer in 1..{self.kit.sea_cards}")
        if not self.from_start:
            raise InvalidInput(
                "sea_cards", k, "a table solved from the start (this one starts later)"
            )
        return self.values[0, self.kit.sea_cards - k, 0]

    def to_dict(self) -> dict[str, Any]:
        """The answer in the JSON dialect of docs/json.md (docs/lighthouse.md, "JSON answers").

        ``status``, ``policy``, ``method`` (``dp``), the kit's size, the start
        value (null for a table solved from a later position) and ``by_sea_cards``,
        the ``error_bound`` of the floats, the rows (``classes``), the colour
        group's size and the values held (``positions``).

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.dp import solve
        >>> answer = solve(default_kit(1, 1), exact=True).to_dict()
        >>> answer["status"], answer["win_probability_exact"]
        ('optimal', '1226471/1679616')
        """
        starts = self.by_sea_cards
        return {
            "status": str(self.status),
            "policy": self.policy,
            "method": "dp",
            "islands": len(self.kit.islands),
            "sea_cards": self.kit.sea_cards,
            **probability_json("win_probability", starts[-1] if starts else None),
            "error_bound": self.error_bound,
            "classes": self.classes,
            "group_size": self.index.group_size,
            "positions": self.positions,
            "by_sea_cards": by_sea_cards_json(starts),
        }


def error_bound(kit: Kit, rolls: int, policy: Policy = "optimal") -> float:
    """Bound on the float error of every value (docs/lighthouse.md, "The dynamic programme").

    Parameters
    ----------
    kit : Kit
        The kit (its islands ``n`` and sea cards ``K``).
    rolls : int
        The number of distinct roll outcomes ``R`` (21 for the default dice).
    policy : {"optimal", "greedy", "random"}
        Random play's means add roundings (see Notes).

    Returns
    -------
    float
        The bound on ``|float value - exact value|`` for every position.

    Notes
    -----
    Each value is a sum of at most ``R + 5`` non-negative terms of values in
    [0, 1] (``R`` roll outcomes); maxima and greedy's selections are exact; so
    the error grows by at most ``(R + 5) 2**-53`` per turn along the longest
    chain of turns, ``(4n + 1)(K + 2)(n // 2 + 1)``; the bound is twice that
    product. Random play also averages: at most ``2n`` lighthouses for each of
    its two discs, two orders, ``2n`` bonus options, each mean a sum and one
    division, adding ``6n + 4`` roundings per turn.

    References
    ----------
    .. [1] N. J. Higham, *Accuracy and Stability of Numerical Algorithms*,
       2nd ed., SIAM, 2002, ch. 4 (error of sums of non-negative terms).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> f"{error_bound(default_kit(8, 8), 21):.1e}"
    '9.5e-12'
    """
    n = len(kit.islands)
    longest = (4 * n + 1) * (kit.sea_cards + 2) * (n // 2 + 1)
    per_turn = rolls + 5 + (6 * n + 4 if policy == "random" else 0)
    return 2.0 * longest * per_turn * 2.0**-53


# --- how big a solve is, before it starts ----------------------------------------------------


def class_counts(kit: Kit) -> list[int]:
    """Classes of each layer (discs laid ``0..4n``) without the colour group, exactly.

    A class is the open state of each lighthouse with at most two discs and
    the pool of colours the nearly full ones need (docs/lighthouse.md,
    "Classes"); this counts them for every set of pooled islands.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> sum(class_counts(default_kit(8)))
    12782016
    """
    n = len(kit.islands)
    colours = {c: k for k, c in enumerate(kit.colours)}
    # Open lighthouses: empty (1 way, 0 discs), 1 disc (2), 2 discs (2).
    open_ways = [1, 2, 2]
    counts = [0] * (DISCS_PER_LIGHTHOUSE * n + 1)
    for pooled in itertools.product((False, True), repeat=n):
        closed = [i for i in range(n) if pooled[i]]
        # Pool vectors with the discs they stand for: each closed lighthouse needs
        # one of its colours (3 discs) or is finished (4).
        pools: dict[tuple[int, ...], int] = {}
        for choice in itertools.product((0, 1, 2), repeat=len(closed)):
            vec = [0] * len(colours)
            discs = 0
            for i, pick in zip(closed, choice, strict=True):
                if pick == 2:
                    discs += 4
                else:
                    vec[colours[kit.islands[i][pick]]] += 1
                    discs += 3
            pools.setdefault(tuple(vec), discs)
        opened = [1]
        for _ in range(n - len(closed)):
            opened = [
                sum(open_ways[j] * opened[d - j] for j in range(3) if 0 <= d - j < len(opened))
                for d in range(len(opened) + 2)
            ]
        for discs in pools.values():
            for d, ways in enumerate(opened):
                counts[discs + d] += ways
    return counts


def dp_memory_bytes(kit: Kit, policy: str = "optimal") -> int:
    """Estimated peak memory of an exact solve of ``kit`` under ``policy``, in bytes.

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
        Optimal and random play: the class DP (:func:`solve`); greedy play: the
        layers of lighthouse codes (``isles.solvers.lighthouse.greedy``).

    Returns
    -------
    int
        Class DP: the value table (classes x boats x islands, float64), two
        one-more-disc tables of the widest layer, and the successor lists;
        the classes are those without the group divided by its size. Greedy:
        three layers of codes, the code index and the layer's codes.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> round(dp_memory_bytes(default_kit(8, 8)) / 2**30, 1)
    2.3
    """
    pol = check_policy(policy)
    n, width = len(kit.islands), (kit.sea_cards + 1) * len(kit.islands)
    if pol == "greedy":
        # Codes by discs laid: each lighthouse has 1 state of 0 discs, 2 of 1, 2, 3, 1 of 4.
        layers = [1]
        for _ in range(n):
            layers = [
                sum(
                    w * layers[d - j]
                    for j, w in enumerate((1, 2, 2, 2, 1))
                    if 0 <= d - j < len(layers)
                )
                for d in range(len(layers) + 4)
            ]
        three = max(sum(layers[d : d + 3]) for d in range(len(layers)))
        return int(three * width * 8 + 8**n * 4 + max(layers) * 8 * 2)
    size = colour_group(kit).size
    per_layer = [-(-c // size) for c in class_counts(kit)]
    classes, widest = sum(per_layer), max(per_layer)
    colours = len(kit.colours)
    entries = classes * 2 * n
    return int(
        classes * width * 8
        + 2 * widest * (colours + 1) * width * 8
        + entries * 6
        + classes * colours * 8
    )


def new_table(shape: tuple[int, ...], dtype: Any) -> npt.NDArray[Any]:
    """A table of values or a scratch buffer (zeros, or Nones for object arrays).

    Large float tables come from a private anonymous mapping, not from NumPy's
    allocator, which asks the kernel for transparent huge pages: on a machine
    whose memory is fragmented, faulting those in ran into compaction (5 s of
    system time in the 8-island solve), and the tables gain nothing from them
    in user time (each row is read a few times per layer, measured).

    Examples
    --------
    >>> new_table((2, 3), np.float64).sum()
    np.float64(0.0)
    """
    count = int(np.prod(shape, dtype=np.int64))
    if np.dtype(dtype).kind == "O" or count * 8 < 2**24 or not hasattr(mmap, "MAP_PRIVATE"):
        return (
            np.zeros(shape, dtype=dtype)
            if np.dtype(dtype).kind != "O"
            else np.empty(shape, dtype=dtype)
        )
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
    memory = mmap.mmap(-1, count * 8, flags=flags)
    return np.frombuffer(memory, dtype=np.float64, count=count).reshape(shape)


def check_kit(kit: Kit, policy: Policy, exact: bool) -> None:
    """Refuse a kit the class DP cannot solve: too many islands, Fractions or memory.

    Raises
    ------
    InvalidInput
        More than :data:`~isles.models.lighthouse.caps.MAX_EXACT_ISLANDS` islands,
        ``exact`` with more than :data:`~isles.models.lighthouse.caps.MAX_FRACTION_ISLANDS`,
        or an estimated memory (:func:`dp_memory_bytes`) above :data:`MAX_DP_BYTES`.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> check_kit(default_kit(8), "optimal", exact=False)
    >>> check_kit(default_kit(5), "optimal", exact=True)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: exact: given; expected exact Fractions for at most 4 ...
    """
    n = len(kit.islands)
    if n > MAX_EXACT_ISLANDS:
        raise InvalidInput(
            "kit.islands", None, f"at most {MAX_EXACT_ISLANDS} islands", problem=f"{n} islands"
        )
    if exact and n > MAX_FRACTION_ISLANDS:
        raise InvalidInput(
            "exact",
            True,
            f"exact Fractions for at most {MAX_FRACTION_ISLANDS} islands (this kit has {n}); "
            "floats carry a stated error bound",
            problem="given",
        )
    need = dp_memory_bytes(kit, policy)
    if need > MAX_DP_BYTES:
        raise InvalidInput(
            "kit",
            None,
            f"a kit whose exact solve fits in {MAX_DP_BYTES / 2**30:.0f} GiB (fewer islands, "
            "sea cards or colours; odds() estimates larger kits)",
            problem=f"about {need / 2**30:.1f} GiB needed",
        )
