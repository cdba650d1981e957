"""Lighthouses: greedy play's exact odds, layer by layer over lighthouse codes.

Implements docs/lighthouse.md ("Greedy play, layer by layer"; seed
000_aeb701e368f40145.txt): greedy play breaks ties by island order, so its
values are computed per lighthouse code (no colour group, no pooling), three
layers of discs laid at a time: every position of kits up to 7 islands
(:func:`greedy_table`), the start values of 8 islands (:func:`greedy_start_values`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import MAX_EXACT_ISLANDS, MAX_FRACTION_ISLANDS, MAX_TABLE_ISLANDS
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.position import Position, position_code
from isles.solvers.lighthouse.code_kernel import greedy_layer
from isles.solvers.lighthouse.codes import DISCS, N_STATES
from isles.solvers.lighthouse.kernel import Backend, pick_backend, roll_table
from isles.solvers.lighthouse.solution import (
    MAX_DP_BYTES,
    LighthouseSolution,
    dp_memory_bytes,
    error_bound,
    new_table,
)
from isles.solvers.lighthouse.warm_up import warm_up
from isles.solvers.work import Bar, Progress

__all__ = ["CodeIndex", "greedy_start_values", "greedy_table"]


@dataclass(frozen=True)
class CodeIndex:
    """The rows of a greedy table: one per lighthouse code (``position_code``), in code order.

    Parameters
    ----------
    n : int
        Islands: the table has ``8**n`` rows.
    """

    n: int

    @property
    def first_discs(self) -> int:
        """Greedy tables are solved from the start."""
        return 0

    @property
    def size(self) -> int:
        """Rows: every lighthouse code."""
        return int(N_STATES**self.n)

    @property
    def group_size(self) -> int:
        """No colour group: greedy's ties follow the island order."""
        return 1

    def row(self, kit: Kit, position: Position) -> int:
        """The row of ``position``: its lighthouse code.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> CodeIndex(2).row(default_kit(2), Position((("blue",), ())))
        2
        """
        return position_code(kit, position)


def _check(kit: Kit, exact: bool, table: bool) -> None:
    n = len(kit.islands)
    most = MAX_TABLE_ISLANDS if table else MAX_EXACT_ISLANDS
    what = "every position of greedy play" if table else "greedy play's start values"
    if n > most:
        raise InvalidInput(
            "kit.islands",
            None,
            f"at most {most} islands for {what}"
            + (" (8 islands: the start values, win_probability)" if table else ""),
            problem=f"{n} islands",
        )
    if exact and n > MAX_FRACTION_ISLANDS:
        raise InvalidInput(
            "exact",
            True,
            f"exact Fractions for at most {MAX_FRACTION_ISLANDS} islands (this kit has {n}); "
            "floats carry a stated error bound",
            problem="given",
        )
    width = (kit.sea_cards + 1) * n
    need = dp_memory_bytes(kit, "greedy") + (N_STATES**n * width * 8 if table else 0)
    if need > MAX_DP_BYTES:
        raise InvalidInput(
            "kit",
            None,
            f"a kit whose greedy solve fits in {MAX_DP_BYTES / 2**30:.0f} GiB",
            problem=f"about {need / 2**30:.1f} GiB needed",
        )


def _layers(n: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """(codes ordered by discs laid then code, layer bounds, each code's row in its layer)."""
    laid = np.zeros(1, dtype=np.int8)
    for _ in range(n):
        # Codes of one more island: its state is the highest digit.
        laid = np.add.outer(DISCS.astype(np.int8), laid).ravel()
    order = np.argsort(laid, kind="stable").astype(np.int32)
    bounds = np.searchsorted(laid[order], np.arange(DISCS_PER_LIGHTHOUSE * n + 2))
    position = np.empty(order.size, dtype=np.int32)
    for d in range(DISCS_PER_LIGHTHOUSE * n + 1):
        position[order[bounds[d] : bounds[d + 1]]] = np.arange(
            bounds[d + 1] - bounds[d], dtype=np.int32
        )
    return order, bounds.astype(np.int64), position


def _sweep(
    kit: Kit, exact: bool, backend: Backend, progress: Progress, table: npt.NDArray[Any] | None
) -> npt.NDArray[Any]:
    """Greedy values layer by layer from the finished code down; the start code's row.

    Fills ``table`` (rows in code order) when given.
    """
    n = len(kit.islands)
    width = (kit.sea_cards + 1) * n
    dtype: Any = object if exact else np.float64
    compiler = None
    if pick_backend(backend, dtype) == "numba":
        compiler = threading.Thread(target=warm_up, args=("greedy",), daemon=True)
        compiler.start()
    colours = kit.colours
    side = np.full((len(colours), n), -1, dtype=np.int64)
    for c, colour in enumerate(colours):
        for i, island in enumerate(kit.islands):
            if colour in island:
                side[c, i] = island.index(colour)
    order, bounds, position = _layers(n)
    sizes = np.diff(bounds)
    widest = int(sizes.max())
    buffers = [new_table((widest * width,), dtype) for _ in range(3)]

    def layer(d: int) -> npt.NDArray[Any]:
        out: npt.NDArray[Any] = buffers[d % 3][: int(sizes[d]) * width].reshape(-1, width)
        return out

    last = DISCS_PER_LIGHTHOUSE * n
    rolls = roll_table(kit, colours)
    top = layer(last)
    top[...] = Fraction(1) if exact else 1.0
    if table is not None:
        table[order[bounds[last] :]] = top
    if compiler is not None:
        compiler.join()
    empty = np.zeros((0, width), dtype=dtype)
    with Bar(int(order.size), "lighthouse greedy codes", progress, unit="code") as bar:
        for d in range(last - 1, -1, -1):
            codes = order[bounds[d] : bounds[d + 1]].astype(np.int64)
            after = layer(d + 2) if d + 2 <= last else empty
            here = layer(d)
            greedy_layer(codes, position, side, rolls, layer(d + 1), after, here, n, backend)
            if table is not None:
                table[codes] = here
            bar.update(codes.size)
        bar.update(1)
    start: npt.NDArray[Any] = layer(0)[0].copy()
    return start


def greedy_table(
    kit: Kit, *, exact: bool = False, backend: Backend = "auto", progress: Progress = None
) -> LighthouseSolution:
    """Greedy play's win probability in every position of ``kit`` (up to 7 islands).

    Parameters
    ----------
    kit : Kit
        At most :data:`~isles.models.lighthouse.caps.MAX_TABLE_ISLANDS` islands.
    exact : bool
        Fractions (at most 4 islands).
    backend : {"auto", "numba", "numpy"}
        The compiled code kernel or the NumPy one.
    progress : bool, None or callable
        A progress bar over the codes, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    LighthouseSolution
        ``policy`` greedy, status ``exact``; one row per lighthouse code.

    Raises
    ------
    InvalidInput
        More than 7 islands, ``exact`` with more than 4, a kit beyond the memory cap.

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction; here the evaluation of a fixed policy).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> greedy_table(default_kit(1, 1), exact=True).exact_win_probability()
    Fraction(1226471, 1679616)
    """
    _check(kit, exact, table=True)
    n = len(kit.islands)
    width = (kit.sea_cards + 1) * n
    dtype: Any = object if exact else np.float64
    table = new_table((N_STATES**n, width), dtype)
    _sweep(kit, exact, backend, progress, table)
    bound = 0.0 if exact else error_bound(kit, roll_table(kit, kit.colours).size, "greedy")
    values = table.reshape(N_STATES**n, kit.sea_cards + 1, n)
    return LighthouseSolution(kit, "greedy", CodeIndex(n), 0, values, exact, bound)


def greedy_start_values(
    kit: Kit, *, exact: bool = False, backend: Backend = "auto", progress: Progress = None
) -> tuple[tuple[Fraction | float, ...], float]:
    """Greedy play's win probability from the start for 1..``kit.sea_cards`` sea cards.

    Keeps three layers of lighthouse codes at a time (8 islands, 8 sea cards:
    about 3 GiB), not the whole table.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    exact : bool
        Fractions (at most 4 islands).
    backend : {"auto", "numba", "numpy"}
        The compiled code kernel or the NumPy one.
    progress : bool, None or callable
        A progress bar over the codes, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    (tuple of Fraction or float, float)
        The start values by sea cards, and their error bound.

    Raises
    ------
    InvalidInput
        More than 8 islands, ``exact`` with more than 4, a kit beyond the memory cap.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> values, bound = greedy_start_values(default_kit(2, 2), exact=True)
    >>> values[-1]
    Fraction(...)
    """
    _check(kit, exact, table=False)
    n = len(kit.islands)
    start = _sweep(kit, exact, backend, progress, None)
    k = kit.sea_cards
    conv: Any = Fraction if exact else float
    values = tuple(conv(start[(k - c) * n]) for c in range(1, k + 1))
    bound = 0.0 if exact else error_bound(kit, roll_table(kit, kit.colours).size, "greedy")
    return values, bound
