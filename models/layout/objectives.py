"""The set-up's two objectives, measured on a finished board: colourfulness and pip spread.

Implements docs/layout.md ("What is asked") for seeds/004_644cf972d8964df4.txt
("MISE EN PLACE": "la mosaïque la plus colorée possible") and the fair pips of
seeds/002_8684547a41c0941c.txt's islands: pure functions of a :class:`Board`.
"""

from __future__ import annotations

from isles.models.board import Board
from isles.models.catan import Resource, pips
from isles.models.hexgrid import edges_between

__all__ = ["colourfulness", "pip_spread", "resource_pips"]


def colourfulness(board: Board) -> int:
    """Adjacent pairs of hexes with different terrains, sea counting as a terrain.

    The first objective of the set-up (docs/layout.md, "What is asked"): the
    seed's "mosaïque la plus colorée possible". The desert counts as a
    terrain too; two sea hexes side by side never count.

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
        The number of edges between board hexes whose terrains differ.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> colourfulness(beginner_board())
    67
    """
    return sum(board.terrain(e.a) is not board.terrain(e.b) for e in edges_between(board))


def resource_pips(board: Board) -> dict[Resource, int]:
    """Total pips of the land number tokens per resource (sea tokens produce nothing).

    Parameters
    ----------
    board : Board

    Returns
    -------
    dict of Resource -> int
        Every resource, 0 when no tile produces it; the desert, sea and gold
        add nothing.

    Examples
    --------
    >>> from isles.models.catan import Terrain, Tile
    >>> from isles.models.hexgrid import Hex
    >>> resource_pips(Board({Hex(0, 0): Tile(Terrain.FOREST, 6)}))[Resource.LUMBER]
    5
    """
    total = dict.fromkeys(Resource, 0)
    for tile in board.tiles.values():
        res = tile.terrain.resource
        if res is not None and tile.number is not None:
            total[res] += pips(tile.number)
    return total


def pip_spread(board: Board) -> int:
    """Most minus fewest total pips among the five resources (smaller is fairer).

    The second objective of the set-up, minimised among the most colourful
    boards (docs/layout.md, "What is asked"); the islands' only one.

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
        ``max - min`` of :func:`resource_pips` over the five resources.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> pip_spread(beginner_board())
    3
    """
    total = resource_pips(board)
    return max(total.values()) - min(total.values())
