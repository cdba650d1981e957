"""The most colourful legal ships-scenario board, proven optimal with OR-Tools CP-SAT.

Implements docs/layout.md for seeds/004_644cf972d8964df4.txt ("MISE EN PLACE"):
optimal boards, completion of fixed tiles, infeasibility explained by named
constraint groups, next-move advice.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat.python import cp_model

from isles.models.catan import NUMBER_TOKENS, Board, HarbourKind, Resource, Terrain, Tile, pips
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import Hex, edge, edges_between, neighbours
from isles.models.jsonio import hex_json
from isles.models.layout.games import Game, shape_symmetries, spiral_numbers
from isles.models.layout.questions import Layout, Move, Search, Series
from isles.models.layout.setup import (
    SetupRequest,
    colourfulness,
    pip_spread,
    pip_spread_floor,
    request_of,
    resource_pips,
)
from isles.models.status import Status

__all__ = [
    "BOARD_SHAPE",
    "HARBOUR_KINDS",
    "LAND_COUNT",
    "LAND_INVENTORY",
    "LAND_TOKENS",
    "SEA_NUMBERS",
    "SPIRAL",
    "LayoutResult",
    "LayoutSeries",
    "NextMove",
    "constraint_groups",
    "first_board",
    "is_feasible",
    "lay_out",
    "layout_boards",
    "next_move",
    "solve_layout",
]


#: Names of the requirements that are not switchable rules (they may appear in a
#: conflict): the land count, the land tiles of the inventory, the land token
#: pool, the numbers sea tokens may show, the game's harbours (one on each
#: place, the game's kinds), the variable set-up's spiral.
LAND_COUNT = "land count"
LAND_INVENTORY = "land inventory"
LAND_TOKENS = "land tokens"
SEA_NUMBERS = "sea numbers"
HARBOUR_KINDS = "harbour kinds"
SPIRAL = "spiral"
#: The conflict when the positions alone admit no board (a free shape that
#: cannot be connected, for instance): no group can be blamed.
BOARD_SHAPE = "board shape"


def _conflict_json(conflict: tuple[str, ...], minimal: bool) -> dict[str, Any]:
    return {
        "conflict": list(conflict) if conflict else None,
        "conflict_minimal": minimal if conflict else None,
    }


@dataclass(frozen=True)
class LayoutResult:
    """The answer of :func:`solve_layout` (and :func:`first_board`).

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
        no bound was proven, as for :func:`first_board`).
    pip_spread : int or None
        Most minus fewest total pips among the five resources.
    pip_spread_bound : int or None
        Proven lower bound on the pip spread among boards of this colourfulness.
    conflict : tuple of str
        Infeasible only: the constraint groups (:func:`constraint_groups`) that
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
    solve_layout, first_board

    Examples
    --------
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
    """Advice for the player about to lay two tiles (the answer of :func:`next_move`).

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
    next_move

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
    """Several different legal boards (the answer of :func:`layout_boards`).

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
        The boards, in the order found; the first is :func:`solve_layout`'s.
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
    layout_boards

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


def constraint_groups(request: SetupRequest) -> tuple[str, ...]:
    """The names of every constraint group of ``request`` that can enter a conflict.

    Parameters
    ----------
    request : SetupRequest

    Returns
    -------
    tuple of str
        The rules switched on (their names, sorted), the requirements
        (:data:`LAND_COUNT`, :data:`LAND_INVENTORY`, :data:`LAND_TOKENS`,
        :data:`SEA_NUMBERS`, and :data:`HARBOUR_KINDS` with harbours,
        :data:`SPIRAL` with a spiral) and one group per fixed tile
        (``"fixed Q,R"``) and per fixed harbour (``"fixed harbour Q,R:Q,R"``).
        Each enters the CP-SAT model behind one assumption literal.

    Examples
    --------
    >>> constraint_groups(SetupRequest.hexagon(1))[:3]
    ('no-land-triangle', 'sea-apart', 'sea-balanced')
    """
    switched = sorted(r.value for r in request.rules)
    rules = (*switched, *(rule.label() for rule in request.extra_rules))
    fixed = tuple(f"fixed {h}" for h in request.fixed) + tuple(
        f"fixed harbour {e}" for e in request.fixed_harbours
    )
    extra = ((HARBOUR_KINDS,) if request.harbour_places else ()) + (
        (SPIRAL,) if request.spiral else ()
    )
    return (*rules, LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, SEA_NUMBERS, *extra, *fixed)


# -- symmetries -----------------------------------------------------------------------


def _symmetries(request: SetupRequest) -> list[Callable[[Hex], Hex]]:
    """The rotations/reflections mapping the positions, frame and harbour places onto themselves."""
    frame = set(request.frame)
    moves = shape_symmetries(request.positions, keep=[request.harbour_places])
    rules = request.board_rules.values()
    return [g for g in moves if {g(h) for h in frame} == frame and all(r.keeps(g) for r in rules)]


def _break_symmetry(
    cp: cp_model.CpModel, xs: list[cp_model.IntVar], images: list[list[cp_model.IntVar]]
) -> None:
    """Lex-leader: ``xs`` is lexicographically at least each of its ``images``.

    Only the board's own symmetries are passed, so every orbit of boards keeps
    its lex-largest member: the optimum is unchanged, the search space shrinks.
    """
    for ys in images:
        prefix_equal: cp_model.IntVar | None = None
        for a, b in zip(xs, ys, strict=True):
            if a is b:
                continue
            geq = cp.add(a >= b)
            if prefix_equal is not None:
                geq.only_enforce_if(prefix_equal)
            eq = cp.new_bool_var("")
            cp.add(a == b).only_enforce_if(eq)
            cp.add(a != b).only_enforce_if(eq.Not())
            if prefix_equal is not None:
                both = cp.new_bool_var("")
                cp.add_bool_and([prefix_equal, eq]).only_enforce_if(both)
                cp.add_bool_or([prefix_equal.Not(), eq.Not()]).only_enforce_if(both.Not())
                eq = both
            prefix_equal = eq


# -- the CP-SAT model ------------------------------------------------------------------


class _Model:
    """One CP-SAT model of a request, one method per constraint group.

    Every group of :func:`constraint_groups` enters behind one Boolean
    literal (``group_lit``): fixed true when the group is active, false when
    dropped, or an assumption (``assume``) when a conflict is being explained.
    """

    def __init__(
        self,
        request: SetupRequest,
        active: Collection[str],
        *,
        symmetry: bool = True,
        assume: bool = False,
        objectives: bool = True,
    ) -> None:
        self.request = request
        self.cp = cp_model.CpModel()
        self.pos = list(request.positions)
        self.free = request.size is not None
        self.land_kinds = sorted((t for t in request.inventory), key=list(Terrain).index)
        self.kinds = [*self.land_kinds, Terrain.SEA]
        self.edges = edges_between(self.pos)
        # (hex, terrain, number) -> "the hex holds that tile" (no-good cuts of a series)
        self.holds: dict[tuple[Hex, Terrain, int | None], cp_model.IntVar] = {}
        self._add_group_literals(active, assume)
        self._add_tiles()
        if self.free:
            self._add_connectivity()
        self._add_land_count()
        self._add_land_inventory()
        self._add_land_tokens()
        self._add_sea_numbers()
        self._add_fixed_tiles()
        self._add_harbours()
        self._add_spiral()
        self._add_rules()
        if objectives:  # feasibility questions skip the objective variables
            if request.colourful:
                self._add_colourfulness()
            self._add_pip_spread()
        if symmetry and not request.has_fixed:
            self._add_symmetry_breaking()

    # -- the groups' literals --------------------------------------------------------
    def _add_group_literals(self, active: Collection[str], assume: bool) -> None:
        self.group_lit: dict[str, cp_model.IntVar] = {}
        self.active_names = set(active)
        for name in constraint_groups(self.request):
            group = self.cp.new_bool_var(name)
            self.group_lit[name] = group
            if name not in active:
                self.cp.add(group == 0)
            elif not assume:
                self.cp.add(group == 1)
        self.active = [self.group_lit[n] for n in constraint_groups(self.request) if n in active]
        if assume:
            self.cp.add_assumptions(self.active)

    def on(self, name: str) -> cp_model.IntVar | None:
        """The literal of group ``name`` when it is active, else None (nothing to add)."""
        return self.group_lit.get(name) if name in self.active_names else None

    # -- what lies on each hex ---------------------------------------------------------
    def _add_tiles(self) -> None:
        """Terrain one-hot (nothing only off a free shape's board), land, tokens, pips."""
        cp, pos = self.cp, self.pos
        self.terrain = {
            (h, k): cp.new_bool_var(f"terrain[{h},{k.value}]") for h in pos for k in self.kinds
        }
        self.present: dict[Hex, cp_model.IntVar] = {}
        for h in pos:
            p = cp.new_bool_var(f"present[{h}]")
            self.present[h] = p
            cp.add(sum(self.terrain[h, k] for k in self.kinds) == p)
            if not self.free:
                cp.add(p == 1)
        self.land = {h: cp.new_bool_var(f"land[{h}]") for h in pos}
        for h in pos:
            cp.add(sum(self.terrain[h, k] for k in self.land_kinds) == self.land[h])
        producing = [k for k in self.land_kinds if k.produces]
        self.land_token = {
            (h, v): cp.new_bool_var(f"land_token[{h},{v}]") for h in pos for v in NUMBER_TOKENS
        }
        self.sea_token = {
            (h, v): cp.new_bool_var(f"sea_token[{h},{v}]") for h in pos for v in NUMBER_TOKENS
        }
        for h in pos:
            cp.add(
                sum(self.land_token[h, v] for v in NUMBER_TOKENS)
                == sum(self.terrain[h, k] for k in producing)
            )
            cp.add(sum(self.sea_token[h, v] for v in NUMBER_TOKENS) == self.terrain[h, Terrain.SEA])
        self.pip = {h: sum(pips(v) * self.land_token[h, v] for v in NUMBER_TOKENS) for h in pos}

    def _add_connectivity(self) -> None:
        """Free shape: ``size`` hexes, one connected board containing the root (a flow)."""
        cp, req, pos = self.cp, self.request, self.pos
        size = req.size
        assert size is not None
        cp.add(sum(self.present.values()) == size)
        root = req.root
        cp.add(self.present[root] == 1)
        pset = set(pos)
        flow: dict[tuple[Hex, Hex], cp_model.IntVar] = {}
        for h in pos:
            for n in neighbours(h):
                if n in pset:
                    f = cp.new_int_var(0, size - 1, f"flow[{h}->{n}]")
                    flow[h, n] = f
                    cp.add(f == 0).only_enforce_if(self.present[h].Not())
                    cp.add(f == 0).only_enforce_if(self.present[n].Not())
        for h in pos:
            out_f = sum(flow[h, n] for n in neighbours(h) if n in pset)
            in_f = sum(flow[n, h] for n in neighbours(h) if n in pset)
            if h == root:
                cp.add(out_f - in_f == size - 1)
            else:
                cp.add(in_f - out_f == self.present[h])

    # -- requirements -------------------------------------------------------------------
    def _add_land_count(self) -> None:
        lit = self.on(LAND_COUNT)
        if lit is not None:
            self.cp.add(sum(self.land.values()) == self.request.land).only_enforce_if(lit)

    def _add_land_inventory(self) -> None:
        lit = self.on(LAND_INVENTORY)
        if lit is not None:
            for k in self.land_kinds:
                cap = self.request.inventory[k]
                self.cp.add(sum(self.terrain[h, k] for h in self.pos) <= cap).only_enforce_if(lit)

    def _add_land_tokens(self) -> None:
        lit = self.on(LAND_TOKENS)
        if lit is not None:
            for v in NUMBER_TOKENS:
                cap = self.request.land_tokens.count(v)
                self.cp.add(sum(self.land_token[h, v] for h in self.pos) <= cap).only_enforce_if(
                    lit
                )

    def _add_sea_numbers(self) -> None:
        lit = self.on(SEA_NUMBERS)
        if lit is not None:
            for h in self.pos:
                for v in NUMBER_TOKENS:
                    if v not in self.request.sea_numbers:
                        self.cp.add_implication(lit, self.sea_token[h, v].Not())

    def _add_fixed_tiles(self) -> None:
        """Each fixed tile behind its own literal (``fixed Q,R``)."""
        for h, tile in self.request.fixed.items():
            lit = self.on(f"fixed {h}")
            if lit is None:
                continue
            k = tile.terrain
            if (h, k) not in self.terrain:
                self.cp.add_bool_or([lit.Not()])  # a terrain the inventory does not know
                continue
            self.cp.add_implication(lit, self.terrain[h, k])
            if tile.number is not None:
                tok = self.sea_token if k is Terrain.SEA else self.land_token
                self.cp.add_implication(lit, tok[h, tile.number])

    def _add_harbours(self) -> None:
        """At most one harbour per place, on land's side; the game's kinds (``harbour kinds``).

        Each harbour already on the table is its own group (``fixed harbour E``).
        """
        cp, req = self.cp, self.request
        kinds = sorted(set(req.harbours), key=list(HarbourKind).index)
        self.harbour = {
            (e, kind): cp.new_bool_var(f"harbour[{e},{kind.value}]")
            for e in req.harbour_places
            for kind in kinds
        }
        pos = set(self.pos)
        for e in req.harbour_places:
            inner = next(h for h in e if h in pos)
            laid = [self.harbour[e, kind] for kind in kinds]
            cp.add(sum(laid) <= 1)
            for x in laid:  # a harbour lies between sea and land
                cp.add_implication(x, self.land[inner])
        lit = self.on(HARBOUR_KINDS)
        if lit is not None:
            for kind in kinds:
                count = req.harbours.count(kind)
                on_places = sum(self.harbour[e, kind] for e in req.harbour_places)
                cp.add(on_places == count).only_enforce_if(lit)
        for e, kind in req.fixed_harbours.items():
            lit = self.on(f"fixed harbour {e}")
            if lit is not None:
                self.cp.add_implication(lit, self.harbour[e, kind])

    def _add_spiral(self) -> None:
        """The variable set-up: the letters along the spiral, deserts skipped (``spiral``)."""
        lit = self.on(SPIRAL)
        if lit is not None and self.request.spiral:
            desert = Terrain.DESERT in self.kinds
            _spiral_clauses(
                self.cp,
                self.request,
                lit,
                lambda h: self.terrain[h, Terrain.DESERT] if desert else None,
                lambda h, n: self.land_token[h, n],
            )

    # -- rules ----------------------------------------------------------------------------
    def _add_rules(self) -> None:
        """Each board rule of the request, behind its group's literal
        (isles.models.layout.board_rules)."""
        for name, rule in self.request.board_rules.items():
            lit = self.on(name)
            if lit is not None:
                rule.encode(self, lit)

    # -- objectives ---------------------------------------------------------------------------
    def _add_colourfulness(self) -> None:
        """Adjacent pairs of different terrains (sea counts), maximised first (ships)."""
        cp, pos = self.cp, self.pos
        deg = {h: 0 for h in pos}
        for e in self.edges:
            deg[e.a] += 1
            deg[e.b] += 1
        terms: list[Any] = []
        if not self.free:
            # colourfulness = sum_h deg(h) land(h) - #land-land edges - #same-terrain edges:
            # the land-land count is what makes the relaxation tight.
            for h in pos:
                terms.append(deg[h] * self.land[h])
            for e in self.edges:
                both = cp.new_bool_var(f"both_land[{e}]")
                cp.add_bool_or([self.land[e.a].Not(), self.land[e.b].Not(), both])
                terms.append(-both)
                same = cp.new_bool_var(f"same[{e}]")
                for k in self.land_kinds:
                    cp.add_bool_or([self.terrain[e.a, k].Not(), self.terrain[e.b, k].Not(), same])
                terms.append(-same)
        else:
            for e in self.edges:
                d = cp.new_bool_var(f"differ[{e}]")
                cp.add_implication(d, self.present[e.a])
                cp.add_implication(d, self.present[e.b])
                # two land hexes make one edge, not two: the bound that keeps the
                # relaxation near sum(6 * land) - #land-land edges
                both = cp.new_bool_var(f"both_land[{e}]")
                cp.add_bool_or([self.land[e.a].Not(), self.land[e.b].Not(), both])
                cp.add(d <= self.land[e.a] + self.land[e.b] - both)
                for k in self.land_kinds:
                    cp.add_bool_or(
                        [d.Not(), self.terrain[e.a, k].Not(), self.terrain[e.b, k].Not()]
                    )
                terms.append(d)
        self.colour = sum(terms)

    def _add_pip_spread(self) -> None:
        """Most minus fewest pips among the five resources, with the bounds that prove it fast.

        The mean of the five totals lies between the fewest and the most, so
        ``5 hi >= T >= 5 lo`` for the total ``T``; the token counts tie ``T``
        to the pool, so when every token must be laid CP-SAT fixes ``T`` and
        the divisibility bound follows at the root. :func:`pip_spread_floor`
        gives that bound outright when the requirements hold.
        """
        cp, pos, req = self.cp, self.pos, self.request
        totals = []
        for res in Resource:
            kinds = [k for k in self.land_kinds if k.resource is res]
            parts = []
            for h in pos:
                for k in kinds:
                    q = cp.new_int_var(0, 5, f"pips[{h},{k.value}]")
                    cp.add(q == self.pip[h]).only_enforce_if(self.terrain[h, k])
                    cp.add(q == 0).only_enforce_if(self.terrain[h, k].Not())
                    parts.append(q)
            totals.append(sum(parts))
        top = 5 * len(pos)
        self.hi = cp.new_int_var(0, top, "pips_hi")
        self.lo = cp.new_int_var(0, top, "pips_lo")
        for total in totals:
            cp.add(self.hi >= total)
            cp.add(self.lo <= total)
        self.spread = self.hi - self.lo
        all_pips = cp.new_int_var(0, top, "pips_total")
        cp.add(all_pips == sum(totals))
        cp.add(len(Resource) * self.hi >= all_pips)
        cp.add(len(Resource) * self.lo <= all_pips)
        if Terrain.GOLD not in self.land_kinds:
            laid = {v: cp.new_int_var(0, len(pos), f"laid[{v}]") for v in NUMBER_TOKENS}
            for v in NUMBER_TOKENS:
                cp.add(laid[v] == sum(self.land_token[h, v] for h in pos))
            cp.add(all_pips == sum(pips(v) * laid[v] for v in NUMBER_TOKENS))
        requirements = [self.on(n) for n in (LAND_COUNT, LAND_INVENTORY, LAND_TOKENS)]
        floor = pip_spread_floor(req)
        if floor and all(lit is not None for lit in requirements):
            cp.add(self.spread >= floor).only_enforce_if(
                [lit for lit in requirements if lit is not None]
            )

    def _add_symmetry_breaking(self) -> None:
        """Lex-leader over the land vector for the board's own symmetries (fixed nothing)."""
        xs = [self.land[h] for h in self.pos]
        if self.request.land in (0, len(self.pos)) and not self.free:
            return  # an island or an open sea: the land vector is the same in every image
        moves = _symmetries(self.request)
        _break_symmetry(self.cp, xs, [[self.land[g(h)] for h in self.pos] for g in moves])

    # -- reading -----------------------------------------------------------------------
    def board(self, solver: cp_model.CpSolver) -> Board:
        """The board of a solution: the positions, the frame, the harbours."""
        tiles: dict[Hex, Tile] = {}
        for h in self.pos:
            for k in self.kinds:
                if solver.boolean_value(self.terrain[h, k]):
                    tok = self.sea_token if k is Terrain.SEA else self.land_token
                    number = next(
                        (v for v in NUMBER_TOKENS if solver.boolean_value(tok[h, v])), None
                    )
                    tiles[h] = Tile(k, number)
        for h in self.request.frame:
            tiles[h] = Tile(Terrain.SEA)
        harbours = {e: kind for (e, kind), x in self.harbour.items() if solver.boolean_value(x)}
        return Board(tiles, harbours=harbours)

    def hint(self, board: Board) -> None:
        self.cp.clear_hints()  # type: ignore[no-untyped-call]
        for h in self.pos:
            tile = board.tiles.get(h)
            for k in self.kinds:
                self.cp.add_hint(self.terrain[h, k], tile is not None and tile.terrain is k)
            for v in NUMBER_TOKENS:
                land_tok = tile is not None and tile.terrain.is_land and tile.number == v
                sea_tok = tile is not None and not tile.terrain.is_land and tile.number == v
                self.cp.add_hint(self.land_token[h, v], land_tok)
                self.cp.add_hint(self.sea_token[h, v], sea_tok)
        for (e, kind), x in self.harbour.items():
            self.cp.add_hint(x, board.harbours.get(e) is kind)


def _spiral_clauses(
    cp: cp_model.CpModel,
    request: SetupRequest,
    lit: Any,
    desert: Callable[[Hex], Any],
    token: Callable[[Hex, int], Any],
) -> None:
    """Hex ``i`` of the spiral after ``j`` deserts carries letter ``i - j`` (one definition).

    ``desert(h)`` is the literal "h is a desert" (None when no desert exists),
    ``token(h, n)`` the literal "h carries number n"; every clause is
    guarded by ``lit`` (the group ``spiral``).
    """
    numbers = [n for _, n in request.letters]
    most = request.inventory.get(Terrain.DESERT, 0)
    before: list[Any] = []  # the desert literals met so far
    for i, h in enumerate(request.spiral):
        d = desert(h)
        skipped = [cp.new_bool_var(f"skipped[{h}]={j}") for j in range(min(i, most) + 1)]
        cp.add_exactly_one(skipped)
        cp.add(sum(j * b for j, b in enumerate(skipped)) == sum(before))
        for j, b in enumerate(skipped):
            clause = [lit.Not(), b.Not(), *([d] if d is not None else [])]
            if i - j < len(numbers):
                clause.append(token(h, numbers[i - j]))
            cp.add_bool_or(clause)  # no letter left: only a desert may lie here
        if d is not None:
            before.append(d)


def _check_limits(time_limit: float, workers: int = 1, seed: int = 0) -> None:
    """Refuse a time limit, worker count or seed CP-SAT cannot take, naming the parameter."""
    Search.read({"time_limit": time_limit, "workers": workers, "seed": seed})


#: Seconds a solve runs before its bar shows when progress is automatic (None).
PROGRESS_DELAY = 1.0

#: The progress the public call asked (True, False, None: automatic), for the
#: solves it runs: a context variable, so that concurrent calls (the web app's
#: jobs) do not see each other's.
_PROGRESS: ContextVar[bool | None] = ContextVar("isles_layout_progress", default=False)


def _shown(progress: bool | None) -> tuple[bool, float]:
    """Whether a bar shows, and after how many seconds: ``True`` at once, ``None``
    on a terminal once the work has taken :data:`PROGRESS_DELAY`, ``False`` never.

    Examples
    --------
    >>> _shown(True), _shown(False)
    ((True, 0.0), (False, 0.0))
    """
    if progress is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)()), PROGRESS_DELAY
    return bool(progress), 0.0


@contextmanager
def _progress(progress: bool | None) -> Iterator[None]:
    """The solves run inside show their bars as ``progress`` asks."""
    token = _PROGRESS.set(progress)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


class _Best(cp_model.CpSolverSolutionCallback):
    """Records the objective of each board found, for the bar (read by the main thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.objective: float | None = None

    def on_solution_callback(self) -> None:
        self.objective = self.objective_value


class _WaitBar:
    """A tqdm bar on stderr while one CP-SAT solve runs: seconds against its time limit,
    and, when the model optimises, the best board's objective and the best bound."""

    def __init__(self, limit: float, delay: float, best: _Best | None) -> None:
        from tqdm import tqdm  # a bar only when shown: tests and pipes stay quiet

        self.limit = limit
        self.start = time.monotonic()
        self.best = best
        self.bound: float | None = None
        self.bar = tqdm(
            total=limit,
            desc="CP-SAT",
            delay=delay,
            leave=False,
            file=sys.stderr,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s{postfix}",
        )

    def tick(self) -> None:
        """Redraw with the time spent (tqdm redraws at most ten times a second)."""
        if self.best is not None and self.best.objective is not None:
            said = f"best {self.best.objective:g}"
            if self.bound is not None:
                said += f", bound {self.bound:g}"
            self.bar.set_postfix_str(said, refresh=False)
        spent = min(time.monotonic() - self.start, self.limit)
        self.bar.update(spent - self.bar.n)

    def close(self) -> None:
        self.bar.close()


class _InterruptibleSolver(cp_model.CpSolver):
    """A CP-SAT solver that Ctrl-C stops at once: every solve of isles goes through it.

    CP-SAT searches in C++, and Python runs its signal handlers only between
    bytecodes of the main thread: a solve on the main thread would hear Ctrl-C
    only when its time limit ran out. So the search runs on a worker thread
    while the main thread waits, takes the KeyboardInterrupt, stops the search
    (:meth:`stop_search`) and re-raises it; the command line then exits 130.
    An interrupt is never returned as a status.
    """

    #: How often the waiting main thread looks up (seconds): the delay of a stop.
    _POLL = 0.05

    def solve(
        self,
        model: cp_model.CpModel,
        solution_callback: cp_model.CpSolverSolutionCallback | None = None,
    ) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return super().solve(model, solution_callback)  # signals reach the main thread only
        outcome: list[Any] = []
        failure: list[BaseException] = []
        bar = self._bar(model, solution_callback)
        if bar is not None and bar.best is not None:
            solution_callback = bar.best

        def search() -> None:
            try:
                outcome.append(super(_InterruptibleSolver, self).solve(model, solution_callback))
            except BaseException as exc:  # handed to the main thread, raised there
                failure.append(exc)

        worker = threading.Thread(target=search, name="cp-sat", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(self._POLL)
                if bar is not None:
                    bar.tick()
        except KeyboardInterrupt:
            # Stop until the search ends: a stop asked before CP-SAT started is lost.
            while worker.is_alive():
                self.stop_search()
                worker.join(self._POLL)
            raise
        finally:
            if bar is not None:
                bar.close()
        if failure:
            raise failure[0]
        return outcome[0]

    def _bar(
        self, model: cp_model.CpModel, solution_callback: cp_model.CpSolverSolutionCallback | None
    ) -> _WaitBar | None:
        """The bar of this solve, when the call's progress asks one (:func:`_shown`)."""
        shown, delay = _shown(_PROGRESS.get())
        if not shown:
            return None
        optimises = solution_callback is None and model.has_objective()
        bar = _WaitBar(self.parameters.max_time_in_seconds, delay, _Best() if optimises else None)
        if optimises:

            def bound(value: float) -> None:
                bar.bound = value

            self.best_bound_callback = bound
        return bar


def _solver(time_limit: float, workers: int, seed: int) -> cp_model.CpSolver:
    solver = _InterruptibleSolver()
    solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT would catch Ctrl-C itself and return its best board as an answer;
    # an interrupt must stop isles instead (_InterruptibleSolver re-raises it).
    solver.parameters.catch_sigint_signal = False
    return solver


def _land_bound(
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
    _relax_rules(_Relaxed(cp, request, pos, x), active)
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
        _break_symmetry(
            cp, [x[h] for h in pos], [[x[g(h)] for h in pos] for g in _symmetries(request)]
        )
    cp.maximize(sum(deg[h] * x[h] for h in pos) + sum(terms))
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(cp)
    if status == cp_model.OPTIMAL:
        return round(solver.objective_value), frozenset(h for h in pos if solver.value(x[h]))
    if status == cp_model.FEASIBLE:
        return round(solver.best_objective_bound), frozenset()
    return None, frozenset()


#: Land tokens with equal pips: swapping them keeps every rule and objective.
_TWIN_TOKENS = ((6, 8), (5, 9), (4, 10), (3, 11), (2, 12))


def _vary(board: Board, request: SetupRequest, seed: int) -> Board:
    """A seeded board from the same optimum class (only when nothing is fixed).

    Applies a symmetry of the positions (and of the frame and harbour
    places), a permutation of land terrains with equal inventory counts and
    equal harbour counts (each 2:1 harbour follows its resource), swaps of
    land tokens with equal pips and equal pool counts, a permutation of the
    sea numbers, and, when no rule looks at harbours, a shuffle of the
    harbours over their places: every rule, the colourfulness and the pip
    spread are unchanged, so an optimal board stays optimal. A spiral fixes
    where each token lies, so with one only the terrains (deserts kept) and
    the harbours move.
    """
    if request.has_fixed or seed == 0:
        return board
    rng = random.Random(seed)
    moves: list[Callable[[Hex], Hex]] = [lambda h: h, *_symmetries(request)]
    move = moves[rng.randrange(len(moves))]
    if request.spiral:
        move = moves[0]
    harbour_count = {
        k: sum(1 for kind in request.harbours if kind.resource is k.resource and k.resource)
        for k in request.inventory
    }
    terrain_map: dict[Terrain, Terrain] = {}
    by_count: dict[tuple[int, int], list[Terrain]] = {}
    for k, count in request.inventory.items():
        by_count.setdefault((count, harbour_count[k]), []).append(k)
    for kinds in by_count.values() if request.keeps("terrains") else ():
        kinds.sort(key=list(Terrain).index)
        producing = [k for k in kinds if k.produces and k.resource is not None]
        others = [k for k in kinds if k not in producing]
        shuffled = producing[:]
        rng.shuffle(shuffled)
        terrain_map.update(zip(producing, shuffled, strict=True))
        terrain_map.update({k: k for k in others})
    land_map = {v: v for v in NUMBER_TOKENS}
    for a, b in _TWIN_TOKENS:
        swap = request.land_tokens.count(a) == request.land_tokens.count(b) and rng.random() < 0.5
        # a spiral names every token: twins stay put
        if swap and not request.spiral and request.keeps("twins"):
            land_map[a], land_map[b] = b, a
    sea_values = list(request.sea_numbers)
    shuffled_sea = sea_values[:]
    if request.keeps("sea numbers"):
        rng.shuffle(shuffled_sea)
    sea_map = dict(zip(sea_values, shuffled_sea, strict=True))
    tiles: dict[Hex, Tile] = {}
    for h, tile in board.tiles.items():
        n = tile.number
        if tile.terrain is Terrain.SEA:
            tiles[move(h)] = Tile(Terrain.SEA, None if n is None else sea_map[n])
        else:
            terrain = terrain_map.get(tile.terrain, tile.terrain)
            tiles[move(h)] = Tile(terrain, None if n is None else land_map[n])
    resource_map = {
        HarbourKind(k.resource.value): HarbourKind(t.resource.value)
        for k, t in terrain_map.items()
        if k.resource is not None and t.resource is not None
    }
    harbours = {
        edge(move(e.a), move(e.b)): resource_map.get(kind, kind)
        for e, kind in board.harbours.items()
    }
    if harbours and request.keeps("harbours"):
        places = sorted(harbours)
        shuffled_kinds = [harbours[e] for e in places]
        rng.shuffle(shuffled_kinds)
        harbours = dict(zip(places, shuffled_kinds, strict=True))
    return Board(tiles, harbours=harbours)


def _maximise_colour(
    model: _Model,
    request: SetupRequest,
    active: Collection[str],
    *,
    time_limit: float,
    workers: int,
    seed: int,
) -> tuple[Any, cp_model.CpSolver, bool, int | None]:
    """Phase 1: maximise colourfulness. Returns (status, solver, proven, bound).

    On a fixed shape the land-position bound comes first: its land set is
    tried as is (hinted variables fixed); reaching the bound proves optimality.
    """
    cap: int | None = None
    land_set: frozenset[Hex] = frozenset()
    if request.size is None:
        cap, land_set = _land_bound(request, active, time_limit, workers, seed)
        if cap is not None:
            model.cp.add(model.colour <= cap)
    model.cp.maximize(model.colour)
    if land_set:
        for h in model.pos:
            model.cp.add_hint(model.land[h], h in land_set)
        quick = _solver(time_limit, workers, seed)
        quick.parameters.fix_variables_to_their_hinted_value = True
        status = quick.solve(model.cp)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and round(quick.objective_value) == cap:
            return status, quick, True, cap
    start: tuple[Any, cp_model.CpSolver] | None = None
    if request.size is not None:
        start = _compact_start(model, request, active, time_limit=time_limit, workers=workers)
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if start is not None and (
        status not in _FOUND or solver.objective_value < start[1].objective_value
    ):
        # the search lost the compact start (time limit): keep the start
        bound = round(solver.best_objective_bound) if status in _FOUND else None
        return start[0], start[1], False, bound
    proven = status == cp_model.OPTIMAL
    bound = round(solver.best_objective_bound) if status in _FOUND else None
    if cap is not None and bound is not None:
        bound = min(bound, cap)
    return status, solver, proven, bound


_FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _compact_start(
    model: _Model,
    request: SetupRequest,
    active: Collection[str],
    *,
    time_limit: float,
    workers: int,
) -> tuple[Any, cp_model.CpSolver] | None:
    """Free shape: start from the most compact board (breadth-first from the root).

    Its land set comes from the land-position bound on that fixed shape; the
    board completed on it is hinted to the full search, which can only improve.
    Returns the (status, solver) of the start, or None without one.
    """
    assert request.size is not None
    present = set(request.positions)
    order = [request.root]
    seen = {request.root}
    for h in order:
        for n in neighbours(h):
            if n in present and n not in seen:
                seen.add(n)
                order.append(n)
    compact = order[: request.size]
    if len(compact) < request.size or not set(request.fixed) <= set(compact):
        return None
    shape = replace(request, positions=tuple(compact), size=None)
    _, land_set = _land_bound(shape, active, time_limit, workers, 0)
    if not land_set:
        return None
    if not request.fixed:
        # the full model keeps only lex-leaders of the land vector: move the start
        # to the lex-largest of its images so that it stays a solution
        moves: list[Callable[[Hex], Hex]] = [lambda h: h, *_symmetries(request)]

        def key(g: Callable[[Hex], Hex]) -> list[bool]:
            image = {g(h) for h in land_set}
            return [h in image for h in model.pos]

        best = max(moves, key=key)
        compact = [best(h) for h in compact]
        land_set = frozenset(best(h) for h in land_set)
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in compact)
        model.cp.add_hint(model.land[h], h in land_set)
    quick = _solver(time_limit, workers, 0)
    quick.parameters.fix_variables_to_their_hinted_value = True
    status = quick.solve(model.cp)
    model.cp.clear_hints()  # type: ignore[no-untyped-call]
    if status not in _FOUND:
        return None
    model.hint(model.board(quick))
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in compact)
    return status, quick


def solve_layout(
    request: SetupRequest,
    *,
    seed: int = 0,
    time_limit: float = 20.0,
    workers: int = 1,
    explain: bool = True,
    progress: bool | None = None,
) -> LayoutResult:
    """The most colourful legal board for ``request``, then the fairest pips.

    Parameters
    ----------
    request : SetupRequest
        Positions, counts, tiles, tokens, rules, fixed tiles (docs/layout.md;
        build one with :func:`~isles.models.layout.setup.setup_request`).
    seed : int
        Variety, 0..2**31-1: when nothing is fixed, different seeds give
        different boards of the same optimum (docs/layout.md, "Variety and
        determinism"); CP-SAT's random seed too.
    time_limit : float
        Seconds per CP-SAT solve (wall clock), finite and > 0.
    workers : int
        CP-SAT workers. One (the default) makes the search deterministic: the
        same request and seed give the same board whenever no time limit is
        hit. More workers may prove hard requests sooner, without that promise.
    explain : bool
        When infeasible, name a minimal set of constraint groups in ``conflict``.
    progress : bool or None
        A tqdm bar on stderr while each CP-SAT solve runs (seconds against
        ``time_limit``, the best objective and bound): True shows it, False
        never, None (the default) on a terminal once a solve has taken a
        second (:data:`PROGRESS_DELAY`).

    Returns
    -------
    LayoutResult
        Status never overstated: ``optimal`` only when both objectives are
        proven; ``feasible`` with the bounds when a time limit stopped a
        proof; ``infeasible`` with the conflict; ``timed_out`` when no board
        was found and none proven impossible.

    Raises
    ------
    InvalidInput
        If ``time_limit``, ``workers`` or ``seed`` is out of range.

    See Also
    --------
    first_board : any legal board, no optimisation.
    next_move : where to lay the two tiles in hand.

    Notes
    -----
    A lexicographic optimisation with CP-SAT [1]_. Each constraint group
    (:func:`constraint_groups`) enters the model behind one Boolean literal.
    Phase 1 maximises colourfulness; a small model over the land positions
    alone gives an upper bound (colourfulness is at most the land degrees
    minus the land-land edges) and a first land set, and a lex-leader
    constraint removes the board's rotations and reflections when nothing is
    fixed. Phase 2 fixes that colourfulness and minimises the pip spread.
    When no board exists, the conflict comes from CP-SAT's sufficient
    assumptions for infeasibility, shrunk by a deletion filter [2]_ into a
    minimal unsatisfiable subset of the groups: a group stays only if the
    others alone are satisfiable. docs/layout.md ("Answers that never lie",
    "Why the proofs are fast") says more.

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver
    .. [2] J. W. Chinneck and E. W. Dravnieks, "Locating minimal infeasible
       constraint sets in linear programs", ORSA Journal on Computing 3(2),
       157-168, 1991 (the deletion filter).

    Examples
    --------
    >>> res = solve_layout(SetupRequest.hexagon(1), time_limit=5)
    >>> res.status.value, res.colourfulness, len(res.board.land())
    ('optimal', 8, 2)
    >>> solve_layout(SetupRequest.hexagon(1, land=7), time_limit=5).conflict
    ('no-land-triangle', 'land count')
    """

    expect(request, SetupRequest, "request", "a SetupRequest (setup_request builds one)")
    _check_limits(time_limit, workers, seed)
    groups = constraint_groups(request)
    with _progress(progress):
        result = _solve(
            request, groups, seed=seed, time_limit=time_limit, workers=workers, explain=explain
        )
    return replace(result, game=request.game)


def _solve(
    request: SetupRequest,
    active: Collection[str],
    *,
    seed: int,
    time_limit: float,
    workers: int,
    explain: bool,
) -> LayoutResult:
    def infeasible() -> LayoutResult:
        conflict, minimal = _explain(request, active, time_limit, None) if explain else ((), False)
        return LayoutResult(
            Status.INFEASIBLE,
            conflict=conflict,
            conflict_minimal=minimal,
            fixed=tuple(request.fixed),
        )

    if _pip_relaxation(request, active, time_limit)[0] is False:
        return infeasible()
    model = _Model(request, active)
    floor = _spread_floor(request, active)
    if not request.colourful:
        return _fairest(model, request, active, floor, seed, time_limit, workers, infeasible)
    status, solver, colour_proven, colour_bound = _maximise_colour(
        model, request, active, time_limit=time_limit, workers=workers, seed=seed
    )
    if status == cp_model.INFEASIBLE:
        return infeasible()
    if status not in _FOUND:
        return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed))
    board = model.board(solver)
    best_colour = colourfulness(board)

    # phase 2: fairest pips at this colourfulness
    model.cp.add(model.colour >= best_colour)
    model.cp.minimize(model.spread)
    # First on the land set found (land and shape fixed, fast); a spread of 0
    # needs no further proof, anything else goes to the full search as a hint.
    model.cp.clear_hints()  # type: ignore[no-untyped-call]
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in board)
        model.cp.add_hint(model.land[h], h in board and board.terrain(h).is_land)
    quick = _solver(time_limit, workers, seed)
    quick.parameters.fix_variables_to_their_hinted_value = True
    if quick.solve(model.cp) in _FOUND:
        board = model.board(quick)
    spread_proven = pip_spread(board) == floor
    spread_bound: int | None = floor if spread_proven else None
    if not spread_proven:
        model.hint(board)
        for h in model.pos:
            model.cp.add_hint(model.present[h], h in board)
        second = _solver(time_limit, workers, seed)
        status = second.solve(model.cp)
        if status in _FOUND and pip_spread(model.board(second)) <= pip_spread(board):
            board = model.board(second)
            spread_proven = status == cp_model.OPTIMAL
            spread_bound = max(floor, round(second.best_objective_bound))
    board = _vary(board, request, seed)
    optimal = colour_proven and spread_proven
    return LayoutResult(
        Status.OPTIMAL if optimal else Status.FEASIBLE,
        board=board,
        colourfulness=colourfulness(board),
        colourfulness_bound=colour_bound,
        pip_spread=pip_spread(board),
        pip_spread_bound=spread_bound,
        fixed=tuple(request.fixed),
    )


def _spread_floor(request: SetupRequest, active: Collection[str]) -> int:
    """:func:`pip_spread_floor` when the requirements it rests on are all active, else 0."""
    if all(n in active for n in (LAND_COUNT, LAND_INVENTORY, LAND_TOKENS)):
        return pip_spread_floor(request)
    return 0


def _fairest(
    model: _Model,
    request: SetupRequest,
    active: Collection[str],
    floor: int,
    seed: int,
    time_limit: float,
    workers: int,
    infeasible: Callable[[], LayoutResult],
) -> LayoutResult:
    """An island (no colourfulness): the board of least pip spread.

    First the pip relaxation's land, desert and tokens are laid as they are
    and only the terrains and harbours searched (a small partition problem,
    hundredths of a second); when that board reaches the divisibility bound
    (:func:`pip_spread_floor`) it is optimal, proven. Otherwise it hints the
    full search, whose bound closes the proof.
    """
    model.cp.minimize(model.spread)
    relaxed = _pip_hint(model, request, active, time_limit)
    if relaxed is False:
        return infeasible()
    board: Board | None = None
    if relaxed:
        quick = _solver(time_limit, workers, seed)
        quick.parameters.fix_variables_to_their_hinted_value = True
        if quick.solve(model.cp) in _FOUND:
            board = model.board(quick)
            if pip_spread(board) == floor:
                return _island_result(board, request, seed, True, floor)
            model.hint(board)
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if status == cp_model.INFEASIBLE:
        return infeasible()
    if status in _FOUND and (board is None or pip_spread(model.board(solver)) <= pip_spread(board)):
        board = model.board(solver)
    if board is None:
        return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed), game=request.game)
    bound = max(floor, round(solver.best_objective_bound)) if status in _FOUND else floor
    return _island_result(board, request, seed, status == cp_model.OPTIMAL, bound)


def _island_result(
    board: Board, request: SetupRequest, seed: int, proven: bool, bound: int
) -> LayoutResult:
    board = _vary(board, request, seed)
    return LayoutResult(
        Status.OPTIMAL if proven else Status.FEASIBLE,
        board=board,
        pip_spread=pip_spread(board),
        pip_spread_bound=bound,
        fixed=tuple(request.fixed),
        game=request.game,
    )


#: The requirements the pip relaxation knows (the rules say so themselves, BoardRule.relax).
_PIP_REQUIREMENTS = frozenset({LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, SPIRAL})


@dataclass
class _Relaxed:
    """The variables of a relaxation (isles.models.layout.board_rules.Relaxation): land, pips."""

    cp: cp_model.CpModel
    request: SetupRequest
    pos: tuple[Hex, ...]
    land: dict[Hex, Any]
    desert: dict[Hex, Any] | None = None
    pv: dict[tuple[Hex, int], Any] | None = None
    pip: dict[Hex, Any] | None = None


def _relax_rules(relaxed: _Relaxed, active: Collection[str]) -> frozenset[str]:
    """What the relaxation keeps of each active rule; the names of the rules that kept some."""
    kept = set()
    for name, rule in relaxed.request.board_rules.items():
        if name in active and rule.relax(relaxed):
            kept.add(name)
    return frozenset(kept)


_PipVars = tuple[dict[Hex, Any], dict[Hex, Any], dict[tuple[Hex, int], Any]]


def _pip_model(
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
    kept = _relax_rules(_Relaxed(cp, request, pos, x, desert, pv, p), active)
    if SPIRAL in active and request.spiral:
        _spiral_clauses(
            cp, request, cp.new_constant(1), lambda h: desert[h], lambda h, n: pv[h, pips(n)]
        )
    for h, tile in request.fixed.items():
        if f"fixed {h}" not in active:
            continue
        cp.add(x[h] == int(tile.terrain.is_land))
        cp.add(desert[h] == int(tile.terrain is Terrain.DESERT))
        if tile.terrain.is_land and tile.number is not None:
            cp.add(pv[h, pips(tile.number)] == 1)
    return cp, (x, desert, pv), kept | (_PIP_REQUIREMENTS & set(active))


def _pip_relaxation(
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
        status = _solver(time_limit, 2, 0).solve(_pip_model(request, groups)[0])
        if status in _FOUND:
            return True
        return False if status == cp_model.INFEASIBLE else None

    answer = decide(active)
    if answer is not False:
        return answer, ()
    kept = _pip_model(request, active)[2]
    core = [n for n in active if n in kept or n.startswith("fixed ")]
    for name in list(core):
        trial = [n for n in core if n != name]
        if decide(trial) is False:
            core = trial
    return False, tuple(core)


def _pip_hint(
    model: _Model, request: SetupRequest, active: Collection[str], time_limit: float
) -> bool | None:
    """Hint the full model with a solution of the pip relaxation (fixed shape only).

    Land hexes, the desert and land tokens (each pip value turned into a token
    of the pool with those pips) come from the relaxation; CP-SAT then only
    has terrains and sea tokens left to find, which it does at once. Returns
    the relaxation's answer (False: the full request is infeasible too).
    """
    if request.size is not None:
        return None
    cp, (x, desert, pv), _ = _pip_model(request, active)
    # One worker: the same hint, so the same board, in every run; the portfolio
    # of strategies keeps a tight pip limit quick (a quarter of a second at K = 9).
    solver = _solver(time_limit, 1, 0)
    solver.parameters.search_branching = cp_model.PORTFOLIO_SEARCH
    status = solver.solve(cp)
    if status not in _FOUND:
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


def is_feasible(
    request: SetupRequest,
    active: Collection[str] | None = None,
    *,
    time_limit: float = 10.0,
    extra: Callable[[_Model], None] | None = None,
) -> bool | None:
    """Whether some board obeys the constraint groups ``active`` (default: all).

    Parameters
    ----------
    request : SetupRequest
    active : collection of str or None
        Names of :func:`constraint_groups` to enforce; the others are dropped.
    time_limit : float
        Seconds per CP-SAT solve.
    extra : callable or None
        Adds constraints to the model before solving (next-move advice uses it).

    Returns
    -------
    bool or None
        True / False when proven, None when the time limit ran out.

    Raises
    ------
    InvalidInput
        If ``time_limit`` is not a finite number of seconds > 0.

    Notes
    -----
    A cheap relaxation (land positions and land pips alone) is tried first:
    when it is infeasible, so is the request.

    Examples
    --------
    >>> is_feasible(SetupRequest.hexagon(1, land=7))
    False
    >>> is_feasible(SetupRequest.hexagon(1, land=7), ["land count"])
    True
    """
    _check_limits(time_limit)
    groups = constraint_groups(request) if active is None else active
    if _pip_relaxation(request, groups, time_limit)[0] is False:
        return False
    model = _Model(request, groups, objectives=False)
    if extra is not None:
        extra(model)
    status = _solver(time_limit, 2, 0).solve(model.cp)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


def first_board(
    request: SetupRequest, *, time_limit: float = 10.0, workers: int = 1, seed: int = 0
) -> LayoutResult:
    """Any legal board for ``request``, no optimisation (the benchmark's question).

    Parameters
    ----------
    request : SetupRequest
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (at least one).
    seed : int
        CP-SAT's random seed, 0..2**31-1.

    Returns
    -------
    LayoutResult
        ``feasible`` with a board (objectives measured, no bounds claimed),
        ``infeasible`` with a conflict, or ``timed_out``.

    Raises
    ------
    InvalidInput
        If ``time_limit``, ``workers`` or ``seed`` is out of range.

    Examples
    --------
    >>> first_board(SetupRequest.hexagon(1)).status.value
    'feasible'
    """
    _check_limits(time_limit, workers, seed)
    groups = constraint_groups(request)
    # no symmetry breaking: the relaxation's board is hinted as it is
    model = _Model(request, groups, objectives=False, symmetry=False)
    relaxed = _pip_hint(model, request, groups, time_limit)
    if relaxed is not False:
        solver = _solver(time_limit, workers, seed)
        status = cp_model.UNKNOWN
        if relaxed:
            # the relaxation's land, desert and tokens often complete as they are
            solver.parameters.fix_variables_to_their_hinted_value = True
            status = solver.solve(model.cp)
            solver.parameters.fix_variables_to_their_hinted_value = False
        if status not in _FOUND:
            status = solver.solve(model.cp)
        if status in _FOUND:
            board = model.board(solver)
            return LayoutResult(
                Status.FEASIBLE,
                board=board,
                colourfulness=colourfulness(board) if request.colourful else None,
                pip_spread=pip_spread(board),
                fixed=tuple(request.fixed),
                game=request.game,
            )
        if status != cp_model.INFEASIBLE:
            return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed), game=request.game)
    conflict, minimal = _explain(request, groups, time_limit, None)
    return LayoutResult(
        Status.INFEASIBLE,
        conflict=conflict,
        conflict_minimal=minimal,
        fixed=tuple(request.fixed),
        game=request.game,
    )


def _explain(
    request: SetupRequest,
    active: Collection[str],
    time_limit: float,
    extra: Callable[[_Model], None] | None,
) -> tuple[tuple[str, ...], bool]:
    """A small set of constraint groups that cannot hold together.

    CP-SAT's sufficient assumptions for infeasibility give a first core; each
    name is then dropped in turn and kept only if the rest becomes feasible
    (deletion filter), so the answer is minimal when every check is proven.
    """
    answer, relaxed_core = _pip_relaxation(request, active, time_limit)
    if answer is False:
        core = list(relaxed_core)
    else:
        model = _Model(request, active, assume=True, objectives=False)
        if extra is not None:
            extra(model)
        solver = _solver(time_limit, 1, 0)
        status = solver.solve(model.cp)
        names = {lit.index: name for name, lit in model.group_lit.items()}
        if status != cp_model.INFEASIBLE:
            return tuple(sorted(active)), False
        core = [names[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in names]
    if not core:
        if is_feasible(request, (), time_limit=time_limit, extra=extra) is False:
            return (BOARD_SHAPE,), True
        core = list(active)
    minimal = True
    current = list(core)
    for name in list(core):
        trial = [n for n in current if n != name]
        answer = is_feasible(request, trial, time_limit=time_limit, extra=extra)
        if answer is False:
            current = trial
        elif answer is None:
            minimal = False
    if not current:
        return (BOARD_SHAPE,), minimal
    return tuple(current), minimal


def _next_fairest(
    model: _Model,
    previous: Board,
    request: SetupRequest,
    floor: int,
    time_limit: float,
    workers: int,
    seed: int,
    move: Callable[[Hex], Hex],
    rng: random.Random,
) -> tuple[Board | None, Any]:
    """The fairest board left.

    On an island, tokens are first laid as a guess and only the terrains
    searched (hundredths of a second); a board reaching the divisibility
    bound is optimal. Without a spiral the guess is the previous board's
    deserts and tokens, turned by the board symmetry ``move`` and with twin
    tokens (6/8, 5/9, ...) swapped at random (no rule and no pip total sees
    either); with a spiral, deserts drawn at random and the letters laid
    along the spiral around them (a few draws). Otherwise the full search.
    """
    found: Board | None = None
    if not request.colourful:
        for guess in _token_guesses(previous, request, move, rng):
            model.cp.clear_hints()  # type: ignore[no-untyped-call]
            for h in model.pos:
                number = guess[h]
                desert = number is None
                model.cp.add_hint(model.land[h], True)
                if Terrain.DESERT in request.inventory:
                    model.cp.add_hint(model.terrain[h, Terrain.DESERT], desert)
                for v in NUMBER_TOKENS:
                    model.cp.add_hint(model.land_token[h, v], number == v)
            quick = _solver(time_limit, workers, seed)
            quick.parameters.fix_variables_to_their_hinted_value = True
            if quick.solve(model.cp) in _FOUND:
                found = model.board(quick)
                if pip_spread(found) == floor:
                    return found, cp_model.OPTIMAL
                break
    model.hint(found if found is not None else previous)
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if status in _FOUND:
        board = model.board(solver)
        if found is None or pip_spread(board) <= pip_spread(found):
            return board, status
    if found is not None:
        return found, cp_model.FEASIBLE
    return None, status


#: Random desert draws tried for the next board of a spiral series.
_SPIRAL_DRAWS = 4


def _token_guesses(
    previous: Board, request: SetupRequest, move: Callable[[Hex], Hex], rng: random.Random
) -> list[dict[Hex, int | None]]:
    """Token layouts (None: desert) to try for an island's next board (see _next_fairest)."""
    if any(not previous.terrain(h).is_land for h in request.positions):
        return []  # an island only
    if request.spiral:
        deserts = sum(1 for h in request.positions if previous.terrain(h) is Terrain.DESERT)
        guesses = []
        for _ in range(_SPIRAL_DRAWS):
            drawn = rng.sample(list(request.positions), deserts)
            laid = spiral_numbers(request.spiral, request.letters, drawn)
            guesses.append({h: None if t is None else t[1] for h, t in laid.items()})
        return guesses
    twins = {v: v for v in NUMBER_TOKENS}
    for a, b in _TWIN_TOKENS:
        twin = request.land_tokens.count(a) == request.land_tokens.count(b)
        if twin and rng.random() < 0.5 and request.keeps("twins"):
            twins[a], twins[b] = b, a
    guess: dict[Hex, int | None] = {}
    for h in request.positions:
        number = previous.number(h)
        guess[move(h)] = None if number is None else twins[number]
    return [guess]


def _shuffle_harbours(board: Board, request: SetupRequest, rng: random.Random) -> Board:
    """The harbours dealt anew over their places, when no rule looks at them."""
    if not board.harbours or not request.keeps("harbours"):
        return board
    places = sorted(board.harbours)
    kinds = [board.harbours[e] for e in places]
    rng.shuffle(kinds)
    return board.replace(harbours=dict(zip(places, kinds, strict=True)))


def default_difference(request: SetupRequest) -> int:
    """The default ``min_difference`` of :func:`layout_boards`: a third of the hexes.

    Parameters
    ----------
    request : SetupRequest

    Returns
    -------
    int
        ``ceil(hexes / 3)``: 7 of the base island's 19, 10 of the extension's 30.

    Examples
    --------
    >>> default_difference(SetupRequest.hexagon(2, land=19))
    7
    """
    return -(-request.board_size // 3)


def layout_boards(
    request: SetupRequest,
    count: int,
    *,
    min_difference: int | None = None,
    seed: int = 0,
    time_limit: float = 20.0,
    workers: int = 1,
    progress: bool | None = None,
) -> LayoutSeries:
    """``count`` different legal boards, each the fairest left (a game night, a tournament).

    Parameters
    ----------
    request : SetupRequest
    count : int
        Boards wanted, 1..:data:`MAX_COUNT`.
    min_difference : int or None
        Hexes in which every board must differ from each earlier one and
        from each of its images under the board's symmetries (a hex differs
        when its terrain or its number does); default
        :func:`default_difference`, at least 1.
    seed : int
        As :func:`solve_layout` (the first board's variety).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (one: deterministic).
    progress : bool or None
        A tqdm bar on stderr over the boards, and one while each CP-SAT solve
        runs: True shows them, False never, None (the default) on a terminal
        once the work has taken a second (:func:`solve_layout`).

    Returns
    -------
    LayoutSeries

    Raises
    ------
    InvalidInput
        If ``count`` or ``min_difference`` is out of range, or as
        :func:`solve_layout`.

    Notes
    -----
    Incremental no-good cuts [1]_ on one CP-SAT model: after each board a
    linear constraint asks the next to differ from it, and from each of its
    rotations and reflections, in ``min_difference`` hexes; each new board
    is the fairest (least pip spread) left, at the first board's
    colourfulness for the ships scenario. On an island the previous board's
    tokens, turned by a symmetry of the board and with twin tokens swapped,
    are tried first with only the terrains searched again, which reaches the
    divisibility bound in hundredths of a second; the harbours are dealt
    anew when no rule looks at them (docs/layout.md, "Several boards").

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver

    Examples
    --------
    >>> series = layout_boards(SetupRequest.hexagon(1), 2, time_limit=5)
    >>> series.status.value, len(series.boards), series.min_difference
    ('optimal', 2, 3)
    """
    asked: dict[str, Any] = {"count": count, "seed": seed, "time_limit": time_limit}
    if min_difference is not None:
        asked["min_difference"] = min_difference
    Series.read({**asked, "workers": workers})
    size = request.board_size
    differ = default_difference(request) if min_difference is None else min_difference
    if differ > size:
        raise InvalidInput("min_difference", differ, f"an integer in 1..{size} (hexes)")
    bar = None
    shown, delay = _shown(progress)
    if shown:
        from tqdm import tqdm  # a bar only when shown: tests and pipes stay quiet

        bar = tqdm(total=count, desc="boards", unit="board", delay=delay, file=sys.stderr)
    first = solve_layout(
        request, seed=seed, time_limit=time_limit, workers=workers, progress=progress
    )
    if bar is not None:
        bar.update(1)

    def series(status: Status, boards: list[LayoutResult]) -> LayoutSeries:
        if bar is not None:
            bar.close()
        return LayoutSeries(
            status,
            tuple(boards),
            count,
            differ,
            first.conflict,
            first.conflict_minimal,
            request.game,
        )

    if first.board is None:
        return series(first.status, [])
    with _progress(progress):
        status, boards = _more_boards(
            request,
            first,
            count,
            differ,
            seed=seed,
            time_limit=time_limit,
            workers=workers,
            bar=bar,
        )
    return series(status, boards)


def _more_boards(
    request: SetupRequest,
    first: LayoutResult,
    count: int,
    differ: int,
    *,
    seed: int,
    time_limit: float,
    workers: int,
    bar: Any,
) -> tuple[Status, list[LayoutResult]]:
    """The boards after the first of a series, each the fairest left (see layout_boards)."""
    boards = [first]
    groups = constraint_groups(request)
    model = _Model(request, groups, symmetry=False)
    if request.colourful and first.colourfulness is not None:
        model.cp.add(model.colour >= first.colourfulness)
    model.cp.minimize(model.spread)
    floor = _spread_floor(request, groups)
    moves: list[Callable[[Hex], Hex]] = [lambda h: h, *_symmetries(request)]
    if request.has_fixed:
        moves = moves[:1]
    rng = random.Random(seed)
    while len(boards) < count:
        previous = boards[-1].board
        assert previous is not None
        for move in moves:
            _differ_from(model, previous, move, differ)
        turn = moves[len(boards) % len(moves)]
        board, status = _next_fairest(
            model, previous, request, floor, time_limit, workers, seed, turn, rng
        )
        if board is None:
            return Status.INFEASIBLE if status == cp_model.INFEASIBLE else Status.TIMED_OUT, boards
        # At the divisibility floor no board is fairer: proven whatever CP-SAT's status.
        proven = first.status is Status.OPTIMAL and (
            status == cp_model.OPTIMAL or pip_spread(board) <= floor
        )
        board = _shuffle_harbours(board, request, rng)
        boards.append(
            LayoutResult(
                Status.OPTIMAL if proven else Status.FEASIBLE,
                board=board,
                colourfulness=colourfulness(board) if request.colourful else None,
                colourfulness_bound=first.colourfulness_bound,
                pip_spread=pip_spread(board),
                pip_spread_bound=pip_spread(board) if proven else floor,
                fixed=tuple(request.fixed),
                game=request.game,
            )
        )
        if bar is not None:
            bar.update(1)
    optimal = all(b.status is Status.OPTIMAL for b in boards)
    return Status.OPTIMAL if optimal else Status.FEASIBLE, boards


def _differ_from(model: _Model, board: Board, move: Callable[[Hex], Hex], least: int) -> None:
    """A no-good cut: differ from the image of ``board`` under ``move`` in ``least`` hexes.

    One literal per (hex, terrain, number), shared by every cut that asks
    about it, is true whenever the hex holds that tile.
    """
    cp = model.cp
    same: list[cp_model.IntVar] = []
    for h in model.pos:
        tile = board.tiles.get(h)
        if tile is None:
            continue
        at = move(h)
        if (at, tile.terrain) not in model.terrain:
            continue
        key = (at, tile.terrain, tile.number)
        x = model.holds.get(key)
        if x is None:
            x = cp.new_bool_var(f"holds[{at},{tile.terrain.value},{tile.number}]")
            clause = [model.terrain[at, tile.terrain].Not(), x]
            if tile.number is not None:
                tok = model.sea_token if tile.terrain is Terrain.SEA else model.land_token
                clause.append(tok[at, tile.number].Not())
            cp.add_bool_or(clause)  # x is true whenever the hex holds the tile
            model.holds[key] = x
        same.append(x)
    cp.add(len(model.pos) - sum(same) >= least)


def _check_move(
    request: SetupRequest, holding: object, time_limit: float, workers: int
) -> tuple[tuple[Terrain, Terrain], list[Hex]]:
    """The tiles in hand (:class:`Move`) for the request, and the positions still free."""
    expect(request, SetupRequest, "request", "a SetupRequest (setup_request builds one)")
    hand = Move.read({"holding": holding, "time_limit": time_limit, "workers": workers}).holding
    if hand is None:
        raise InvalidInput("holding", None, "two terrains (the tiles in hand)", problem="missing")
    if not request.colourful:
        raise InvalidInput(
            "request",
            f"game {request.game.value}",
            "a ships-scenario request (the advice keeps the most colourful completion)",
        )
    kinds = ", ".join(["sea", *(k.value for k in request.inventory)])
    for i, k in enumerate(hand):
        if k not in {Terrain.SEA, *request.inventory}:
            raise InvalidInput(f"holding[{i}]", k.value, f"sea or a land terrain of: {kinds}")
    free = [h for h in request.positions if h not in request.fixed]
    if len(free) < 2:
        raise InvalidInput(
            "fixed",
            f"{len(request.fixed)} tiles down",
            "at least two free positions for the two tiles",
        )
    return hand, free


@dataclass
class _Hand:
    """The two tiles in hand laid where the laying order allows (added to a model)."""

    free: list[Hex]
    down: set[Hex]
    holding: tuple[Terrain, Terrain]
    chosen: list[tuple[dict[Hex, Any], dict[Hex, Any]]] = field(default_factory=list)

    def __call__(self, model: _Model) -> None:
        """Add two one-hot position vectors: the first tile next to one down, the second
        next to one down or to the first (anywhere, then next to it, with nothing down)."""
        cp, free, down = model.cp, self.free, self.down
        first = {h: cp.new_bool_var(f"first[{h}]") for h in free}
        second = {h: cp.new_bool_var(f"second[{h}]") for h in free}
        cp.add_exactly_one(first.values())
        cp.add_exactly_one(second.values())
        for h in free:
            cp.add_implication(first[h], model.terrain[h, self.holding[0]])
            cp.add_implication(second[h], model.terrain[h, self.holding[1]])
            cp.add_bool_or([first[h].Not(), second[h].Not()])
            near_first = [first[n] for n in neighbours(h) if n in first]
            if not down:
                cp.add_bool_or([second[h].Not(), *near_first])
            elif not any(n in down for n in neighbours(h)):
                cp.add(first[h] == 0)
                cp.add_bool_or([second[h].Not(), *near_first])
        self.chosen.append((first, second))


def next_move(
    request: SetupRequest,
    holding: tuple[Terrain | str, Terrain | str],
    *,
    time_limit: float = 20.0,
    workers: int = 1,
    progress: bool | None = None,
) -> NextMove:
    """Where to lay the two tiles in hand so that the best completion stays reachable.

    The fixed tiles of ``request`` are the tiles already down. The first tile
    goes next to a tile already down, the second next to a tile already down
    or to the first (seed 004: "chacun pose deux hexagones à tour de rôle",
    each "adjacent à des hexagones déjà posés"; docs/layout.md, "Next move").
    With nothing down yet the first tile goes anywhere, the second next to it.

    Parameters
    ----------
    request : SetupRequest
        The set-up; its fixed tiles are the tiles already down.
    holding : pair of Terrain (or terrain names)
        The two tiles in hand, in laying order: sea or a land terrain of the
        request's inventory.
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (one: deterministic).

    Returns
    -------
    NextMove
        The two placements, the colourfulness reachable after them, and the
        best reachable without the move (``best_overall``); ``infeasible`` when
        the tiles in hand cannot be laid legally, with the conflict named.

    Raises
    ------
    InvalidInput
        If the request is an island's (base or extension: no colourfulness to
        keep), ``holding`` is not two terrains, a held tile is neither sea nor
        a land terrain of the inventory, no position is free, or
        ``time_limit`` or ``workers`` is out of range.

    Notes
    -----
    Two CP-SAT optimisations: the best completion of the tiles down, then the
    best completion that also places the two tiles in hand where the laying
    order allows (two one-hot position vectors added to the same model).
    Number tokens are not part of the move; the completion chooses them.

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver

    Examples
    --------
    >>> req = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA, 5)})
    >>> mv = next_move(req, (Terrain.FOREST, Terrain.SEA), time_limit=5)
    >>> mv.best_after == mv.best_overall
    True
    """

    hand, free = _check_move(request, holding, time_limit, workers)
    with _progress(progress):
        return _advise(request, hand, free, time_limit, workers)


def _advise(
    request: SetupRequest,
    hand: tuple[Terrain, Terrain],
    free: list[Hex],
    time_limit: float,
    workers: int,
) -> NextMove:
    """The next move of :func:`next_move`, its inputs checked."""
    overall = solve_layout(
        request, time_limit=time_limit, workers=workers, explain=False, progress=_PROGRESS.get()
    )
    down = set(request.fixed)
    place = _Hand(free, down, hand)
    groups = constraint_groups(request)
    model = _Model(request, groups)
    place(model)
    status, solver, proven, _ = _maximise_colour(
        model, request, groups, time_limit=time_limit, workers=workers, seed=0
    )
    if status == cp_model.INFEASIBLE:
        conflict, minimal = _explain(request, groups, time_limit, place)
        return NextMove(
            Status.INFEASIBLE, conflict=conflict, conflict_minimal=minimal, fixed=tuple(down)
        )
    if status not in _FOUND:
        return NextMove(Status.TIMED_OUT, fixed=tuple(down))
    first, second = place.chosen[0]
    h1 = next(h for h in free if solver.boolean_value(first[h]))
    h2 = next(h for h in free if solver.boolean_value(second[h]))
    completion = model.board(solver)
    proven = proven and overall.status is Status.OPTIMAL
    return NextMove(
        Status.OPTIMAL if proven else Status.FEASIBLE,
        placements=((h1, hand[0]), (h2, hand[1])),
        best_after=colourfulness(completion),
        best_overall=overall.colourfulness,
        completion=completion,
        fixed=tuple(down),
    )


def lay_out(
    question: Layout, *, progress: bool | None = None
) -> LayoutResult | LayoutSeries | NextMove:
    """What a validated :class:`~isles.models.layout.questions.Layout` asks (``isles layout``).

    Parameters
    ----------
    question : Layout
        The set-up and the search, read by :meth:`Layout.read`.
    progress : bool or None
        Bars on stderr while the solves run (and over the boards of a
        series), as :func:`solve_layout`: None (the default) on a terminal
        after a second.

    Returns
    -------
    LayoutResult, LayoutSeries or NextMove
        :func:`next_move` with ``holding``, :func:`layout_boards` with
        ``count``, :func:`solve_layout` otherwise.

    Raises
    ------
    InvalidInput
        As :func:`~isles.models.layout.setup.request_of` and the three functions.

    Examples
    --------
    >>> lay_out(Layout.read({"radius": 1, "time_limit": 5})).colourfulness
    8
    """
    request = request_of(question.set_up())
    if question.holding is not None:
        return next_move(
            request,
            question.holding,
            time_limit=question.time_limit,
            workers=question.workers,
            progress=progress,
        )
    seed, time_limit, workers = question.seed, question.time_limit, question.workers
    if question.count is not None:
        return layout_boards(
            request,
            question.count,
            min_difference=question.min_difference,
            seed=seed,
            time_limit=time_limit,
            workers=workers,
            progress=progress,
        )
    return solve_layout(
        request, seed=seed, time_limit=time_limit, workers=workers, progress=progress
    )
