"""The cooperative lighthouse game (seed 000_aeb701e368f40145.txt; docs/lighthouse.md).

The public entry points: the odds of a kit (:func:`solve`, :func:`win_probability`),
the best move for a roll (:func:`advise`), simulation, the competitive variant.
"""

from isles.models.lighthouse import Kit, Position, default_kit
from isles.solvers.lighthouse import (
    Advice,
    LighthouseSolution,
    StartValues,
    advise,
    competitive_exact,
    difficulty_table,
    simulate,
    simulate_competitive,
    solve,
    win_probability,
)

__all__ = [
    "Advice",
    "Kit",
    "LighthouseSolution",
    "Position",
    "StartValues",
    "advise",
    "competitive_exact",
    "default_kit",
    "difficulty_table",
    "simulate",
    "simulate_competitive",
    "solve",
    "win_probability",
]
