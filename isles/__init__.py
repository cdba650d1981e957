"""isles: exact solvers for four island board games.

A small catalogue, one module per game; each lists its entry points in ``__all__``
(the full reference is in each function's docstring, the rule decisions in
``docs/``, the rules themselves in ``seeds/``):

``isles.rally``
    The Catan car rally (seed 002): the cheapest, fastest or affordable route
    of a car on any Catan board (``plan_route``, ``cost_field``), the best car
    of each start group (``choose_start``), boards (``Board``,
    ``beginner_board``). docs/rally.md, docs/boards.md.
``isles.plunder``
    Plunder (seed 003): what a record of yes/no answers proves, in one call
    (``analyse``): consistency or a smallest conflict, the exact odds of every
    card, forced values with their smallest proofs, flip and guess advice
    (also ``deduce``, ``flip_advice``, ``guess_advice``). docs/plunder.md.
``isles.layout``
    Catan boards (seeds 002 and 004): the base game's island and the 5-6
    player extension's with their harbours, fairest in pips (``base_board``,
    ``extension_board``, ``layout_boards`` for several different ones), the
    ships scenario's most colourful legal board, all proven optimal with
    CP-SAT; completion of a board on the table, the next move, named
    conflicts (``setup_request``, ``solve_layout``, ``next_move``).
    docs/layout.md.
``isles.lighthouse``
    The cooperative lighthouse game (seed 000): the odds of a kit in one call,
    exact under optimal, greedy or random play or estimated where too large
    (``odds``), the best move for a roll (``best_move``), the difficulty table,
    the competitive variant (``competitive_odds``). docs/lighthouse.md.
``isles.ships``
    Ships under winds (seed 004): a ship's voyage to a target in one call
    (``sail``: the steering with the fewest expected rolls, the arrival odds),
    collision and pirate risk (``risk``). docs/ships.md.

Shared names at the top level: :class:`IslesError` (every error isles raises on
purpose), :class:`InvalidInput`, :class:`Status` (what a result is), and the
board model :class:`Board`, :class:`Hex`. Every result type has ``to_dict()``
in the dialect of docs/json.md; the ``isles`` command line prints exactly that
with ``--json``.

Examples
--------
>>> import isles
>>> route = isles.rally.plan_route(isles.rally.beginner_board(), (0, -3))
>>> str(route.status), route.total_cards
('optimal', 24)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from isles import layout, lighthouse, plunder, rally, ships
    from isles.models.catan import Board
    from isles.models.errors import InvalidInput, IslesError
    from isles.models.hexgrid import Hex
    from isles.models.status import Status

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Hex",
    "InvalidInput",
    "IslesError",
    "Status",
    "__version__",
    "layout",
    "lighthouse",
    "plunder",
    "rally",
    "ships",
]

_GAMES = ("layout", "lighthouse", "plunder", "rally", "ships")
_SHARED = {
    "Board": "isles.models.catan",
    "Hex": "isles.models.hexgrid",
    "InvalidInput": "isles.models.errors",
    "IslesError": "isles.models.errors",
    "Status": "isles.models.status",
}


def __getattr__(name: str) -> object:
    # Everything loads on first use: the game modules bring their solver
    # libraries (Z3, OR-Tools, SciPy), and the command line starts with nothing
    # imported, so that Ctrl-C is handled from its very first instruction.
    if name in _GAMES:
        return importlib.import_module(f"isles.{name}")
    if name in _SHARED:
        return getattr(importlib.import_module(_SHARED[name]), name)
    raise AttributeError(f"module 'isles' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
