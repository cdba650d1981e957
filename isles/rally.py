"""The Catan car rally (seed 002_8684547a41c0941c.txt; docs/rally.md, docs/boards.md).

The public entry points: plan a car's route on a board (:func:`plan_route`),
the cost of every hex from a start (:func:`cost_field`), the boards.
"""

from isles.models.catan import Board, Resource, Terrain, Tile, beginner_board
from isles.models.rally import default_goals, entry_cost, start_group
from isles.solvers.rally import (
    CostField,
    RallyGraph,
    Route,
    Step,
    build_graph,
    cost_field,
    plan_route,
)

__all__ = [
    "Board",
    "CostField",
    "RallyGraph",
    "Resource",
    "Route",
    "Step",
    "Terrain",
    "Tile",
    "beginner_board",
    "build_graph",
    "cost_field",
    "default_goals",
    "entry_cost",
    "plan_route",
    "start_group",
]
