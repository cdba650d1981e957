"""The pieces of Catan: terrains, resources, number tokens and their 2d6 odds, tiles,
harbours and buildings (docs/boards.md; seeds 002_8684547a41c0941c.txt, 004_644cf972d8964df4.txt).

What the rally, the boards and the ships share: each hex's terrain and number, what
it produces, the base game's inventory. The board they lie on, and its file format,
is :mod:`isles.models.board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from isles.models.errors import InvalidInput

__all__ = [
    "BASE_LAND",
    "BASE_NUMBER_TOKENS",
    "NUMBER_TOKENS",
    "VALID_TILES",
    "Building",
    "BuildingKind",
    "HarbourKind",
    "Resource",
    "Terrain",
    "Tile",
    "check_tile",
    "pips",
    "roll_probability",
]


class Resource(StrEnum):
    """The five resource cards (docs/boards.md, "Terrains and tokens").

    Examples
    --------
    >>> [r.value for r in Resource]
    ['lumber', 'wool', 'grain', 'brick', 'ore']
    """

    LUMBER = "lumber"
    WOOL = "wool"
    GRAIN = "grain"
    BRICK = "brick"
    ORE = "ore"


class Terrain(StrEnum):
    """Hex terrains (docs/boards.md, "Terrains and tokens").

    The five resource terrains produce one resource each; ``GOLD`` (Seafarers)
    produces any one resource of the owner's choice; desert and sea produce
    nothing.

    Examples
    --------
    >>> Terrain.FOREST.resource, Terrain.GOLD.produces, Terrain.SEA.is_land
    (<Resource.LUMBER: 'lumber'>, True, False)
    """

    FOREST = "forest"
    PASTURE = "pasture"
    FIELDS = "fields"
    HILLS = "hills"
    MOUNTAINS = "mountains"
    DESERT = "desert"
    SEA = "sea"
    GOLD = "gold"

    @property
    def resource(self) -> Resource | None:
        """The resource this terrain produces (None for desert, sea and gold)."""
        return _PRODUCES.get(self)

    @property
    def is_land(self) -> bool:
        """True for every terrain but sea (cars drive on land, ships sail on sea)."""
        return self is not Terrain.SEA

    @property
    def produces(self) -> bool:
        """True for the five resource terrains and gold."""
        return self not in (Terrain.DESERT, Terrain.SEA)


_PRODUCES: dict[Terrain, Resource] = {
    Terrain.FOREST: Resource.LUMBER,
    Terrain.PASTURE: Resource.WOOL,
    Terrain.FIELDS: Resource.GRAIN,
    Terrain.HILLS: Resource.BRICK,
    Terrain.MOUNTAINS: Resource.ORE,
}

#: Legal number tokens: 2..12 without 7.
NUMBER_TOKENS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)

#: Base game land tiles (19).
BASE_LAND: Mapping[Terrain, int] = MappingProxyType(
    {
        Terrain.FOREST: 4,
        Terrain.PASTURE: 4,
        Terrain.FIELDS: 4,
        Terrain.HILLS: 3,
        Terrain.MOUNTAINS: 3,
        Terrain.DESERT: 1,
    }
)

#: Base game number tokens (18): one 2 and one 12, two of every other.
BASE_NUMBER_TOKENS: tuple[int, ...] = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)


def pips(n: int) -> int:
    """Pips of number token ``n``: the ways to roll it with 2d6 (docs/boards.md, "Dice").

    Parameters
    ----------
    n : int
        A 2d6 sum, 2..12.

    Returns
    -------
    int
        ``6 - |7 - n|``, out of 36 outcomes.

    Raises
    ------
    InvalidInput
        If ``n`` is not an integer in 2..12.

    Examples
    --------
    >>> [pips(n) for n in (2, 6, 7, 8, 12)]
    [1, 5, 6, 5, 1]
    """
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 12:
        raise InvalidInput("number", n, "a 2d6 sum in 2..12")
    return 6 - abs(7 - n)


def roll_probability(n: int) -> Fraction:
    """Exact probability that 2d6 sums to ``n`` (docs/boards.md, "Dice").

    Parameters
    ----------
    n : int
        A 2d6 sum, 2..12.

    Returns
    -------
    Fraction
        ``pips(n) / 36``.

    Raises
    ------
    InvalidInput
        If ``n`` is not an integer in 2..12.

    Examples
    --------
    >>> roll_probability(7)
    Fraction(1, 6)
    """
    return Fraction(pips(n), 36)


@dataclass(frozen=True, slots=True)
class Tile:
    """What lies on one hex: a terrain and, for producing hexes, a number token.

    Attributes
    ----------
    terrain : Terrain
    number : int or None
        The number token, 2..12 without 7. Every producing tile (five
        resources and gold) has one; a desert never does; a sea tile may (the
        ships scenario's winds, seed 004_644cf972d8964df4.txt).

    Notes
    -----
    A tile is checked when it joins a :class:`Board`, which names the hex.

    Examples
    --------
    >>> Tile(Terrain.HILLS, 6)
    Tile(terrain=<Terrain.HILLS: 'hills'>, number=6)
    """

    terrain: Terrain
    number: int | None = None


def check_tile(field: str, tile: Tile) -> None:
    """Check a tile as a board takes it: a Terrain, a number token where one belongs.

    Raises
    ------
    InvalidInput
        Naming ``field.terrain`` or ``field.number``.

    Examples
    --------
    >>> check_tile("hex 0,0", Tile(Terrain.DESERT, 6))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: hex 0,0.number: 6 is invalid; expected no number on a ...
    """
    if not isinstance(tile.terrain, Terrain):
        raise InvalidInput(f"{field}.terrain", tile.terrain, "a Terrain (Terrain.FOREST, ...)")
    n = tile.number
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n not in NUMBER_TOKENS):
        raise InvalidInput(f"{field}.number", n, "a number token in 2..12 other than 7")
    if tile.terrain is Terrain.DESERT and n is not None:
        raise InvalidInput(f"{field}.number", n, "no number on a desert (absent or null)")
    if tile.terrain.produces and n is None:
        raise InvalidInput(
            f"{field}.number", n, f"a number token on a producing hex ({tile.terrain.value})"
        )


def _valid_tiles() -> dict[tuple[str, int | None], Tile]:
    """Every tile :func:`check_tile` accepts, by (terrain name, number)."""
    out: dict[tuple[str, int | None], Tile] = {}
    for terrain in Terrain:
        numbers: list[int | None] = [None, *NUMBER_TOKENS]
        for n in numbers:
            if (terrain is Terrain.DESERT and n is not None) or (terrain.produces and n is None):
                continue
            out[terrain.value, n] = Tile(terrain, n)
    return out


#: Every valid tile by (terrain name, number). Tiles are immutable: boards read from files
#: share one tile per (terrain, number), and a tile found here needs no further check
#: (big boards read in bulk).
VALID_TILES = _valid_tiles()


class HarbourKind(StrEnum):
    """What a harbour trades: ``generic`` 3:1 any resource, or one resource 2:1.

    Examples
    --------
    >>> HarbourKind.GENERIC.ratio, HarbourKind("wool").ratio, HarbourKind.ORE.resource
    (3, 2, <Resource.ORE: 'ore'>)
    """

    GENERIC = "generic"
    LUMBER = "lumber"
    WOOL = "wool"
    GRAIN = "grain"
    BRICK = "brick"
    ORE = "ore"

    @property
    def ratio(self) -> int:
        """Cards given for one card taken: 3 at a generic harbour, 2 at a resource one."""
        return 3 if self is HarbourKind.GENERIC else 2

    @property
    def resource(self) -> Resource | None:
        """The resource a 2:1 harbour takes (None for a generic harbour)."""
        return None if self is HarbourKind.GENERIC else Resource(self.value)


class BuildingKind(StrEnum):
    """A building on a corner."""

    SETTLEMENT = "settlement"
    CITY = "city"


@dataclass(frozen=True, slots=True)
class Building:
    """A player's settlement or city on a corner.

    Attributes
    ----------
    player : str
        The player's name (a colour, say), as the board file gives it.
    kind : BuildingKind
    """

    player: str
    kind: BuildingKind = BuildingKind.SETTLEMENT
