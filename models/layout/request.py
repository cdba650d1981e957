"""The board set-up's request: positions, counts, tiles, tokens, frame, harbours, spiral, rules.

Implements docs/layout.md ("What is asked", "Games", "Defaults", "Limits") for
seeds/004_644cf972d8964df4.txt ("MISE EN PLACE", rule 1) and
seeds/002_8684547a41c0941c.txt ("MISE EN PLACE": a board laid by the base
rules): :class:`SetupRequest` states exactly what a set-up asks (every field
checked when it is built), with the switchable rules (:class:`Rule`), the
limits, what the request implies (its rules, its symmetries) and the least pip
spread its requirements allow (:func:`pip_spread_floor`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TypedDict, Unpack

from isles.models.board import Board
from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    NUMBER_TOKENS,
    HarbourKind,
    Resource,
    Terrain,
    Tile,
    pips,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, as_hex, edge, hexagon
from isles.models.layout.board_rule import BoardRule, Relabel
from isles.models.layout.board_rules import (
    DEFAULT_MAX_GROUP,
    DEFAULT_MAX_PIPS,
    DEFAULT_MIN_CORNER_PIPS,
    MAX_CORNER_PIPS,
    MAX_GROUP_LIMIT,
    MAX_PIPS_LIMIT,
    RULE_KINDS,
)
from isles.models.layout.games import Game, shape_symmetries

__all__ = [
    "DEFAULT_RULES",
    "GAME_RULES",
    "MAX_PLAYERS",
    "MAX_POSITIONS",
    "MAX_RADIUS",
    "TILES_PER_PLAYER",
    "RequestFields",
    "Rule",
    "SetupRequest",
    "pip_spread_floor",
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
#: Most board positions of a request (the hexagon of radius 6): the CP-SAT model
#: has a variable per position, terrain and token, and proofs slow down fast.
MAX_POSITIONS = 127
#: Largest hexagon :func:`~isles.models.layout.setup.setup_request` builds (127 positions).
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


class RequestFields(TypedDict, total=False):
    """The fields of a :class:`SetupRequest` but its positions and land: ``hexagon``'s keywords."""

    inventory: Mapping[Terrain, int]
    land_tokens: tuple[int, ...]
    sea_numbers: tuple[int, ...]
    rules: frozenset[Rule]
    max_pips: int
    max_group: int
    fixed: Mapping[Hex, Tile]
    size: int | None
    min_corner_pips: int
    frame: tuple[Hex, ...]
    harbour_places: tuple[Edge, ...]
    harbours: tuple[HarbourKind, ...]
    spiral: tuple[Hex, ...]
    letters: tuple[tuple[str, int], ...]
    colourful: bool
    game: Game
    fixed_harbours: Mapping[Edge, HarbourKind]
    extra_rules: tuple[BoardRule, ...]


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
        ``G`` of :attr:`Rule.TERRAIN_GROUPS`, in 1..4
        (:data:`~isles.models.layout.board_rules.MAX_GROUP_LIMIT`).
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
    isles.models.layout.setup.setup_request : the request with the defaults of docs/layout.md.
    isles.layout.solve_layout : the most colourful legal board for a request.

    Notes
    -----
    The request only states the question; every rule is checked by
    :func:`~isles.models.layout.checker.rule_violations` independently of the solver.

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
    def hexagon(
        cls, radius: int = 3, land: int | None = None, **kwargs: Unpack[RequestFields]
    ) -> SetupRequest:
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
        return cls(positions, round(len(positions) / 3) if land is None else land, **kwargs)

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

    def symmetries(self) -> list[Callable[[Hex], Hex]]:
        """The rotations and reflections (not the identity) that map the board onto itself.

        Those of the positions that also map the frame and the harbour places
        onto themselves and keep every rule of the request
        (:meth:`BoardRule.keeps`): the moves under which one board is as good
        as another.

        Examples
        --------
        >>> len(SetupRequest.hexagon(1).symmetries())
        11
        """
        frame = set(self.frame)
        moves = shape_symmetries(self.positions, keep=[self.harbour_places])
        rules = self.board_rules.values()
        return [
            g for g in moves if {g(h) for h in frame} == frame and all(r.keeps(g) for r in rules)
        ]

    @property
    def root(self) -> Hex:
        """Free shape: the hex every chosen board contains (the first fixed tile, else 0,0)."""
        return min(self.fixed, key=lambda h: (h.r, h.q)) if self.fixed else Hex(0, 0)


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
    >>> base, ships = SetupRequest.hexagon(2, land=19), SetupRequest.hexagon(3)
    >>> pip_spread_floor(base), pip_spread_floor(ships)
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
