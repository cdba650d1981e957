"""The relaxations that prove fast: land alone (a colourfulness bound), land and pips alone.

Implements docs/layout.md ("Why the proofs are fast": the land-position bound,
the pip relaxation; seed seeds/004_644cf972d8964df4.txt, "MISE EN PLACE"): small
CP-SAT models whose optimum bounds the full model, whose infeasibility proves
the request infeasible, and whose solutions hint the full search.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from isles.models.catan import NUMBER_TOKENS, Terrain, pips
from isles.models.hexgrid import Hex, edges_between
from isles.models.layout.games import spiral_numbers
from isles.models.layout.groups import LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, SPIRAL
from isles.models.layout.request import SetupRequest
from isles.solvers.layout.cpsat import FOUND, new_solver
from isles.solvers.layout.model import BoardModel, break_symmetry, spiral_clauses

__all__ = [
    "PIP_REQUIREMENTS",
    "Relaxed",
    "land_bound",
    "pip_hint",
    "pip_model",
    "pip_relaxation",
    "relax_rules",
]


#: The requirements the pip relaxation knows (the rules say so themselves, BoardRule.relax).
PIP_REQUIREMENTS = frozenset({LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, SPIRAL})


@dataclass
class Relaxed:
    """The variables of a relaxation (isles.models.layout.board_rules.Relaxation): land, pips."""

    cp: cp_model.CpModel
    request: SetupRequest
    pos: tuple[Hex, ...]
    land: dict[Hex, Any]
    desert: dict[Hex, Any] | None = None
    pv: dict[tuple[Hex, int], Any] | None = None
    pip: dict[Hex, Any] | None = None


def relax_rules(relaxed: Relaxed, active: Collection[str]) -> frozenset[str]:
    """What the relaxation keeps of each active rule; the names of the rules that kept some."""
    kept = set()
    for name, rule in relaxed.request.board_rules.items():
        if name in active and rule.relax(relaxed):
            kept.add(name)
    return frozenset(kept)


_PipVars = tuple[dict[Hex, Any], dict[Hex, Any], dict[tuple[Hex, int], Any]]


def pip_model(
    request: SetupRequest, active: Collection[str]
) -> tuple[cp_model.CpModel, _PipVars, frozenset[str]]:
    """Land positions and land pips alone, under the groups ``active`` (fixed shape).

    Returns the model, its variables and the names of the groups it keeps.
    """
    pos = request.positions
    cp = cp_model.CpModel()
    x = {h: cp.new_bool_var(f"land[{h}]") for h in pos}
    desert = {h: cp.new_bool_var(f"desert[{h}]") for h in pos}
    values = (1, 2, 3, 4, 5)
    pv = {(h, k): cp.new_bool_var(f"pips[{h}]=={k}") for h in pos for k in values}
    p = {h: sum(k * pv[h, k] for k in values) for h in pos}
    for h in pos:
        cp.add_implication(desert[h], x[h])
        cp.add(sum(pv[h, k] for k in values) + desert[h] == x[h])
    if LAND_COUNT in active:
        cp.add(sum(x.values()) == request.land)
    if LAND_INVENTORY in active:
        cp.add(sum(desert.values()) <= request.inventory.get(Terrain.DESERT, 0))
        producing = sum(c for k, c in request.inventory.items() if k.produces)
        cp.add(sum(x.values()) - sum(desert.values()) <= producing)
    if LAND_TOKENS in active:
        for k in values:
            cp.add(
                sum(pv[h, k] for h in pos) <= sum(1 for v in request.land_tokens if pips(v) == k)
            )
    kept = relax_rules(Relaxed(cp, request, pos, x, desert, pv, p), active)
    if SPIRAL in active and request.spiral:
        spiral_clauses(
            cp, request, cp.new_constant(1), lambda h: desert[h], lambda h, n: pv[h, pips(n)]
        )
    for h, tile in request.fixed.items():
        if f"fixed {h}" not in active:
            continue
        cp.add(x[h] == int(tile.terrain.is_land))
        cp.add(desert[h] == int(tile.terrain is Terrain.DESERT))
        if tile.terrain.is_land and tile.number is not None:
            cp.add(pv[h, pips(tile.number)] == 1)
    return cp, (x, desert, pv), kept | (PIP_REQUIREMENTS & set(active))


def pip_relaxation(
    request: SetupRequest, active: Collection[str], time_limit: float
) -> tuple[bool | None, tuple[str, ...]]:
    """Feasibility of the land positions and land pips alone (a relaxation).

    Keeps what pips can say: land count, desert and producing counts, the pool
    counted by pips, no land triangle, six-eight apart (6 and 8 are exactly the
    5-pip tokens), the vertex and corner pip limits, at most one 6 or 8 per
    resource (counted over the island), the spiral (each letter by its pips)
    and the fixed tiles; drops terrains, harbours and sea tokens. Token twins
    (6/8, 5/9, ...) vanish, so CP-SAT proves a pip limit impossible in
    hundredths of a second where the full model takes tens of
    seconds. Returns ``(answer, core)``: ``False`` proves the full request
    infeasible too, and ``core`` is a set of groups the relaxation cannot
    satisfy, minimal for the relaxation (deletion filter, each check a proof).
    """
    if request.size is not None:
        return None, ()  # the free shape's hexes are not known in advance

    def decide(groups: Collection[str]) -> bool | None:
        status = new_solver(time_limit, 2, 0).solve(pip_model(request, groups)[0])
        if status in FOUND:
            return True
        return False if status == cp_model.INFEASIBLE else None

    answer = decide(active)
    if answer is not False:
        return answer, ()
    kept = pip_model(request, active)[2]
    core = [n for n in active if n in kept or n.startswith("fixed ")]
    for name in list(core):
        trial = [n for n in core if n != name]
        if decide(trial) is False:
            core = trial
    return False, tuple(core)


def pip_hint(
    model: BoardModel, request: SetupRequest, active: Collection[str], time_limit: float
) -> bool | None:
    """Hint the full model with a solution of the pip relaxation (fixed shape only).

    Land hexes, the desert and land tokens (each pip value turned into a token
    of the pool with those pips) come from the relaxation; CP-SAT then only
    has terrains and sea tokens left to find, which it does at once. Returns
    the relaxation's answer (False: the full request is infeasible too).
    """
    if request.size is not None:
        return None
    cp, (x, desert, pv), _ = pip_model(request, active)
    # One worker: the same hint, so the same board, in every run; the portfolio
    # of strategies keeps a tight pip limit quick (a quarter of a second at K = 9).
    solver = new_solver(time_limit, 1, 0)
    solver.parameters.search_branching = cp_model.PORTFOLIO_SEARCH
    status = solver.solve(cp)
    if status not in FOUND:
        return False if status == cp_model.INFEASIBLE else None
    pool = list(request.land_tokens)
    laid: dict[Hex, tuple[str, int] | None] = {}
    if SPIRAL in active and request.spiral:
        # the spiral names each token, not only its pips
        deserts = [h for h in request.positions if solver.boolean_value(desert[h])]
        laid = spiral_numbers(request.spiral, request.letters, deserts)
    for h in request.positions:
        model.cp.add_hint(model.land[h], solver.boolean_value(x[h]))
        if Terrain.DESERT in request.inventory:
            model.cp.add_hint(model.terrain[h, Terrain.DESERT], solver.boolean_value(desert[h]))
        k = next((k for k in range(1, 6) if solver.boolean_value(pv[h, k])), None)
        letter = laid.get(h)
        token = letter[1] if letter else next((v for v in pool if pips(v) == k), None)
        if token is not None and token in pool:
            pool.remove(token)
        for v in NUMBER_TOKENS:
            model.cp.add_hint(model.land_token[h, v], v == token)
    return True


def land_bound(
    request: SetupRequest, active: Collection[str], time_limit: float, workers: int, seed: int
) -> tuple[int | None, frozenset[Hex]]:
    """An upper bound on colourfulness from the land positions alone (fixed shape only).

    Colourfulness is at most ``sum deg(land) - #land-land edges`` (equality when
    no two adjacent land hexes share a terrain). Maximising that over land sets
    obeying the land count, the no-triangle rule and the fixed land/sea hexes
    is a small model CP-SAT proves fast; its optimum caps the full model's
    objective (a valid cut that closes the gap at the root) and its land set is
    the first candidate for the full board. Returns ``(bound, land set)``.
    """
    pos = request.positions
    cp = cp_model.CpModel()
    x = {h: cp.new_bool_var(str(h)) for h in pos}
    if LAND_COUNT in active:
        cp.add(sum(x.values()) == request.land)
    if LAND_INVENTORY in active:
        cp.add(sum(x.values()) <= sum(request.inventory.values()))
    relax_rules(Relaxed(cp, request, pos, x), active)
    for h, tile in request.fixed.items():
        if f"fixed {h}" in active:
            cp.add(x[h] == int(tile.terrain.is_land))
    edges = edges_between(pos)
    deg = {h: 0 for h in pos}
    terms: list[Any] = []
    for e in edges:
        deg[e.a] += 1
        deg[e.b] += 1
        both = cp.new_bool_var("")
        cp.add_bool_or([x[e.a].Not(), x[e.b].Not(), both])
        terms.append(-both)
    if not request.fixed:
        images = [[x[g(h)] for h in pos] for g in request.symmetries()]
        break_symmetry(cp, [x[h] for h in pos], images)
    cp.maximize(sum(deg[h] * x[h] for h in pos) + sum(terms))
    solver = new_solver(time_limit, workers, seed)
    status = solver.solve(cp)
    if status == cp_model.OPTIMAL:
        return round(solver.objective_value), frozenset(h for h in pos if solver.value(x[h]))
    if status == cp_model.FEASIBLE:
        return round(solver.best_objective_bound), frozenset()
    return None, frozenset()
