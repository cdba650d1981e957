"""Axial hex coordinates: neighbours, distance, rings, shapes, edges, vertices.

Implements the coordinate conventions of docs/boards.md ("Coordinates"): pointy-top
axial ``(q, r)``, cube ``s = -q - r``, the six directions counter-clockwise from
east. Shared by every board game in isles (seeds 002 and 004).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from isles.models.errors import InvalidInput

__all__ = [
    "DIRECTIONS",
    "Edge",
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


class Hex(NamedTuple):
    """A hex in axial coordinates ``(q, r)``; the cube coordinate is ``s = -q - r``.

    Examples
    --------
    >>> Hex(1, -2).s
    1
    """

    q: int
    r: int

    @property
    def s(self) -> int:
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
    """The six hexes adjacent to ``h``, in DIRECTIONS order.

    >>> neighbours(Hex(0, 0))[:2]
    (Hex(q=1, r=0), Hex(q=1, r=-1))
    """
    q, r = h
    return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance ``max(|dq|, |dr|, |ds|)`` between two hexes.

    >>> distance(Hex(0, 0), Hex(2, -3))
    3
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def ring(radius: int, center: tuple[int, int] = (0, 0)) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center`` (6 * radius of them, 1 for 0).

    Ordered counter-clockwise, starting at ``center + radius * (-1, +1)``.

    Raises
    ------
    InvalidInput
        If ``radius`` is negative.

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
    """Every hex within ``radius`` of ``center``: ``3R(R+1)+1`` hexes, sorted by (r, q).

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
    """A side shared by two adjacent hexes: the unordered pair, stored sorted (a < b)."""

    a: Hex
    b: Hex

    def __str__(self) -> str:
        return f"{self.a}:{self.b}"


class Vertex(NamedTuple):
    """A corner shared by three mutually adjacent hexes, stored sorted."""

    a: Hex
    b: Hex
    c: Hex


def edge(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    """The edge between two adjacent hexes, in canonical (sorted) order.

    Raises
    ------
    InvalidInput
        If the two hexes are not adjacent.

    >>> edge(Hex(1, 0), Hex(0, 0))
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    """
    ha, hb = Hex(*a), Hex(*b)
    if distance(ha, hb) != 1:
        raise InvalidInput("edge", f"{ha}:{hb}", "two adjacent hexes")
    return Edge(ha, hb) if ha < hb else Edge(hb, ha)


def vertex(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> Vertex:
    """The vertex of three mutually adjacent hexes, in canonical order.

    Raises
    ------
    InvalidInput
        If the three hexes are not pairwise adjacent.
    """
    hs = sorted((Hex(*a), Hex(*b), Hex(*c)))
    if not (distance(hs[0], hs[1]) == distance(hs[0], hs[2]) == distance(hs[1], hs[2]) == 1):
        raise InvalidInput("vertex", tuple(str(h) for h in hs), "three pairwise adjacent hexes")
    return Vertex(*hs)


def vertices_around(h: tuple[int, int]) -> tuple[Vertex, ...]:
    """The six corners of ``h``: ``h`` with each pair of consecutive neighbours."""
    ns = neighbours(h)
    return tuple(vertex(h, ns[i], ns[(i + 1) % 6]) for i in range(6))


def edges_between(hexes: Iterable[tuple[int, int]]) -> list[Edge]:
    """Every edge whose two hexes are both in ``hexes``, sorted.

    >>> len(edges_between(hexagon(1)))
    12
    """
    present = {Hex(*h) for h in hexes}
    out = {edge(h, n) for h in present for n in neighbours(h) if n in present}
    return sorted(out)


def vertices_between(hexes: Iterable[tuple[int, int]]) -> list[Vertex]:
    """Every vertex whose three hexes are all in ``hexes``, sorted.

    >>> len(vertices_between(hexagon(1)))
    6
    """
    present = {Hex(*h) for h in hexes}
    out = {v for h in present for v in vertices_around(h) if all(x in present for x in v)}
    return sorted(out)


def as_hex(value: object, field: str = "hex") -> Hex:
    """Check that ``value`` is a pair of integers ``(q, r)`` and return it as a Hex.

    Raises
    ------
    InvalidInput
        Naming ``field`` for anything else (a string, three numbers, floats...).

    >>> as_hex([2, -1])
    Hex(q=2, r=-1)
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        q, r = value
        if all(isinstance(x, int) and not isinstance(x, bool) for x in (q, r)):
            return Hex(q, r)
    raise InvalidInput(field, value, "axial coordinates: a pair of integers (q, r)")


def parse_hex(text: str, field: str = "hex") -> Hex:
    """Parse ``"Q,R"`` (integers, spaces allowed) into a Hex.

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is not two comma-separated integers.

    >>> parse_hex("2,-1")
    Hex(q=2, r=-1)
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return Hex(int(parts[0]), int(parts[1]))
    except ValueError:
        raise InvalidInput(field, text, "axial coordinates as Q,R, e.g. 2,-1") from None


def parse_edge(text: str, field: str = "edge") -> Edge:
    """Parse ``"Q,R:Q,R"`` (two adjacent hexes) into a canonical Edge.

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is malformed or the hexes are not adjacent.

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
    """Centre of a pointy-top hex of circumradius ``size``; y grows upwards (r = -2 is on top)."""
    q, r = h
    return size * math.sqrt(3) * (q + r / 2), -size * 1.5 * r
