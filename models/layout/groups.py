"""The constraint groups of a request: the names a conflict may hold.

Implements docs/layout.md ("Answers that never lie": an infeasible request names
the rules and requirements that cannot hold together; seed
seeds/004_644cf972d8964df4.txt, "MISE EN PLACE"). Each group enters the CP-SAT
model behind one assumption literal; the web app tells them in players' words.
"""

from __future__ import annotations

from isles.models.layout.request import SetupRequest

__all__ = [
    "BOARD_SHAPE",
    "HARBOUR_KINDS",
    "LAND_COUNT",
    "LAND_INVENTORY",
    "LAND_TOKENS",
    "SEA_NUMBERS",
    "SPIRAL",
    "constraint_groups",
]

#: Names of the requirements that are not switchable rules (they may appear in a
#: conflict): the land count, the land tiles of the inventory, the land token
#: pool, the numbers sea tokens may show, the game's harbours (one on each
#: place, the game's kinds), the variable set-up's spiral.
LAND_COUNT = "land count"
LAND_INVENTORY = "land inventory"
LAND_TOKENS = "land tokens"
SEA_NUMBERS = "sea numbers"
HARBOUR_KINDS = "harbour kinds"
SPIRAL = "spiral"
#: The conflict when the positions alone admit no board (a free shape that
#: cannot be connected, for instance): no group can be blamed.
BOARD_SHAPE = "board shape"


def constraint_groups(request: SetupRequest) -> tuple[str, ...]:
    """The names of every constraint group of ``request`` that can enter a conflict.

    Parameters
    ----------
    request : SetupRequest

    Returns
    -------
    tuple of str
        The rules switched on (their names, sorted), the requirements
        (:data:`LAND_COUNT`, :data:`LAND_INVENTORY`, :data:`LAND_TOKENS`,
        :data:`SEA_NUMBERS`, and :data:`HARBOUR_KINDS` with harbours,
        :data:`SPIRAL` with a spiral) and one group per fixed tile
        (``"fixed Q,R"``) and per fixed harbour (``"fixed harbour Q,R:Q,R"``).
        Each enters the CP-SAT model behind one assumption literal.

    Examples
    --------
    >>> constraint_groups(SetupRequest.hexagon(1))[:3]
    ('no-land-triangle', 'sea-apart', 'sea-balanced')
    """
    switched = sorted(r.value for r in request.rules)
    rules = (*switched, *(rule.label() for rule in request.extra_rules))
    fixed = tuple(f"fixed {h}" for h in request.fixed) + tuple(
        f"fixed harbour {e}" for e in request.fixed_harbours
    )
    extra = ((HARBOUR_KINDS,) if request.harbour_places else ()) + (
        (SPIRAL,) if request.spiral else ()
    )
    return (*rules, LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, SEA_NUMBERS, *extra, *fixed)
