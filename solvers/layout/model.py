"""The CP-SAT model of a set-up request: one method per constraint group, each behind a literal.

Implements docs/layout.md ("What is asked", "Rule decisions", "Why the proofs
are fast") for seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt
("MISE EN PLACE"): what lies on each hex, the requirements, the rules (each
rule encodes itself, :mod:`isles.models.layout.board_rules`), the objectives and
the lex-leader constraints that break the board's symmetries.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ortools.sat.python import cp_model

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, HarbourKind, Resource, Terrain, Tile, pips
from isles.models.hexgrid import Hex, edges_between, neighbours
from isles.models.layout.groups import (
    HARBOUR_KINDS,
    LAND_COUNT,
    LAND_INVENTORY,
    LAND_TOKENS,
    SEA_NUMBERS,
    SPIRAL,
    constraint_groups,
)
from isles.models.layout.request import SetupRequest, pip_spread_floor

__all__ = ["BoardModel", "break_symmetry", "spiral_clauses"]


def break_symmetry(
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


class BoardModel:
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
            spiral_clauses(
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
        moves = self.request.symmetries()
        break_symmetry(self.cp, xs, [[self.land[g(h)] for h in self.pos] for g in moves])

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


def spiral_clauses(
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
