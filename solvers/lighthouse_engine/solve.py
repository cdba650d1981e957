"""Lighthouses: the exact win probability of every position under optimal play, over classes.

Implements docs/lighthouse-engine.md (the class DP and its result) for the
game of docs/lighthouse.md (seed 000_aeb701e368f40145.txt).
"""

from __future__ import annotations

import mmap
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse import BOAT, Kit, Outcome, Position, Roll, legal_decisions, play_turn
from isles.models.status import Status
from isles.solvers.lighthouse import Advice
from isles.solvers.lighthouse_engine.classes import ClassGraph, ClassIndex, class_graph
from isles.solvers.lighthouse_engine.kernel import (
    Backend,
    finished_layer,
    layer_values,
    roll_table,
)
from isles.solvers.lighthouse_engine.symmetry import ClassCoding, ColourGroup, colour_group

__all__ = [
    "MAX_ENGINE_FRACTION_ISLANDS",
    "MAX_ENGINE_ISLANDS",
    "EngineSolution",
    "error_bound",
    "solve",
]

MAX_ENGINE_ISLANDS = 8
"""Largest kit the engine solves (8 islands: 1.61 M classes, a 0.93 GB table)."""

MAX_ENGINE_FRACTION_ISLANDS = 4
"""Largest kit solved in Fractions (object arrays, the NumPy kernel)."""


@dataclass(frozen=True, eq=False)
class EngineSolution:
    """The optimal win probability of every class of positions reachable from a first one.

    Parameters
    ----------
    kit : Kit
        The kit solved.
    group : ColourGroup
        The symmetries used for the classes.
    index : ClassIndex
        The classes: canonical keys layer by layer; a value row per class.
    first_boat : int
        Boat position of the first position: only boats ``first_boat .. sea_cards``
        are valued (the boat never goes back).
    values : ndarray, shape (classes, sea_cards + 1 - first_boat, islands)
        ``values[j, b - first_boat, m]``: win probability of class ``j`` with the
        boat on ``b`` and Maurice ``m`` islands past his own; floats (within
        ``error_bound``) or Fractions (``exact``).
    exact : bool
        Whether ``values`` holds Fractions.
    error_bound : float
        Bound on the error of every float value (0 for Fractions).

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> sol = solve(default_kit(2, 2), exact=True)
    >>> sol.exact_win_probability(), sol.status
    (Fraction(196809133707275, 304679870005248), <Status.OPTIMAL: 'optimal'>)
    """

    kit: Kit
    group: ColourGroup
    index: ClassIndex
    first_boat: int
    values: npt.NDArray[Any] = field(repr=False)
    exact: bool
    error_bound: float

    @property
    def status(self) -> Status:
        """Always :attr:`Status.OPTIMAL`: values under optimal play."""
        return Status.OPTIMAL

    @property
    def classes(self) -> int:
        """Number of classes valued."""
        return self.index.size

    @property
    def positions(self) -> int:
        """Number of (class, boat, Maurice) values held."""
        return int(self.values.shape[0] * self.values.shape[1] * self.values.shape[2])

    def value(self, position: Position) -> Fraction | float:
        """Win probability of ``position`` under optimal play.

        Parameters
        ----------
        position : Position
            A position of the kit; when the solution was computed from a later
            position (:func:`~isles.solvers.lighthouse_engine.reachable.solve_from`),
            one that can follow it.

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
        >>> from isles.models.lighthouse import default_kit
        >>> sol = solve(default_kit(1, 1), exact=True)
        >>> sol.value(Position((("red", "blue", "red"),), 1, 0))
        Fraction(25, 36)
        """
        position.check(self.kit)
        one: Fraction | float = Fraction(1) if self.exact else 1.0
        if position.is_won():
            return one
        row = self._row(position)
        v = self.values[row, position.boat - self.first_boat, position.maurice]
        return Fraction(v) if self.exact else float(v)

    def _row(self, position: Position) -> int:
        key, _ = self.index.coding.position_class(self.kit, position)
        row = self.index.index(key, position.discs_laid)
        if row < 0 or position.boat < self.first_boat:
            raise InvalidInput(
                "position",
                position.to_dict(),
                "a position that can follow the position this table was solved from",
            )
        return row

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
        >>> from isles.models.lighthouse import default_kit
        >>> sol = solve(default_kit(2, 3))
        >>> [round(sol.win_probability(k), 4) for k in (1, 2, 3)]
        [0.3792, 0.646, 0.8348]
        """
        return float(self._start(sea_cards))

    def exact_win_probability(self, sea_cards: int | None = None) -> Fraction | None:
        """The exact win probability from the start (Fraction tables), else None."""
        return Fraction(self._start(sea_cards)) if self.exact else None

    def by_sea_cards(self) -> tuple[float, ...]:
        """Win probabilities from the start for ``1..kit.sea_cards`` sea cards, as floats.

        Examples
        --------
        >>> from isles.models.lighthouse import default_kit
        >>> [round(p, 4) for p in solve(default_kit(3, 3)).by_sea_cards()]
        [0.1603, 0.3785, 0.5777]
        """
        return tuple(self.win_probability(k) for k in range(1, self.kit.sea_cards + 1))

    def to_dict(self) -> dict[str, Any]:
        """The answer in the JSON dialect of docs/json.md.

        ``status`` ``optimal``; the kit; the classes and the group size; the
        ``error_bound`` of the floats; ``by_sea_cards``: for each number of sea
        cards ``1..K``, the win probability from the start (with its exact
        ``"p/q"`` text for Fraction tables, else null). A table solved from a
        later position has no start values: ``by_sea_cards`` is then empty.

        Examples
        --------
        >>> from isles.models.lighthouse import default_kit
        >>> answer = solve(default_kit(1, 1), exact=True).to_dict()
        >>> answer["status"], answer["by_sea_cards"][0]["win_probability_exact"]
        ('optimal', '1226471/1679616')
        """
        starts: list[dict[str, Any]] = []
        if self.index.first_discs == 0 and self.first_boat == 0:
            for k in range(1, self.kit.sea_cards + 1):
                p: Fraction | float = (
                    Fraction(self._start(k)) if self.exact else float(self._start(k))
                )
                starts.append({"sea_cards": k, **probability_json("win_probability", p)})
        return {
            "status": str(self.status),
            "policy": "optimal",
            "kit": self.kit.to_dict(),
            "classes": self.classes,
            "group_size": self.group.size,
            "error_bound": self.error_bound,
            "by_sea_cards": starts,
        }

    def _start(self, sea_cards: int | None) -> Any:
        k = self.kit.sea_cards if sea_cards is None else sea_cards
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"an integer in 1..{self.kit.sea_cards}")
        if self.index.first_discs != 0 or self.first_boat > self.kit.sea_cards - k:
            raise InvalidInput(
                "sea_cards", k, "a table solved from the start (this one starts later)"
            )
        return self.values[0, self.kit.sea_cards - k - self.first_boat, 0]

    def advise(self, position: Position, roll: Roll) -> Advice:
        """Every legal decision for ``roll`` in ``position`` with its win probability, best first.

        Parameters
        ----------
        position : Position
            The position before the roll.
        roll : Roll
            What the dice show (``probability`` is not used).

        Returns
        -------
        Advice
            ``alternatives``: (decision, win probability after it), best first,
            ties in the order of ``legal_decisions``.

        Raises
        ------
        InvalidInput
            The position does not fit the kit or this table, or a roll colour
            is not on the dice.

        Examples
        --------
        >>> from isles.models.lighthouse import default_kit
        >>> kit = default_kit(2, 2)
        >>> sol = solve(kit, exact=True)
        >>> adv = sol.advise(Position.start(kit), Roll(False, ("blue", "red"), Fraction(1, 18)))
        >>> adv.best.placements
        (('blue', 0), ('red', 0))
        """
        kit = self.kit
        position.check(kit)
        faces = {f for die in kit.dice for f in die}
        for c in roll.colours:
            if c not in faces or c == BOAT:
                raise InvalidInput(
                    "roll", c, f"a colour face of the dice: {sorted(faces - {BOAT})}"
                )
        one: Fraction | float = Fraction(1) if self.exact else 1.0
        zero: Fraction | float = Fraction(0) if self.exact else 0.0
        scored: list[tuple[Any, Fraction | float]] = []
        for decision in legal_decisions(kit, position, roll):
            res = play_turn(kit, position, roll, decision, check=False)
            if res.outcome is Outcome.WON:
                scored.append((decision, one))
            elif res.outcome is Outcome.LOST:
                scored.append((decision, zero))
            else:
                scored.append((decision, self.value(res.position)))
        ranked = sorted(enumerate(scored), key=lambda t: (-t[1][1], t[0]))
        return Advice(roll, tuple(s for _, s in ranked))


def error_bound(kit: Kit, rolls: int) -> float:
    """Bound on the float error of every value (docs/lighthouse.md, "The dynamic programme").

    Parameters
    ----------
    kit : Kit
        The kit (its islands ``n`` and sea cards ``K``).
    rolls : int
        The number of distinct roll outcomes ``R`` (21 for the default dice).

    Returns
    -------
    float
        The bound on ``|float value - exact value|`` for every position.

    Notes
    -----
    Each value is a sum of at most ``R + 5`` non-negative terms of values in
    [0, 1] (``R`` roll outcomes); maxima are exact; so the error grows by at
    most ``(R + 5) 2**-53`` per turn along the longest chain of turns,
    ``(4n + 1)(K + 2)(n // 2 + 1)``; the bound is twice that product.

    References
    ----------
    .. [1] N. J. Higham, *Accuracy and Stability of Numerical Algorithms*,
       2nd ed., SIAM, 2002, ch. 4 (error of sums of non-negative terms).

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> f"{error_bound(default_kit(8, 8), 21):.1e}"
    '9.5e-12'
    """
    n = len(kit.islands)
    longest = (4 * n + 1) * (kit.sea_cards + 2) * (n // 2 + 1)
    return 2.0 * longest * (rolls + 5) * 2.0**-53


def _check_kit(kit: Kit, exact: bool) -> None:
    n = len(kit.islands)
    if n > MAX_ENGINE_ISLANDS:
        raise InvalidInput("islands", n, f"at most {MAX_ENGINE_ISLANDS} islands for this engine")
    if exact and n > MAX_ENGINE_FRACTION_ISLANDS:
        raise InvalidInput(
            "exact",
            n,
            f"Fractions for at most {MAX_ENGINE_FRACTION_ISLANDS} islands; floats carry a "
            "stated error bound",
        )


def solve(
    kit: Kit,
    *,
    symmetric: bool = True,
    exact: bool = False,
    backend: Backend = "auto",
    progress: bool = False,
) -> EngineSolution:
    """The optimal win probability of every position of ``kit``, over classes of positions.

    Parameters
    ----------
    kit : Kit
        At most 8 islands (:data:`MAX_ENGINE_ISLANDS`).
    symmetric : bool
        Use the kit's colour group (:func:`colour_group`); False forces the
        identity group (the same values, more classes: for tests).
    exact : bool
        Fractions (NumPy kernel, at most 4 islands) instead of floats with
        ``error_bound``.
    backend : {"auto", "numba", "numpy"}
        The compiled loops (class graph and layer kernel) or the NumPy ones:
        ``auto`` is numba when installed (and NumPy for Fractions' kernel).
    progress : bool
        Show a tqdm progress bar over the classes valued.

    Returns
    -------
    EngineSolution
        Status ``optimal``; ``value(position)`` for every position,
        ``win_probability(k)`` for every ``k`` in ``1..kit.sea_cards``,
        ``advise(position, roll)``.

    Raises
    ------
    InvalidInput
        More than 8 islands, ``exact`` with more than 4, an unknown backend,
        or ``numba`` where numba is missing.

    Notes
    -----
    Backward induction [1]_ over a DAG: positions are ordered by discs laid
    (a turn never removes one), and inside a class by boat then Maurice
    (docs/lighthouse.md, "The dynamic programme"). Positions are pooled into
    classes that have the same value (docs/lighthouse-engine.md): the orbits
    of the kit's colour group [2]_, after forgetting which lighthouse a
    nearly full one is (only the colour it needs counts) and which ones are
    full. Each class keeps its whole (boat, Maurice) vector, so each layer of
    classes is computed once from the layer above by :func:`layer_values`.
    Measured (2 shared cores): default 8-island kit, 8 sea cards, see
    docs/lighthouse-engine.md, "Measured"; 6 islands well under a second.

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction over a finite horizon).
    .. [2] W. Burnside, *Theory of Groups of Finite Order*, 1897 (orbits of a
       permutation group; canonical forms as least images).

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> round(solve(default_kit(4, 8)).win_probability(), 6)
    0.961347
    """
    _check_kit(kit, exact)
    group = colour_group(kit, symmetric=symmetric)
    return _solve_from_class(kit, group, 0, 0, 0, exact, backend, progress)


def _solve_from_class(
    kit: Kit,
    group: ColourGroup,
    first_key: int,
    first_discs: int,
    first_boat: int,
    exact: bool,
    backend: Backend,
    progress: bool | None,
    auto_progress_classes: int = 300_000,
) -> EngineSolution:
    """The class DP over the classes reachable from one class, boats ``first_boat..K``."""
    coding = ClassCoding(group)
    graph = class_graph(coding, first_key, first_discs, backend=backend)
    show = progress if progress is not None else graph.size >= auto_progress_classes
    bar: Any = None
    if show:
        from tqdm import tqdm  # imported only when a bar is shown

        bar = tqdm(total=graph.size, desc="lighthouse classes", unit="class")
    values = _run(kit, graph, first_boat, exact, backend, bar.update if bar else None)
    if bar is not None:
        bar.close()
    rolls = roll_table(kit, group.colours)
    bound = 0.0 if exact else error_bound(kit, rolls.size)
    return EngineSolution(kit, group, graph.index, first_boat, values, exact, bound)


def _run(
    kit: Kit,
    graph: ClassGraph,
    first_boat: int,
    exact: bool,
    backend: Backend,
    tick: Callable[[int], Any] | None,
) -> npt.NDArray[Any]:
    """Values of every class, layer by layer from the finished one down."""
    coding = graph.index.coding
    n, colours = coding.n, coding.colours
    boats = kit.sea_cards + 1 - first_boat
    width = boats * n
    dtype: Any = object if exact else np.float64
    rolls = roll_table(kit, coding.group.colours)
    perms = coding.group.colour_perms
    offsets = graph.index.offsets
    values = _table((graph.size, width), dtype)
    last = len(graph.layers) - 1
    top = slice(int(offsets[last]), int(offsets[last + 1]))
    values[top] = Fraction(1) if exact else 1.0
    # Two scratch tables (this layer's one-more-disc values, the layer above's), reused.
    widest = max(layer.size for layer in graph.layers)
    scratch = [_table((widest * (colours + 1) * width,), dtype) for _ in range(2)]
    g0 = finished_layer(graph.layers[last].size, colours, width, dtype)
    if tick is not None:
        tick(graph.layers[last].size)
    for k in range(last - 1, -1, -1):
        layer = graph.layers[k]
        here = values[int(offsets[k]) : int(offsets[k + 1])]
        above = values[int(offsets[k + 1]) : int(offsets[k + 2])]
        g0 = layer_values(layer, perms, rolls, above, g0, here, n, colours, backend, scratch[k % 2])
        if tick is not None:
            tick(layer.size)
    del g0, scratch
    return values.reshape(graph.size, boats, n)


def _table(shape: tuple[int, ...], dtype: Any) -> npt.NDArray[Any]:
    """A table of values or a scratch buffer (zeros, or Nones for object arrays).

    Large float tables come from a private anonymous mapping, not from NumPy's
    allocator, which asks the kernel for transparent huge pages: on a machine
    whose memory is fragmented, faulting those in ran into compaction (5 s of
    system time in the 8-island solve), and the tables gain nothing from them
    in user time (each row is read a few times per layer, measured).
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
