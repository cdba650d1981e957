"""The cheapest cost of every hex at once, from one start: the rally's cost field.

Implements docs/rally.md ("What the planner minimises", "Answers"; seed
002_8684547a41c0941c.txt) for the integer objectives: one Dijkstra on the
graph's CSR form (SciPy csgraph), the two keys packed into one exact weight.

References
----------
.. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
   Numerische Mathematik 1, 269-271, 1959.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from scipy.sparse.csgraph import dijkstra

from isles.models.board import Board
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import Hex, as_hex
from isles.models.jsonio import hex_json
from isles.models.status import Status
from isles.solvers.rally.graph import RallyGraph, build_graph

__all__ = ["CostField", "cost_field"]


@dataclass(frozen=True)
class CostField:
    """Cheapest costs from one start hex to every hex (an integer objective).

    The answer of :func:`cost_field`; always exact (``status`` optimal).

    Attributes
    ----------
    objective : "cards" or "turns"
        ``"cards"`` orders routes by (cards, moves), ``"turns"`` by (moves, cards).
    start : Hex
    hexes : tuple of Hex
        The board's hexes, in board order.
    cards, moves : numpy.ndarray of int64
        The totals of the best route to ``hexes[i]``; -1 where unreachable.
    predecessor : numpy.ndarray of int64
        The index of the previous hex on that route; -1 at the start and
        where unreachable.

    Notes
    -----
    Exact: the two keys are packed into one integer weight below 2**53, so
    float64 sums are exact (see :meth:`RallyGraph.packed_csr`).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> f = cost_field(build_graph(beginner_board()), Hex(0, -3))
    >>> f.status, f.cost((0, 0)), f.cost((1, -3))
    (<Status.OPTIMAL: 'optimal'>, (16, 3), None)
    """

    objective: Literal["cards", "turns"]
    start: Hex
    hexes: tuple[Hex, ...]
    cards: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]
    predecessor: npt.NDArray[np.int64]

    @property
    def status(self) -> Status:
        """Always :attr:`Status.OPTIMAL`: every reachable hex has its proven best cost."""
        return Status.OPTIMAL

    def cost(self, h: tuple[int, int]) -> tuple[int, int] | None:
        """The cost of the best route to hex ``h``.

        Parameters
        ----------
        h : (q, r)
            A hex on the board.

        Returns
        -------
        (cards, moves) or None
            None where ``h`` cannot be reached.

        Raises
        ------
        InvalidInput
            If ``h`` is not on the board.

        Examples
        --------
        >>> from isles.models.board import beginner_board
        >>> cost_field(beginner_board(), (0, -3), "turns").cost((0, 2))
        (31, 5)
        """
        i = self._position(h)
        if self.moves[i] < 0:
            return None
        return int(self.cards[i]), int(self.moves[i])

    def path_to(self, target: int) -> list[int]:
        """Indices of the hexes on the best route to ``hexes[target]``, start first.

        Parameters
        ----------
        target : int
            An index into ``hexes``.

        Returns
        -------
        list of int
            Empty when the target is unreachable; ``[start]`` for the start.

        Examples
        --------
        >>> from isles.models.board import beginner_board
        >>> f = cost_field(build_graph(beginner_board()), Hex(0, -3))
        >>> [str(f.hexes[i]) for i in f.path_to(f.hexes.index(Hex(0, 0)))]
        ['0,-3', '0,-2', '0,-1', '0,0']
        """
        if self.moves[target] < 0:
            return []
        out = [target]
        while self.predecessor[out[-1]] >= 0:
            out.append(int(self.predecessor[out[-1]]))
        return out[::-1]

    def _position(self, h: tuple[int, int]) -> int:
        try:
            return self.hexes.index(Hex(*h))
        except ValueError:
            raise InvalidInput("hex", str(Hex(*h)), "a hex on the board") from None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (docs/rally.md, "Answers"): one entry per hex, in board order.

        Returns
        -------
        dict
            ``status`` (always ``"optimal"``), ``objective``, ``start`` and
            ``hexes``: one ``{"hex", "cards", "moves", "previous"}`` per hex,
            ``previous`` being the hex before it on the best route. ``cards``,
            ``moves`` and ``previous`` are None where the hex cannot be
            reached, and ``previous`` at the start.

        Examples
        --------
        >>> from isles.models.board import beginner_board
        >>> d = cost_field(build_graph(beginner_board()), Hex(0, -3)).to_dict()
        >>> d["status"], d["start"], d["hexes"][0]
        ('optimal', [0, -3], {'hex': [0, -3], 'cards': 0, 'moves': 0, 'previous': None})
        """
        entries = []
        for i, h in enumerate(self.hexes):
            reached = bool(self.moves[i] >= 0)
            before = int(self.predecessor[i])
            entries.append(
                {
                    "hex": hex_json(h),
                    "cards": int(self.cards[i]) if reached else None,
                    "moves": int(self.moves[i]) if reached else None,
                    "previous": hex_json(self.hexes[before]) if before >= 0 else None,
                }
            )
        return {
            "status": self.status.value,
            "objective": self.objective,
            "start": hex_json(self.start),
            "hexes": entries,
        }


def cost_field(
    board: RallyGraph | Board,
    start: tuple[int, int],
    objective: Literal["cards", "turns"] = "cards",
) -> CostField:
    """Cheapest routes from ``start`` to every hex, by ``scipy.sparse.csgraph.dijkstra``.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (built without roads), or its graph (:func:`build_graph`, with
        the player's roads), as :func:`isles.rally.plan_route` takes it.
    start : (q, r)
        Any hex on the board.
    objective : "cards" or "turns", default "cards"
        Integer objectives only (see :class:`CostField`).

    Returns
    -------
    CostField

    Raises
    ------
    InvalidInput
        If ``start`` is not on the board, or the objective is neither.

    Notes
    -----
    The planner's fast core: one Dijkstra [1]_ over the CSR form, with the two
    keys packed into one exact integer weight. Ties on both keys keep SciPy's
    choice of predecessor.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> f = cost_field(beginner_board(), (0, -3))
    >>> f.cost((0, 0))  # 10 ore, 6 brick, then the free desert: 16 cards in 3 moves
    (16, 3)
    """

    expect(board, (Board, RallyGraph), "board", "a Board or a RallyGraph")
    rg = build_graph(board) if isinstance(board, Board) else board
    start_h = as_hex(start, "start")
    if start_h not in rg.index:
        raise InvalidInput("start", str(start_h), "a hex on the board")
    if objective not in ("cards", "turns"):
        raise InvalidInput("objective", objective, "cards or turns")
    big, matrix = rg.packed_csr(objective)
    dist, pred = dijkstra(
        matrix, directed=True, indices=rg.index[start_h], return_predecessors=True
    )
    reach = np.isfinite(dist)
    packed = np.where(reach, dist, 0).astype(np.int64)
    hi, lo = np.divmod(packed, big)
    cards, moves = (hi, lo) if objective == "cards" else (lo, hi)
    cards = np.where(reach, cards, -1)
    moves = np.where(reach, moves, -1)
    pred = np.where(pred < 0, -1, pred).astype(np.int64)
    return CostField(objective, start_h, rg.hexes, cards, moves, pred)
