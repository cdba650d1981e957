"""Board set-up: what a request asks (ships mosaic, base or extension island), which boards obey.

Implements docs/layout.md ("What is asked", "Games", "Defaults", "Rule decisions")
for seeds/004_644cf972d8964df4.txt ("MISE EN PLACE", rule 1) and
seeds/002_8684547a41c0941c.txt ("MISE EN PLACE": a board laid by the base rules):
the request (positions, land count, tiles, token pools, sea frame, harbours,
spiral, switchable rules, fixed tiles), the request with the defaults of
docs/layout.md (:func:`setup_request`), and the rules as pure functions (an
independent checker of every rule, colourfulness, pip spread and its lower
bound for a finished board).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from isles.models.layout.board_rules import RULE_KINDS, BoardRule, Relabel

if TYPE_CHECKING:
    from isles.models.layout.questions import SetUp
from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    NUMBER_TOKENS,
    Board,
    HarbourKind,
    Resource,
    Terrain,
    Tile,
    pips,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import (
    Edge,
    Hex,
    as_hex,
    edge,
    edges_between,
    hexagon,
    neighbours,
    vertices_around,
)
from isles.models.layout.games import (
    Game,
    game_setup,
    parse_corner,
    spiral_numbers,
    spiral_order,
)

__all__ = [
    "DEFAULT_MAX_GROUP",
    "DEFAULT_MAX_PIPS",
    "DEFAULT_MIN_CORNER_PIPS",
    "DEFAULT_RULES",
    "GAME_RULES",
    "MAX_CORNER_PIPS",
    "MAX_GROUP_LIMIT",
    "MAX_PIPS_LIMIT",
    "MAX_PLAYERS",
    "MAX_POSITIONS",
    "MAX_RADIUS",
    "TILES_PER_PLAYER",
    "Rule",
    "SetupRequest",
    "colourfulness",
    "connected_sets",
    "free_shape_radius",
    "pip_spread",
    "pip_spread_floor",
    "request_of",
    "resource_pips",
    "rule_violations",
    "sea_token_bounds",
    "setup_request",
    "vertex_groups",
]


class Rule(StrEnum):
    """The switchable hard rules of the set-up (docs/layout.md, "Rule decisions").

    Values
    ------
    no-land-triangle
        At every corner where three board hexes meet, at least one is sea (the
        seed's recommendation: no three pairwise-adjacent land hexes).
    six-eight-apart
        No two adjacent land hexes both carry a 6 or an 8.
    same-number-apart
        No two adjacent land hexes carry the same number.
    vertex-pips
        The land pips around every corner sum to at most ``max_pips``.
    terrain-groups
        Every connected group of land hexes of one terrain has at most
        ``max_group`` hexes.
    sea-balanced
        The sea tokens use every allowed number equally often (counts differ by
        at most one).
    sea-apart
        No two adjacent sea hexes carry the same number.
    six-eight-once
        No resource has two hexes with a 6 or an 8 (gold is no resource).
    corner-pips-min
        Every corner where three land hexes meet has at least
        ``min_corner_pips`` land pips (no poor spot on the island).
    harbour-resource-apart
        No 2:1 harbour is next to a land hex of its own resource (the land
        among :func:`~isles.models.layout.games.harbour_reach` of its side).

    Examples
    --------
    >>> Rule("sea-apart") is Rule.SEA_APART, sorted(r.value for r in DEFAULT_RULES)[0]
    (True, 'no-land-triangle')
    """

    NO_LAND_TRIANGLE = "no-land-triangle"
    SIX_EIGHT_APART = "six-eight-apart"
    SAME_NUMBER_APART = "same-number-apart"
    VERTEX_PIPS = "vertex-pips"
    TERRAIN_GROUPS = "terrain-groups"
    SEA_BALANCED = "sea-balanced"
    SEA_APART = "sea-apart"
    SIX_EIGHT_ONCE = "six-eight-once"
    CORNER_PIPS_MIN = "corner-pips-min"
    HARBOUR_RESOURCE_APART = "harbour-resource-apart"


#: Rules on by default (docs/layout.md, "Defaults"); the others are opt-in.
DEFAULT_RULES: frozenset[Rule] = frozenset(
    {Rule.NO_LAND_TRIANGLE, Rule.SIX_EIGHT_APART, Rule.SEA_BALANCED, Rule.SEA_APART}
)
#: Rules on by default for the base and extension islands (docs/layout.md,
#: "Games"): the base game's own custom, red numbers apart.
GAME_RULES: frozenset[Rule] = frozenset({Rule.SIX_EIGHT_APART})
#: ``K`` of the vertex-pips rule when it is switched on without a value.
DEFAULT_MAX_PIPS = 12
MAX_CORNER_PIPS = 15
"""The most pips three hexes can show around a corner (three 6s or 8s, 5 pips each)."""
MAX_PIPS_LIMIT = 60
"""The largest vertex pip limit a request takes (anything from 15 up allows every board)."""
#: ``L`` of the corner-pips-min rule when it is switched on without a value.
DEFAULT_MIN_CORNER_PIPS = 4
#: ``G`` of the terrain-groups rule when it is switched on without a value.
DEFAULT_MAX_GROUP = 2
#: Largest ``G``: connected sets of G + 1 hexes are enumerated, so it stays small.
MAX_GROUP_LIMIT = 4
#: Most board positions of a request (the hexagon of radius 6): the CP-SAT model
#: has a variable per position, terrain and token, and proofs slow down fast.
MAX_POSITIONS = 127
#: Largest hexagon :func:`setup_request` builds (127 positions).
MAX_RADIUS = 6
#: Tiles each player lays when the players build the board together (seed 004:
#: "environ 8 hexagones de mer et 4 hexagones de terre" each).
TILES_PER_PLAYER = 12
#: Most players of a free shape: 12 tiles each, a third of them land, and the
#: base box holds 19 land tiles (5 players would need 20).
MAX_PLAYERS = 4


def _count(value: object, field: str, low: int, high: int | None = None) -> int:
    """An integer (never a bool or a float) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        span = f" in {low}..{high}" if high is not None else f" >= {low}"
        raise InvalidInput(field, value, "an integer" + span)
    if value < low or (high is not None and value > high):
        span = f"in {low}..{high}" if high is not None else f">= {low}"
        raise InvalidInput(field, value, f"an integer {span}")
    return value


def _terrain(value: object, field: str) -> Terrain:
    if isinstance(value, str) and value in Terrain.__members__.values():
        return Terrain(value)
    names = ", ".join(t.value for t in Terrain)
    raise InvalidInput(field, value, f"a terrain: one of {names}")


@dataclass(frozen=True)
class SetupRequest:
    """What a set-up asks for (docs/layout.md; seeds/004_644cf972d8964df4.txt).

    Parameters
    ----------
    positions : tuple of Hex
        The board positions, at most :data:`MAX_POSITIONS`. With ``size`` set
        (free shape) these are the candidate positions, of which exactly
        ``size`` are chosen.
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
    max_pips : int
        ``K`` of :attr:`Rule.VERTEX_PIPS` (at least 0).
    max_group : int
        ``G`` of :attr:`Rule.TERRAIN_GROUPS`, in 1..:data:`MAX_GROUP_LIMIT`.
    fixed : mapping Hex -> Tile
        Tiles already on the table: kept exactly (terrain, and number when
        given; a fixed sea tile without a number gets one from the solver).
    size : int or None
        Free shape: choose this many of ``positions``, one connected board
        containing :attr:`root`.
    min_corner_pips : int
        ``L`` of :attr:`Rule.CORNER_PIPS_MIN` (at least 0).
    frame : tuple of Hex
        Sea hexes laid around the positions, without number tokens (the
        base and extension islands' sea frame); never positions.
    harbour_places : tuple of Edge
        Sides between a frame hex and a position, one harbour on each.
    harbours : tuple of HarbourKind
        The harbours to lay, one per place (a multiset; its counts are the
        game's).
    spiral : tuple of Hex
        The variable set-up: every position in spiral order; the tokens of
        ``letters`` are laid along it in turn, deserts skipped. Empty: the
        tokens are free. Only for an island (every position land).
    letters : tuple of (str, int)
        The lettered tokens in alphabetical order (with ``spiral``); their
        numbers are ``land_tokens``.
    colourful : bool
        Maximise colourfulness first, then minimise pip spread (the ships
        scenario); False: minimise pip spread alone (the islands).
    game : Game
        Which game the request lays (a label for answers and pictures).
    fixed_harbours : mapping Edge -> HarbourKind
        Harbours already on the table (on harbour places, kinds of
        ``harbours``); kept exactly.

    Raises
    ------
    InvalidInput
        Naming the field: a count that is not an integer or out of range, a
        position that is not ``(q, r)``, too many positions, an unknown
        terrain, rule or token, a fixed tile off the positions, a free shape
        whose positions miss (0, 0), a frame hex on a position, a harbour
        place that is not a side between the frame and a position, harbours
        not one per place, a spiral that is not the positions in some order
        or on a board with sea, letters whose numbers are not the token pool.

    See Also
    --------
    setup_request : the request with the defaults of docs/layout.md.
    isles.layout.solve_layout : the most colourful legal board for a request.

    Notes
    -----
    The request only states the question; every rule is checked by
    :func:`rule_violations` independently of the solver.

    Examples
    --------
    >>> r = SetupRequest.hexagon(3)
    >>> len(r.positions), r.land, r.sea
    (37, 12, 25)
    >>> SetupRequest.hexagon(1, land=2.5)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: land: 2.5 is invalid; expected an integer in 0..7
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
    min_corner_pips: int = DEFAULT_MIN_CORNER_PIPS
    frame: tuple[Hex, ...] = ()
    harbour_places: tuple[Edge, ...] = ()
    harbours: tuple[HarbourKind, ...] = ()
    spiral: tuple[Hex, ...] = ()
    letters: tuple[tuple[str, int], ...] = ()
    colourful: bool = True
    game: Game = Game.SHIPS
    fixed_harbours: Mapping[Edge, HarbourKind] = field(default_factory=dict)
    extra_rules: tuple[BoardRule, ...] = ()

    def __post_init__(self) -> None:
        given = {as_hex(h, f"positions[{i}]") for i, h in enumerate(self.positions)}
        positions = tuple(sorted(given, key=lambda h: (h.r, h.q)))
        if not positions:
            raise InvalidInput("positions", [], "at least one board position")
        if len(positions) > MAX_POSITIONS:
            raise InvalidInput(
                "positions",
                f"{len(positions)} hexes",
                f"at most {MAX_POSITIONS} board positions (the hexagon of radius {MAX_RADIUS})",
            )
        object.__setattr__(self, "positions", positions)
        if self.size is not None:
            _count(self.size, "size", 1, len(positions))
        n = self.size if self.size is not None else len(positions)
        _count(self.land, "land", 0, n)
        if not isinstance(self.inventory, Mapping):
            raise InvalidInput("inventory", self.inventory, "a mapping terrain -> count")
        inventory: dict[Terrain, int] = {}
        for t, count in self.inventory.items():
            terrain = _terrain(t, "inventory")
            if terrain is Terrain.SEA:
                raise InvalidInput("inventory", "sea", "land terrains only (sea is unlimited)")
            inventory[terrain] = _count(count, f"inventory[{terrain.value}]", 0)
        object.__setattr__(self, "inventory", MappingProxyType(inventory))
        for name, tokens in (("land_tokens", self.land_tokens), ("sea_numbers", self.sea_numbers)):
            for v in tokens:
                if isinstance(v, bool) or not isinstance(v, int) or v not in NUMBER_TOKENS:
                    raise InvalidInput(name, v, "number tokens in 2..12 other than 7")
        object.__setattr__(self, "land_tokens", tuple(sorted(self.land_tokens)))
        object.__setattr__(self, "sea_numbers", tuple(sorted(set(self.sea_numbers))))
        if not self.sea_numbers:
            raise InvalidInput("sea_numbers", [], "at least one number for sea tokens")
        rules: set[Rule] = set()
        for r in self.rules:
            try:
                rules.add(Rule(r))
            except ValueError:
                names = ", ".join(x.value for x in Rule)
                raise InvalidInput("rules", r, f"rule names among {names}") from None
        object.__setattr__(self, "rules", frozenset(rules))
        _count(self.max_pips, "max_pips", 0, MAX_PIPS_LIMIT)
        _count(self.max_group, "max_group", 1, MAX_GROUP_LIMIT)
        pos_set = set(positions)
        fixed: dict[Hex, Tile] = {}
        if not isinstance(self.fixed, Mapping):
            raise InvalidInput("fixed", self.fixed, "a mapping hex -> Tile")
        for h, tile in self.fixed.items():
            key = as_hex(h, "fixed")
            if key not in pos_set:
                raise InvalidInput("fixed", [key.q, key.r], "tiles on the board positions only")
            fixed[key] = tile
        Board(fixed)  # validates every fixed tile
        object.__setattr__(self, "fixed", MappingProxyType(fixed))
        if self.size is not None and self.root not in pos_set:
            raise InvalidInput("positions", str(self.root), "free shape: (0,0) among the positions")
        _count(self.min_corner_pips, "min_corner_pips", 0, MAX_CORNER_PIPS)
        self._check_frame(pos_set)
        self._check_spiral(pos_set)
        if not isinstance(self.colourful, bool):
            raise InvalidInput("colourful", self.colourful, "true or false")
        try:
            object.__setattr__(self, "game", Game(self.game))
        except ValueError:
            raise InvalidInput("game", self.game, "base, extension or ships") from None
        self._check_extra_rules()

    def _check_extra_rules(self) -> None:
        """Rules of a rules file: rule objects, each once, none named as a switched rule."""
        extra = tuple(self.extra_rules)
        for i, rule in enumerate(extra):
            if not isinstance(rule, BoardRule):
                raise InvalidInput(f"extra_rules[{i}]", rule, "a rule (read_rules reads them)")
        labels = [rule.label() for rule in extra]
        for i, label in enumerate(labels):
            if label in labels[:i]:
                raise InvalidInput(f"extra_rules[{i}]", label, "each rule once")
        object.__setattr__(self, "extra_rules", extra)

    def _check_frame(self, pos_set: set[Hex]) -> None:
        """The frame off the positions; each harbour place a frame-position side; one kind each."""
        frame = tuple(sorted({as_hex(h, "frame") for h in self.frame}, key=lambda h: (h.r, h.q)))
        if any(h in pos_set for h in frame):
            raise InvalidInput("frame", "on a position", "sea hexes around the positions only")
        object.__setattr__(self, "frame", frame)
        frame_set = set(frame)
        places: list[Edge] = []
        for i, raw in enumerate(self.harbour_places):
            try:
                e = edge(*raw)
            except (TypeError, ValueError):
                raise InvalidInput(f"harbour_places[{i}]", raw, "a side (q, r), (q, r)") from None
            inner = [h for h in e if h in pos_set]
            outer = [h for h in e if h in frame_set]
            if len(inner) != 1 or len(outer) != 1:
                raise InvalidInput(
                    f"harbour_places[{i}]", str(e), "a side between a frame hex and a position"
                )
            if e in places:
                raise InvalidInput(f"harbour_places[{i}]", str(e), "each place once")
            places.append(e)
        object.__setattr__(self, "harbour_places", tuple(places))
        kinds: list[HarbourKind] = []
        for i, kind in enumerate(self.harbours):
            try:
                kinds.append(HarbourKind(kind))
            except ValueError:
                names = ", ".join(k.value for k in HarbourKind)
                raise InvalidInput(f"harbours[{i}]", kind, f"a harbour kind: {names}") from None
        if len(kinds) != len(places):
            raise InvalidInput(
                "harbours", f"{len(kinds)} harbours", f"one per harbour place ({len(places)})"
            )
        object.__setattr__(self, "harbours", tuple(sorted(kinds, key=list(HarbourKind).index)))
        if not isinstance(self.fixed_harbours, Mapping):
            raise InvalidInput("fixed_harbours", self.fixed_harbours, "a mapping side -> kind")
        down: dict[Edge, HarbourKind] = {}
        for raw, kind in self.fixed_harbours.items():
            e = edge(*raw)
            if e not in places:
                raise InvalidInput("fixed_harbours", str(e), "harbours on the harbour places only")
            try:
                down[e] = HarbourKind(kind)
            except ValueError:
                raise InvalidInput(f"fixed_harbours[{e}]", kind, "a harbour kind") from None
        for kind, n in Counter(down.values()).items():
            if n > kinds.count(kind):
                raise InvalidInput(
                    "fixed_harbours",
                    f"{n} {kind.value}",
                    f"at most {kinds.count(kind)} (the game's)",
                )
        object.__setattr__(self, "fixed_harbours", MappingProxyType(dict(sorted(down.items()))))

    def _check_spiral(self, pos_set: set[Hex]) -> None:
        """A spiral orders every position of an island; its letters are the token pool."""
        if not self.spiral:
            if self.letters:
                raise InvalidInput("letters", "given", "letters only with a spiral")
            return
        order = tuple(as_hex(h, "spiral") for h in self.spiral)
        if len(order) != len(pos_set) or set(order) != pos_set:
            raise InvalidInput("spiral", f"{len(order)} hexes", "every position once, in order")
        if self.size is not None or self.land != len(pos_set):
            raise InvalidInput(
                "spiral", "with sea", "an island: every position land, no free shape"
            )
        object.__setattr__(self, "spiral", order)
        letters = tuple((str(a), n) for a, n in self.letters)
        if sorted(n for _, n in letters) != list(self.land_tokens):
            raise InvalidInput("letters", "their numbers", "the land token pool, one letter each")
        object.__setattr__(self, "letters", letters)

    # -- constructors -----------------------------------------------------------
    @classmethod
    def hexagon(cls, radius: int = 3, land: int | None = None, **kwargs: object) -> SetupRequest:
        """The hexagon of ``radius`` (default 3: 37 positions, 12 land, 25 sea).

        Parameters
        ----------
        radius : int
            The hexagon's radius (``3R(R+1)+1`` positions).
        land : int or None
            Land hexes; default ``round(positions / 3)`` (about twice as much sea).
        **kwargs
            Any other field of the class (``rules``, ``fixed``, ...).

        Returns
        -------
        SetupRequest

        Raises
        ------
        InvalidInput
            As the class.

        Examples
        --------
        >>> SetupRequest.hexagon(1).land
        2
        """
        positions = tuple(hexagon(_count(radius, "radius", 0)))
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
    def has_fixed(self) -> bool:
        """Whether anything is already on the table (tiles or harbours)."""
        return bool(self.fixed or self.fixed_harbours)

    @property
    def board_rules(self) -> dict[str, BoardRule]:
        """Every rule the board obeys, by its name in conflicts (:data:`RULE_KINDS` order).

        The switched rules (:attr:`rules`) first, named by their kind and
        their parameters taken from the request, then :attr:`extra_rules`
        (those of a rules file) named by their kind and parameters.

        Examples
        --------
        >>> list(SetupRequest.hexagon(1).board_rules)
        ['no-land-triangle', 'six-eight-apart', 'sea-apart', 'sea-balanced']
        """
        out: dict[str, BoardRule] = {
            kind: cls.switched(self) for kind, cls in RULE_KINDS.items() if kind in self.rules
        }
        out.update((rule.label(), rule) for rule in self.extra_rules)
        return out

    def keeps(self, relabel: Relabel) -> bool:
        """Whether every rule of the request survives this re-labelling of a board."""
        return all(relabel in rule.relabels() for rule in self.board_rules.values())

    @property
    def root(self) -> Hex:
        """Free shape: the hex every chosen board contains (the first fixed tile, else 0,0)."""
        return min(self.fixed, key=lambda h: (h.r, h.q)) if self.fixed else Hex(0, 0)


def free_shape_radius(size: int) -> int:
    """The default bounding hexagon of a free shape: the smallest with room for 1.5 × ``size``.

    Parameters
    ----------
    size : int
        Hexes on the finished board.

    Returns
    -------
    int
        The radius ``R``, smallest with ``3R(R+1)+1 >= 1.5 size`` (docs/layout.md,
        "Free shape").

    Examples
    --------
    >>> free_shape_radius(12), free_shape_radius(36)
    (2, 4)
    """
    radius = 0
    while 3 * radius * (radius + 1) + 1 < (3 * size) // 2:
        radius += 1
    return radius


def setup_request(
    *,
    game: Game | str = Game.SHIPS,
    radius: int | None = None,
    positions: Iterable[tuple[int, int]] | None = None,
    land: int | None = None,
    players: int | None = None,
    fixed: Board | Mapping[Hex, Tile] | Mapping[tuple[int, int], Tile] | None = None,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None = None,
    max_pips: int | None = None,
    max_group: int | None = None,
    min_corner_pips: int | None = None,
    spiral: str | tuple[int, int] | None = None,
    extra_rules: Iterable[BoardRule] | Mapping[str, object] = (),
) -> SetupRequest:
    """The request with the defaults of docs/layout.md (what ``isles layout`` asks).

    Parameters
    ----------
    game : Game or str
        ``ships`` (the default: the ships scenario's mosaic, seed 004),
        ``base`` or ``extension`` (the island of the base game or of the
        5-6 player extension with its frame and harbours, docs/layout.md,
        "Games"; their island is fixed, so no ``radius``, ``positions``,
        ``land`` or ``players``).
    radius : int or None
        The hexagon of this radius, 0..:data:`MAX_RADIUS` (default 3; for a free
        shape, :func:`free_shape_radius`).
    positions : iterable of (q, r), or None
        The board positions instead of a hexagon (a :class:`Board` gives its hexes).
    land : int or None
        Land hexes; default ``round(hexes / 3)`` (about twice as much sea).
    players : int or None
        Free shape: the players build the board, :data:`TILES_PER_PLAYER` tiles
        each, 1..:data:`MAX_PLAYERS`; its shape is chosen inside the hexagon.
    fixed : Board or mapping (q, r) -> Tile, or None
        Tiles already on the table; on an island also its harbours (those
        of a Board) and frame hexes (plain sea, as a saved island has them).
    rules : mapping Rule (or its name) -> bool, or None
        Switches on top of the game's defaults (:data:`DEFAULT_RULES` for the
        ships scenario, :data:`GAME_RULES` for the islands), e.g.
        ``{"same-number-apart": True}``.
    max_pips : int or None
        ``K`` of the vertex-pips rule; giving it switches the rule on.
    max_group : int or None
        ``G`` of the terrain-groups rule; giving it switches the rule on.
    min_corner_pips : int or None
        ``L`` of the corner-pips-min rule; giving it switches the rule on.
    spiral : str or (q, r), or None
        The variable set-up (islands only): the corner the lettered tokens
        start from, by name (``"top-left"``) or hex; they follow the spiral
        (:func:`~isles.models.layout.games.spiral_order`), deserts skipped.
    extra_rules : sequence of BoardRule, or a rules file's JSON
        Your own rules (docs/layout.md, "Your own rules"): rule objects of
        :data:`~isles.models.layout.board_rules.RULE_KINDS`, or ``{"rules": [...]}``
        as :func:`~isles.models.layout.board_rules.read_rules` reads it.

    Returns
    -------
    SetupRequest

    Raises
    ------
    InvalidInput
        Naming the parameter: an unknown game, a shape parameter with an
        island game, a spiral with the ships scenario or at a hex that is no
        corner, both ``radius`` and ``positions``, ``positions`` with
        ``players``, a radius or player count out of range, a hexagon too
        small for the players' tiles, an unknown rule or a switch that is not
        a bool, ``max_pips`` (``max_group``, ``min_corner_pips``) with its
        rule switched off, and everything :class:`SetupRequest` refuses.

    Notes
    -----
    The parameters are the question :class:`isles.models.layout.questions.SetUp`,
    declared once for the library, ``isles layout`` and the web app; which
    go together is declared there.

    Examples
    --------
    >>> r = setup_request(radius=2, rules={"same-number-apart": True}, max_pips=10)
    >>> len(r.positions), r.land, sorted(r.rules - DEFAULT_RULES)
    (19, 6, [<Rule.SAME_NUMBER_APART: 'same-number-apart'>, <Rule.VERTEX_PIPS: 'vertex-pips'>])
    >>> r = setup_request(players=2)
    >>> r.size, r.land, len(r.positions)
    (24, 8, 37)
    >>> base = setup_request(game="base", spiral="top-left")
    >>> len(base.positions), len(base.frame), len(base.harbours), base.spiral[0]
    (19, 18, 9, Hex(q=0, r=-2))
    >>> setup_request(radius=1, players=1)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: radius: 1 is invalid; expected a radius whose hexagon ...
    """
    # The declaration reads this module's limits: imported here, not at the top.
    from isles.models.layout.questions import SetUp

    given: dict[str, object] = {
        "game": game,
        "radius": radius,
        "positions": None if positions is None else _listed(positions),
        "land": land,
        "players": players,
        "fixed": fixed,
        "rules": rules,
        "max_pips": max_pips,
        "max_group": max_group,
        "min_corner_pips": min_corner_pips,
        "spiral": spiral,
        "extra_rules": extra_rules if isinstance(extra_rules, Mapping) else tuple(extra_rules),
    }
    return request_of(SetUp.read({k: v for k, v in given.items() if v is not None and v != ()}))


def _listed(positions: Iterable[tuple[int, int]]) -> list[object]:
    """The positions as a list (a Board gives its hexes)."""
    return list(positions) if not isinstance(positions, str | bytes) else [positions]


def request_of(setup: SetUp) -> SetupRequest:
    """The :class:`SetupRequest` a validated :class:`~isles.models.layout.questions.SetUp` asks.

    Parameters
    ----------
    setup : SetUp
        The question, read by :meth:`SetUp.read` (which fields go together is
        checked there).

    Returns
    -------
    SetupRequest

    Raises
    ------
    InvalidInput
        What needs the game or the board: a sea-token rule on an island, a
        limit whose rule is switched off, harbours on the ships scenario, a
        spiral at a hex that is no corner, a hexagon too small for the
        players, and everything :class:`SetupRequest` refuses.
    """
    island = setup.game is not Game.SHIPS
    switched, limits = _switched_rules(setup, island)
    given = setup.fixed.tiles if isinstance(setup.fixed, Board) else (setup.fixed or {})
    tiles: dict[Hex, Tile] = {as_hex(h, "fixed"): tile for h, tile in given.items()}
    harbours_down = dict(setup.fixed.harbours) if isinstance(setup.fixed, Board) else {}
    if harbours_down and not island:
        raise InvalidInput(
            "fixed", "harbours", "harbours only on an island (game base or extension)"
        )
    common: dict[str, Any] = {
        "rules": frozenset(switched),
        "extra_rules": setup.extra_rules,
        **limits,
    }
    if island:
        return _island_request(setup, tiles, harbours_down, common)
    return _ships_request(setup, tiles, common)


def _switched_rules(setup: SetUp, island: bool) -> tuple[set[Rule], dict[str, int]]:
    """The rules on (the game's defaults and the switches) and the limits given."""
    switched: set[Rule] = set(GAME_RULES if island else DEFAULT_RULES)
    switches = setup.rules or {}
    for rule, on in switches.items():
        (switched.add if on else switched.discard)(rule)
    if island:
        for rule in (Rule.SEA_BALANCED, Rule.SEA_APART):
            if rule in switched:
                raise InvalidInput(
                    "rules",
                    f"{rule.value}=on",
                    f"no sea-token rule with game {setup.game.value} (its frame carries no tokens)",
                )
    limits: dict[str, int] = {}
    for name, rule in (
        ("max_pips", Rule.VERTEX_PIPS),
        ("max_group", Rule.TERRAIN_GROUPS),
        ("min_corner_pips", Rule.CORNER_PIPS_MIN),
    ):
        value = getattr(setup, name)
        if value is None:
            continue
        if switches.get(rule) is False:
            raise InvalidInput(
                name, value, f"{rule.value} not switched off (this limit switches it on)"
            )
        switched.add(rule)
        limits[name] = value
    return switched, limits


def _island_request(
    setup: SetUp,
    tiles: dict[Hex, Tile],
    harbours_down: dict[Edge, HarbourKind],
    common: dict[str, Any],
) -> SetupRequest:
    """The base or extension island: its frame, harbours and, asked, its spiral."""
    which = setup.game
    box = game_setup(which)
    for h in set(tiles) & set(box.frame):  # the frame of a saved island board
        if tiles[h].terrain is not Terrain.SEA or tiles[h].number is not None:
            shown = f"{tiles[h].terrain} {tiles[h].number or ''}".strip()
            raise InvalidInput(f"fixed {h}", shown, "plain sea on the frame")
        del tiles[h]
    order: tuple[Hex, ...] = ()
    if setup.spiral is not None:
        order = spiral_order(box.island, parse_corner(setup.spiral, box.island))
    return SetupRequest(
        box.island,
        len(box.island),
        inventory=box.inventory,
        land_tokens=box.land_tokens,
        fixed=tiles,
        frame=box.frame,
        harbour_places=box.harbour_places,
        harbours=box.harbours,
        spiral=order,
        letters=box.letters if order else (),
        colourful=False,
        game=which,
        fixed_harbours=harbours_down,
        **common,
    )


def _ships_request(setup: SetUp, tiles: dict[Hex, Tile], common: dict[str, Any]) -> SetupRequest:
    """The ships scenario's mosaic: a hexagon, given positions, or a free shape."""
    size: int | None = None
    players = setup.players
    if players is not None:
        size = TILES_PER_PLAYER * players
    if setup.positions is None:
        radius = setup.radius
        if radius is None:
            radius = 3 if size is None else free_shape_radius(size)
        cells: list[Hex] = hexagon(radius)
        if size is not None and len(cells) < size:
            least = next(r for r in range(MAX_RADIUS + 1) if 3 * r * (r + 1) + 1 >= size)
            raise InvalidInput(
                "radius",
                radius,
                f"a radius whose hexagon holds the {size} tiles of "
                f"{players} player{'s' if players != 1 else ''} (at least {least})",
            )
    else:
        cells = list(setup.positions)
    n = size if size is not None else len(set(cells))
    land = round(n / 3) if setup.land is None else setup.land
    return SetupRequest(tuple(cells), land, fixed=tiles, size=size, **common)


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
        :attr:`Rule.SEA_BALANCED` every number is used this often (docs/layout.md,
        "Rule decisions").

    Examples
    --------
    >>> sea_token_bounds(25, 10)
    (2, 3)
    """
    return sea_hexes // numbers, -(-sea_hexes // numbers)


def vertex_groups(positions: Iterable[tuple[int, int]]) -> list[tuple[Hex, ...]]:
    """Every corner touching the board, as the tuple of its on-board hexes (1 to 3).

    Parameters
    ----------
    positions : iterable of (q, r)
        The board's hexes.

    Returns
    -------
    list of tuple of Hex
        One entry per corner of any board hex, rim corners included (the
        vertex-pips rule counts a coastal settlement spot too), sorted.

    Examples
    --------
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

    Parameters
    ----------
    positions : iterable of (q, r)
        The hexes to choose from.
    k : int
        The set size (the terrain-groups rule forbids every set of ``G + 1``).

    Returns
    -------
    list of frozenset of Hex
        Each connected set once, in a fixed order.

    Notes
    -----
    Grown one neighbour at a time from every hex; the count grows
    exponentially with ``k``, which is why ``G`` is at most
    :data:`MAX_GROUP_LIMIT`.

    Examples
    --------
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

    The first objective of the set-up (docs/layout.md, "What is asked"): the
    seed's "mosaïque la plus colorée possible". The desert counts as a
    terrain too; two sea hexes side by side never count.

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
        The number of edges between board hexes whose terrains differ.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> colourfulness(beginner_board())
    67
    """
    return sum(board.terrain(e.a) is not board.terrain(e.b) for e in edges_between(board))


def resource_pips(board: Board) -> dict[Resource, int]:
    """Total pips of the land number tokens per resource (sea tokens produce nothing).

    Parameters
    ----------
    board : Board

    Returns
    -------
    dict of Resource -> int
        Every resource, 0 when no tile produces it; the desert, sea and gold
        add nothing.

    Examples
    --------
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

    The second objective of the set-up, minimised among the most colourful
    boards (docs/layout.md, "What is asked").

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
        ``max - min`` of :func:`resource_pips` over the five resources.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> pip_spread(beginner_board())
    3
    """
    total = resource_pips(board)
    return max(total.values()) - min(total.values())


def pip_spread_floor(request: SetupRequest) -> int:
    """A lower bound on the pip spread of every board obeying the request's requirements.

    When the land count and the inventory leave fewer deserts than it takes
    to skip a token, every token of the pool is laid, so the five resources
    share a known total ``T``: the most is at least ``T / 5`` and the fewest
    at most ``T / 5``, so the spread is at least 1 unless 5 divides ``T``
    (docs/layout.md, "Why the proofs are fast"). With fewer resources in the
    inventory, the missing ones count 0 and the spread is at least ``T / r``.

    Parameters
    ----------
    request : SetupRequest

    Returns
    -------
    int
        0 when nothing can be said (a token may stay unused, gold takes
        tokens for no resource); otherwise the bound above.

    Examples
    --------
    >>> pip_spread_floor(setup_request(game="base")), pip_spread_floor(setup_request())
    (1, 0)
    """
    kinds = [k for k, n in request.inventory.items() if n > 0 and k.produces]
    if Terrain.GOLD in kinds or not kinds:
        return 0
    deserts = request.inventory.get(Terrain.DESERT, 0)
    if request.land - deserts < len(request.land_tokens):
        return 0  # a token may stay in the box
    total = sum(pips(v) for v in request.land_tokens)
    produced = len({k.resource for k in kinds})
    if produced < len(Resource):
        return -(-total // produced)
    return int(total % len(Resource) != 0)


def rule_violations(request: SetupRequest, board: Board) -> list[str]:
    """Every way ``board`` breaks ``request``, in words (empty when it obeys it).

    Checks, independently of any solver: the positions (or, for a free shape,
    size, containment and connectivity) and the sea frame, the land count,
    the inventory, the land token pool, tokens on exactly the producing land
    and sea hexes, the harbours (one on each place, the kinds of the
    request), the spiral, the fixed tiles, and every rule switched on in
    ``request.rules``.

    Parameters
    ----------
    request : SetupRequest
        What was asked.
    board : Board
        A finished board.

    Returns
    -------
    list of str
        One line per breach, naming the rule or requirement and the hexes.

    Notes
    -----
    Written apart from the CP-SAT model on purpose: the tests run it on every
    board the solver returns, so a modelling slip cannot hide.

    Examples
    --------
    >>> rule_violations(SetupRequest.hexagon(0, land=0), Board({Hex(0, 0): Tile(Terrain.SEA, 5)}))
    []
    """
    hexes = set(board) - set(request.frame)
    out = _shape_breaches(request, board, hexes)
    out.extend(_tile_breaches(request, board, hexes))
    out.extend(_harbour_breaches(request, board))
    out.extend(_fixed_breaches(request, board))
    for rule in request.board_rules.values():
        out.extend(rule.violations(request, board))
    return out


def _shape_breaches(request: SetupRequest, board: Board, hexes: set[Hex]) -> list[str]:
    """The frame plain sea; the positions covered, or a free shape's size and connectivity."""
    out: list[str] = []
    frame = set(request.frame)
    pos = set(request.positions)
    if not frame <= set(board):
        out.append("frame: the board lacks frame hexes")
    for h in frame & set(board):
        if board.terrain(h) is not Terrain.SEA or board.number(h) is not None:
            out.append(f"frame: {h} is not plain sea")
    if request.size is None:
        if hexes != pos:
            out.append("positions: the board does not cover exactly the requested positions")
    else:
        if len(hexes) != request.size or not hexes <= pos:
            out.append(f"free shape: {len(hexes)} hexes, want {request.size} among the positions")
        if request.root not in hexes or not _connected(hexes):
            out.append("free shape: the board is not one connected board containing the root")
    return out


def _tile_breaches(request: SetupRequest, board: Board, hexes: set[Hex]) -> list[str]:
    """The land count, the inventory, the land token pool, the sea numbers."""
    out: list[str] = []
    land = [h for h in board.land() if h in hexes]
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
        if h in hexes and board.number(h) not in request.sea_numbers:
            out.append(f"sea tokens: sea hex {h} carries {board.number(h)}")
    return out


def _fixed_breaches(request: SetupRequest, board: Board) -> list[str]:
    """The spiral's tokens; the tiles and harbours already on the table, kept."""
    out: list[str] = []
    if request.spiral:
        deserts = [h for h in request.spiral if board.terrain(h) is Terrain.DESERT]
        laid = spiral_numbers(request.spiral, request.letters, deserts)
        for h, token in laid.items():
            if (None if token is None else token[1]) != board.number(h):
                out.append(f"spiral: {h} carries {board.number(h)}, the spiral lays {token}")
    for e, kind in request.fixed_harbours.items():
        if board.harbours.get(e) is not kind:
            out.append(f"fixed harbour {e}: {kind.value} became {board.harbours.get(e)}")
    for h, tile in request.fixed.items():
        if h not in board:
            out.append(f"fixed {h}: missing")
            continue
        got = board[h]
        if got.terrain is not tile.terrain or (
            tile.number is not None and got.number != tile.number
        ):
            out.append(f"fixed {h}: {tile} became {got}")
    return out


def _harbour_breaches(request: SetupRequest, board: Board) -> list[str]:
    """One harbour on each place, the request's kinds."""
    out: list[str] = []
    places = set(request.harbour_places)
    if set(board.harbours) != places:
        out.append(
            f"harbour kinds: harbours on {len(board.harbours)} sides, "
            f"want the {len(places)} harbour places"
        )
    laid = Counter(board.harbours.values())
    if laid != Counter(request.harbours):
        want = ", ".join(f"{n} {k.value}" for k, n in sorted(Counter(request.harbours).items()))
        out.append(f"harbour kinds: the harbours are not the game's ({want})")
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
