"""The car rally's rules: what entering a hex costs, desert exits, start groups, goals.

Implements docs/rally.md ("Moving", "Start groups and goals", "Card values and
budgets"), the reading of seeds/002_8684547a41c0941c.txt: costs in resource cards,
own-road halving, 2d6 desert exits, the four-car start group and its opposite goals.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, get_args

from isles.models.catan import Board, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import DIRECTIONS, Edge, Hex, distance, neighbours, to_pixel

__all__ = [
    "BANK_RATIO",
    "CARD_COUNT",
    "GROUP_SIZE",
    "HAND_LIMIT",
    "MAX_CARDS",
    "MAX_CARD_VALUE",
    "OBJECTIVES",
    "ROLLS",
    "TRADE_MODES",
    "EntryCost",
    "Income",
    "Objective",
    "Rim",
    "TradeMode",
    "board_centre_doubled",
    "card_values",
    "default_goals",
    "desert_exit_probability",
    "discard_count",
    "entry_cost",
    "is_rim_start",
    "no_default_goals",
    "opposite_starts",
    "player_roads",
    "rim_sea",
    "rim_starts",
    "roll_income",
    "spending_budget",
    "start_group",
    "start_groups",
    "trade_ratios",
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


def _boundary_walk(board: Board, h: Hex) -> Iterator[Hex]:
    """The hexes met walking once along the board's edge through ``h``, ``h`` first.

    The walk follows the sides of board hexes that face off the board, keeping
    the board on its left: counter-clockwise around the board on its outer
    edge (clockwise around a hole). Each hex is given once, at its first visit.
    """
    tiles = board.tiles

    def off(x: Hex, d: int) -> bool:
        return Hex(x.q + DIRECTIONS[d].q, x.r + DIRECTIONS[d].r) not in tiles

    exposed = [d for d in range(6) if off(h, d)]
    if not exposed:
        yield h
        return
    # Begin where a run of open sides begins, so that h comes first.
    d = next((d for d in exposed if not off(h, (d - 1) % 6)), exposed[0])
    first = (h, d)
    seen: set[Hex] = set()
    while True:
        if h not in seen:
            seen.add(h)
            yield h
        # Round the corner between sides d and d + 1: along h if the next
        # neighbour is off the board too, else onto that neighbour's side facing
        # the same outside hex (direction d - 1 from it).
        step = DIRECTIONS[(d + 1) % 6]
        ahead = Hex(h.q + step.q, h.r + step.r)
        if ahead in tiles:
            h, d = ahead, (d - 1) % 6
        else:
            d = (d + 1) % 6
        if (h, d) == first:
            return


class Rim:
    """The rim of one board, read once (docs/rally.md, "Start groups and goals").

    The functions :func:`rim_sea`, :func:`rim_starts`, :func:`start_group`,
    :func:`start_groups`, :func:`opposite_starts` and :func:`default_goals`
    each read a board's rim; a planner asking about every group of one board
    (:func:`isles.rally.choose_start`) reads it once here.

    Parameters
    ----------
    board : Board

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> rim = Rim(beginner_board())
    >>> len(rim.starts), rim.goals(rim.start_group((0, -3)))
    (18, [Hex(q=2, r=0), Hex(q=1, r=1), Hex(q=0, r=2)])
    """

    def __init__(self, board: Board) -> None:
        self.board = board

    @functools.cached_property
    def centre_doubled(self) -> tuple[int, int]:
        """:func:`board_centre_doubled` of the board."""
        return board_centre_doubled(self.board)

    @functools.cached_property
    def sea(self) -> list[Hex]:
        """:func:`rim_sea` of the board."""
        tiles = self.board.tiles
        edge_sea = {
            h
            for h, t in tiles.items()
            if t.terrain is Terrain.SEA and any(n not in tiles for n in neighbours(h))
        }
        out: dict[Hex, None] = {}
        for h in self._by_direction(edge_sea):
            if h not in out:
                out.update((x, None) for x in _boundary_walk(self.board, h) if x in edge_sea)
        return list(out)

    @functools.cached_property
    def starts(self) -> list[Hex]:
        """:func:`rim_starts` of the board."""
        return [h for h in self.sea if is_rim_start(self.board, h)]

    def _by_direction(self, hexes: Iterable[Hex]) -> list[Hex]:
        """``hexes`` by their direction from the board's centre, counter-clockwise from east."""
        hexes = list(hexes)
        if not hexes:  # an empty board has no centre, and nothing to sort
            return []
        sum_x, sum_y = to_pixel(_coordinate_sums(self.board))  # pixels are linear in (q, r)
        cx, cy = sum_x / len(self.board), sum_y / len(self.board)

        def angle(h: Hex) -> float:
            x, y = to_pixel(h)
            return math.atan2(y - cy, x - cx) % (2 * math.pi)

        return sorted(hexes, key=lambda h: (round(angle(h), 9), h))

    def start_group(self, start: tuple[int, int], size: int = GROUP_SIZE) -> list[Hex]:
        """:func:`start_group` on the board."""
        h = Hex(*start)
        if not is_rim_start(self.board, h):
            raise InvalidInput(
                "start", str(h), f"{_RIM_START} (only a rim start has a start group)"
            )
        walk = (x for x in _boundary_walk(self.board, h) if is_rim_start(self.board, x))
        return list(itertools.islice(walk, size))

    def groups(self, size: int = GROUP_SIZE) -> list[list[Hex]]:
        """:func:`start_groups` of the board."""
        return [self.start_group(h, size) for h in self.starts]

    def opposite(self, group: Iterable[tuple[int, int]]) -> list[Hex]:
        """:func:`opposite_starts` of ``group``."""
        if not self.starts:  # no rim start to face (an empty board has no centre either)
            return []
        twice_q, twice_r = self.centre_doubled
        out: list[Hex] = []
        for q, r in group:
            m = Hex(twice_q - q, twice_r - r)
            if not is_rim_start(self.board, m):
                m = min(self.starts, key=functools.partial(distance, m))  # first: rim order
            out.append(m)
        return out

    def goals(self, group: Iterable[Hex]) -> list[Hex]:
        """:func:`default_goals` of ``group``."""
        group = list(group)
        board = self.board
        goals = {
            n for h in self.opposite(group) for n in board.neighbours(h) if board.terrain(n).is_land
        }
        if not goals:
            raise InvalidInput(
                "group",
                [str(h) for h in group],
                "a start group with rim starts opposite it, whose land gives the default "
                "goals (this board has none: give the start and the goals)",
            )
        return sorted(goals, key=lambda h: (h.r, h.q))  # board order


def _coordinate_sums(board: Board) -> tuple[int, int]:
    """The sums of the board's ``q`` and of its ``r`` (exact integers)."""
    return sum(h[0] for h in board.tiles), sum(h[1] for h in board.tiles)


def rim_sea(board: Board) -> list[Hex]:
    """Sea hexes on the board's rim, in the order met walking along the board's edge.

    Parameters
    ----------
    board : Board

    Returns
    -------
    list of Hex
        The sea hexes with fewer than six neighbours on the board. The list
        starts at the one whose direction from the board's centre is closest
        to east and walks counter-clockwise along the board's edge, so that
        consecutive hexes are neighbours along the rim, on any board shape
        (docs/rally.md, "Start groups and goals"). A board with several edges
        (holes, islands) lists each edge in turn, the next one starting at the
        first hex not yet listed, by direction.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> rim_sea(beginner_board())[:3]
    [Hex(q=3, r=0), Hex(q=3, r=-1), Hex(q=3, r=-2)]
    """
    return Rim(board).sea


def rim_starts(board: Board) -> list[Hex]:
    """The rim starts of the board (:func:`is_rim_start`), in rim order (:func:`rim_sea`).

    Parameters
    ----------
    board : Board

    Returns
    -------
    list of Hex
        Every sea hex on the board's rim next to land: the hexes cars start on.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> len(rim_starts(beginner_board()))
    18
    """
    return Rim(board).starts


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
        least one land neighbour (docs/rally.md, "Start groups and goals").

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


def no_default_goals(*, group: bool = False) -> InvalidInput:
    """The error for missing goals when the car's start is not a rim start.

    One wording for every question that takes default goals (the route, the
    rally as it is played, each car of a race). The start is named by its
    field's meaning, not spelt out, so the message reads the same whether the
    start was typed (``--start 1,-1``) or sent as JSON (``[1, -1]``).

    Parameters
    ----------
    group : bool, default False
        Whether a start group (``--group``) may name the default goals instead.

    Returns
    -------
    InvalidInput
        On field ``goals``, with no value.

    Notes
    -----
    docs/rally.md, "Start groups and goals" (seed 002_8684547a41c0941c.txt: the
    cars start on the board's rim; the default goals are the land opposite the
    start group, so a start that is not a rim start has none).

    Examples
    --------
    >>> print(no_default_goals())  # doctest: +NORMALIZE_WHITESPACE
    goals: required: the car's start is not a rim start, so it has no default goals
    (a rim start is a sea hex on the board's rim next to land); expected goal hexes
    >>> print(no_default_goals(group=True))  # doctest: +ELLIPSIS
    goals: ...; expected goal hexes, or the start group to take the default goals from
    """
    return InvalidInput(
        "goals",
        None,
        "goal hexes, or the start group to take the default goals from" if group else "goal hexes",
        problem="required: the car's start is not a rim start, so it has no default goals "
        "(a rim start is a sea hex on the board's rim next to land)",
    )


def start_group(board: Board, start: tuple[int, int], size: int = GROUP_SIZE) -> list[Hex]:
    """The default start group of a car on the rim start ``start``.

    The seed puts the cars on four adjacent rim sea hexes. When only one car's
    hex is known, isles takes (docs/rally.md, "Start groups and goals")
    ``start`` and the next ``size - 1`` rim starts met walking
    counter-clockwise along the board's edge from it.

    Parameters
    ----------
    board : Board
    start : (q, r)
        A rim start (:func:`is_rim_start`).
    size : int, default 4
        Cars in the group (fewer when the edge has fewer rim starts).

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
    return Rim(board).start_group(start, size)


def start_groups(board: Board, size: int = GROUP_SIZE) -> list[list[Hex]]:
    """Every start group of the board: one per rim start, in rim order.

    Parameters
    ----------
    board : Board
    size : int, default 4
        Cars in a group.

    Returns
    -------
    list of list of Hex
        :func:`start_group` of each of :func:`rim_starts`; empty when the
        board has no rim start (no sea on its rim next to land).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> groups = start_groups(beginner_board())
    >>> len(groups), groups[0]
    (18, [Hex(q=3, r=0), Hex(q=3, r=-1), Hex(q=3, r=-2), Hex(q=3, r=-3)])
    """
    return Rim(board).groups(size)


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
        between hexes, as on the 5-6 player board). ``(0, 0)`` for boards
        centred on the origin.

    Raises
    ------
    InvalidInput
        Naming ``board`` when it has no hex (an empty board has no centre).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> board_centre_doubled(beginner_board())
    (0, 0)
    """
    if not board.tiles:
        raise InvalidInput("board", "no hex", "a board with at least one hex (its centre)")
    sum_q, sum_r = _coordinate_sums(board)
    return round(2 * sum_q / len(board)), round(2 * sum_r / len(board))


def opposite_starts(board: Board, group: Iterable[tuple[int, int]]) -> list[Hex]:
    """The rim starts opposite a start group (docs/rally.md, "Start groups and goals").

    Each hex of the group is reflected through the board's centre, ``h -> 2c - h``.
    On a board symmetric about its centre (the beginner board, the base
    island, the 5-6 player board, each in its sea frame) the reflection of a
    rim start is again a rim start. Elsewhere a reflected hex that is not a
    rim start is moved to the nearest rim start (hex distance; ties to the
    earliest in rim order).

    Parameters
    ----------
    board : Board
    group : iterable of (q, r)
        The start group.

    Returns
    -------
    list of Hex
        One rim start per hex of the group, in the group's order (a hex may
        repeat when two reflections move to the same rim start); empty when
        the board has no rim start.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> opposite_starts(beginner_board(), [(0, -3), (1, -3)])
    [Hex(q=0, r=3), Hex(q=-1, r=3)]
    """
    return Rim(board).opposite(group)


def default_goals(board: Board, group: Sequence[Hex] | Iterable[Hex]) -> list[Hex]:
    """The rally's goal hexes for a start group (docs/rally.md, "Start groups and goals").

    The seed ends the race on "one of the four land hexes opposite the starting
    hexes". isles reads "opposite" as the point reflection of the group's hexes
    through the board's centre (:func:`opposite_starts`: ``(q, r) -> (-q, -r)``
    on a board centred on the origin such as the beginner board), and the
    goals as the land next to those opposite rim starts.

    Parameters
    ----------
    board : Board
    group : iterable of Hex
        The start group (the four cars' sea hexes).

    Returns
    -------
    list of Hex
        The land hexes next to the opposite rim starts, in board order; 3 or 4
        of them for a group of four on the beginner board.

    Raises
    ------
    InvalidInput
        Naming ``group`` if no land hex lies next to them (a board without rim
        starts: name the goals instead).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> default_goals(beginner_board(), [Hex(0, -3), Hex(1, -3), Hex(2, -3), Hex(3, -3)])
    [Hex(q=-2, r=2), Hex(q=-1, r=2), Hex(q=0, r=2)]
    """
    return Rim(board).goals(group)


def player_roads(board: Board, player: str) -> list[Edge]:
    """A player's own roads, as the board file gives them (docs/boards.md, "Roads").

    Parameters
    ----------
    board : Board
    player : str
        A player named by the board's roads or buildings.

    Returns
    -------
    list of Edge
        The sides carrying the player's roads, sorted (possibly none: a player
        with buildings only); crossing one halves the rally's entry cost.

    Raises
    ------
    InvalidInput
        Naming ``player``, when the board names no such player (the players it
        names are listed).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> from isles.models.hexgrid import edge
    >>> board = beginner_board().replace(roads={edge((0, -2), (0, -1)): "red"})
    >>> player_roads(board, "red")
    [Edge(a=Hex(q=0, r=-2), b=Hex(q=0, r=-1))]
    >>> player_roads(board, "blue")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: player: 'blue' is invalid; expected a player of the board: red
    """
    board.check_player(player)
    return sorted(e for e, owner in board.roads.items() if owner == player)


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


#: The most cards of one resource a player can hold, in hand or in the fuel reserve:
#: the bank holds 19 cards of each resource in the base game, so a 20th is never
#: dealt (docs/rally.md, "Card values and budgets"). Larger counts are refused at
#: once rather than searched.
MAX_CARDS = 19
#: What a card count may be, in messages.
CARD_COUNT = (
    f"a whole number of cards in 0..{MAX_CARDS} (the bank holds {MAX_CARDS} cards of each resource)"
)


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
        a whole number in 0..:data:`MAX_CARDS` (bools and floats are refused).

    Examples
    --------
    >>> spending_budget({"ore": 10})[Resource.ORE], spending_budget({"ore": 10})[Resource.WOOL]
    (10, 0)
    >>> spending_budget({"ore": 2.5})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: budget.ore: 2.5 is invalid; expected a whole number ...
    >>> spending_budget({"brick": 20})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: budget.brick: 20 is invalid; expected ... cards in 0..19 ...
    """
    out = dict.fromkeys(Resource, 0)
    for key, v in budget.items():
        r = _resource(key, field)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_CARDS:
            raise InvalidInput(f"{field}.{r.value}", v, CARD_COUNT)
        out[r] = v
    return out


# -- the rally as it is played: income, trades, the 7-card rule ----------------------

#: The 2d6 rolls, 2..12.
ROLLS: tuple[int, ...] = tuple(range(2, 13))
#: Cards a hand may hold when a 7 is rolled without discarding (the base rules).
HAND_LIMIT = 7
#: The bank's ratio: 4 cards of one resource for 1 of any.
BANK_RATIO = 4
#: How a player may trade in ``isles rally --income`` (docs/rally.md, "The rally as it is played").
TradeMode = Literal["none", "bank", "harbours"]
TRADE_MODES: tuple[str, ...] = get_args(TradeMode)


@dataclass(frozen=True, slots=True)
class Income:
    """What one roll of 2d6 gives a player: cards per resource, and gold cards of their choice.

    Attributes
    ----------
    cards : tuple of tuple of int
        ``cards[i][j]``: cards of ``list(Resource)[j]`` on roll ``ROLLS[i]``.
    gold : tuple of int
        ``gold[i]``: cards of the owner's choice (gold hexes) on roll ``ROLLS[i]``.

    Examples
    --------
    >>> from isles.models.catan import beginner_board, Building, BuildingKind
    >>> from isles.models.hexgrid import vertex
    >>> corner = vertex((0, -2), (0, -1), (1, -2))  # mountains 10, hills 6, pasture 2
    >>> board = beginner_board().replace(buildings={corner: Building("red", BuildingKind.CITY)})
    >>> inc = roll_income(board, "red")
    >>> inc.cards[ROLLS.index(10)], inc.cards[ROLLS.index(6)]
    ((0, 0, 0, 0, 2), (0, 0, 0, 2, 0))
    """

    cards: tuple[tuple[int, ...], ...]
    gold: tuple[int, ...]

    def per_roll_max(self) -> tuple[int, ...]:
        """The most cards of each resource one roll can give (gold counted for every resource)."""
        return tuple(
            max(row[j] + g for row, g in zip(self.cards, self.gold, strict=True))
            for j in range(len(Resource))
        )


def roll_income(board: Board, player: str) -> Income:
    """The cards each roll gives ``player`` from their buildings (seed 002, "Les règles de base").

    Every roll at the table (every player's turn) gives each of the player's
    buildings next to a land hex carrying the rolled number 1 card (settlement)
    or 2 (city) of that hex's resource; a gold hex gives cards of the owner's
    choice; a 7 gives nothing. docs/rally.md, "The rally as it is played".

    Parameters
    ----------
    board : Board
        With the players' ``buildings`` (docs/boards.md).
    player : str
        One of ``board.players()``.

    Returns
    -------
    Income

    Raises
    ------
    InvalidInput
        Naming ``player``: a name the board does not give (with those it gives).

    Examples
    --------
    >>> from isles.models.catan import beginner_board, Building
    >>> from isles.models.hexgrid import vertex
    >>> corner = vertex((0, -2), (0, -1), (1, -2))
    >>> board = beginner_board().replace(buildings={corner: Building("red")})
    >>> sum(map(sum, roll_income(board, "red").cards))  # three hexes, one card each
    3
    """
    board.check_player(player)
    resources = list(Resource)
    cards = [[0] * len(resources) for _ in ROLLS]
    gold = [0] * len(ROLLS)
    for corner, building in board.buildings.items():
        if building.player != player:
            continue
        amount = 2 if building.kind.value == "city" else 1
        for h in corner:
            tile = board.tiles[h]
            if not tile.terrain.produces or tile.number is None:
                continue
            i = ROLLS.index(tile.number)
            resource = tile.terrain.resource
            if resource is None:  # gold: the owner's choice
                gold[i] += amount
            else:
                cards[i][resources.index(resource)] += amount
    return Income(tuple(tuple(row) for row in cards), tuple(gold))


def trade_ratios(board: Board, player: str, mode: str) -> tuple[int, ...] | None:
    """The cards of each resource ``player`` gives for one card of any (None: no trades).

    ``bank``: 4 of anything. ``harbours``: also 3 at a generic harbour and 2 of
    a 2:1 harbour's resource, where the player has a building on one of the
    two corners of the harbour's side (the base rules). docs/rally.md, "The
    rally as it is played".

    Examples
    --------
    >>> from isles.models.catan import beginner_board, Building, HarbourKind
    >>> from isles.models.hexgrid import edge, vertex
    >>> side = edge((0, -3), (0, -2))
    >>> town = {vertex((0, -3), (0, -2), (1, -3)): Building("red")}
    >>> board = beginner_board().replace(harbours={side: HarbourKind.ORE}, buildings=town)
    >>> trade_ratios(board, "red", "harbours"), trade_ratios(board, "red", "bank")
    ((4, 4, 4, 4, 2), (4, 4, 4, 4, 4))
    """
    if mode == "none":
        return None
    ratios = [BANK_RATIO] * len(Resource)
    if mode == "harbours":
        mine = {v for v, b in board.buildings.items() if b.player == player}
        for side, kind in board.harbours.items():
            a, b = side
            ends = [h for h in neighbours(a) if h in neighbours(b)]
            corners = {tuple(sorted((a, b, c))) for c in ends}
            if not any(tuple(v) in corners for v in mine):
                continue
            for j, resource in enumerate(Resource):
                if kind.resource is None or kind.resource is resource:
                    ratios[j] = min(ratios[j], kind.ratio)
    return tuple(ratios)


def discard_count(hand: int, limit: int = HAND_LIMIT) -> int:
    """Cards a player holding ``hand`` cards discards on a 7: half, rounded down, above the limit.

    Examples
    --------
    >>> [discard_count(n) for n in (7, 8, 9, 12)]
    [0, 4, 4, 6]
    """
    return hand // 2 if hand > limit else 0
