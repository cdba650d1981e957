"""A player's fleet under one roll: the ships' joint moves, their collisions, where they score.

Implements docs/ships.md (seed 004_644cf972d8964df4.txt, rules 6 and 11 and the end of
the game); the single-ship rules it builds on are in :mod:`isles.models.ships.winds`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex
from isles.models.ships.coordinates import as_corner
from isles.models.ships.encounters import Encounter, Outcome, outcome_table
from isles.models.ships.limits import MAX_SHIPS
from isles.models.ships.settlements import corner_edges, scoring_ship
from isles.models.ships.winds import capacity, check_ship_edge, ship_edges, ship_options

__all__ = [
    "MAX_FLEET_ROLLS",
    "Rollers",
    "check_fleet",
    "collision_rollers",
    "edge_rollers",
    "fleet_options",
    "fleet_targets",
    "scoring_edges",
    "survival_probability",
]

#: Most rolls a fleet's finite-horizon table covers (``isles sail --within``).
MAX_FLEET_ROLLS = 1_000


class Rollers(StrEnum):
    """Which ships on a crowded edge roll 2d6 for their fate (seed rule 11; docs/ships.md,
    "Collisions (rule 11): the reading implemented").

    Values
    ------
    excess
        Only the ships beyond the capacity roll: each ship over the limit rolls
        (2 ships along a coast: one roll; 3 on the high sea: one roll). The default.
    all
        A variant: every ship on an edge holding more ships than its capacity rolls
        (2 ships along a coast: two rolls; 3 on the high sea: three).

    Examples
    --------
    >>> Rollers("excess") is Rollers.EXCESS, [r.value for r in Rollers]
    (True, ['excess', 'all'])
    """

    EXCESS = "excess"
    ALL = "all"


def edge_rollers(ships: int, capacity_: int, rollers: Rollers = Rollers.EXCESS) -> int:
    """How many of ``ships`` standing on one edge of capacity ``capacity_`` roll for a collision.

    Nothing collides while the edge is not over its capacity (seed rule 11: 2 ships on the
    high sea, 1 along a coast go safely); otherwise the ships beyond the capacity
    (``Rollers.EXCESS``, the default) or, in the variant, every ship on the edge
    (``Rollers.ALL``).

    Parameters
    ----------
    ships : int
        Ships of the player on the edge, 0..3.
    capacity_ : int
        The edge's capacity, :func:`isles.models.ships.winds.capacity` (1 or 2).
    rollers : Rollers
        The reading of "each ship over the limit" (docs/ships.md).

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
    (1, 0, 1)
    >>> edge_rollers(2, 1, Rollers.ALL), edge_rollers(3, 2, Rollers.ALL)
    (2, 3)
    """
    if isinstance(ships, bool) or not isinstance(ships, int) or not 0 <= ships <= MAX_SHIPS:
        raise InvalidInput("ships", ships, f"a ship count in 0..{MAX_SHIPS}")
    if capacity_ not in (1, 2) or isinstance(capacity_, bool):
        raise InvalidInput("capacity", capacity_, "1 (along a coast) or 2 (high sea)")
    if ships <= capacity_:
        return 0
    return ships if Rollers(rollers) is Rollers.ALL else ships - capacity_


def collision_rollers(
    board: Board, fleet: Iterable[Edge], rollers: Rollers = Rollers.EXCESS
) -> int:
    """Collision rolls of a fleet standing on ``fleet`` (one edge per ship, repeats allowed).

    The sum of :func:`edge_rollers` over the edges, with each edge's capacity
    from :func:`isles.models.ships.winds.capacity`. The rolls are made after every roll
    of the game while the fleet stands so (docs/ships.md), not only after a ship
    moved in.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.demo import demo_board
    >>> coast, sea = edge((0, 2), (0, 3)), edge((0, 0), (0, 1))
    >>> collision_rollers(demo_board(), [coast, coast, sea])
    1
    >>> collision_rollers(demo_board(), [coast, coast, sea], Rollers.ALL)
    2
    >>> collision_rollers(demo_board(), [sea, sea, coast])
    0
    """
    counts = Counter(check_ship_edge(board, e, "fleet") for e in fleet)
    return sum(edge_rollers(n, capacity(board, e), rollers) for e, n in counts.items())


def survival_probability(rollers: int) -> Fraction:
    """Exact chance that ``rollers`` collision rolls sink no ship (independent 2d6 each).

    A collision roll of 2 sinks the ship (seed rule 11,
    :func:`isles.models.ships.encounters.outcome_table`); the cargo outcomes do not matter
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
    >>> from isles.models.ships.demo import demo_board
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
    :func:`isles.models.ships.winds.ship_options`; the owner picks each ship's
    direction. Each answer lists the ships' new edges in the order of ``fleet``.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.demo import demo_board
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

    Every ship edge for which :func:`isles.models.ships.settlements.scoring_ship` holds:
    one of the player's buildings stands on an end of the edge, or one of its
    roads is the edge or shares an end with it. High-sea edges at a building's
    corner count (unlike unloading, which needs a coast edge).

    Examples
    --------
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.ships.demo import demo_board
    >>> corner = parse_settlement("0,1:0,2:1,1")
    >>> sorted(map(str, scoring_edges(demo_board(), "red", {corner: "red"})))
    ['0,1:0,2', '0,1:1,1', '0,2:1,1']
    """
    return frozenset(e for e in ship_edges(board) if scoring_ship(e, player, buildings, roads))


def fleet_targets(
    board: Board, targets: Iterable[object] = (), near: Iterable[object] = ()
) -> frozenset[Edge]:
    """The scoring edges of a fleet question: the given ship edges plus the ship edges at corners.

    A ship scores next to its owner's building (the seed's end of the game):
    every ship edge at the building's corner counts, the high-sea one included
    (:func:`isles.models.ships.settlements.corner_edges`; unloading, by contrast, needs the
    coast, :func:`isles.models.ships.settlements.settlement_edges`).

    Parameters
    ----------
    board : Board
    targets : iterable of Edge
        Scoring ship edges (an ``Edge`` or a pair of hexes each).
    near : iterable of Vertex
        Corners of the player's buildings (a ``Vertex`` or three hexes each).

    Returns
    -------
    frozenset of Edge

    Raises
    ------
    InvalidInput
        Naming ``targets[i]`` or ``near[i]``: not a ship edge, a corner touching
        no ship edge; or both empty.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> sorted(map(str, fleet_targets(demo_board(), near=[((0, 3), (0, 2), (1, 2))])))
    ['0,2:0,3', '0,2:1,2', '0,3:1,2']
    """
    out = {check_ship_edge(board, e, f"targets[{i}]") for i, e in enumerate(targets)}
    for i, value in enumerate(near):
        v = as_corner(value, f"near[{i}]")
        found = corner_edges(board, v)
        if not found:
            raise InvalidInput(f"near[{i}]", ":".join(map(str, v)), "a corner next to the sea")
        out.update(found)
    if not out:
        raise InvalidInput("targets", [], "at least one target edge or corner (near)")
    return frozenset(out)
