"""The hexes the set-up's rules look at together: corners, connected groups, pairs within reach.

Hex geometry of docs/layout.md ("Rule decisions"; seeds/004_644cf972d8964df4.txt,
"MISE EN PLACE"), shared by the rules (:mod:`isles.models.layout.board_rules`), the
independent checker (:mod:`isles.models.layout.checker`) and the CP-SAT model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from isles.models.hexgrid import Hex, edges_between, neighbours, vertices_around

__all__ = ["apart", "connected", "connected_sets", "pairs_within", "vertex_groups"]


def vertex_groups(positions: Iterable[tuple[int, int]]) -> list[tuple[Hex, ...]]:
    """Every corner touching the board, as the tuple of its on-board hexes (1 to 3).

    Parameters
    ----------
    positions : iterable of (q, r)
        The board's hexes.

    Returns
    -------
    list of tuple of Hex
        One entry per corner of any board hex, rim corners included (the
        vertex-pips rule counts a coastal settlement spot too), sorted.

    Examples
    --------
    >>> sorted(len(g) for g in vertex_groups([(0, 0)]))
    [1, 1, 1, 1, 1, 1]
    """
    present = {Hex(*h) for h in positions}
    out: dict[tuple[Hex, ...], tuple[Hex, ...]] = {}
    for h in present:
        for v in vertices_around(h):
            out[v] = tuple(x for x in v if x in present)
    return [out[v] for v in sorted(out)]


def connected_sets(positions: Iterable[tuple[int, int]], k: int) -> list[frozenset[Hex]]:
    """Every connected set of exactly ``k`` hexes among ``positions`` (polyhexes).

    Parameters
    ----------
    positions : iterable of (q, r)
        The hexes to choose from.
    k : int
        The set size (the terrain-groups rule forbids every set of ``G + 1``).

    Returns
    -------
    list of frozenset of Hex
        Each connected set once, in a fixed order.

    Notes
    -----
    Grown one neighbour at a time from every hex; the count grows
    exponentially with ``k``, which is why the terrain-groups limit ``G`` is
    at most 4 (:data:`~isles.models.layout.request.MAX_GROUP_LIMIT`).

    Examples
    --------
    >>> from isles.models.hexgrid import hexagon
    >>> len(connected_sets(hexagon(1), 2))
    12
    """
    present = {Hex(*h) for h in positions}
    found: set[frozenset[Hex]] = {frozenset([h]) for h in present}
    for _ in range(k - 1):
        found = {
            s | {n} for s in found for h in s for n in neighbours(h) if n in present and n not in s
        }
    return sorted(found, key=lambda s: sorted(s))


def apart(a: Hex, b: Hex) -> int:
    """The distance between two hexes, in steps from hex to hex.

    Examples
    --------
    >>> apart(Hex(0, 0), Hex(2, -1))
    2
    """
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def pairs_within(positions: Sequence[Hex], distance: int) -> list[tuple[Hex, Hex]]:
    """Pairs of distinct positions closer than ``distance`` (2: the adjacent pairs).

    Examples
    --------
    >>> from isles.models.hexgrid import hexagon
    >>> len(pairs_within(hexagon(1), 2)), len(pairs_within(hexagon(1), 3))
    (12, 21)
    """
    if distance == 2:
        return [(e.a, e.b) for e in edges_between(positions)]
    ordered = sorted(positions, key=lambda h: (h.r, h.q))
    return [
        (a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :] if apart(a, b) < distance
    ]


def connected(hexes: set[Hex]) -> bool:
    """Whether ``hexes`` form one connected board (an empty set does not).

    Examples
    --------
    >>> connected({Hex(0, 0), Hex(1, 0)}), connected({Hex(0, 0), Hex(2, 0)})
    (True, False)
    """
    if not hexes:
        return False
    start = next(iter(hexes))
    seen = {start}
    stack = [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == hexes
