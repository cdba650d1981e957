"""The embedded ships board, and the board a ships command reads (its file, or the demo).

Implements docs/ships.md ("The demo board"; seed 004_644cf972d8964df4.txt): the seed's
set-up on a radius-3 hexagon, in the board format of docs/boards.md.
"""

from __future__ import annotations

from importlib import resources

from isles.models.board import Board
from isles.models.jsonio import parse_json

__all__ = ["board_or_demo", "demo_board"]


def demo_board() -> Board:
    """The embedded ships board: radius-3 hexagon, 12 land and 25 sea hexes, all tokened.

    It follows the seed's set-up (docs/ships.md, "The demo board"); its file is
    ``models/data/ships_demo.json``, in the board format of docs/boards.md.

    Returns
    -------
    Board

    Examples
    --------
    >>> b = demo_board()
    >>> len(b.land()), len(b.sea()), all(b.number(h) for h in b.sea())
    (12, 25, True)
    """
    data = resources.files("isles.models").joinpath("data/ships_demo.json")
    text = data.read_text(encoding="utf-8")
    return Board.from_dict(parse_json(text, "ships_demo.json"), source="ships_demo.json")


def board_or_demo(path: str | None) -> Board:
    """The board file at ``path`` (``-``: standard input), or the demo board when None.

    The ships commands' ``--board FILE`` (docs/ships.md, "The demo board").

    Parameters
    ----------
    path : str or None
        A board file (docs/boards.md), or None.

    Returns
    -------
    Board

    Raises
    ------
    InvalidInput
        A file that cannot be read or is not a board, naming the file.

    Examples
    --------
    >>> board_or_demo(None) == demo_board()
    True
    """
    return demo_board() if path is None else Board.load(path)
