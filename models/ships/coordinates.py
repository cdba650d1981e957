"""An edge or a corner as a caller gives it: an ``Edge`` or ``Vertex``, hexes, or text.

Implements docs/ships.md ("From Python": an edge is any pair of two adjacent hexes, a
corner three pairwise adjacent hexes; seed 004_644cf972d8964df4.txt): read once, at the
boundary, each refusal naming the field it came from.
"""

from __future__ import annotations

from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex, as_hex, distance, edge, parse_hex, vertex

__all__ = ["as_corner", "as_edge", "parse_settlement"]


def _shown(value: object) -> object:
    """An edge or corner as its ``Q,R:Q,R`` text in messages, anything else as given."""
    if isinstance(value, Edge | Vertex):
        return ":".join(str(h) for h in value)
    return value


def as_edge(value: object, field: str = "edge") -> Edge:
    """An edge from an :class:`~isles.models.hexgrid.Edge` or any pair of two adjacent hexes.

    Parameters
    ----------
    value : object
        An ``Edge``, or a pair ``((q, r), (q, r))`` (tuples or lists, in any order),
        as a caller of the library or a JSON file gives it.
    field : str
        Where it comes from, for messages (``"start"``, ``"targets[2]"``).

    Returns
    -------
    Edge
        The edge, its two hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when ``value`` is not two adjacent hexes of integer coordinates.

    Examples
    --------
    >>> as_edge([[1, 0], [0, 0]], "start")
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    >>> as_edge([[0, 0], [2, 0]], "start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: [[0, 0], [2, 0]] is invalid; expected an edge: ...
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        try:
            a, b = as_hex(value[0], field), as_hex(value[1], field)
        except InvalidInput:
            pass
        else:
            if distance(a, b) == 1:
                return edge(a, b)
    raise InvalidInput(field, _shown(value), "an edge: two adjacent hexes ((q, r), (q, r))")


def as_corner(value: object, field: str = "corner") -> Vertex:
    """A corner from a :class:`~isles.models.hexgrid.Vertex` or three pairwise adjacent hexes.

    Parameters
    ----------
    value : object
        A ``Vertex``, or three hexes ``((q, r), (q, r), (q, r))`` in any order.
    field : str
        Where it comes from, for messages (``"near[0]"``).

    Returns
    -------
    Vertex
        The corner, its three hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when ``value`` is not three pairwise adjacent hexes.

    Examples
    --------
    >>> as_corner([[0, 3], [0, 2], [1, 2]], "near[0]")
    Vertex(a=Hex(q=0, r=2), b=Hex(q=0, r=3), c=Hex(q=1, r=2))
    """
    if isinstance(value, tuple | list) and len(value) == 3:
        try:
            a, b, c = (as_hex(h, field) for h in value)
            return vertex(a, b, c)
        except InvalidInput:
            pass
    raise InvalidInput(
        field, _shown(value), "a corner: three pairwise adjacent hexes ((q, r), (q, r), (q, r))"
    )


def parse_settlement(text: str, field: str = "settlement") -> Vertex:
    """Parse a corner written ``"Q,R:Q,R:Q,R"`` (the command line's text form).

    Parameters
    ----------
    text : str
        Three pairwise adjacent hexes, in any order.
    field : str
        The option or field it comes from, for messages (``"--near"``).

    Returns
    -------
    Vertex
        The corner, its hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is malformed or the hexes are not pairwise adjacent.

    Examples
    --------
    >>> parse_settlement("0,0:1,0:1,-1")
    Vertex(a=Hex(q=0, r=0), b=Hex(q=1, r=-1), c=Hex(q=1, r=0))
    """
    parts = text.split(":")
    if len(parts) != 3:
        raise InvalidInput(field, text, "three pairwise adjacent hexes as Q,R:Q,R:Q,R")
    hexes = [parse_hex(p, field) for p in parts]
    try:
        return vertex(hexes[0], hexes[1], hexes[2])
    except InvalidInput:
        raise InvalidInput(field, text, "three pairwise adjacent hexes as Q,R:Q,R:Q,R") from None
