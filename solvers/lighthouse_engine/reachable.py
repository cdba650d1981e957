"""Lighthouses: the best move in one position, solving only what can follow it.

Implements docs/lighthouse-engine.md ("One position without the table") for
the game of docs/lighthouse.md (seed 000_aeb701e368f40145.txt).
"""

from __future__ import annotations

from pathlib import Path

from isles.models.lighthouse import Kit, Position, Roll
from isles.solvers.lighthouse import Advice
from isles.solvers.lighthouse_engine.cache import load_table
from isles.solvers.lighthouse_engine.kernel import Backend
from isles.solvers.lighthouse_engine.solve import EngineSolution, _check_kit, _solve_from_class
from isles.solvers.lighthouse_engine.symmetry import ClassCoding, colour_group

__all__ = ["advise", "solve_from"]


def solve_from(
    kit: Kit,
    position: Position,
    *,
    symmetric: bool = True,
    exact: bool = False,
    backend: Backend = "auto",
    progress: bool | None = None,
) -> EngineSolution:
    """The optimal values of every position that can follow ``position``, and of it.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    position : Position
        The position to start from.
    symmetric : bool
        Use the kit's colour group (False: the identity, for tests).
    exact : bool
        Fractions (at most 4 islands).
    backend : {"auto", "numba", "numpy"}
        The layer kernel.
    progress : bool or None
        Show a tqdm progress bar; None shows one when there are at least
        300,000 classes to value (early positions of 8 islands).

    Returns
    -------
    EngineSolution
        ``value`` answers the positions that contain this one's discs with
        the boat on or after its card (any Maurice); ``win_probability`` is
        not available unless ``position`` is the start.

    Raises
    ------
    InvalidInput
        The position does not fit the kit, or the kit is too large.

    Notes
    -----
    Discs are never removed and the boat never goes back, so the positions
    that can follow ``position`` are those whose lighthouses contain its
    discs, with the boat on the same card or further. Their classes are
    those met by laying discs from the position's class (the forward sweep
    of :func:`~isles.solvers.lighthouse_engine.classes.class_graph`), and only
    the boat columns from its card on are valued. Late in the game this is
    a few classes: milliseconds; after four turns of 8 islands, about a
    quarter of the table (docs/lighthouse-engine.md, "Measured").

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction, here over the sub-DAG below one position).

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> kit = default_kit(8)
    >>> done = tuple((a, b, a, b) for a, b in kit.islands[:7])
    >>> late = Position((*done, ()), 3, 0)
    >>> sol = solve_from(kit, late)
    >>> sol.classes, round(sol.value(late), 6)
    (8, 0.949476)
    """
    position.check(kit)
    _check_kit(kit, exact)
    group = colour_group(kit, symmetric=symmetric)
    key, _ = ClassCoding(group).position_class(kit, position)
    return _solve_from_class(
        kit, group, key, position.discs_laid, position.boat, exact, backend, progress
    )


def advise(
    kit: Kit,
    position: Position,
    roll: Roll,
    *,
    table: EngineSolution | None = None,
    cache: bool = True,
    directory: str | Path | None = None,
    backend: Backend = "auto",
    progress: bool | None = None,
) -> Advice:
    """The best decision for ``roll`` in ``position`` under optimal play, with every alternative.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    position : Position
        The position before the roll.
    roll : Roll
        What the dice show.
    table : EngineSolution, optional
        A solution to read; otherwise the cached table of the kit, if any.
    cache : bool
        Look for the kit's table in the cache (``cache.load_table``).
    directory : str or Path, optional
        The cache directory (default: ``cache.cache_dir()``).
    backend : {"auto", "numba", "numpy"}
        The layer kernel, when the classes must be solved.
    progress : bool or None
        Progress bar when solving (None: when it is long).

    Returns
    -------
    Advice
        Every legal decision with its win probability, best first.

    Raises
    ------
    InvalidInput
        The position or roll does not fit the kit.

    Notes
    -----
    With a table (given or cached) this reads a few rows: well under a
    second even from the 0.93 GB 8-island file, which is memory-mapped.
    Without one, it solves the classes reachable from ``position``
    (:func:`solve_from`) and reads the answer from them. The win probability
    of a decision is that of the position it leads to (1 when it wins, 0 when
    the boat lands), under optimal play from then on.

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (the optimal decision is the one whose successor value is highest).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from isles.models.lighthouse import default_kit
    >>> kit = default_kit(2, 2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> advise(kit, Position.start(kit), roll, cache=False).best.placements
    (('blue', 0), ('red', 0))
    """
    position.check(kit)
    if table is None and cache:
        table = load_table(kit, directory)
    if table is None:
        table = solve_from(kit, position, backend=backend, progress=progress)
    return table.advise(position, roll)
