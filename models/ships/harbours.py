"""The ports a ship may reach, and the trade each allows its cargo.

Implements docs/ships.md ("Ports"; seed 004_644cf972d8964df4.txt, rule 8), the
harbours read from the board file (docs/boards.md, "Harbours, buildings and roads").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from isles.models.board import Board
from isles.models.catan import HarbourKind, Resource
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge
from isles.models.jsonio import edge_json
from isles.models.ships.limits import CARGO_LIMIT

__all__ = ["Port", "port_edges", "ports"]


@dataclass(frozen=True)
class Port:
    """A harbour a ship may reach, and the trade it allows there (seed rule 8).

    A ship on a harbour's side trades at that harbour's rate, and only cards of
    its cargo (docs/ships.md, "Ports"): a generic harbour takes 3 cards of one
    resource for 1 card of any resource, a resource harbour 2 cards of its
    resource for 1 of any. A ship carries at most 3 cards, so a generic trade
    takes a full hold of one resource.

    Attributes
    ----------
    edge : Edge
        The harbour's side (a coast edge: one sea hex, one land hex).
    kind : HarbourKind
        What the harbour trades (docs/boards.md, "Harbours").

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> p = Port(edge((0, 2), (0, 3)), HarbourKind.WOOL)
    >>> p.trade
    '2 wool of the cargo for 1 card of any resource'
    >>> p.tradable([Resource.WOOL, Resource.WOOL, Resource.ORE])
    (<Resource.WOOL: 'wool'>,)
    """

    edge: Edge
    kind: HarbourKind

    @property
    def trade(self) -> str:
        """The trade in words."""
        give = self.kind.resource
        what = "cards of one resource" if give is None else give.value
        return f"{self.kind.ratio} {what} of the cargo for 1 card of any resource"

    def tradable(self, cargo: Iterable[Resource]) -> tuple[Resource, ...]:
        """The resources of ``cargo`` the ship can trade here (enough cards at the rate), sorted.

        Raises
        ------
        InvalidInput
            If ``cargo`` holds more than :data:`CARGO_LIMIT` cards or a non-resource.
        """
        cards = list(cargo)
        if len(cards) > CARGO_LIMIT:
            raise InvalidInput("cargo", len(cards), f"at most {CARGO_LIMIT} cards (seed rule 4)")
        for i, c in enumerate(cards):
            if not isinstance(c, Resource):
                raise InvalidInput(f"cargo[{i}]", c, "a resource")
        counts = Counter(cards)
        want = self.kind.resource
        return tuple(
            sorted(
                (r for r, n in counts.items() if n >= self.kind.ratio and want in (None, r)),
                key=list(Resource).index,
            )
        )

    def to_dict(self) -> dict[str, object]:
        """``{"edge", "kind", "ratio", "resource" (null when generic), "trade"}``."""
        give = self.kind.resource
        return {
            "edge": edge_json(self.edge),
            "kind": self.kind.value,
            "ratio": self.kind.ratio,
            "resource": None if give is None else give.value,
            "trade": self.trade,
        }


def ports(board: Board, edges: Iterable[Edge] | None = None) -> tuple[Port, ...]:
    """The harbours of ``board`` (on ``edges`` only, when given) as ports, sorted by edge.

    Harbours come from the board file (docs/boards.md, "Harbours, buildings and
    roads"); a ship reaching a harbour's side may trade there (seed rule 8).

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.demo import demo_board
    >>> e = edge((0, 2), (0, 3))
    >>> board = demo_board().replace(harbours={e: HarbourKind.GENERIC})
    >>> [(str(p.edge), p.kind.value) for p in ports(board)]
    [('0,2:0,3', 'generic')]
    >>> ports(board, [edge((0, 2), (1, 2))])
    ()
    """
    wanted = None if edges is None else set(edges)
    return tuple(
        Port(e, kind) for e, kind in sorted(board.harbours.items()) if wanted is None or e in wanted
    )


def port_edges(board: Board, kinds: Iterable[str], field: str = "port") -> frozenset[Edge]:
    """The sides of the board's harbours of ``kinds`` (``any`` for every harbour): port targets.

    Raises
    ------
    InvalidInput
        Naming ``field[i]``: a kind that is not ``any`` or a harbour kind, or one the
        board has no harbour of.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.demo import demo_board
    >>> e = edge((0, 2), (0, 3))
    >>> board = demo_board().replace(harbours={e: HarbourKind.ORE})
    >>> [str(x) for x in port_edges(board, ["ore"])]
    ['0,2:0,3']
    >>> port_edges(board, ["wool"])
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: port[0]: 'wool' is invalid; expected a kind of harbour on \
the board: ore, or any
    """
    have = sorted({k.value for k in board.harbours.values()})
    valid = ", ".join(have) + ", or any" if have else "none: the board has no harbours"
    out: set[Edge] = set()
    for i, raw in enumerate(kinds):
        if (raw != "any" or not have) and raw not in have:
            raise InvalidInput(f"{field}[{i}]", raw, f"a kind of harbour on the board: {valid}")
        out.update(e for e, k in board.harbours.items() if raw in ("any", k.value))
    return frozenset(out)
