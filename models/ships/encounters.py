"""What a collision or the pirate does to a ship: the outcome tables and the cargo left.

Implements docs/ships.md ("Collisions and pirates"; seed 004_644cf972d8964df4.txt,
rules 11 and 12), exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from isles.models.catan import pips
from isles.models.errors import InvalidInput
from isles.models.ships.limits import CARGO_LIMIT

__all__ = ["Encounter", "Outcome", "cargo_after", "outcome_rolls", "outcome_table"]


class Encounter(StrEnum):
    """What makes a ship roll for its fate: a ``collision`` (rule 11) or the ``pirate`` (12).

    Examples
    --------
    >>> Encounter("pirate") is Encounter.PIRATE
    True
    """

    COLLISION = "collision"
    PIRATE = "pirate"


class Outcome(StrEnum):
    """What one encounter roll does to a ship.

    The values are the names written in JSON; :attr:`label` is the phrase of the
    text output.

    Examples
    --------
    >>> [o.value for o in Outcome]
    ['sinks', 'loses_all_cargo', 'loses_2_cards', 'loses_1_card', 'unharmed']
    """

    SINKS = "sinks"
    LOSES_ALL = "loses_all_cargo"
    LOSES_TWO = "loses_2_cards"
    LOSES_ONE = "loses_1_card"
    UNHARMED = "unharmed"

    @property
    def label(self) -> str:
        """The outcome in words (``"loses all cargo"``).

        >>> Outcome.LOSES_ALL.label
        'loses all cargo'
        """
        return self.value.replace("_", " ")


_OUTCOME_ROLLS: Mapping[Encounter, Mapping[Outcome, tuple[int, ...]]] = MappingProxyType(
    {
        Encounter.COLLISION: MappingProxyType(
            {
                Outcome.SINKS: (2,),
                Outcome.LOSES_ALL: (3,),
                Outcome.LOSES_TWO: (4,),
                Outcome.LOSES_ONE: (5,),
                Outcome.UNHARMED: tuple(range(6, 13)),
            }
        ),
        Encounter.PIRATE: MappingProxyType(
            {
                Outcome.SINKS: (11, 12),
                Outcome.LOSES_ALL: tuple(range(5, 11)),
                Outcome.UNHARMED: (2, 3, 4),
            }
        ),
    }
)


def outcome_rolls(encounter: Encounter) -> Mapping[Outcome, tuple[int, ...]]:
    """The 2d6 sums giving each outcome of ``encounter`` (seed rules 11 and 12).

    Parameters
    ----------
    encounter : Encounter or str

    Returns
    -------
    Mapping of Outcome to tuple of int

    Raises
    ------
    ValueError
        If ``encounter`` is not ``"collision"`` or ``"pirate"``.

    Examples
    --------
    >>> outcome_rolls(Encounter.PIRATE)[Outcome.SINKS]
    (11, 12)
    """
    return _OUTCOME_ROLLS[Encounter(encounter)]


def outcome_table(encounter: Encounter) -> Mapping[Outcome, Fraction]:
    """Exact probability of each outcome of ``encounter``; the values sum to 1.

    Parameters
    ----------
    encounter : Encounter or str

    Returns
    -------
    Mapping of Outcome to Fraction
        In the order of the seed's table.

    Raises
    ------
    ValueError
        If ``encounter`` is not ``"collision"`` or ``"pirate"``.

    Examples
    --------
    >>> t = outcome_table(Encounter.COLLISION)
    >>> t[Outcome.SINKS], t[Outcome.UNHARMED], sum(t.values())
    (Fraction(1, 36), Fraction(13, 18), Fraction(1, 1))
    """
    return {o: Fraction(sum(pips(n) for n in ns), 36) for o, ns in outcome_rolls(encounter).items()}


def cargo_after(outcome: Outcome, cargo: int) -> int | None:
    """Cards left on board after ``outcome`` for a ship holding ``cargo``; None if sunk.

    Parameters
    ----------
    outcome : Outcome
    cargo : int
        Cards on board, 0..3.

    Returns
    -------
    int or None
        Cards left (losing 2 with 1 on board leaves 0), or None when the ship sank.

    Raises
    ------
    InvalidInput
        If ``cargo`` is not an integer in 0..3.

    Examples
    --------
    >>> cargo_after(Outcome.LOSES_TWO, 1), cargo_after(Outcome.SINKS, 3)
    (0, None)
    """
    if isinstance(cargo, bool) or not isinstance(cargo, int) or not 0 <= cargo <= CARGO_LIMIT:
        raise InvalidInput("cargo", cargo, f"a card count in 0..{CARGO_LIMIT}")
    lost = {
        Outcome.SINKS: None,
        Outcome.LOSES_ALL: cargo,
        Outcome.LOSES_TWO: 2,
        Outcome.LOSES_ONE: 1,
        Outcome.UNHARMED: 0,
    }[Outcome(outcome)]
    return None if lost is None else max(0, cargo - lost)
