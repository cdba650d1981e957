"""Lighthouses: the exact optimal odds of the real 8-island game in seconds, over classes.

Implements docs/lighthouse-engine.md (the colour group of a kit, classes of
lighthouse codes, the layer kernel, the cached table, one position without
the table) for the cooperative game of docs/lighthouse.md (seed
000_aeb701e368f40145.txt). One module per job: ``symmetry`` (the group and the
class keys), ``classes`` (the layered graph of classes), ``kernel`` (one
layer's values, numba or NumPy), ``solve`` (the DP and its result),
``cache`` (the table on disk), ``reachable`` (one position's advice).

Examples
--------
>>> from isles.models.lighthouse import default_kit
>>> sol = solve(default_kit(4, 8))
>>> round(sol.win_probability(), 6), sol.status
(0.961347, <Status.OPTIMAL: 'optimal'>)
"""

from isles.solvers.lighthouse_engine.cache import (
    CACHE_ENV,
    cache_dir,
    load_table,
    save_table,
    solve_cached,
    table_path,
)
from isles.solvers.lighthouse_engine.kernel import HAVE_NUMBA
from isles.solvers.lighthouse_engine.reachable import advise, solve_from
from isles.solvers.lighthouse_engine.solve import (
    MAX_ENGINE_FRACTION_ISLANDS,
    MAX_ENGINE_ISLANDS,
    EngineSolution,
    error_bound,
    solve,
)
from isles.solvers.lighthouse_engine.symmetry import ColourGroup, colour_group

__all__ = [
    "CACHE_ENV",
    "HAVE_NUMBA",
    "MAX_ENGINE_FRACTION_ISLANDS",
    "MAX_ENGINE_ISLANDS",
    "ColourGroup",
    "EngineSolution",
    "advise",
    "cache_dir",
    "colour_group",
    "error_bound",
    "load_table",
    "save_table",
    "solve",
    "solve_cached",
    "solve_from",
    "table_path",
]
