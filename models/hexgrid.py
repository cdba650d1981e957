"""Axial hex coordinates: neighbours, distance, rings, shapes, edges, corners.

Implements docs/boards.md ("Coordinates"): pointy-top axial ``(q, r)``, cube
``s = -q - r``, the six directions counter-clockwise from east, edges and
corners as sorted hexes. Shared by every board game in isles (seeds
002_8684547a41c0941c.txt and 004_644cf972d8964df4.txt).

References
----------
.. [1] A. Patel, "Hexagonal Grids", Red Blob Games, 2013 (axial and cube
   coordinates, distances, rings, pixel centres).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from isles.models.errors import InvalidInput
from isles.models.text import parse_integer

__all__ = [
    "DIRECTIONS",
    "MAX_COORDINATE",
    "CornerLike",
    "Edge",
    "EdgeLike",
    "Hex",
    "Vertex",
    "as_hex",
    "distance",
    "edge",
    "edges_between",
    "hexagon",
    "neighbours",
    "parse_edge",
    "parse_hex",
    "ring",
    "to_pixel",
    "vertex",
    "vertices_around",
    "vertices_between",
]


#: Largest ``|q|`` and ``|r|`` isles reads from a file or the command line
#: (docs/boards.md, "Coordinates"): far beyond any real board, small enough that
#: every distance, pixel centre and board centre is an exact float computation.
MAX_COORDINATE = 10**6


class Hex(NamedTuple):
    """A hex in axial coordinates ``(q, r)`` (docs/boards.md, "Coordinates").

    Attributes
    ----------
    q, r : int
        Axial coordinates; row ``r = -2`` is drawn above row ``r = 0``.

    Notes
    -----
    A plain named tuple: ``Hex(1, 0) == (1, 0)``, and hexes sort by ``q`` then
    ``r`` (the order of edges and corners). ``str`` gives the command-line
    text ``"q,r"``; JSON writes ``[q, r]``.

    Examples
    --------
    >>> h = Hex(1, -2)
    >>> h.s, str(h), h == (1, -2)
    (1, '1,-2', True)
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r`` (so that ``q + r + s == 0``)."""
        return -self.q - self.r

    def __str__(self) -> str:
        return f"{self.q},{self.r}"


#: The six neighbour offsets, counter-clockwise starting east (docs/boards.md).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def neighbours(h: tuple[int, int]) -> tuple[Hex, ...]:
    """The six hexes adjacent to ``h``, in :data:`DIRECTIONS` order.

    Parameters
    ----------
    h : (q, r)
        Any hex (on a board or not).

    Returns
    -------
    tuple of Hex
        Six hexes, counter-clockwise from east; consecutive ones are adjacent.

    See Also
    --------
    isles.models.board.Board.neighbours : only those on a board.

    Examples
    --------
    >>> neighbours(Hex(0, 0))[:2]
    (Hex(q=1, r=0), Hex(q=1, r=-1))
    """
    q, r = h
    return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance ``max(|dq|, |dr|, |ds|)`` between two hexes.

    Parameters
    ----------
    a, b : (q, r)
        Two hexes.

    Returns
    -------
    int
        The fewest steps between neighbours from ``a`` to ``b`` on an unbounded grid.

    Examples
    --------
    >>> distance(Hex(0, 0), Hex(2, -3))
    3
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def ring(radius: int, center: tuple[int, int] = (0, 0)) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center``.

    Parameters
    ----------
    radius : int
        The distance, ``>= 0``.
    center : (q, r), default (0, 0)
        The ring's centre.

    Returns
    -------
    list of Hex
        ``6 * radius`` hexes (the centre alone for 0), counter-clockwise from
        ``center + radius * (-1, +1)``; consecutive hexes are adjacent.

    Raises
    ------
    InvalidInput
        If ``radius`` is negative.

    Examples
    --------
    >>> len(ring(3))
    18
    """
    if radius < 0:
        raise InvalidInput("radius", radius, "an integer >= 0")
    cq, cr = center
    if radius == 0:
        return [Hex(cq, cr)]
    out: list[Hex] = []
    q, r = cq + DIRECTIONS[4].q * radius, cr + DIRECTIONS[4].r * radius
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            out.append(Hex(q, r))
            q, r = q + dq, r + dr
    return out


def hexagon(radius: int, center: tuple[int, int] = (0, 0)) -> list[Hex]:
    """Every hex within ``radius`` of ``center``.

    Parameters
    ----------
    radius : int
        The largest distance from the centre, ``>= 0``.
    center : (q, r), default (0, 0)
        The hexagon's centre.

    Returns
    -------
    list of Hex
        ``3R(R+1)+1`` hexes, in board order (by ``r``, then ``q``).

    Raises
    ------
    InvalidInput
        If ``radius`` is negative.

    Examples
    --------
    >>> len(hexagon(2)), len(hexagon(3))
    (19, 37)
    """
    if radius < 0:
        raise InvalidInput("radius", radius, "an integer >= 0")
    cq, cr = center
    return [
        Hex(cq + dq, cr + dr)
        for dr in range(-radius, radius + 1)
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1)
    ]


class Edge(NamedTuple):
    """A side shared by two adjacent hexes: the unordered pair, stored sorted (a < b).

    Build one with :func:`edge`, which checks adjacency and sorts. JSON writes
    ``[[q, r], [q, r]]``; the command line ``"q,r:q,r"`` (``str``).

    Examples
    --------
    >>> str(edge((1, 0), (0, 0)))
    '0,0:1,0'
    """

    a: Hex
    b: Hex

    def __str__(self) -> str:
        return f"{self.a}:{self.b}"


class Vertex(NamedTuple):
    """A corner shared by three mutually adjacent hexes, stored sorted.

    Build one with :func:`vertex`. JSON writes ``[[q, r], [q, r], [q, r]]``.

    Examples
    --------
    >>> vertex((1, -1), (0, 0), (1, 0)).a
    Hex(q=0, r=0)
    """

    a: Hex
    b: Hex
    c: Hex


#: An edge as a caller gives it: an :class:`Edge`, or its two adjacent hexes, each
#: ``(q, r)``, as tuples or lists (``((0, 1), (0, 2))``, JSON's ``[[0, 1], [0, 2]]``).
EdgeLike = Edge | Sequence[Sequence[int]]
#: A corner as a caller gives it: a :class:`Vertex`, or its three hexes, each ``(q, r)``.
CornerLike = Vertex | Sequence[Sequence[int]]


def edge(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    """The edge between two adjacent hexes, in canonical (sorted) order.

    Parameters
    ----------
    a, b : (q, r)
        Two adjacent hexes, in any order.

    Returns
    -------
    Edge

    Raises
    ------
    InvalidInput
        If the two hexes are not adjacent.

    Examples
    --------
    >>> edge(Hex(1, 0), Hex(0, 0))
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    """
    ha, hb = Hex(*a), Hex(*b)
    if distance(ha, hb) != 1:
        raise InvalidInput("edge", f"{ha}:{hb}", "two adjacent hexes")
    return Edge(ha, hb) if ha < hb else Edge(hb, ha)


def vertex(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> Vertex:
    """The corner of three mutually adjacent hexes, in canonical (sorted) order.

    Parameters
    ----------
    a, b, c : (q, r)
        Three pairwise adjacent hexes, in any order.

    Returns
    -------
    Vertex

    Raises
    ------
    InvalidInput
        If the three hexes are not pairwise adjacent.

    Examples
    --------
    >>> vertex((0, 0), (1, 0), (2, 0))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: vertex: ('0,0', '1,0', '2,0') is invalid; expected ...
    """
    hs = sorted((Hex(*a), Hex(*b), Hex(*c)))
    if not (distance(hs[0], hs[1]) == distance(hs[0], hs[2]) == distance(hs[1], hs[2]) == 1):
        raise InvalidInput("vertex", tuple(str(h) for h in hs), "three pairwise adjacent hexes")
    return Vertex(*hs)


def vertices_around(h: tuple[int, int]) -> tuple[Vertex, ...]:
    """The six corners of ``h``: ``h`` with each pair of consecutive neighbours.

    Parameters
    ----------
    h : (q, r)
        Any hex.

    Returns
    -------
    tuple of Vertex
        Six corners, counter-clockwise from the one between east and north-east.

    Examples
    --------
    >>> vertices_around((0, 0))[0]
    Vertex(a=Hex(q=0, r=0), b=Hex(q=1, r=-1), c=Hex(q=1, r=0))
    """
    ns = neighbours(h)
    return tuple(vertex(h, ns[i], ns[(i + 1) % 6]) for i in range(6))


def edges_between(hexes: Iterable[tuple[int, int]]) -> list[Edge]:
    """Every edge whose two hexes are both in ``hexes``, sorted.

    Parameters
    ----------
    hexes : iterable of (q, r)
        A set of hexes (a board's, say).

    Returns
    -------
    list of Edge

    Examples
    --------
    >>> len(edges_between(hexagon(1)))
    12
    """
    present = {Hex(*h) for h in hexes}
    out = {edge(h, n) for h in present for n in neighbours(h) if n in present}
    return sorted(out)


def vertices_between(hexes: Iterable[tuple[int, int]]) -> list[Vertex]:
    """Every corner whose three hexes are all in ``hexes``, sorted.

    Parameters
    ----------
    hexes : iterable of (q, r)
        A set of hexes.

    Returns
    -------
    list of Vertex

    Examples
    --------
    >>> len(vertices_between(hexagon(1)))
    6
    """
    present = {Hex(*h) for h in hexes}
    out = {v for h in present for v in vertices_around(h) if all(x in present for x in v)}
    return sorted(out)


def as_hex(value: object, field: str = "hex") -> Hex:
    """Check that ``value`` is a pair of integers ``(q, r)`` and return it as a Hex.

    Parameters
    ----------
    value : object
        A tuple or list of two integers (not bools, not floats), each within
        ``±MAX_COORDINATE``.
    field : str
        Where the value comes from, for messages (``"goals[0]"``).

    Returns
    -------
    Hex

    Raises
    ------
    InvalidInput
        Naming ``field`` for anything else (a string, three numbers, floats,
        coordinates beyond :data:`MAX_COORDINATE`).

    Examples
    --------
    >>> as_hex([2, -1])
    Hex(q=2, r=-1)
    >>> as_hex([0, 10**7], "start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: [0, 10000000] is invalid; expected axial ...
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        q, r = value
        if all(
            isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_COORDINATE
            for x in (q, r)
        ):
            return Hex(q, r)
    raise InvalidInput(field, value, _PAIR)


_PAIR = f"axial coordinates: a pair of integers (q, r), each within ±{MAX_COORDINATE}"


def parse_hex(text: str, field: str = "hex") -> Hex:
    """Parse the command-line text ``"Q,R"`` (integers, spaces allowed) into a Hex.

    Parameters
    ----------
    text : str
        Two comma-separated integers, each within ``±MAX_COORDINATE``.
    field : str
        The option it was given to, for messages (``"--start"``).

    Returns
    -------
    Hex

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is not two comma-separated integers in range.

    Examples
    --------
    >>> parse_hex("2,-1")
    Hex(q=2, r=-1)
    >>> parse_hex("1;-1", "--start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --start: '1;-1' is invalid; expected axial coordinates ...
    """
    parts = text.split(",")
    expected = "axial coordinates as Q,R, e.g. 2,-1"
    try:
        if len(parts) != 2:
            raise ValueError
        q, r = (parse_integer(part, field, expected) for part in parts)
    except (ValueError, InvalidInput):
        raise InvalidInput(field, text, expected) from None
    if abs(q) > MAX_COORDINATE or abs(r) > MAX_COORDINATE:
        raise InvalidInput(field, text, f"axial coordinates Q,R each within ±{MAX_COORDINATE}")
    return Hex(q, r)


def parse_edge(text: str, field: str = "edge") -> Edge:
    """Parse the command-line text ``"Q,R:Q,R"`` (two adjacent hexes) into an Edge.

    Parameters
    ----------
    text : str
        Two hexes as :func:`parse_hex` reads them, joined by ``:``.
    field : str
        The option it was given to, for messages (``"--road"``).

    Returns
    -------
    Edge
        In canonical (sorted) order.

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is malformed or the hexes are not adjacent.

    Examples
    --------
    >>> parse_edge("1,0:0,0")
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    """
    parts = text.split(":")
    if len(parts) != 2:
        raise InvalidInput(field, text, "two adjacent hexes as Q,R:Q,R, e.g. 0,0:1,0")
    a, b = parse_hex(parts[0], field), parse_hex(parts[1], field)
    if distance(a, b) != 1:
        raise InvalidInput(field, text, "two adjacent hexes as Q,R:Q,R, e.g. 0,0:1,0")
    return edge(a, b)


def to_pixel(h: tuple[int, int], size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius ``size``; y grows upwards.

    Parameters
    ----------
    h : (q, r)
        A hex.
    size : float, default 1.0
        The hexes' circumradius (centre to corner).

    Returns
    -------
    (x, y) : tuple of float
        ``x = size * sqrt(3) * (q + r / 2)``, ``y = -size * 1.5 * r``: row
        ``r = -2`` is above row ``r = 0``, as docs/boards.md draws boards.

    Examples
    --------
    >>> to_pixel((1, -2))
    (0.0, 3.0)
    """
    q, r = h
    return size * math.sqrt(3) * (q + r / 2), -size * 1.5 * r
