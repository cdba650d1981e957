"""Board set-up for the ships scenario: what a request asks and which boards obey it.

Implements RULES.md sections 1 and 4 ("Board set-up", seed 004_644cf972d8964df4.txt):
the request (positions, land count, tiles, token pools, switchable rules, fixed
tiles) and the rules as pure functions (an independent checker of every rule,
colourfulness and pip spread of a finished board).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    NUMBER_TOKENS,
    Board,
    Resource,
    Terrain,
    Tile,
    pips,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, edges_between, hexagon, neighbours, vertices_around

__all__ = [
    "DEFAULT_MAX_GROUP",
    "DEFAULT_MAX_PIPS",
    "DEFAULT_RULES",
    "Rule",
    "SetupRequest",
    "colourfulness",
    "connected_sets",
    "parse_rule_switch",
    "pip_spread",
    "resource_pips",
    "rule_violations",
    "sea_token_bounds",
    "vertex_groups",
]


class Rule(StrEnum):
    """The switchable hard rules of the set-up (RULES.md section 4).

    ``NO_LAND_TRIANGLE``: at every vertex with three hexes on the board, at
    least one is sea. ``SIX_EIGHT_APART``: no two adjacent land hexes both carry
    a 6 or an 8. ``SAME_NUMBER_APART``: no two adjacent land hexes carry the
    same number. ``VERTEX_PIPS``: the land pips around every vertex sum to at
    most ``max_pips``. ``TERRAIN_GROUPS``: every connected group of land hexes
    of one terrain has at most ``max_group`` hexes. ``SEA_BALANCED``: the sea
    tokens use every allowed number equally often (counts differ by at most
    one). ``SEA_APART``: no two adjacent sea hexes carry the same number.
    """

    NO_LAND_TRIANGLE = "no-land-triangle"
    SIX_EIGHT_APART = "six-eight-apart"
    SAME_NUMBER_APART = "same-number-apart"
    VERTEX_PIPS = "vertex-pips"
    TERRAIN_GROUPS = "terrain-groups"
    SEA_BALANCED = "sea-balanced"
    SEA_APART = "sea-apart"


#: Rules on by default (RULES.md section 4); the others are opt-in.
DEFAULT_RULES: frozenset[Rule] = frozenset(
    {Rule.NO_LAND_TRIANGLE, Rule.SIX_EIGHT_APART, Rule.SEA_BALANCED, Rule.SEA_APART}
)
#: ``K`` of the vertex-pips rule when it is switched on without a value.
DEFAULT_MAX_PIPS = 12
#: ``G`` of the terrain-groups rule when it is switched on without a value.
DEFAULT_MAX_GROUP = 2
_MAX_GROUP_LIMIT = 4  # connected sets of G + 1 hexes are enumerated; keep it small


def parse_rule_switch(text: str, field: str = "--rule") -> tuple[Rule, bool]:
    """Parse ``NAME=on`` or ``NAME=off`` into a rule and its switch.

    Raises
    ------
    InvalidInput
        If the name is not a rule or the switch is not on/off.

    >>> parse_rule_switch("six-eight-apart=off")
    (<Rule.SIX_EIGHT_APART: 'six-eight-apart'>, False)
    """
    names = ", ".join(r.value for r in Rule)
    name, sep, switch = text.partition("=")
    try:
        rule = Rule(name.strip())
    except ValueError:
        raise InvalidInput(field, text, f"NAME=on|off with NAME one of {names}") from None
    if not sep or switch.strip() not in ("on", "off"):
        raise InvalidInput(field, text, f"{rule.value}=on or {rule.value}=off")
    return rule, switch.strip() == "on"


@dataclass(frozen=True)
class SetupRequest:
    """What a set-up asks for (RULES.md section 4, seed 004_644cf972d8964df4.txt).

    Parameters
    ----------
    positions : tuple of Hex
        The board positions. With ``size`` set (free shape) these are the
        candidate positions, of which exactly ``size`` are chosen.
    land : int
        Number of land hexes (the rest is sea).
    inventory : mapping Terrain -> int
        Land tiles available (default: the base box's 19); sea is unlimited.
    land_tokens : tuple of int
        The land token pool, a multiset (default: the base game's 18). Every
        producing land hex takes one token from it; the desert takes none.
    sea_numbers : tuple of int
        The numbers a sea token may show (default 2..12 without 7); every sea
        hex carries one.
    rules : frozenset of Rule
        The hard rules switched on (default :data:`DEFAULT_RULES`).
    max_pips, max_group : int
        ``K`` of :attr:`Rule.VERTEX_PIPS` and ``G`` of :attr:`Rule.TERRAIN_GROUPS`.
    fixed : mapping Hex -> Tile
        Tiles already on the table: kept exactly (terrain, and number when
        given; a fixed sea tile without a number gets one from the solver).
    size : int or None
        Free shape: choose this many of ``positions``, one connected board
        containing :attr:`root`.

    Raises
    ------
    InvalidInput
        On counts out of range, a fixed tile off the positions, an unknown
        token, or a group limit outside 1..4.

    Examples
    --------
    >>> r = SetupRequest.hexagon(3)
    >>> len(r.positions), r.land, r.sea
    (37, 12, 25)
    """

    positions: tuple[Hex, ...]
    land: int
    inventory: Mapping[Terrain, int] = field(default_factory=lambda: BASE_LAND)
    land_tokens: tuple[int, ...] = BASE_NUMBER_TOKENS
    sea_numbers: tuple[int, ...] = NUMBER_TOKENS
    rules: frozenset[Rule] = DEFAULT_RULES
    max_pips: int = DEFAULT_MAX_PIPS
    max_group: int = DEFAULT_MAX_GROUP
    fixed: Mapping[Hex, Tile] = field(default_factory=dict)
    size: int | None = None

    def __post_init__(self) -> None:
        positions = tuple(sorted({Hex(*h) for h in self.positions}, key=lambda h: (h.r, h.q)))
        if not positions:
            raise InvalidInput("positions", [], "at least one board position")
        object.__setattr__(self, "positions", positions)
        n = self.size if self.size is not None else len(positions)
        if self.size is not None and not 1 <= self.size <= len(positions):
            raise InvalidInput("size", self.size, f"a board size in 1..{len(positions)}")
        if isinstance(self.land, bool) or not 0 <= self.land <= n:
            raise InvalidInput("land", self.land, f"a land count in 0..{n}")
        inventory: dict[Terrain, int] = {}
        for t, count in self.inventory.items():
            if Terrain(t) is Terrain.SEA or count < 0:
                raise InvalidInput(f"inventory[{t}]", count, "a count >= 0 of a land terrain")
            inventory[Terrain(t)] = count
        object.__setattr__(self, "inventory", MappingProxyType(inventory))
        for name, tokens in (("land_tokens", self.land_tokens), ("sea_numbers", self.sea_numbers)):
            for v in tokens:
                if v not in NUMBER_TOKENS:
                    raise InvalidInput(name, v, "number tokens in 2..12 other than 7")
        object.__setattr__(self, "land_tokens", tuple(sorted(self.land_tokens)))
        object.__setattr__(self, "sea_numbers", tuple(sorted(set(self.sea_numbers))))
        if not self.sea_numbers:
            raise InvalidInput("sea_numbers", (), "at least one number for sea tokens")
        object.__setattr__(self, "rules", frozenset(Rule(r) for r in self.rules))
        if self.max_pips < 0:
            raise InvalidInput("max_pips", self.max_pips, "a pip limit >= 0")
        if not 1 <= self.max_group <= _MAX_GROUP_LIMIT:
            raise InvalidInput(
                "max_group", self.max_group, f"a group size in 1..{_MAX_GROUP_LIMIT}"
            )
        pos_set = set(positions)
        fixed: dict[Hex, Tile] = {}
        for h, tile in self.fixed.items():
            key = Hex(*h)
            if key not in pos_set:
                raise InvalidInput(f"fixed {key}", str(key), "a hex among the board positions")
            fixed[key] = tile
        Board(fixed)  # validates every fixed tile
        object.__setattr__(self, "fixed", MappingProxyType(fixed))
        if self.size is not None and self.root not in pos_set:
            raise InvalidInput("positions", str(self.root), "free shape: (0,0) among the positions")

    # -- constructors -----------------------------------------------------------
    @classmethod
    def hexagon(cls, radius: int = 3, land: int | None = None, **kwargs: object) -> SetupRequest:
        """The hexagon of ``radius`` (default 3: 37 positions, 12 land, 25 sea).

        ``land`` defaults to ``round(positions / 3)``; other keywords as the class.

        >>> SetupRequest.hexagon(1).land
        2
        """
        positions = tuple(hexagon(radius))
        n = len(positions)
        return cls(positions, round(n / 3) if land is None else land, **kwargs)  # type: ignore[arg-type]

    # -- derived ------------------------------------------------------------------
    @property
    def board_size(self) -> int:
        """Number of hexes on the finished board."""
        return self.size if self.size is not None else len(self.positions)

    @property
    def sea(self) -> int:
        """Number of sea hexes on the finished board."""
        return self.board_size - self.land

    @property
    def root(self) -> Hex:
        """Free shape: the hex every chosen board contains (the first fixed tile, else 0,0)."""
        return min(self.fixed, key=lambda h: (h.r, h.q)) if self.fixed else Hex(0, 0)


def sea_token_bounds(sea_hexes: int, numbers: int) -> tuple[int, int]:
    """Least and most copies of each sea number under the balance rule.

    >>> sea_token_bounds(25, 10)
    (2, 3)
    """
    return sea_hexes // numbers, -(-sea_hexes // numbers)


def vertex_groups(positions: Iterable[tuple[int, int]]) -> list[tuple[Hex, ...]]:
    """Every corner touching the board, as the tuple of its on-board hexes (1 to 3).

    >>> sorted(len(g) for g in vertex_groups([(0, 0)]))
    [1, 1, 1, 1, 1, 1]
    """
    present = {Hex(*h) for h in positions}
    out: dict[tuple[Hex, ...], tuple[Hex, ...]] = {}
    for h in present:
        for v in vertices_around(h):
            out[v] = tuple(x for x in v if x in present)
    return [out[v] for v in sorted(out)]


def connected_sets(positions: Iterable[tuple[int, int]], k: int) -> list[frozenset[Hex]]:
    """Every connected set of exactly ``k`` hexes among ``positions`` (polyhexes).

    >>> len(connected_sets(hexagon(1), 2))
    12
    """
    present = {Hex(*h) for h in positions}
    found: set[frozenset[Hex]] = {frozenset([h]) for h in present}
    for _ in range(k - 1):
        found = {
            s | {n} for s in found for h in s for n in neighbours(h) if n in present and n not in s
        }
    return sorted(found, key=lambda s: sorted(s))


def colourfulness(board: Board) -> int:
    """Adjacent pairs of hexes with different terrains, sea counting as a terrain.

    >>> from isles.models.catan import beginner_board
    >>> colourfulness(beginner_board())
    67
    """
    return sum(board.terrain(e.a) is not board.terrain(e.b) for e in edges_between(board))


def resource_pips(board: Board) -> dict[Resource, int]:
    """Total pips of the land number tokens per resource (sea tokens produce nothing).

    >>> resource_pips(Board({Hex(0, 0): Tile(Terrain.FOREST, 6)}))[Resource.LUMBER]
    5
    """
    total = dict.fromkeys(Resource, 0)
    for tile in board.tiles.values():
        res = tile.terrain.resource
        if res is not None and tile.number is not None:
            total[res] += pips(tile.number)
    return total


def pip_spread(board: Board) -> int:
    """Most minus fewest total pips among the five resources (smaller is fairer).

    >>> from isles.models.catan import beginner_board
    >>> pip_spread(beginner_board())
    3
    """
    total = resource_pips(board)
    return max(total.values()) - min(total.values())


def rule_violations(request: SetupRequest, board: Board) -> list[str]:
    """Every way ``board`` breaks ``request``, in words (empty when it obeys it).

    Checks, independently of any solver: the positions (or, for a free shape,
    size, containment and connectivity), the land count, the inventory, the
    land token pool, tokens on exactly the producing land and sea hexes, the
    fixed tiles, and every rule switched on in ``request.rules``.

    >>> rule_violations(SetupRequest.hexagon(0, land=0), Board({Hex(0, 0): Tile(Terrain.SEA, 5)}))
    []
    """
    out: list[str] = []
    hexes = set(board)
    pos = set(request.positions)
    if request.size is None:
        if hexes != pos:
            out.append("positions: the board does not cover exactly the requested positions")
    else:
        if len(hexes) != request.size or not hexes <= pos:
            out.append(f"free shape: {len(hexes)} hexes, want {request.size} among the positions")
        if request.root not in hexes or not _connected(hexes):
            out.append("free shape: the board is not one connected board containing the root")
    land = board.land()
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
        if board.number(h) not in request.sea_numbers:
            out.append(f"sea tokens: sea hex {h} carries {board.number(h)}")
    for h, tile in request.fixed.items():
        if h not in board:
            out.append(f"fixed {h}: missing")
            continue
        got = board[h]
        if got.terrain is not tile.terrain or (
            tile.number is not None and got.number != tile.number
        ):
            out.append(f"fixed {h}: {tile} became {got}")
    out.extend(_rule_breaches(request, board))
    return out


def _connected(hexes: set[Hex]) -> bool:
    if not hexes:
        return False
    start = next(iter(hexes))
    seen = {start}
    stack = [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == hexes


def _rule_breaches(request: SetupRequest, board: Board) -> list[str]:
    out: list[str] = []
    rules = request.rules
    is_land = {h: board.terrain(h).is_land for h in board}
    num = {h: board.number(h) for h in board}
    for e in edges_between(board):
        a, b = e
        if is_land[a] and is_land[b]:
            if Rule.SIX_EIGHT_APART in rules and num[a] in (6, 8) and num[b] in (6, 8):
                out.append(f"{Rule.SIX_EIGHT_APART}: {num[a]} at {a} next to {num[b]} at {b}")
            if Rule.SAME_NUMBER_APART in rules and num[a] is not None and num[a] == num[b]:
                out.append(f"{Rule.SAME_NUMBER_APART}: {num[a]} at {a} and {b}")
        if not is_land[a] and not is_land[b] and Rule.SEA_APART in rules and num[a] == num[b]:
            out.append(f"{Rule.SEA_APART}: sea {num[a]} at {a} and {b}")
    for group in vertex_groups(board):
        if Rule.NO_LAND_TRIANGLE in rules and len(group) == 3 and all(is_land[h] for h in group):
            out.append(f"{Rule.NO_LAND_TRIANGLE}: {', '.join(map(str, group))} all land")
        if Rule.VERTEX_PIPS in rules:
            total = sum(pips(n) for h in group if is_land[h] and (n := num[h]) is not None)
            if total > request.max_pips:
                out.append(f"{Rule.VERTEX_PIPS}: {total} pips at the corner of {group}")
    if Rule.TERRAIN_GROUPS in rules:
        for t in Terrain:
            if t is Terrain.SEA:
                continue
            same = {h for h in board if board.terrain(h) is t}
            for s in connected_sets(same, request.max_group + 1):
                out.append(f"{Rule.TERRAIN_GROUPS}: {t.value} group {sorted(s)} too large")
                break
    if Rule.SEA_BALANCED in rules:
        sea = board.sea()
        lo, hi = sea_token_bounds(len(sea), len(request.sea_numbers))
        for v in request.sea_numbers:
            count = sum(1 for h in sea if num[h] == v)
            if not lo <= count <= hi:
                out.append(f"{Rule.SEA_BALANCED}: {count} sea tokens {v}, want {lo}..{hi}")
    return out
