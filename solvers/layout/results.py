"""What the board set-up answers: a board, several boards, the next move (docs/json.md).

Implements docs/layout.md ("Answers that never lie", "JSON answers") for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt ("MISE EN
PLACE"): each answer's status, its bounds or its conflict, and ``to_dict()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from isles.models.board import Board
from isles.models.catan import Terrain
from isles.models.hexgrid import Hex
from isles.models.jsonio import hex_json
from isles.models.layout.games import Game
from isles.models.layout.objectives import resource_pips
from isles.models.status import Status

__all__ = ["LayoutResult", "LayoutSeries", "NextMove"]


def _conflict_json(conflict: tuple[str, ...], minimal: bool) -> dict[str, Any]:
    return {
        "conflict": list(conflict) if conflict else None,
        "conflict_minimal": minimal if conflict else None,
    }


@dataclass(frozen=True)
class LayoutResult:
    """The answer of :func:`~isles.layout.solve_layout` (and ``first_board``).

    Attributes
    ----------
    status : Status
        ``optimal``: both objectives proven (colourfulness maximal, then pip
        spread minimal at that colourfulness). ``feasible``: a legal board, a
        time limit stopped a proof; ``colourfulness_bound`` and
        ``pip_spread_bound`` say how far it may be. ``infeasible``: proven that
        no board exists; see ``conflict``. ``timed_out``: no board found and
        none proven impossible within the time limit.
    board : Board or None
        The board (every hex of the request; sea hexes carry number tokens);
        None unless ``optimal`` or ``feasible``.
    colourfulness : int or None
        Adjacent pairs with different terrains (sea counts as a terrain).
    colourfulness_bound : int or None
        Proven upper bound on the colourfulness of any legal board (None when
        no bound was proven, as for ``first_board``).
    pip_spread : int or None
        Most minus fewest total pips among the five resources.
    pip_spread_bound : int or None
        Proven lower bound on the pip spread among boards of this colourfulness.
    conflict : tuple of str
        Infeasible only: the constraint groups
        (:func:`~isles.models.layout.groups.constraint_groups`) that
        cannot hold together; empty otherwise.
    conflict_minimal : bool
        True when dropping any one name of ``conflict`` was proven feasible.
    fixed : tuple of Hex
        The hexes that were fixed in the request (for drawing them outlined).
    game : Game
        The game of the request (``ships``, ``base`` or ``extension``). The
        islands have no colourfulness objective: ``colourfulness`` and its
        bound are None for them, and their board carries the sea frame and
        the harbours.

    See Also
    --------
    isles.layout.solve_layout
    isles.layout.first_board

    Examples
    --------
    >>> from isles.models.layout.request import SetupRequest
    >>> from isles.solvers.layout.board import solve_layout
    >>> res = solve_layout(SetupRequest.hexagon(1), time_limit=5)
    >>> res.status, res.colourfulness, res.colourfulness_bound
    (<Status.OPTIMAL: 'optimal'>, 8, 8)
    >>> sorted(res.to_dict())[:4]
    ['board', 'colourfulness', 'colourfulness_bound', 'conflict']
    """

    status: Status
    board: Board | None = None
    colourfulness: int | None = None
    colourfulness_bound: int | None = None
    pip_spread: int | None = None
    pip_spread_bound: int | None = None
    conflict: tuple[str, ...] = ()
    conflict_minimal: bool = False
    fixed: tuple[Hex, ...] = ()
    game: Game = Game.SHIPS

    def to_dict(self) -> dict[str, Any]:
        """Plain data in the dialect of docs/json.md (what ``isles layout --json`` prints).

        Returns
        -------
        dict
            ``status``; ``game``; ``board`` in the board format of
            docs/boards.md (``{"hexes": [{"hex": [q, r], "terrain": ...,
            "number": ...}], "harbours": [...]}``, harbours only on an island)
            or null; ``colourfulness``, ``colourfulness_bound``, ``pip_spread``,
            ``pip_spread_bound`` (null when absent); ``resource_pips`` (resource
            -> total pips, null without a board); ``fixed`` (``[[q, r], ...]``);
            ``conflict`` (names, null unless infeasible) and
            ``conflict_minimal`` (null without a conflict).

        Examples
        --------
        >>> LayoutResult(Status.TIMED_OUT).to_dict()["board"] is None
        True
        """
        pips = None if self.board is None else resource_pips(self.board)
        return {
            "status": self.status.value,
            "game": self.game.value,
            "board": None if self.board is None else self.board.to_dict(),
            "colourfulness": self.colourfulness,
            "colourfulness_bound": self.colourfulness_bound,
            "pip_spread": self.pip_spread,
            "pip_spread_bound": self.pip_spread_bound,
            "resource_pips": None if pips is None else {r.value: n for r, n in pips.items()},
            "fixed": [hex_json(h) for h in self.fixed],
            **_conflict_json(self.conflict, self.conflict_minimal),
        }


@dataclass(frozen=True)
class NextMove:
    """Advice for the player about to lay two tiles (the answer of ``next_move``).

    Attributes
    ----------
    status : Status
        ``optimal``: the move keeps the best completion reachable and both the
        best before and after the move are proven. ``feasible``: a legal move,
        a time limit stopped a proof. ``infeasible``: the tiles in hand cannot
        be laid legally (see ``conflict``). ``timed_out``: no move found and
        none proven impossible within the time limit.
    placements : tuple of (Hex, Terrain)
        The two tiles in laying order; empty without a move.
    best_after : int or None
        The colourfulness of the best completion after the move.
    best_overall : int or None
        The colourfulness of the best completion before the move (equal to
        ``best_after`` when the move loses nothing).
    completion : Board or None
        A completion reaching ``best_after``.
    conflict : tuple of str
        Infeasible only: the constraint groups that cannot hold together with
        laying the tiles in hand (the move itself is always part of the question).
    conflict_minimal : bool
        True when dropping any one name of ``conflict`` was proven feasible.
    fixed : tuple of Hex
        The tiles already down.

    See Also
    --------
    isles.layout.next_move

    Examples
    --------
    >>> NextMove(Status.TIMED_OUT).to_dict()["placements"] is None
    True
    """

    status: Status
    placements: tuple[tuple[Hex, Terrain], ...] = ()
    best_after: int | None = None
    best_overall: int | None = None
    completion: Board | None = None
    conflict: tuple[str, ...] = ()
    conflict_minimal: bool = False
    fixed: tuple[Hex, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data in the dialect of docs/json.md (``isles layout --hold ... --json``).

        Returns
        -------
        dict
            ``status``; ``placements`` (``[{"hex": [q, r], "terrain": ...}, ...]``
            in laying order, null without a move); ``best_after`` and
            ``best_overall`` (null when absent); ``completion`` in the board
            format of docs/boards.md or null; ``fixed`` (``[[q, r], ...]``);
            ``conflict`` and ``conflict_minimal`` as in
            :meth:`LayoutResult.to_dict`.
        """
        placements = [{"hex": hex_json(h), "terrain": t.value} for h, t in self.placements]
        return {
            "status": self.status.value,
            "placements": placements or None,
            "best_after": self.best_after,
            "best_overall": self.best_overall,
            "completion": None if self.completion is None else self.completion.to_dict(),
            "fixed": [hex_json(h) for h in self.fixed],
            **_conflict_json(self.conflict, self.conflict_minimal),
        }


@dataclass(frozen=True)
class LayoutSeries:
    """Several different legal boards (the answer of ``layout_boards``).

    Attributes
    ----------
    status : Status
        ``optimal``: all ``requested`` boards found, each proven best among
        the boards different from those before it. ``feasible``: all found,
        some proof cut short by the time limit. ``infeasible``: proven that
        no more different boards exist (the boards found are listed; with
        none, ``conflict`` names the rules that cannot hold together).
        ``timed_out``: a search ran out of time before the count was reached.
    boards : tuple of LayoutResult
        The boards, in the order found; the first is ``solve_layout``'s.
    requested : int
        How many boards were asked for.
    min_difference : int
        Every board differs from each earlier one, and from each of its
        rotations and reflections that keep the frame, in at least this many
        hexes (a hex differs when its terrain or its number does).
    conflict : tuple of str
        As :attr:`LayoutResult.conflict` when not even one board exists.
    conflict_minimal : bool
        As :attr:`LayoutResult.conflict_minimal`.
    game : Game

    See Also
    --------
    isles.layout.layout_boards

    Examples
    --------
    >>> LayoutSeries(Status.TIMED_OUT, (), 3, 2).to_dict()["boards"]
    []
    """

    status: Status
    boards: tuple[LayoutResult, ...]
    requested: int
    min_difference: int
    conflict: tuple[str, ...] = ()
    conflict_minimal: bool = False
    game: Game = Game.SHIPS

    def to_dict(self) -> dict[str, Any]:
        """Plain data in the dialect of docs/json.md (``isles layout --count N --json``).

        Returns
        -------
        dict
            ``status``, ``game``, ``requested``, ``min_difference``,
            ``boards`` (each a :meth:`LayoutResult.to_dict`), ``conflict``
            and ``conflict_minimal`` as in :meth:`LayoutResult.to_dict`.
        """
        return {
            "status": self.status.value,
            "game": self.game.value,
            "requested": self.requested,
            "min_difference": self.min_difference,
            "boards": [b.to_dict() for b in self.boards],
            **_conflict_json(self.conflict, self.conflict_minimal),
        }
