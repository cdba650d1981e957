"""The car rally's rules: what entering a hex costs, desert exits, default goals.

Implements docs/rally.md, the reading of seeds/002_8684547a41c0941c.txt
(RULES.md section 2): costs in resource cards, own-road halving, 2d6 desert exits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from isles.models.catan import Board, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, to_pixel

__all__ = [
    "EntryCost",
    "board_centre_doubled",
    "default_goals",
    "desert_exit_probability",
    "entry_cost",
    "rim_sea",
    "start_group",
]


@dataclass(frozen=True, slots=True)
class EntryCost:
    """What entering one hex costs a car.

    ``resource`` is the card type paid, or None with ``cards > 0`` for a gold
    hex (any single resource type, the payer's choice); ``cards`` is the
    number of cards; ``halved`` tells whether an own road on the crossed edge
    halved it (rounded up).
    """

    resource: Resource | None
    cards: int
    halved: bool


def entry_cost(tile: Tile, own_road: bool = False) -> EntryCost:
    """Cost of entering ``tile`` (docs/rally.md "Costs"; seed 002, "Déplacer sa voiture").

    A producing hex with number token ``n`` costs ``n`` cards of its resource,
    ``ceil(n / 2)`` across one of the mover's own roads; gold costs the same in
    any single resource; a desert costs nothing.

    Raises
    ------
    InvalidInput
        For a sea hex, which cars never enter.

    Examples
    --------
    >>> from isles.models.catan import Tile, Terrain
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
    """Chance that one try to leave a desert for ``target`` succeeds: ``P(2d6 <= n)``.

    ``n`` is the target's number token; a target without one (another desert)
    is reached without a roll (probability 1). The expected number of tries,
    each a turn, is ``1 / p``.

    >>> from isles.models.catan import Tile, Terrain
    >>> [desert_exit_probability(Tile(Terrain.HILLS, n)) for n in (2, 6, 12)]
    [Fraction(1, 36), Fraction(5, 12), Fraction(1, 1)]
    """
    if target.number is None:
        return Fraction(1)
    n = target.number
    return Fraction(sum(6 - abs(7 - s) for s in range(2, n + 1)), 36)


def rim_sea(board: Board) -> list[Hex]:
    """Sea hexes on the board's rim, counter-clockwise around the board's centre.

    The order starts at the hex whose direction from the centre is closest to
    east and turns counter-clockwise (increasing angle), so consecutive hexes
    in the list are neighbours along the rim on hexagonal and most convex boards.
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


def start_group(board: Board, start: Hex, size: int = 4) -> list[Hex]:
    """The default starting group of a car on rim sea hex ``start``.

    The seed puts the cars on four adjacent rim sea hexes. When only one car's
    hex is known, isles takes (docs/rally.md, "Default goals") ``start`` and the
    next ``size - 1`` rim sea hexes counter-clockwise (see :func:`rim_sea`).
    A start that is not a rim sea hex (a car already under way) is its own group.
    """
    rim = rim_sea(board)
    if start not in rim:
        return [start]
    i = rim.index(start)
    return [rim[(i + k) % len(rim)] for k in range(min(size, len(rim)))]


def board_centre_doubled(board: Board) -> tuple[int, int]:
    """Twice the board's centre in axial coordinates, rounded to integers.

    The centre is the mean of the hexes' coordinates; doubling it keeps the
    point reflection ``h -> 2c - h`` on the hex lattice (a centre may fall
    between hexes). ``(0, 0)`` for boards centred on the origin.
    """
    hexes = list(board)
    return (
        round(2 * sum(h.q for h in hexes) / len(hexes)),
        round(2 * sum(h.r for h in hexes) / len(hexes)),
    )


def default_goals(board: Board, group: Sequence[Hex] | Iterable[Hex]) -> list[Hex]:
    """The rally's goal hexes for a starting group (RULES.md section 2).

    The land hexes adjacent to the point reflections of the group's hexes
    through the board's centre (reflections off the board are ignored), in
    board order. For a board centred on the origin, such as the beginner
    board, the reflection is ``(q, r) -> (-q, -r)`` as RULES.md states; there
    a group of four gives 3 or 4 goals.

    Raises
    ------
    InvalidInput
        If no land hex lies next to the reflected group (name goals explicitly).

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
