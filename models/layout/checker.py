"""An independent checker: every way a finished board breaks a request, in words.

Implements docs/layout.md ("Rule decisions", "Answers that never lie") for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt ("MISE EN
PLACE"): the requirements of a :class:`~isles.models.layout.request.SetupRequest`
and every rule switched on, checked apart from the CP-SAT model on purpose.
"""

from __future__ import annotations

from collections import Counter

from isles.models.board import Board
from isles.models.catan import Terrain
from isles.models.hexgrid import Hex
from isles.models.layout.games import spiral_numbers
from isles.models.layout.geometry import connected
from isles.models.layout.request import SetupRequest

__all__ = ["rule_violations"]


def rule_violations(request: SetupRequest, board: Board) -> list[str]:
    """Every way ``board`` breaks ``request``, in words (empty when it obeys it).

    Checks, independently of any solver: the positions (or, for a free shape,
    size, containment and connectivity) and the sea frame, the land count,
    the inventory, the land token pool, tokens on exactly the producing land
    and sea hexes, the harbours (one on each place, the kinds of the
    request), the spiral, the fixed tiles, and every rule switched on in
    ``request.rules``.

    Parameters
    ----------
    request : SetupRequest
        What was asked.
    board : Board
        A finished board.

    Returns
    -------
    list of str
        One line per breach, naming the rule or requirement and the hexes.

    Notes
    -----
    Written apart from the CP-SAT model on purpose: the tests run it on every
    board the solver returns, so a modelling slip cannot hide.

    Examples
    --------
    >>> from isles.models.catan import Tile
    >>> rule_violations(SetupRequest.hexagon(0, land=0), Board({Hex(0, 0): Tile(Terrain.SEA, 5)}))
    []
    """
    hexes = set(board) - set(request.frame)
    out = _shape_breaches(request, board, hexes)
    out.extend(_tile_breaches(request, board, hexes))
    out.extend(_harbour_breaches(request, board))
    out.extend(_fixed_breaches(request, board))
    for rule in request.board_rules.values():
        out.extend(rule.violations(request, board))
    return out


def _shape_breaches(request: SetupRequest, board: Board, hexes: set[Hex]) -> list[str]:
    """The frame plain sea; the positions covered, or a free shape's size and connectivity."""
    out: list[str] = []
    frame = set(request.frame)
    pos = set(request.positions)
    if not frame <= set(board):
        out.append("frame: the board lacks frame hexes")
    for h in frame & set(board):
        if board.terrain(h) is not Terrain.SEA or board.number(h) is not None:
            out.append(f"frame: {h} is not plain sea")
    if request.size is None:
        if hexes != pos:
            out.append("positions: the board does not cover exactly the requested positions")
    else:
        if len(hexes) != request.size or not hexes <= pos:
            out.append(f"free shape: {len(hexes)} hexes, want {request.size} among the positions")
        if request.root not in hexes or not connected(hexes):
            out.append("free shape: the board is not one connected board containing the root")
    return out


def _tile_breaches(request: SetupRequest, board: Board, hexes: set[Hex]) -> list[str]:
    """The land count, the inventory, the land token pool, the sea numbers."""
    out: list[str] = []
    land = [h for h in board.land() if h in hexes]
    if len(land) != request.land:
        out.append(f"land count: {len(land)} land hexes, want {request.land}")
    for t in Terrain:
        used = sum(1 for h in land if board.terrain(h) is t)
        if used > request.inventory.get(t, 0):
            out.append(f"land inventory: {used} {t.value}, only {request.inventory.get(t, 0)}")
    pool = list(request.land_tokens)
    for h in land:
        n = board.number(h)
        if board.terrain(h).produces:
            if n in pool:
                pool.remove(n)
            else:
                out.append(f"land tokens: {n} at {h} is not left in the pool")
        elif n is not None:
            out.append(f"land tokens: {h} is a desert with a number")
    for h in board.sea():
        if h in hexes and board.number(h) not in request.sea_numbers:
            out.append(f"sea tokens: sea hex {h} carries {board.number(h)}")
    return out


def _fixed_breaches(request: SetupRequest, board: Board) -> list[str]:
    """The spiral's tokens; the tiles and harbours already on the table, kept."""
    out: list[str] = []
    if request.spiral:
        deserts = [h for h in request.spiral if board.terrain(h) is Terrain.DESERT]
        laid = spiral_numbers(request.spiral, request.letters, deserts)
        for h, token in laid.items():
            if (None if token is None else token[1]) != board.number(h):
                out.append(f"spiral: {h} carries {board.number(h)}, the spiral lays {token}")
    for e, kind in request.fixed_harbours.items():
        if board.harbours.get(e) is not kind:
            out.append(f"fixed harbour {e}: {kind.value} became {board.harbours.get(e)}")
    for h, tile in request.fixed.items():
        if h not in board:
            out.append(f"fixed {h}: missing")
            continue
        got = board[h]
        if got.terrain is not tile.terrain or (
            tile.number is not None and got.number != tile.number
        ):
            out.append(f"fixed {h}: {tile} became {got}")
    return out


def _harbour_breaches(request: SetupRequest, board: Board) -> list[str]:
    """One harbour on each place, the request's kinds."""
    out: list[str] = []
    places = set(request.harbour_places)
    if set(board.harbours) != places:
        out.append(
            f"harbour kinds: harbours on {len(board.harbours)} sides, "
            f"want the {len(places)} harbour places"
        )
    laid = Counter(board.harbours.values())
    if laid != Counter(request.harbours):
        want = ", ".join(f"{n} {k.value}" for k, n in sorted(Counter(request.harbours).items()))
        out.append(f"harbour kinds: the harbours are not the game's ({want})")
    return out
