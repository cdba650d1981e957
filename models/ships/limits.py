"""The ships' numbers: the seed's (the dice, a ship's cost, cargo and fleet, the players at
the table) and the caps of the ships' solvers.

Implements docs/ships.md ("The rules as isles reads them", "Inputs and limits"; seed
004_644cf972d8964df4.txt, rules 2 to 4): one place for each number the rules and the
questions read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from isles.models.catan import Resource
from isles.models.errors import InvalidInput

__all__ = [
    "CARGO_LIMIT",
    "MAX_ENCOUNTERS",
    "MAX_PLAYERS",
    "MAX_REACH_ROLLS",
    "MAX_SHIPS",
    "MAX_SHIP_EDGES",
    "MAX_WITHIN",
    "MIN_PLAYERS",
    "ROLLS",
    "SHIP_COST",
    "check_count",
    "check_players",
    "rolls_to_rounds",
]

#: The eleven 2d6 sums, 2..12 (a 7 moves no ship, but it still is a roll).
ROLLS: tuple[int, ...] = tuple(range(2, 13))

#: Most cards a ship carries (seed rule 4).
CARGO_LIMIT = 3

#: Most ships a player owns (seed rule 2).
MAX_SHIPS = 3

#: The seed's player count, 3 to 6 (one roll per player turn turns rolls into rounds).
MIN_PLAYERS, MAX_PLAYERS = 3, 6
#: Most encounters the cargo outlook takes: its exact fractions grow with each one.
MAX_ENCOUNTERS = 100
#: Most rolls the pirate reach takes: its exact fractions grow with each one.
MAX_REACH_ROLLS = 200
#: Largest horizon of the exact arrival odds (``sail(within=...)``).
MAX_WITHIN = 100
#: Most ship edges of a board the ships' solvers take (one ship's navigation tables
#: every edge): at the limit ``isles sail`` takes 6 to 10 s and 0.3 GB (docs/ships.md,
#: "Inputs and limits"); a bigger board is refused before any table is built.
MAX_SHIP_EDGES = 100_000

#: Cost of one ship (seed rule 2): 1 wool, 1 lumber, 1 grain.
SHIP_COST: Mapping[Resource, int] = MappingProxyType(
    {Resource.WOOL: 1, Resource.LUMBER: 1, Resource.GRAIN: 1}
)


def check_count(value: object, field: str, high: int) -> int:
    """``value`` if it is an integer in ``0..high`` (a bool is not one); else raise.

    The check of an engine call's counts (cards, encounters, rolls), named by ``field``.

    Examples
    --------
    >>> check_count(3, "cargo", CARGO_LIMIT)
    3
    >>> check_count(4, "cargo", CARGO_LIMIT)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: cargo: 4 is invalid; expected an integer in 0..3
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise InvalidInput(field, value, f"an integer in 0..{high}")
    return value


def check_players(players: object, field: str = "players") -> int:
    """The player count, checked: an integer in 3..6 (the seed's count).

    Parameters
    ----------
    players : object
        The value given.
    field : str
        Where it comes from, for messages.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        If ``players`` is not an integer (a bool is not one) in 3..6.

    Examples
    --------
    >>> check_players(9)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players: 9 is invalid; expected a player count in 3..6
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise InvalidInput(field, players, f"a player count in {MIN_PLAYERS}..{MAX_PLAYERS}")
    return players


def rolls_to_rounds(rolls: float, players: int) -> float:
    """Rounds of play taken by ``rolls`` rolls: every player's turn is one roll.

    Parameters
    ----------
    rolls : float
        A number of rolls.
    players : int
        Players at the table, 3..6.

    Returns
    -------
    float
        ``rolls / players``.

    Raises
    ------
    InvalidInput
        If ``players`` is not in 3..6 (the seed's player count).

    Examples
    --------
    >>> rolls_to_rounds(12.0, 4)
    3.0
    """
    return rolls / check_players(players)
