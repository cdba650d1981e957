"""Plunder deduction (seed 003_cfc377110defcf34.txt; docs/plunder.md).

The public entry points: what a record proves (:func:`deduce`), the exact
posterior (:func:`posterior`), flip and guess advice, scoring.
"""

from isles.models.plunder import (
    Category,
    Code,
    Me,
    Names,
    Observation,
    Record,
    example_record,
    score_game,
)
from isles.solvers.plunder import (
    Deduction,
    FlipAdvice,
    Guess,
    Posterior,
    deduce,
    flip_advice,
    forced_values,
    guess_advice,
    posterior,
    smallest_conflict,
)

__all__ = [
    "Category",
    "Code",
    "Deduction",
    "FlipAdvice",
    "Guess",
    "Me",
    "Names",
    "Observation",
    "Posterior",
    "Record",
    "deduce",
    "example_record",
    "flip_advice",
    "forced_values",
    "guess_advice",
    "posterior",
    "score_game",
    "smallest_conflict",
]
