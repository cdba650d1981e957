"""A player's fleet under one roll: the ships' joint moves, their collisions, where they score.

Implements docs/fleet.md (seed 004_644cf972d8964df4.txt, rules 6 and 11 and the end of
the game); the single-ship rules it builds on are in :mod:`isles.models.ships`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction

from isles.models.catan import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex
from isles.models.ships import (
    MAX_SHIPS,
    Encounter,
    Outcome,
    capacity,
    check_ship_edge,
    outcome_table,
    scoring_ship,
    ship_edges,
    ship_options,
)

__all__ = [
    "Rollers",
    "check_fleet",
    "collision_rollers",
    "edge_rollers",
    "fleet_options",
    "scoring_edges",
    "survival_probability",
]


class Rollers(StrEnum):
    """Which ships on a crowded edge roll 2d6 for their fate (seed rule 11; docs/fleet.md).

    Values
    ------
    all
        Every ship on an edge holding more ships than its capacity rolls (the
        default: the seed has every player concerned by the collision roll).
    excess
        Only the ships beyond the capacity roll (2 ships along a coast: one roll).

    Examples
    --------
    >>> Rollers("all") is Rollers.ALL
    True
    """

    ALL = "all"
    EXCESS = "excess"


def edge_rollers(ships: int, capacity_: int, rollers: Rollers = Rollers.ALL) -> int:
    """How many of ``ships`` standing on one edge of capacity ``capacity_`` roll for a collision.

    Nothing collides while the edge is not over its capacity (seed rule 11: 2 ships on the
    high sea, 1 along a coast go safely); otherwise every ship on the edge
    (``Rollers.ALL``) or the ships beyond the capacity (``Rollers.EXCESS``).

    Parameters
    ----------
    ships : int
        Ships of the player on the edge, 0..3.
    capacity_ : int
        The edge's capacity, :func:`isles.models.ships.capacity` (1 or 2).
    rollers : Rollers
        The reading of "each ship over the limit" (docs/fleet.md).

    Returns
    -------
    int
        The number of collision rolls, 0 when nothing collides.

    Raises
    ------
    InvalidInput
        If ``ships`` is not in 0..3 or ``capacity_`` not 1 or 2.

    Examples
    --------
    >>> edge_rollers(2, 1), edge_rollers(2, 2), edge_rollers(3, 2)
    (2, 0, 3)
    >>> edge_rollers(2, 1, Rollers.EXCESS), edge_rollers(3, 2, Rollers.EXCESS)
    (1, 1)
    """
    if isinstance(ships, bool) or not isinstance(ships, int) or not 0 <= ships <= MAX_SHIPS:
        raise InvalidInput("ships", ships, f"a ship count in 0..{MAX_SHIPS}")
    if capacity_ not in (1, 2) or isinstance(capacity_, bool):
        raise InvalidInput("capacity", capacity_, "1 (along a coast) or 2 (high sea)")
    if ships <= capacity_:
        return 0
    return ships if Rollers(rollers) is Rollers.ALL else ships - capacity_


def collision_rollers(board: Board, fleet: Iterable[Edge], rollers: Rollers = Rollers.ALL) -> int:
    """Collision rolls of a fleet standing on ``fleet`` (one edge per ship, repeats allowed).

    The sum of :func:`edge_rollers` over the edges, with each edge's capacity
    from :func:`isles.models.ships.capacity`. The rolls are made after every roll
    of the game while the fleet stands so (docs/fleet.md), not only after a ship
    moved in.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships import demo_board
    >>> coast, sea = edge((0, 2), (0, 3)), edge((0, 0), (0, 1))
    >>> collision_rollers(demo_board(), [coast, coast, sea])
    2
    >>> collision_rollers(demo_board(), [sea, sea, coast])
    0
    """
    counts = Counter(check_ship_edge(board, e, "fleet") for e in fleet)
    return sum(edge_rollers(n, capacity(board, e), rollers) for e, n in counts.items())


def survival_probability(rollers: int) -> Fraction:
    """Exact chance that ``rollers`` collision rolls sink no ship (independent 2d6 each).

    A collision roll of 2 sinks the ship (seed rule 11,
    :func:`isles.models.ships.outcome_table`); the cargo outcomes do not matter
    to the fleet's attempt, so a roll survives with probability 35/36.

    Examples
    --------
    >>> survival_probability(0), survival_probability(2)
    (Fraction(1, 1), Fraction(1225, 1296))
    """
    if isinstance(rollers, bool) or not isinstance(rollers, int) or rollers < 0:
        raise InvalidInput("rollers", rollers, "a count of collision rolls >= 0")
    return (1 - outcome_table(Encounter.COLLISION)[Outcome.SINKS]) ** rollers


def check_fleet(board: Board, fleet: Sequence[Edge], field: str = "ships") -> tuple[Edge, ...]:
    """The fleet's edges, sorted, if it is 1..3 ship edges of ``board``; else raise.

    Ships of one player are interchangeable, so a fleet is a multiset of edges:
    the sorted tuple is its canonical form.

    Raises
    ------
    InvalidInput
        Naming ``field`` (``ships[1]`` for the second ship) when an edge is not a
        ship edge, or there are not 1..3 ships (seed rule 2).

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships import demo_board
    >>> [str(e) for e in check_fleet(demo_board(), [edge((0, 1), (0, 0)), edge((0, 2), (0, 3))])]
    ['0,0:0,1', '0,2:0,3']
    """
    ships = list(fleet)
    if not 1 <= len(ships) <= MAX_SHIPS:
        raise InvalidInput(field, len(ships), f"1..{MAX_SHIPS} ships (seed rule 2)")
    return tuple(sorted(check_ship_edge(board, e, f"{field}[{i}]") for i, e in enumerate(ships)))


def fleet_options(
    board: Board, fleet: Sequence[Edge], roll: int, may_stay: bool = False
) -> tuple[tuple[Edge, ...], ...]:
    """Every way the owner may place the ships of ``fleet`` after ``roll`` (seed rule 6).

    One roll moves them all: each ship independently takes one of its
    :func:`isles.models.ships.ship_options`; the owner picks each ship's
    direction. Each answer lists the ships' new edges in the order of ``fleet``.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships import demo_board
    >>> fleet = [edge((0, 0), (0, 1)), edge((0, 1), (1, 0))]
    >>> len(fleet_options(demo_board(), fleet, 2)), fleet_options(demo_board(), fleet, 7) == (
    ...     tuple(fleet),)
    (4, True)
    """
    per_ship = [ship_options(board, e, roll, may_stay) for e in fleet]
    return tuple(itertools.product(*per_ship))


def scoring_edges(
    board: Board,
    player: str,
    buildings: Mapping[Vertex, str] = {},
    roads: Mapping[Edge, str] = {},
) -> frozenset[Edge]:
    """The ship edges where a ship of ``player`` scores (the seed's end of the game).

    Every ship edge for which :func:`isles.models.ships.scoring_ship` holds:
    one of the player's buildings stands on an end of the edge, or one of its
    roads is the edge or shares an end with it. High-sea edges at a building's
    corner count (unlike unloading, which needs a coast edge).

    Examples
    --------
    >>> from isles.models.ships import demo_board, parse_settlement
    >>> corner = parse_settlement("0,1:0,2:1,1")
    >>> sorted(map(str, scoring_edges(demo_board(), "red", {corner: "red"})))
    ['0,1:0,2', '0,1:1,1', '0,2:1,1']
    """
    return frozenset(e for e in ship_edges(board) if scoring_ship(e, player, buildings, roads))
