"""The car rally's rules: what entering a hex costs, desert exits, start groups, goals.

Implements docs/rally.md ("Moving", "Default goals", "Card values and budgets"),
the reading of seeds/002_8684547a41c0941c.txt: costs in resource cards, own-road
halving, 2d6 desert exits, the four-car start group and its opposite goals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, get_args

from isles.models.catan import Board, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, to_pixel

__all__ = [
    "GROUP_SIZE",
    "MAX_CARD_VALUE",
    "OBJECTIVES",
    "EntryCost",
    "Objective",
    "board_centre_doubled",
    "card_values",
    "default_goals",
    "desert_exit_probability",
    "entry_cost",
    "is_rim_start",
    "rim_sea",
    "spending_budget",
    "start_group",
]

#: Cars in a start group: the seed puts four cars on four adjacent rim sea hexes.
GROUP_SIZE = 4

#: What a route minimises first (docs/rally.md, "What the planner minimises").
Objective = Literal["cards", "turns", "expected_turns", "weighted"]
#: The objectives, in the order the command line lists them.
OBJECTIVES: tuple[str, ...] = get_args(Objective)

#: Largest value of one card for the ``weighted`` objective (docs/rally.md, "Card
#: values and budgets"): any route's weighted total then stays far below the
#: largest float, so that its float form is exact enough and never overflows.
MAX_CARD_VALUE = 10**6


@dataclass(frozen=True, slots=True)
class EntryCost:
    """What entering one hex costs a car (docs/rally.md, "Moving").

    Attributes
    ----------
    resource : Resource or None
        The card type paid; None for a desert (free) and for gold, which is
        paid in any single resource of the payer's choice (``cards > 0``).
    cards : int
        How many cards.
    halved : bool
        Whether one of the mover's own roads on the crossed edge halved the
        cost (rounded up).

    Examples
    --------
    >>> entry_cost(Tile(Terrain.HILLS, 5), own_road=True).to_dict()
    {'resource': 'brick', 'cards': 3, 'halved': True}
    """

    resource: Resource | None
    cards: int
    halved: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data.

        Returns
        -------
        dict
            ``resource`` (a name, ``"any"`` for gold, None when free),
            ``cards``, ``halved``.

        Examples
        --------
        >>> entry_cost(Tile(Terrain.GOLD, 9)).to_dict()
        {'resource': 'any', 'cards': 9, 'halved': False}
        """
        name = self.resource.value if self.resource else ("any" if self.cards else None)
        return {"resource": name, "cards": self.cards, "halved": self.halved}


def entry_cost(tile: Tile, own_road: bool = False) -> EntryCost:
    """Cost of entering ``tile`` (docs/rally.md, "Moving"; seed 002, "Déplacer sa voiture").

    Parameters
    ----------
    tile : Tile
        The hex entered (any land terrain).
    own_road : bool, default False
        Whether the edge crossed carries one of the mover's own roads.

    Returns
    -------
    EntryCost
        ``n`` cards of the hex's resource for number token ``n``, ``ceil(n / 2)``
        across an own road; gold costs the same in any single resource; a
        desert costs nothing.

    Raises
    ------
    InvalidInput
        For a sea hex, which cars never enter.

    Examples
    --------
    >>> entry_cost(Tile(Terrain.FOREST, 3))  # the seed's first example: 3 lumber
    EntryCost(resource=<Resource.LUMBER: 'lumber'>, cards=3, halved=False)
    >>> entry_cost(Tile(Terrain.FIELDS, 5), own_road=True).cards  # second example: 3 grain
    3
    """
    if tile.terrain is Terrain.SEA:
        raise InvalidInput("hex terrain", "sea", "a land hex: cars never enter the sea")
    if tile.terrain is Terrain.DESERT or tile.number is None:
        return EntryCost(None, 0, False)
    n = tile.number
    return EntryCost(tile.terrain.resource, math.ceil(n / 2) if own_road else n, own_road)


def desert_exit_probability(target: Tile) -> Fraction:
    """Chance that one try to leave a desert for ``target`` succeeds (docs/rally.md, "Moving").

    Parameters
    ----------
    target : Tile
        The hex the player names before rolling.

    Returns
    -------
    Fraction
        ``P(2d6 <= n)`` for the target's number token ``n``; 1 for a target
        without one (another desert), reached without a roll. Each try takes
        a turn, so the move takes ``1 / p`` turns on average.

    Examples
    --------
    >>> [desert_exit_probability(Tile(Terrain.HILLS, n)) for n in (2, 6, 12)]
    [Fraction(1, 36), Fraction(5, 12), Fraction(1, 1)]
    """
    if not isinstance(target, Tile):
        raise InvalidInput("target", target, "a Tile (the hex the player names)")
    if target.number is None:
        return Fraction(1)
    n = target.number
    return Fraction(sum(6 - abs(7 - s) for s in range(2, n + 1)), 36)


def rim_sea(board: Board) -> list[Hex]:
    """Sea hexes on the board's rim, counter-clockwise around the board's centre.

    Parameters
    ----------
    board : Board

    Returns
    -------
    list of Hex
        The sea hexes with fewer than six neighbours on the board, starting at
        the one whose direction from the centre is closest to east and turning
        counter-clockwise (increasing angle): consecutive hexes are neighbours
        along the rim on hexagonal and most convex boards.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> rim_sea(beginner_board())[:3]
    [Hex(q=3, r=0), Hex(q=3, r=-1), Hex(q=3, r=-2)]
    """
    rim = [h for h in board.rim() if board.terrain(h) is Terrain.SEA]
    if not rim:
        return []
    xs = [to_pixel(h) for h in board]
    cx = sum(x for x, _ in xs) / len(xs)
    cy = sum(y for _, y in xs) / len(xs)

    def angle(h: Hex) -> float:
        x, y = to_pixel(h)
        return math.atan2(y - cy, x - cx) % (2 * math.pi)

    return sorted(rim, key=lambda h: (round(angle(h), 9), h))


# What a rim start is, in messages.
_RIM_START = "a rim start: a sea hex on the board's rim next to land"


def is_rim_start(board: Board, h: tuple[int, int]) -> bool:
    """Whether a car may start on ``h``: a sea hex on the board's rim next to land.

    Parameters
    ----------
    board : Board
    h : (q, r)
        A hex (on the board or not).

    Returns
    -------
    bool
        True for a sea hex with fewer than six neighbours on the board and at
        least one land neighbour (docs/rally.md, "Default goals").

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> board = beginner_board()
    >>> is_rim_start(board, (0, -3)), is_rim_start(board, (1, -1)), is_rim_start(board, (9, 9))
    (True, False, False)
    """
    return (
        h in board
        and board.terrain(h) is Terrain.SEA
        and len(board.neighbours(h)) < 6
        and any(board.terrain(n).is_land for n in board.neighbours(h))
    )


def start_group(board: Board, start: tuple[int, int], size: int = GROUP_SIZE) -> list[Hex]:
    """The default start group of a car on the rim start ``start``.

    The seed puts the cars on four adjacent rim sea hexes. When only one car's
    hex is known, isles takes (docs/rally.md, "Default goals") ``start`` and the
    next ``size - 1`` rim sea hexes counter-clockwise (see :func:`rim_sea`).

    Parameters
    ----------
    board : Board
    start : (q, r)
        A rim start (:func:`is_rim_start`).
    size : int, default 4
        Cars in the group (fewer when the rim has fewer sea hexes).

    Returns
    -------
    list of Hex
        ``start`` first.

    Raises
    ------
    InvalidInput
        When ``start`` is not a rim start (an inland hex, a car already under
        way, a sea hex away from land): it has no start group, and the goals
        must be named.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> start_group(beginner_board(), (0, -3))
    [Hex(q=0, r=-3), Hex(q=-1, r=-2), Hex(q=-2, r=-1), Hex(q=-3, r=0)]
    >>> start_group(beginner_board(), (1, -1))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: '1,-1' is invalid; expected a rim start: ...
    """
    h = Hex(*start)
    if not is_rim_start(board, h):
        raise InvalidInput("start", str(h), f"{_RIM_START} (only a rim start has a start group)")
    rim = rim_sea(board)
    i = rim.index(h)
    return [rim[(i + k) % len(rim)] for k in range(min(size, len(rim)))]


def board_centre_doubled(board: Board) -> tuple[int, int]:
    """Twice the board's centre in axial coordinates, rounded to integers.

    Parameters
    ----------
    board : Board

    Returns
    -------
    (int, int)
        Twice the mean of the hexes' coordinates, rounded: doubling keeps the
        point reflection ``h -> 2c - h`` on the hex lattice (a centre may fall
        between hexes). ``(0, 0)`` for boards centred on the origin.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> board_centre_doubled(beginner_board())
    (0, 0)
    """
    hexes = list(board)
    return (
        round(2 * sum(h.q for h in hexes) / len(hexes)),
        round(2 * sum(h.r for h in hexes) / len(hexes)),
    )


def default_goals(board: Board, group: Sequence[Hex] | Iterable[Hex]) -> list[Hex]:
    """The rally's goal hexes for a start group (docs/rally.md, "Default goals").

    The seed ends the race on "one of the four land hexes opposite the starting
    hexes". isles reads "opposite" as the point reflection of the group's hexes
    through the board's centre, ``(q, r) -> (-q, -r)`` on a board centred on the
    origin such as the beginner board.

    Parameters
    ----------
    board : Board
    group : iterable of Hex
        The start group (the four cars' sea hexes).

    Returns
    -------
    list of Hex
        The land hexes next to the reflected hexes (reflections off the board
        are ignored), in board order; 3 or 4 of them for a group of four on
        the beginner board.

    Raises
    ------
    InvalidInput
        If no land hex lies next to the reflected group (name the goals instead).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> default_goals(beginner_board(), [Hex(0, -3), Hex(1, -3), Hex(2, -3), Hex(3, -3)])
    [Hex(q=-2, r=2), Hex(q=-1, r=2), Hex(q=0, r=2)]
    """
    group = list(group)
    twice_q, twice_r = board_centre_doubled(board)
    reflected = {Hex(twice_q - h.q, twice_r - h.r) for h in group}
    goals = {
        n for h in reflected if h in board for n in board.neighbours(h) if board.terrain(n).is_land
    }
    if not goals:
        raise InvalidInput(
            "default goals of start group",
            [str(h) for h in group],
            "a start group whose reflection touches land (or give the goals)",
        )
    return [h for h in board if h in goals]


# -- card values and budgets ---------------------------------------------------------


def _resource(name: object, field: str) -> Resource:
    if isinstance(name, Resource):
        return name
    try:
        return Resource(str(name))
    except ValueError:
        raise InvalidInput(
            field, name, "a resource: " + ", ".join(r.value for r in Resource)
        ) from None


def card_values(
    values: Mapping[Any, float | int | Fraction] | None, field: str = "values"
) -> dict[Resource, Fraction]:
    """Check card values for the ``weighted`` objective and read them exactly.

    Parameters
    ----------
    values : mapping of resource (name or :class:`Resource`) to number, or None
        The value of one card of each resource named; resources not named are
        worth 1. A float is read exactly from its shortest decimal text
        (``0.1`` is ``1/10``).
    field : str
        The parameter's name in messages (``"--value"`` on the command line).

    Returns
    -------
    dict of Resource to Fraction
        Every resource, with its exact value.

    Raises
    ------
    InvalidInput
        Naming ``field.resource``: an unknown resource, a value that is not a
        number (a bool, a string), not finite (``nan``, ``inf``), negative or
        above :data:`MAX_CARD_VALUE`.

    Examples
    --------
    >>> card_values({"ore": 2, "wool": 0.5})[Resource.WOOL]
    Fraction(1, 2)
    >>> card_values({"ore": 1e308})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: values.ore: 1e+308 is invalid; expected a number in 0..1000000
    """
    out = dict.fromkeys(Resource, Fraction(1))
    expected = f"a number in 0..{MAX_CARD_VALUE}"
    for key, v in (values or {}).items():
        r = _resource(key, field)
        where = f"{field}.{r.value}"
        if isinstance(v, bool) or not isinstance(v, int | float | Fraction):
            raise InvalidInput(where, v, expected)
        if isinstance(v, float) and not math.isfinite(v):
            raise InvalidInput(where, v, expected)
        if not 0 <= v <= MAX_CARD_VALUE:
            raise InvalidInput(where, v, expected)
        out[r] = Fraction(str(v)) if isinstance(v, float) else Fraction(v)
    return out


def spending_budget(budget: Mapping[Any, int], field: str = "budget") -> dict[Resource, int]:
    """Check what a player can spend, per resource (docs/rally.md, "Card values and budgets").

    Parameters
    ----------
    budget : mapping of resource (name or :class:`Resource`) to int
        Cards in hand plus fuel reserve, per resource; resources not named: 0.
    field : str
        The parameter's name in messages (``"--budget"`` on the command line).

    Returns
    -------
    dict of Resource to int
        Every resource.

    Raises
    ------
    InvalidInput
        Naming ``field.resource``: an unknown resource, or a count that is not
        a whole number >= 0 (bools and floats are refused).

    Examples
    --------
    >>> spending_budget({"ore": 10})[Resource.ORE], spending_budget({"ore": 10})[Resource.WOOL]
    (10, 0)
    >>> spending_budget({"ore": 2.5})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: budget.ore: 2.5 is invalid; expected a whole number ...
    """
    out = dict.fromkeys(Resource, 0)
    for key, v in budget.items():
        r = _resource(key, field)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidInput(f"{field}.{r.value}", v, "a whole number of cards >= 0")
        out[r] = v
    return out
