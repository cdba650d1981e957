"""The rim of a rally board: where the cars start, their start groups, the goals opposite.

Implements docs/rally.md ("Start groups and goals"), the reading of
seeds/002_8684547a41c0941c.txt: the board's rim walked along its edge, the rim
starts, the four-car start group of each, and the land opposite a group.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence

from isles.models.board import Board
from isles.models.catan import Terrain
from isles.models.errors import InvalidInput
from isles.models.hexgrid import DIRECTIONS, Hex, distance, neighbours, to_pixel

__all__ = [
    "GROUP_SIZE",
    "Rim",
    "board_centre_doubled",
    "default_goals",
    "is_rim_start",
    "no_default_goals",
    "opposite_starts",
    "rim_sea",
    "rim_starts",
    "start_group",
    "start_groups",
]

#: Cars in a start group: the seed puts four cars on four adjacent rim sea hexes.
GROUP_SIZE = 4


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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
    >>> default_goals(beginner_board(), [Hex(0, -3), Hex(1, -3), Hex(2, -3), Hex(3, -3)])
    [Hex(q=-2, r=2), Hex(q=-1, r=2), Hex(q=0, r=2)]
    """
    return Rim(board).goals(group)
