"""Lighthouses: the exact win probability of every position, over classes of positions.

Implements docs/lighthouse.md ("The dynamic programme", "Classes", "The layer
kernel"; seed 000_aeb701e368f40145.txt): the DP over the classes of classes.py
under optimal and random play, and :func:`solve`, which sends greedy play to
greedy.py's layer sweep (lighthouse codes: its ties follow island order). The
result type every table shares, its error bound and its memory estimate are
solution.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import Kit
from isles.solvers.lighthouse.classes import ClassGraph, class_graph, warm_up_graph
from isles.solvers.lighthouse.greedy import greedy_table
from isles.solvers.lighthouse.kernel import (
    Backend,
    finished_layer,
    layer_values,
    one_more_width,
    pick_backend,
    roll_table,
)
from isles.solvers.lighthouse.policies import check_policy
from isles.solvers.lighthouse.solution import (
    LighthouseSolution,
    check_kit,
    class_counts,
    error_bound,
    new_table,
)
from isles.solvers.lighthouse.stream import LayerWriter
from isles.solvers.lighthouse.symmetry import ClassCoding, ColourGroup, colour_group
from isles.solvers.lighthouse.warm_up import Wait, start_warm_up
from isles.solvers.work import Bar, Progress

PROGRESS_STEPS = 1000
"""Steps of a solve's progress: its phases share them (:data:`PHASES`)."""

PHASES: tuple[tuple[str, float], ...] = (
    ("compiling the graph kernels", 0.10),
    ("building the classes", 0.15),
    ("compiling the layer kernel", 0.05),
    ("valuing the classes", 0.70),
)
"""A class DP's phases and their shares of its progress: the shares of the real
game's first run, compiling included (docs/lighthouse.md, "Progress"). A phase
with nothing to do (the kernels are in numba's cache) is passed at once."""

BIG_ISLANDS = 7
"""Kits of at least this many islands compile the layer kernel in another process
on a first run (docs/lighthouse.md, "Measured")."""

__all__ = ["BIG_ISLANDS", "PHASES", "PROGRESS_STEPS", "solve", "solve_from_class"]


# --- the class DP ------------------------------------------------------------------------------


def solve(
    kit: Kit,
    policy: str = "optimal",
    *,
    exact: bool = False,
    symmetric: bool = True,
    backend: Backend = "auto",
    progress: Progress = None,
) -> LighthouseSolution:
    """The win probability of every position of ``kit`` under ``policy``.

    Parameters
    ----------
    kit : Kit
        At most :data:`~isles.models.lighthouse.caps.MAX_EXACT_ISLANDS` islands (8)
        and :data:`MAX_DP_BYTES` of estimated memory; greedy play at most
        :data:`~isles.models.lighthouse.caps.MAX_TABLE_ISLANDS` (its start values
        for 8 islands: ``isles.solvers.lighthouse.start_values.win_probability``).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (NumPy kernels, at most 4 islands) instead of floats with
        ``error_bound``.
    symmetric : bool
        Use the kit's colour group (:func:`colour_group`) for optimal and random
        play; False forces the identity group (the same values, more classes).
    backend : {"auto", "numba", "numpy"}
        The compiled loops or the NumPy ones: ``auto`` is numba when installed
        (and NumPy for Fractions).
    progress : bool, None or callable
        A progress bar (stderr) through the phases (:data:`PHASES`: compiling,
        building the classes, valuing them), or a callable told the fraction done
        (a server's job), as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    LighthouseSolution
        ``status`` optimal or exact; ``value(position)`` for every position,
        ``win_probability(k)`` for every ``k`` in ``1..kit.sea_cards``.

    Raises
    ------
    InvalidInput
        Unknown policy, a kit too large (islands or memory), ``exact`` with
        more than 4 islands, an unknown backend, ``numba`` where numba is
        missing.

    Notes
    -----
    Backward induction [1]_ over a DAG: positions are ordered by discs laid
    (a turn never removes one), and inside a class by boat then Maurice
    (docs/lighthouse.md, "The dynamic programme"). Positions are pooled into
    classes that have the same value (docs/lighthouse.md, "Classes"): the
    orbits of the kit's colour group [2]_, after forgetting which lighthouse a
    nearly full one is (only the colour it needs counts) and which ones are
    full. Each class keeps its whole (boat, Maurice) vector, so each layer of
    classes is computed once from the layer above by :func:`layer_values`.
    Random play is symmetric too; each successor entry carries how many
    lighthouses lead there, random play's weights. Measured: the default
    8-island kit, 8 sea cards, in docs/lighthouse.md ("Measured").

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction over a finite horizon).
    .. [2] W. Burnside, *Theory of Groups of Finite Order*, 1897 (orbits of a
       permutation group; canonical forms as least images).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> round(solve(default_kit(4, 8)).win_probability(), 6)
    0.961347
    >>> round(solve(default_kit(4, 8), "random").win_probability(), 6)
    0.949179
    """
    pol = check_policy(policy)
    if pol == "greedy":
        return greedy_table(kit, exact=exact, backend=backend, progress=progress)
    check_kit(kit, pol, exact)
    group = colour_group(kit, symmetric=symmetric)
    return solve_from_class(kit, pol, group, 0, 0, 0, exact, backend, progress)


class _PhasedProgress:
    """A solve's progress through :data:`PHASES`, on one :class:`~isles.solvers.work.Bar`.

    Inside a phase, ``at(fraction)`` moves within its share; the steps reported
    never go back. The bar is named after the phase.
    """

    def __init__(self, policy: Policy, progress: Progress) -> None:
        self.policy = policy
        self.bar = Bar(
            PROGRESS_STEPS,
            f"lighthouse {policy}",
            progress,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}",
        )
        self.phase = 0
        self.starts = [0.0]
        for _, share in PHASES:
            self.starts.append(self.starts[-1] + share)

    def enter(self, phase: int) -> None:
        """Start phase ``phase`` (an index into :data:`PHASES`): the earlier ones are done."""
        self.phase = phase
        self.bar.describe(f"lighthouse {self.policy}: {PHASES[phase][0]}")
        self.at(0.0)

    def at(self, fraction: float) -> None:
        """The current phase is ``fraction`` (0..1) done."""
        lo, hi = self.starts[self.phase], self.starts[self.phase + 1]
        steps = int(PROGRESS_STEPS * (lo + (hi - lo) * min(max(fraction, 0.0), 1.0)))
        self.bar.reach(min(steps, PROGRESS_STEPS))

    def close(self) -> None:
        """Report the whole solve done and close the bar."""
        self.phase = len(PHASES) - 1
        self.at(1.0)
        self.bar.close()


def _layer_counter(weights: list[int], phases: _PhasedProgress) -> Callable[[int], None]:
    """``class_graph``'s progress callback: the layers expanded so far, weighted by ``weights``.

    ``class_graph`` calls it before it expands each layer; a layer's time goes
    with its classes, which ``weights`` (the classes without the group) follow.
    """
    total = max(sum(weights), 1)
    seen = [0, 0]  # layers started, their weight

    def counter(_: int) -> None:
        if seen[0] > 0:
            seen[1] += weights[min(seen[0] - 1, len(weights) - 1)]
        seen[0] += 1
        phases.at(seen[1] / total)

    return counter


def solve_from_class(
    kit: Kit,
    policy: Policy,
    group: ColourGroup,
    first_key: int,
    first_discs: int,
    first_boat: int,
    exact: bool,
    backend: Backend,
    progress: Progress,
    values_file: Path | None = None,
) -> LighthouseSolution:
    """The class DP over the classes reachable from one class, boats ``first_boat..K``.

    ``progress`` (:data:`isles.solvers.work.Progress`) follows the solve's phases
    (:data:`PHASES`: compiling, building the classes, valuing them). With
    ``values_file`` (floats only), the values go to that ``.npy`` file layer by
    layer (:class:`LayerWriter`) and the solution's table is the file,
    memory-mapped; otherwise they are in memory.
    """
    dtype: Any = object if exact else np.float64
    finish_compiling: Wait | None = None
    weights = class_counts(kit)[first_discs:]  # the classes without the group, by layer
    phases = _PhasedProgress(policy, progress)
    numba = pick_backend(backend, dtype) == "numba"
    if numba:
        # The first run compiles the kernel while the graph is built: in another
        # process when its machine code can be cached on disk (numba compiles one
        # kernel at a time per process), else in a thread.
        finish_compiling = start_warm_up(policy, big=len(kit.islands) >= BIG_ISLANDS)
    tables: _Tables | None = None
    try:
        coding = ClassCoding(group)
        phases.enter(0)
        if numba:
            warm_up_graph(coding)
        phases.enter(1)
        graph = class_graph(coding, first_key, first_discs, _layer_counter(weights, phases),
                            backend=backend)  # fmt: skip
        writer = None if exact or values_file is None else values_file
        tables = _Tables(kit, graph, first_boat, exact, writer)
        phases.enter(2)
        if finish_compiling is not None:
            finish, finish_compiling = finish_compiling, None
            finish(tables.touch)  # the tables' first touch while the kernel compiles
        phases.enter(3)
        done = [0]

        def tick(count: int) -> None:
            done[0] += count
            phases.at(done[0] / max(graph.size, 1))

        values = _run(kit, policy, graph, first_boat, exact, backend, tick, tables)
        tables = None
        phases.close()
    finally:
        if finish_compiling is not None:  # an interrupt or an error while building the graph
            finish_compiling(None)
        if tables is not None and tables.writer is not None:  # an interrupt while waiting
            tables.writer.close()
        phases.bar.close()
    rolls = roll_table(kit, group.colours)
    bound = 0.0 if exact else error_bound(kit, rolls.size, policy)
    return LighthouseSolution(kit, policy, graph.index, first_boat, values, exact, bound)


class _Tables:
    """The memory of a class DP's valuing: the value table (or the writer's two layers) and
    the two one-more-disc tables, made before the layer kernel is ready.

    :meth:`touch` writes to their pages a piece at a time: on a first run the
    process touches them while it waits for the kernel to compile instead of
    while the kernel runs (a fresh virtual machine pays about 3 s of system
    time per GiB of memory touched for the first time: docs/lighthouse.md,
    "Measured").
    """

    PIECE = 1 << 22
    """Floats touched per call of :meth:`touch` (32 MiB: tens of milliseconds)."""

    def __init__(
        self, kit: Kit, graph: ClassGraph, first_boat: int, exact: bool, values_file: Path | None
    ) -> None:
        coding = graph.index.coding
        n, colours = coding.n, coding.colours
        self.boats = kit.sea_cards + 1 - first_boat
        width = self.boats * n
        dtype: Any = object if exact else np.float64
        widest = max(layer.size for layer in graph.layers)
        self.writer: LayerWriter | None = None
        self.values: npt.NDArray[Any] | None = None
        self.values_file = values_file
        if values_file is not None:
            self.writer = LayerWriter(values_file, (graph.size, self.boats, n), widest)
        else:
            self.values = new_table((graph.size, width), dtype)
        # Two scratch tables (this layer's one-more-disc values, the layer above's), reused.
        row = one_more_width(colours, width, n)
        self.scratch = [new_table((widest * row,), dtype) for _ in range(2)]
        self._untouched: list[npt.NDArray[Any]] = []
        if not exact:
            tables = [*self.scratch]
            if self.writer is not None:
                tables += self.writer.buffers
            elif self.values is not None:
                tables.append(self.values)
            self._untouched = [t.reshape(-1) for t in tables]

    def touch(self) -> bool:
        """Write zeros to the pages of the next piece of the tables; False when none is left."""
        page = 4096 // 8
        while self._untouched:
            flat = self._untouched[-1]
            piece = flat[: self.PIECE]
            piece[::page] = 0.0  # fresh zeros: the values stay what the tables hold
            if flat.size <= self.PIECE:
                self._untouched.pop()
            else:
                self._untouched[-1] = flat[self.PIECE :]
            return True
        return False


def _run(
    kit: Kit,
    policy: Policy,
    graph: ClassGraph,
    first_boat: int,
    exact: bool,
    backend: Backend,
    tick: Callable[[int], Any] | None,
    tables: _Tables,
) -> npt.NDArray[Any]:
    """Values of every class, layer by layer from the finished one down.

    Each layer reads only the values of the layer above; with a values file
    (``tables.writer``) the layers go to that file as they are done and the
    table returned is the file, memory-mapped (:class:`LayerWriter`).
    """
    coding = graph.index.coding
    n, colours = coding.n, coding.colours
    boats = tables.boats
    width = boats * n
    dtype: Any = object if exact else np.float64
    rolls = roll_table(kit, coding.group.colours)
    perms = coding.group.colour_perms
    offsets = graph.index.offsets
    writer, values, scratch = tables.writer, tables.values, tables.scratch

    def rows(k: int) -> npt.NDArray[Any]:
        lo, hi = int(offsets[k]), int(offsets[k + 1])
        if writer is not None:
            return writer.rows(lo, hi)
        assert values is not None
        return values[lo:hi]

    def commit(k: int, done: npt.NDArray[Any]) -> None:
        if writer is not None:
            writer.commit(int(offsets[k]), done)

    try:
        last = len(graph.layers) - 1
        above = rows(last)
        above[...] = Fraction(1) if exact else 1.0
        commit(last, above)
        g0 = finished_layer(graph.layers[last].size, colours, width, n, dtype)
        if tick is not None:
            tick(graph.layers[last].size)
        for k in range(last - 1, -1, -1):
            layer = graph.layers[k]
            here = rows(k)
            g0 = layer_values(
                layer, perms, rolls, above, g0, here, n, colours, policy, backend, scratch[k % 2]
            )
            commit(k, here)
            above = here
            if tick is not None:
                tick(layer.size)
        del g0, above
        tables.scratch = []
        del scratch
    finally:
        if writer is not None:
            writer.close()
    if tables.values_file is not None:
        table: npt.NDArray[Any] = np.load(tables.values_file, mmap_mode="r")
        return table
    assert values is not None
    return values.reshape(graph.size, boats, n)
