"""Board rules as objects: each rule's check, its CP-SAT encoding and its pip relaxation.

Implements docs/layout.md ("Rule decisions", "Your own rules"; seed
seeds/004_644cf972d8964df4.txt, "MISE EN PLACE"). A board rule is one object
of a *kind* (:data:`RULE_KINDS`): it says how a finished board breaks it
(:meth:`BoardRule.violations`, the independent checker), how the CP-SAT model
enforces it (:meth:`BoardRule.encode`, given the model's variables) and what
the relaxations over land and pips keep of it (:meth:`BoardRule.relax`, or
``False``: nothing). A new rule is one new class here; a user's rule is an
instance read from a rules file (:mod:`isles.models.layout.rules_file`) without code.

What a rule is and what it is handed (the request, the CP-SAT model's
variables) is :mod:`isles.models.layout.board_rule`; this module never imports a
solver nor the request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import PlainValidator

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Resource, Terrain, pips
from isles.models.contract import HexValue, param
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, edges_between, vertices_between
from isles.models.layout.board_rule import (
    ALL_RELABELS,
    BoardRule,
    Encoding,
    Relabel,
    Relaxation,
    Requested,
)
from isles.models.layout.games import harbour_reach
from isles.models.layout.geometry import connected_sets, pairs_within, vertex_groups
from isles.models.layout.objectives import resource_pips

__all__ = [
    "DEFAULT_MAX_GROUP",
    "DEFAULT_MAX_PIPS",
    "DEFAULT_MIN_CORNER_PIPS",
    "MAX_CORNER_PIPS",
    "MAX_GROUP_LIMIT",
    "MAX_PIPS_LIMIT",
    "RULE_KINDS",
    "rule_kind",
    "sea_token_bounds",
]


#: ``K`` of the vertex-pips rule when it is switched on without a value.
DEFAULT_MAX_PIPS = 12
MAX_PIPS_LIMIT = 60
"""The largest vertex pip limit a request takes (anything from 15 up allows every board)."""
#: ``L`` of the corner-pips-min rule when it is switched on without a value.
DEFAULT_MIN_CORNER_PIPS = 4
MAX_CORNER_PIPS = 15
"""The most pips three hexes can show around a corner (three 6s or 8s, 5 pips each)."""
#: ``G`` of the terrain-groups rule when it is switched on without a value.
DEFAULT_MAX_GROUP = 2
#: Largest ``G``: connected sets of G + 1 hexes are enumerated, so it stays small.
MAX_GROUP_LIMIT = 4

#: A number token of the board (2..12 without 7).
Token = Literal[2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


def _terrain(value: object) -> Terrain:
    if isinstance(value, Terrain):
        return value
    if isinstance(value, str) and value in {t.value for t in Terrain}:
        return Terrain(value)
    raise InvalidInput("", value, "a terrain: one of " + ", ".join(t.value for t in Terrain))


def _land_terrain(value: object) -> Terrain:
    terrain = _terrain(value)
    if not terrain.is_land:
        names = ", ".join(t.value for t in Terrain if t.is_land)
        raise InvalidInput("", value, f"a land terrain: one of {names}")
    return terrain


def _resource(value: object) -> Resource:
    if isinstance(value, Resource):
        return value
    if isinstance(value, str) and value in {r.value for r in Resource}:
        return Resource(value)
    raise InvalidInput("", value, "a resource: one of " + ", ".join(r.value for r in Resource))


TerrainValue = Annotated[Terrain, PlainValidator(_terrain)]
LandTerrainValue = Annotated[Terrain, PlainValidator(_land_terrain)]
ResourceValue = Annotated[Resource, PlainValidator(_resource)]


#: Every rule kind by its name: the registry the checker, the model, the
#: relaxations and the rules files read.
RULE_KINDS: dict[str, type[BoardRule]] = {}


def rule_kind(cls: type[BoardRule]) -> type[BoardRule]:
    """Register a rule kind under ``cls.kind`` (a class decorator)."""
    RULE_KINDS[cls.kind] = cls
    return cls


# -- helpers on a finished board -------------------------------------------------------


def _cells(request: Requested, board: Board) -> list[Hex]:
    frame = set(request.frame)
    return [h for h in board if h not in frame]  # the rules concern the positions


def _pip_classes(numbers: Sequence[int]) -> frozenset[int] | None:
    """The pip values of ``numbers`` when they hold every token of those pips, else None."""
    chosen = set(numbers)
    classes = frozenset(pips(v) for v in chosen)
    whole = {v for v in NUMBER_TOKENS if pips(v) in classes}
    return classes if whole == chosen else None


# -- the built-in rules (docs/layout.md, "Rule decisions") -----------------------------


@rule_kind
class NoLandTriangle(BoardRule):
    """At every corner where three board hexes meet, at least one is sea."""

    kind = "no-land-triangle"
    title = "no three land hexes around a corner"

    def violations(self, request: Requested, board: Board) -> list[str]:
        cells = _cells(request, board)
        return [
            f"{self.kind}: {', '.join(map(str, group))} all land"
            for group in vertex_groups(cells)
            if len(group) == 3 and all(board.terrain(h).is_land for h in group)
        ]

    def encode(self, model: Encoding, lit: Any) -> None:
        for corner in vertices_between(model.pos):
            model.cp.add_bool_or([lit.Not(), *(model.land[h].Not() for h in corner)])

    def relax(self, model: Relaxation) -> bool:
        for corner in vertices_between(model.pos):
            model.cp.add_bool_or([model.land[h].Not() for h in corner])
        return True


@rule_kind
class SixEightApart(BoardRule):
    """No two adjacent land hexes both carry a 6 or an 8."""

    kind = "six-eight-apart"
    title = "6s and 8s never side by side"

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for a, b in edges_between(_cells(request, board)):
            na, nb = board.number(a), board.number(b)
            land = board.terrain(a).is_land and board.terrain(b).is_land
            if land and na in (6, 8) and nb in (6, 8):
                out.append(f"{self.kind}: {na} at {a} next to {nb} at {b}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        for e in model.edges:
            for va in (6, 8):
                for vb in (6, 8):
                    model.cp.add_bool_or(
                        [
                            lit.Not(),
                            model.land_token[e.a, va].Not(),
                            model.land_token[e.b, vb].Not(),
                        ]
                    )

    def relax(self, model: Relaxation) -> bool:
        if model.pv is None:
            return False
        for e in edges_between(model.pos):  # 6 and 8 are exactly the 5-pip tokens
            model.cp.add_bool_or([model.pv[e.a, 5].Not(), model.pv[e.b, 5].Not()])
        return True


@rule_kind
class SameNumberApart(BoardRule):
    """No two adjacent land hexes carry the same number."""

    kind = "same-number-apart"
    title = "no equal numbers side by side"

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for a, b in edges_between(_cells(request, board)):
            na = board.number(a)
            land = board.terrain(a).is_land and board.terrain(b).is_land
            if land and na is not None and na == board.number(b):
                out.append(f"{self.kind}: {na} at {a} and {b}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        for e in model.edges:
            for v in NUMBER_TOKENS:
                model.cp.add_bool_or(
                    [lit.Not(), model.land_token[e.a, v].Not(), model.land_token[e.b, v].Not()]
                )

    def relax(self, model: Relaxation) -> bool:
        return False  # twins share their pips: pips cannot tell two 6s from a 6 and an 8


@rule_kind
class SeaApart(BoardRule):
    """No two adjacent sea hexes carry the same number."""

    kind = "sea-apart"
    title = "no equal sea numbers side by side"

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for a, b in edges_between(_cells(request, board)):
            sea = not board.terrain(a).is_land and not board.terrain(b).is_land
            if sea and board.number(a) == board.number(b):
                out.append(f"{self.kind}: sea {board.number(a)} at {a} and {b}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        for e in model.edges:
            for v in NUMBER_TOKENS:
                model.cp.add_bool_or(
                    [lit.Not(), model.sea_token[e.a, v].Not(), model.sea_token[e.b, v].Not()]
                )

    def relax(self, model: Relaxation) -> bool:
        return False  # the relaxations know no sea tokens


@rule_kind
class VertexPips(BoardRule):
    """The land pips around every corner sum to at most ``at_most``."""

    kind = "vertex-pips"
    title = "no rich corner: few pips around any corner"
    at_most: int = param(
        DEFAULT_MAX_PIPS, help="most land pips around a corner", ge=0, le=MAX_PIPS_LIMIT
    )

    @classmethod
    def switched(cls, request: Requested) -> BoardRule:
        return cls(at_most=request.max_pips)

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for group in vertex_groups(_cells(request, board)):
            total = sum(
                pips(n)
                for h in group
                if board.terrain(h).is_land and (n := board.number(h)) is not None
            )
            if total > self.at_most:
                out.append(f"{self.kind}: {total} pips at the corner of {group}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        for g in vertex_groups(model.pos):
            if 5 * len(g) > self.at_most:
                total = sum(model.pip[h] for h in g)
                model.cp.add(total <= self.at_most).only_enforce_if(lit)

    def relax(self, model: Relaxation) -> bool:
        if model.pip is None:
            return False
        for g in vertex_groups(list(model.pos)):
            if 5 * len(g) > self.at_most:
                model.cp.add(sum(model.pip[h] for h in g) <= self.at_most)
        return True


@rule_kind
class CornerPipsMin(BoardRule):
    """Every corner where three land hexes meet has at least ``at_least`` land pips."""

    kind = "corner-pips-min"
    title = "no poor corner: enough pips where three land hexes meet"
    at_least: int = param(
        DEFAULT_MIN_CORNER_PIPS,
        help="least pips where three land hexes meet",
        ge=0,
        le=MAX_CORNER_PIPS,
    )

    @classmethod
    def switched(cls, request: Requested) -> BoardRule:
        return cls(at_least=request.min_corner_pips)

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for corner in vertices_between(_cells(request, board)):
            if all(board.terrain(h).is_land for h in corner):
                total = sum(pips(n) for h in corner if (n := board.number(h)) is not None)
                if total < self.at_least:
                    out.append(f"{self.kind}: {total} pips at the corner of {corner}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        for corner in vertices_between(model.pos):
            total = sum(model.pip[h] for h in corner)
            guard = [lit, *(model.land[h] for h in corner)]
            model.cp.add(total >= self.at_least).only_enforce_if(guard)

    def relax(self, model: Relaxation) -> bool:
        if model.pip is None:
            return False
        for corner in vertices_between(model.pos):
            model.cp.add(sum(model.pip[h] for h in corner) >= self.at_least).only_enforce_if(
                [model.land[h] for h in corner]
            )
        return True


@rule_kind
class TerrainGroups(BoardRule):
    """Every connected group of land hexes of one terrain has at most ``at_most`` hexes.

    ``terrains`` limits the rule to those terrains (default: every land terrain).
    """

    kind = "terrain-groups"
    title = "no big group of one terrain"
    at_most: int = param(
        DEFAULT_MAX_GROUP, help="most hexes of one terrain connected", ge=1, le=MAX_GROUP_LIMIT
    )
    terrains: list[LandTerrainValue] | None = param(
        None, help="the terrains the limit applies to (default: every land terrain)"
    )

    @classmethod
    def switched(cls, request: Requested) -> BoardRule:
        return cls(at_most=request.max_group)

    def relabels(self) -> frozenset[Relabel]:
        return ALL_RELABELS if self.terrains is None else ALL_RELABELS - {"terrains"}

    def _applies(self, terrain: Terrain) -> bool:
        return terrain.is_land and (self.terrains is None or terrain in self.terrains)

    def violations(self, request: Requested, board: Board) -> list[str]:
        cells = _cells(request, board)
        out = []
        for t in Terrain:
            if not self._applies(t):
                continue
            same = {h for h in cells if board.terrain(h) is t}
            for s in connected_sets(same, self.at_most + 1):
                out.append(f"{self.kind}: {t.value} group {sorted(s)} too large")
                break
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        kinds = [k for k in model.land_kinds if self._applies(k)]
        for s in connected_sets(model.pos, self.at_most + 1):
            for k in kinds:
                model.cp.add_bool_or([lit.Not(), *(model.terrain[h, k].Not() for h in s)])

    def relax(self, model: Relaxation) -> bool:
        return False  # the relaxations know no terrains


def sea_token_bounds(sea_hexes: int, numbers: int) -> tuple[int, int]:
    """Least and most copies of each sea number under the balance rule.

    Parameters
    ----------
    sea_hexes : int
        Sea hexes on the board (each carries one token).
    numbers : int
        How many numbers a sea token may show (at least one).

    Returns
    -------
    tuple of (int, int)
        ``floor(sea / numbers)`` and ``ceil(sea / numbers)``: under
        ``sea-balanced`` every number is used this often (docs/layout.md,
        "Rule decisions").

    Examples
    --------
    >>> sea_token_bounds(25, 10)
    (2, 3)
    """
    return sea_hexes // numbers, -(-sea_hexes // numbers)


@rule_kind
class SeaBalanced(BoardRule):
    """The sea tokens use every allowed number equally often (counts differ by at most one)."""

    kind = "sea-balanced"
    title = "sea numbers used equally often"

    def violations(self, request: Requested, board: Board) -> list[str]:
        sea = [h for h in _cells(request, board) if not board.terrain(h).is_land]
        lo, hi = sea_token_bounds(len(sea), len(request.sea_numbers))
        out = []
        for v in request.sea_numbers:
            count = sum(1 for h in sea if board.number(h) == v)
            if not lo <= count <= hi:
                out.append(f"{self.kind}: {count} sea tokens {v}, want {lo}..{hi}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        base = model.cp.new_int_var(0, len(model.pos), "sea_base")
        for v in model.request.sea_numbers:
            count = sum(model.sea_token[h, v] for h in model.pos)
            model.cp.add(count >= base).only_enforce_if(lit)
            model.cp.add(count <= base + 1).only_enforce_if(lit)

    def relax(self, model: Relaxation) -> bool:
        return False  # the relaxations know no sea tokens


@rule_kind
class SixEightOnce(BoardRule):
    """No resource has two hexes with a 6 or an 8 (gold is no resource)."""

    kind = "six-eight-once"
    title = "one 6 or 8 per resource"

    def violations(self, request: Requested, board: Board) -> list[str]:
        cells = _cells(request, board)
        out = []
        for res in Resource:
            hot = [
                h for h in cells if board.terrain(h).resource is res and board.number(h) in (6, 8)
            ]
            if len(hot) > 1:
                out.append(f"{self.kind}: {res.value} has 6 or 8 at {sorted(hot)}")
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        cp = model.cp
        for res in Resource:
            kinds = [k for k in model.land_kinds if k.resource is res]
            hot: list[Any] = []
            for h in model.pos:
                for k in kinds:
                    # a 6 or an 8 on a hex of this resource
                    y = cp.new_bool_var(f"hot[{h},{k.value}]")
                    for v in (6, 8):
                        cp.add_bool_or([model.land_token[h, v].Not(), model.terrain[h, k].Not(), y])
                    hot.append(y)
            if len(hot) > 1:
                cp.add(sum(hot) <= 1).only_enforce_if(lit)

    def relax(self, model: Relaxation) -> bool:
        if model.pv is None:
            return False
        # one 6 or 8 per resource; gold hexes may take the rest
        inventory = model.request.inventory
        resources = {k.resource for k, n in inventory.items() if n and k.resource}
        room = len(resources) + inventory.get(Terrain.GOLD, 0)
        model.cp.add(sum(model.pv[h, 5] for h in model.pos) <= room)
        return True


@rule_kind
class HarbourResourceApart(BoardRule):
    """No 2:1 harbour is next to a land hex of its own resource."""

    kind = "harbour-resource-apart"
    title = "no 2:1 harbour beside its own resource"

    def relabels(self) -> frozenset[Relabel]:
        return ALL_RELABELS - {"harbours"}

    def violations(self, request: Requested, board: Board) -> list[str]:
        out = []
        for e, kind in board.harbours.items():
            for h in harbour_reach(e):
                if h not in board or kind.resource is None:
                    continue
                if board.terrain(h).resource is kind.resource:
                    out.append(
                        f"{self.kind}: {kind.value} harbour on {e} "
                        f"next to {board.terrain(h).value} at {h}"
                    )
        return out

    def encode(self, model: Encoding, lit: Any) -> None:
        kinds = {kind for (_, kind) in model.harbour}
        for e in model.request.harbour_places:
            for kind in kinds:
                if kind.resource is None:
                    continue
                terrains = [k for k in model.land_kinds if k.resource is kind.resource]
                for h in harbour_reach(e):
                    for k in terrains:
                        if (h, k) in model.terrain:
                            model.cp.add_bool_or(
                                [lit.Not(), model.harbour[e, kind].Not(), model.terrain[h, k].Not()]
                            )

    def relax(self, model: Relaxation) -> bool:
        return False  # the relaxations know no harbours


# -- kinds for rules files (docs/layout.md, "Your own rules") ---------------------------


@rule_kind
class NumbersApart(BoardRule):
    """No two land hexes carrying numbers of ``numbers`` lie closer than ``distance``.

    Distance 2 forbids neighbours (``[6, 8]``: the red numbers apart); 3 keeps
    one hex between them.
    """

    kind = "numbers-apart"
    title = "these numbers kept apart"
    numbers: list[Token] = param(help="the number tokens kept apart, e.g. [6, 8]")
    distance: int = param(2, help="least distance in hexes (2: not adjacent)", ge=2, le=6)

    def relabels(self) -> frozenset[Relabel]:
        whole = _pip_classes(self.numbers) is not None
        return ALL_RELABELS if whole else ALL_RELABELS - {"twins"}

    def violations(self, request: Requested, board: Board) -> list[str]:
        chosen = set(self.numbers)
        hot = [
            h
            for h in _cells(request, board)
            if board.terrain(h).is_land and board.number(h) in chosen
        ]
        return [
            f"{self.label()}: {board.number(a)} at {a} and {board.number(b)} at {b}"
            for a, b in pairs_within(hot, self.distance)
        ]

    def encode(self, model: Encoding, lit: Any) -> None:
        chosen = sorted(set(self.numbers))
        for a, b in pairs_within(model.pos, self.distance):
            for va in chosen:
                for vb in chosen:
                    model.cp.add_bool_or(
                        [lit.Not(), model.land_token[a, va].Not(), model.land_token[b, vb].Not()]
                    )

    def relax(self, model: Relaxation) -> bool:
        classes = _pip_classes(self.numbers)
        if model.pv is None or classes is None:
            return False  # part of a twin pair: pips cannot tell the numbers apart
        for a, b in pairs_within(model.pos, self.distance):
            for ka in classes:
                for kb in classes:
                    model.cp.add_bool_or([model.pv[a, ka].Not(), model.pv[b, kb].Not()])
        return True


@rule_kind
class ResourcePips(BoardRule):
    """Each resource's land pips total lies in ``at_least..at_most`` (balanced resources).

    ``resources`` limits the rule to those resources (default: all five).
    """

    kind = "resource-pips"
    title = "each resource's pips within bounds"
    at_least: int = param(0, help="least total pips of each resource", ge=0, le=500)
    at_most: int = param(500, help="most total pips of each resource", ge=0, le=500)
    resources: list[ResourceValue] | None = param(
        None, help="the resources the range applies to (default: all five)"
    )

    def relabels(self) -> frozenset[Relabel]:
        return ALL_RELABELS if self.resources is None else ALL_RELABELS - {"terrains"}

    def _chosen(self) -> list[Resource]:
        return list(Resource) if self.resources is None else list(dict.fromkeys(self.resources))

    def violations(self, request: Requested, board: Board) -> list[str]:
        totals = resource_pips(board)
        return [
            f"{self.label()}: {res.value} has {totals[res]} pips"
            for res in self._chosen()
            if not self.at_least <= totals[res] <= self.at_most
        ]

    def encode(self, model: Encoding, lit: Any) -> None:
        cp = model.cp
        for res in self._chosen():
            parts = []
            for h in model.pos:
                for k in model.land_kinds:
                    if k.resource is res:
                        q = cp.new_int_var(0, 5, f"rule_pips[{h},{k.value}]")
                        cp.add(q == model.pip[h]).only_enforce_if(model.terrain[h, k])
                        cp.add(q == 0).only_enforce_if(model.terrain[h, k].Not())
                        parts.append(q)
            total = sum(parts)
            cp.add(total >= self.at_least).only_enforce_if(lit)
            cp.add(total <= self.at_most).only_enforce_if(lit)

    def relax(self, model: Relaxation) -> bool:
        return False  # the relaxations know no terrains, so no resources


@rule_kind
class TerrainAt(BoardRule):
    """Every hex of ``terrain`` lies on one of ``hexes`` (the desert in the centre).

    It does not ask for the terrain to be laid: the land count and the
    inventory do (a base island lays its desert).
    """

    kind = "terrain-at"
    title = "a terrain only on given hexes"
    terrain: TerrainValue = param(help="the terrain, e.g. desert")
    hexes: list[HexValue] = param(help="the hexes it may lie on, e.g. [[0, 0]]")

    def relabels(self) -> frozenset[Relabel]:
        moved = self.terrain.produces and self.terrain.resource is not None
        return ALL_RELABELS - {"terrains"} if moved else ALL_RELABELS

    def keeps(self, move: Callable[[Hex], Hex]) -> bool:
        return {move(h) for h in self.hexes} == set(self.hexes)

    def violations(self, request: Requested, board: Board) -> list[str]:
        allowed = set(self.hexes)
        return [
            f"{self.label()}: {self.terrain.value} at {h}"
            for h in _cells(request, board)
            if board.terrain(h) is self.terrain and h not in allowed
        ]

    def encode(self, model: Encoding, lit: Any) -> None:
        allowed = set(self.hexes)
        for h in model.pos:
            if h not in allowed and (h, self.terrain) in model.terrain:
                model.cp.add_implication(lit, model.terrain[h, self.terrain].Not())

    def relax(self, model: Relaxation) -> bool:
        allowed = set(self.hexes)
        off = [h for h in model.pos if h not in allowed]
        if self.terrain is Terrain.SEA:  # sea only on the hexes: land everywhere else
            for h in off:
                model.cp.add(model.land[h] == 1)
            return True
        if self.terrain is Terrain.DESERT and model.desert is not None:
            for h in off:
                model.cp.add(model.desert[h] == 0)
            return True
        return False
