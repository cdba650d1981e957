"""Plunder deduction (seed ``seeds/003_cfc377110defcf34.txt``; docs/plunder.md).

The public entry points. One call answers what ``isles plunder`` answers:
:func:`analyse` (the deduction, and flip and guess advice on request). The
parts: what a record proves (:func:`deduce`: consistency, a smallest conflict,
forced values with their smallest proofs, under a time limit), the exact
posterior (:func:`posterior`), flip advice (:func:`flip_advice`), guess advice
(:func:`guess_advice`), scoring (:func:`score_game`). Records are read with
:meth:`Record.load` (a file, or ``"-"`` for standard input) or built from
:class:`Observation` and :class:`Code`. Every result has ``to_dict()`` in the
dialect of docs/json.md.

Examples
--------
>>> from isles import plunder
>>> result = plunder.analyse(plunder.example_record(), advise=True)
>>> result.status.value, result.deduction.posterior.deals, result.deduction.proofs
('exact', 162, 'smallest')
>>> best = result.advice.guesses[0]
>>> best.target, best.code, best.probability
(3, Code(island=2, marker=4, trap=5), Fraction(1, 3))
>>> turn = plunder.Observation(0, plunder.Code(1, 2, 3), {1: True, 2: False})
>>> plunder.posterior(plunder.Record(3, (turn,))).deals
488000
"""

from isles.models.plunder import (
    Category,
    Code,
    CrewCard,
    GameScore,
    Me,
    Names,
    Observation,
    Record,
    code_from_text,
    example_record,
    score_game,
)
from isles.solvers.plunder import (
    DEFAULT_TIME_LIMIT,
    Advice,
    Analysis,
    AnswerId,
    Deduction,
    FlipAdvice,
    FlipOption,
    ForcedValue,
    Guess,
    Posterior,
    analyse,
    deduce,
    flip_advice,
    forced_values,
    guess_advice,
    minimal_conflict,
    posterior,
    smallest_conflict,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Advice",
    "Analysis",
    "AnswerId",
    "Category",
    "Code",
    "CrewCard",
    "Deduction",
    "FlipAdvice",
    "FlipOption",
    "ForcedValue",
    "GameScore",
    "Guess",
    "Me",
    "Names",
    "Observation",
    "Posterior",
    "Record",
    "analyse",
    "code_from_text",
    "deduce",
    "example_record",
    "flip_advice",
    "forced_values",
    "guess_advice",
    "minimal_conflict",
    "posterior",
    "score_game",
    "smallest_conflict",
]
