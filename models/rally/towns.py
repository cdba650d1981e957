"""The rally's example table: the beginner board with two settlements each of red and blue.

The board of ``isles demo``'s race and of the web page's "settlements" board
(docs/rally.md, "The rally as it is played"; seed 002_8684547a41c0941c.txt): a
board to try the rally as it is played without a board file.
"""

from __future__ import annotations

from isles.models.board import Board, beginner_board
from isles.models.catan import Building
from isles.models.hexgrid import vertex

__all__ = ["TOWNS", "towns_board"]

#: Each player's settlements on the beginner board, each on the corner of three hexes.
TOWNS: dict[str, list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]] = {
    "red": [((0, -2), (0, -1), (1, -2)), ((0, 1), (1, 0), (1, 1))],
    "blue": [((0, 2), (0, 1), (-1, 2)), ((0, -1), (-1, 0), (-1, -1))],
}


def towns_board() -> Board:
    """The beginner board with the settlements of :data:`TOWNS`.

    Examples
    --------
    >>> board = towns_board()
    >>> sorted(board.players()), len(board.buildings)
    (['blue', 'red'], 4)
    """
    towns = {vertex(*c): Building(p) for p, corners in TOWNS.items() for c in corners}
    return beginner_board().replace(buildings=towns)
