"""The Catan games a table lays: the base island, the 5-6 player extension, their frames.

Implements docs/layout.md ("Games", "Harbours", "The spiral") and the box counts
of docs/boards.md ("Terrains and tokens") for seeds/002_8684547a41c0941c.txt
("MATÉRIEL": a base game and perhaps the 5-6 player extension; "MISE EN PLACE":
the board laid by the base rules): the land hexes, the sea frame, the harbour
places and kinds, the box inventories and token sets, the lettered tokens of
the variable set-up and the spiral they are laid in, and the board's own
symmetries (hex geometry the solvers use).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    HarbourKind,
    Terrain,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import (
    Edge,
    Hex,
    as_hex,
    edge,
    hexagon,
    neighbours,
    parse_hex,
    to_pixel,
)

__all__ = [
    "BASE_HARBOURS",
    "BASE_SPIRAL",
    "CORNER_NAMES",
    "EXTENSION_HARBOURS",
    "EXTENSION_LAND",
    "EXTENSION_NUMBER_TOKENS",
    "EXTENSION_ROWS",
    "EXTENSION_SPIRAL",
    "Game",
    "GameSetup",
    "extension_island",
    "game_setup",
    "harbour_reach",
    "island_corners",
    "parse_corner",
    "sea_frame",
    "shape_symmetries",
    "spiral_numbers",
    "spiral_order",
]


class Game(StrEnum):
    """The boards ``isles layout --game`` lays (docs/layout.md, "Games").

    Values
    ------
    base
        The base game's island: 19 land hexes in rows of 3, 4, 5, 4, 3, its
        sea frame and 9 harbours.
    extension
        The 5-6 player extension's island: 30 land hexes in rows of 3, 4, 5,
        6, 5, 4, 3, its sea frame and 11 harbours.
    ships
        The ships scenario's sea mosaic (seeds/004_644cf972d8964df4.txt): land
        and sea chosen together, tokens on the sea too.

    Examples
    --------
    >>> [g.value for g in Game]
    ['base', 'extension', 'ships']
    """

    BASE = "base"
    EXTENSION = "extension"
    SHIPS = "ships"


#: The 5-6 player extension's land tiles (30): the base box's 19 and the
#: extension box's 11 (2 forest, 2 pasture, 2 fields, 2 hills, 2 mountains, 1 desert).
EXTENSION_LAND: Mapping[Terrain, int] = MappingProxyType(
    {
        Terrain.FOREST: 6,
        Terrain.PASTURE: 6,
        Terrain.FIELDS: 6,
        Terrain.HILLS: 5,
        Terrain.MOUNTAINS: 5,
        Terrain.DESERT: 2,
    }
)

#: The extension box's own 28 number tokens (they replace the base box's 18):
#: two 2s, two 12s, three each of 3, 4, 5, 6, 8, 9, 10, 11.
EXTENSION_NUMBER_TOKENS: tuple[int, ...] = tuple(
    sorted((2, 2, 12, 12, *(n for n in (3, 4, 5, 6, 8, 9, 10, 11) for _ in range(3))))
)

#: The base box's 9 harbours: 4 generic (3:1) and one 2:1 harbour per resource.
BASE_HARBOURS: tuple[HarbourKind, ...] = (
    (HarbourKind.GENERIC,) * 4
    + (HarbourKind.LUMBER, HarbourKind.WOOL, HarbourKind.GRAIN, HarbourKind.BRICK)
    + (HarbourKind.ORE,)
)

#: The extension's 11 harbours: the base box's 9, and the extension box's
#: generic and wool harbours.
EXTENSION_HARBOURS: tuple[HarbourKind, ...] = tuple(
    sorted((*BASE_HARBOURS, HarbourKind.GENERIC, HarbourKind.WOOL), key=list(HarbourKind).index)
)

#: The base box's lettered tokens in alphabetical order, as printed on their
#: backs (letter, number): the variable set-up lays them along the spiral.
BASE_SPIRAL: tuple[tuple[str, int], ...] = tuple(
    zip(
        "ABCDEFGHIJKLMNOPQR",
        (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11),
        strict=True,
    )
)

#: The extension box's 28 lettered tokens, A to Y then Za, Zb, Zc.
EXTENSION_SPIRAL: tuple[tuple[str, int], ...] = tuple(
    zip(
        [*"ABCDEFGHIJKLMNOPQRSTUVWXY", "Za", "Zb", "Zc"],
        (
            *(2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4),  # A .. N
            *(8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6),  # O .. Zc
        ),
        strict=True,
    )
)

#: Row lengths of the extension's island, top to bottom (rows r = -3 .. 3).
EXTENSION_ROWS: tuple[int, ...] = (3, 4, 5, 6, 5, 4, 3)

#: The names of an island's six corner hexes, counter-clockwise from the east.
CORNER_NAMES: tuple[str, ...] = (
    "right",
    "top-right",
    "top-left",
    "left",
    "bottom-left",
    "bottom-right",
)


def extension_island() -> list[Hex]:
    """The 30 land hexes of the 5-6 player extension, rows of 3, 4, 5, 6, 5, 4, 3.

    Returns
    -------
    list of Hex
        Rows ``r = -3 .. 3``, each centred on the vertical line between
        ``(-1, 0)`` and ``(0, 0)``: the middle row runs from ``(-3, 0)`` to
        ``(2, 0)``. The island is symmetric under ``(q, r) -> (-1 - q, -r)``.

    Examples
    --------
    >>> island = extension_island()
    >>> len(island), min(island, key=lambda h: (h.r, h.q))
    (30, Hex(q=0, r=-3))
    """
    out: list[Hex] = []
    for r, length in zip(range(-3, 4), EXTENSION_ROWS, strict=True):
        # the pixel centre of (q, r) is sqrt(3) (q + r / 2): centre each row on -1/2
        start = -(length + r) // 2
        out.extend(Hex(q, r) for q in range(start, start + length))
    return out


def sea_frame(island: Iterable[tuple[int, int]]) -> list[Hex]:
    """The sea hexes touching ``island``: the frame laid around it.

    Parameters
    ----------
    island : iterable of (q, r)
        The land hexes.

    Returns
    -------
    list of Hex
        Every hex outside ``island`` adjacent to one of its hexes, by row then
        column (18 around the base island, 22 around the extension's).

    Examples
    --------
    >>> len(sea_frame(hexagon(2))), len(sea_frame(extension_island()))
    (18, 22)
    """
    land = {Hex(*h) for h in island}
    out = {n for h in land for n in neighbours(h) if n not in land}
    return sorted(out, key=lambda h: (h.r, h.q))


def _angle(h: Hex, centre: tuple[float, float]) -> float:
    """Counter-clockwise angle of ``h`` around ``centre`` in [0, 2 pi), from the east."""
    x, y = to_pixel(h)
    return math.atan2(y - centre[1], x - centre[0]) % (2 * math.pi)


def _centre(hexes: Iterable[Hex]) -> tuple[float, float]:
    points = [to_pixel(h) for h in hexes]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def _around(hexes: Iterable[Hex], centre: tuple[float, float]) -> list[Hex]:
    """``hexes`` counter-clockwise around ``centre``, from the east."""
    return sorted(hexes, key=lambda h: (_angle(h, centre), h.r, h.q))


def island_corners(island: Iterable[tuple[int, int]]) -> dict[str, Hex]:
    """The island's six corner hexes, by name (docs/layout.md, "The spiral").

    Parameters
    ----------
    island : iterable of (q, r)
        A convex island whose rim has six corners (the base or extension island).

    Returns
    -------
    dict of str -> Hex
        :data:`CORNER_NAMES` to the land hexes with three sea neighbours,
        counter-clockwise from the east.

    Raises
    ------
    InvalidInput
        If the island does not have exactly six such hexes.

    Examples
    --------
    >>> island_corners(hexagon(2))["top-left"]
    Hex(q=0, r=-2)
    """
    land = [Hex(*h) for h in island]
    present = set(land)
    corners = [h for h in land if sum(n not in present for n in neighbours(h)) == 3]
    if len(corners) != 6:
        raise InvalidInput("island", f"{len(corners)} corners", "an island with six corners")
    ordered = _around(corners, _centre(land))
    return dict(zip(CORNER_NAMES, ordered, strict=True))


def parse_corner(value: object, island: Iterable[tuple[int, int]], field: str = "spiral") -> Hex:
    """A corner of ``island``, by name (``"top-left"``) or as a hex (``"0,-2"``, ``(0, -2)``).

    Parameters
    ----------
    value : str or (q, r)
        A name of :data:`CORNER_NAMES` or a corner hex.
    island : iterable of (q, r)
        The land hexes.
    field : str
        The option or field it came from, for messages.

    Returns
    -------
    Hex

    Raises
    ------
    InvalidInput
        If ``value`` is neither a corner name nor a corner hex of the island.

    Examples
    --------
    >>> parse_corner("top-left", hexagon(2)), parse_corner("2,0", hexagon(2))
    (Hex(q=0, r=-2), Hex(q=2, r=0))
    >>> parse_corner("0,0", hexagon(2))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: spiral: '0,0' is invalid; expected a corner: ...
    """
    corners = island_corners(island)
    if isinstance(value, str) and value.strip() in corners:
        return corners[value.strip()]
    listed = ", ".join(f"{name} ({h})" for name, h in corners.items())
    try:
        h = parse_hex(value, field) if isinstance(value, str) else as_hex(value, field)
    except InvalidInput:
        raise InvalidInput(field, value, f"a corner: {listed}") from None
    if h not in corners.values():
        raise InvalidInput(field, value, f"a corner: {listed}")
    return h


def spiral_order(
    island: Iterable[tuple[int, int]], corner: tuple[int, int], *, clockwise: bool = False
) -> tuple[Hex, ...]:
    """The land hexes in the variable set-up's spiral, from ``corner`` to the centre.

    Parameters
    ----------
    island : iterable of (q, r)
        The land hexes (every one is in the spiral, deserts too).
    corner : (q, r)
        The corner hex the first token goes on (:func:`island_corners`).
    clockwise : bool
        Turn clockwise instead of the rulebook's counter-clockwise.

    Returns
    -------
    tuple of Hex
        The rim of the island walked counter-clockwise from ``corner``, then
        the rim of what is left, and so on inwards (docs/layout.md, "The
        spiral"). Each inner ring starts on the hex of that ring next to
        the first hex of the ring before (nearest to it when none touches it).

    Raises
    ------
    InvalidInput
        If ``corner`` is not one of the island's hexes.

    Examples
    --------
    >>> [str(h) for h in spiral_order(hexagon(2), (0, -2))[:4]]
    ['0,-2', '-1,-1', '-2,0', '-2,1']
    >>> str(spiral_order(hexagon(2), (0, -2))[12]), str(spiral_order(hexagon(2), (0, -2))[-1])
    ('0,-1', '0,0')
    """
    left = {Hex(*h) for h in island}
    start = Hex(*corner)
    if start not in left:
        raise InvalidInput("corner", str(start), "a hex of the island")
    order: list[Hex] = []
    while left:
        rim = [h for h in left if any(n not in left for n in neighbours(h))]
        centre = _centre(left)
        if start not in rim:
            previous = start
            touching = [h for h in rim if previous in neighbours(h)]
            pool = touching or rim
            nearest = min(_distance(previous, h) for h in pool)
            pool = [h for h in pool if _distance(previous, h) == nearest]
            # first in the walking direction from where the previous ring began
            base = _angle(previous, centre)
            sign = -1.0 if clockwise else 1.0
            start = min(pool, key=lambda h: (sign * (_angle(h, centre) - base)) % (2 * math.pi))
        ring = _around(rim, centre)
        if clockwise:
            ring.reverse()
        i = ring.index(start)
        ring = ring[i:] + ring[:i]
        order.extend(ring)
        left.difference_update(ring)
    return tuple(order)


def _distance(a: Hex, b: Hex) -> int:
    return max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


def spiral_numbers(
    order: Iterable[tuple[int, int]],
    letters: Iterable[tuple[str, int]],
    deserts: Iterable[tuple[int, int]],
) -> dict[Hex, tuple[str, int] | None]:
    """Lay the lettered tokens along ``order`` in alphabetical order, skipping deserts.

    Parameters
    ----------
    order : iterable of (q, r)
        The land hexes in spiral order (:func:`spiral_order`).
    letters : iterable of (str, int)
        The lettered tokens in alphabetical order (:data:`BASE_SPIRAL`,
        :data:`EXTENSION_SPIRAL`).
    deserts : iterable of (q, r)
        The desert hexes: they take no token.

    Returns
    -------
    dict of Hex -> (letter, number) or None
        Every hex of ``order``: its token, None on a desert (and on hexes left
        when the tokens run out).

    Examples
    --------
    >>> laid = spiral_numbers(spiral_order(hexagon(2), (0, -2)), BASE_SPIRAL, [(0, 0)])
    >>> laid[Hex(0, -2)], laid[Hex(0, 0)], laid[Hex(1, -1)]
    (('A', 5), None, ('R', 11))
    """
    skip = {Hex(*h) for h in deserts}
    tokens = iter(letters)
    out: dict[Hex, tuple[str, int] | None] = {}
    for h in order:
        key = Hex(*h)
        out[key] = None if key in skip else next(tokens, None)
    return out


def harbour_reach(place: tuple[tuple[int, int], tuple[int, int]]) -> tuple[Hex, ...]:
    """The hexes a harbour touches: the two of its side and the two at its ends.

    Parameters
    ----------
    place : edge ((q, r), (q, r))
        The harbour's side.

    Returns
    -------
    tuple of Hex
        Four hexes, sorted: the side's two and the hex at each of its two
        corners. A settlement on the harbour stands on one of those corners,
        so the land among them is what the harbour is "next to"
        (docs/layout.md, "Harbours").

    Examples
    --------
    >>> [str(h) for h in harbour_reach(((0, -3), (0, -2)))]
    ['-1,-2', '0,-3', '0,-2', '1,-3']
    """
    a, b = Hex(*place[0]), Hex(*place[1])
    ends = [h for h in neighbours(a) if h in neighbours(b)]
    return tuple(sorted({a, b, *ends}))


def _harbour_places(island: list[Hex]) -> tuple[Edge, ...]:
    """Every other frame hex holds a harbour, facing the longest line across the island.

    The frame is walked counter-clockwise from its top-left corner hex, which
    holds a harbour; a frame hex with one land neighbour faces it, one with
    two faces the one from which the straight line of land hexes through the
    island is longest (ties: the one farther from the nearest frame corner
    without a harbour, then the first counter-clockwise). docs/layout.md,
    "Harbours", says where each rule comes from.
    """
    land = set(island)
    frame = sea_frame(island)
    walk = _around(frame, _centre(island))
    corners = [h for h in frame if sum(n in land for n in neighbours(h)) == 1]
    top_left = max(corners, key=lambda h: (to_pixel(h)[1], -to_pixel(h)[0]))
    i = walk.index(top_left)
    walk = walk[i:] + walk[:i]
    holds = walk[0::2]
    plain_corners = [h for h in corners if h not in holds]

    def line(start: Hex, step: Hex) -> int:
        count, h = 0, Hex(start.q + step.q, start.r + step.r)
        while h in land:
            count += 1
            h = Hex(h.q + step.q, h.r + step.r)
        return count

    places: list[Edge] = []
    for h in holds:
        faces = [n for n in neighbours(h) if n in land]

        def key(n: Hex, h: Hex = h, faces: list[Hex] = faces) -> tuple[int, int, int]:
            step = Hex(n.q - h.q, n.r - h.r)
            away = min((_distance(n, c) for c in plain_corners), default=0)
            return (line(h, step), away, -faces.index(n))

        places.append(edge(h, max(faces, key=key)))
    return tuple(places)


def shape_symmetries(
    hexes: Iterable[tuple[int, int]],
    keep: Iterable[Iterable[tuple[tuple[int, int], tuple[int, int]]]] = (),
) -> list[Callable[[Hex], Hex]]:
    """The rotations and reflections (not the identity) mapping ``hexes`` onto itself.

    Parameters
    ----------
    hexes : iterable of (q, r)
        A shape (a board's positions).
    keep : iterable of sets of edges
        Each set must be mapped onto itself too (the harbour places, say).

    Returns
    -------
    list of callable Hex -> Hex
        Each a rotation by a multiple of 60 degrees, or a reflection, about
        the shape's own centre (found as a map of the hex lattice followed by
        a translation), in a fixed order.

    Examples
    --------
    >>> len(shape_symmetries(hexagon(2))), len(shape_symmetries(extension_island()))
    (11, 3)
    """
    shape = {Hex(*h) for h in hexes}
    kept = [{edge(*e) for e in group} for group in keep]
    n = len(shape)
    out: list[Callable[[Hex], Hex]] = []
    for flip in (False, True):
        for k in range(6):
            if not flip and k == 0:
                continue

            def turn(h: Hex, flip: bool = flip, k: int = k) -> Hex:
                h = Hex(h.r, h.q) if flip else h
                for _ in range(k):
                    h = Hex(-h.r, h.q + h.r)
                return h

            image = [turn(h) for h in shape]
            dq = sum(h.q for h in shape) - sum(h.q for h in image)
            dr = sum(h.r for h in shape) - sum(h.r for h in image)
            if dq % n or dr % n:
                continue

            def move(
                h: Hex, turn: Callable[[Hex], Hex] = turn, t: tuple[int, int] = (dq // n, dr // n)
            ) -> Hex:
                x = turn(Hex(*h))
                return Hex(x.q + t[0], x.r + t[1])

            if {move(h) for h in shape} != shape:
                continue
            if any({edge(move(e[0]), move(e[1])) for e in group} != group for group in kept):
                continue
            out.append(move)
    return out


@dataclass(frozen=True)
class GameSetup:
    """What a game's box lays: island, frame, inventory, tokens, harbours, letters.

    Attributes
    ----------
    game : Game
    island : tuple of Hex
        The land hexes, by row then column.
    frame : tuple of Hex
        The sea frame around the island (no number tokens).
    inventory : mapping Terrain -> int
        The land tiles (their sum is the island's size).
    land_tokens : tuple of int
        The number tokens, sorted (one per producing hex).
    harbour_places : tuple of Edge
        The frame's harbour places (a frame hex and the land hex it faces).
    harbours : tuple of HarbourKind
        The harbours laid on them (a multiset, one per place).
    letters : tuple of (str, int)
        The lettered tokens in alphabetical order (the spiral's order).

    See Also
    --------
    game_setup : the setup of each game.

    Examples
    --------
    >>> setup = game_setup("base")
    >>> len(setup.island), len(setup.frame), len(setup.harbour_places), len(setup.land_tokens)
    (19, 18, 9, 18)
    """

    game: Game
    island: tuple[Hex, ...]
    frame: tuple[Hex, ...]
    inventory: Mapping[Terrain, int]
    land_tokens: tuple[int, ...]
    harbour_places: tuple[Edge, ...]
    harbours: tuple[HarbourKind, ...]
    letters: tuple[tuple[str, int], ...]

    @property
    def corners(self) -> dict[str, Hex]:
        """The island's six corners by name (where a spiral may start)."""
        return island_corners(self.island)


def game_setup(game: Game | str) -> GameSetup:
    """The box contents and board of ``game`` (``"base"`` or ``"extension"``).

    Parameters
    ----------
    game : Game or str
        ``base`` or ``extension`` (the ships scenario has no fixed island).

    Returns
    -------
    GameSetup

    Raises
    ------
    InvalidInput
        If ``game`` is not ``base`` or ``extension``.

    Examples
    --------
    >>> ext = game_setup("extension")
    >>> sum(ext.inventory.values()), len(ext.land_tokens), len(ext.harbours), len(ext.frame)
    (30, 28, 11, 22)
    """
    try:
        which = Game(game)
    except ValueError:
        which = None
    if which is Game.BASE:
        island = hexagon(2)
        inventory, tokens, kinds, letters = (
            BASE_LAND,
            BASE_NUMBER_TOKENS,
            BASE_HARBOURS,
            BASE_SPIRAL,
        )
    elif which is Game.EXTENSION:
        island = extension_island()
        inventory, tokens = EXTENSION_LAND, EXTENSION_NUMBER_TOKENS
        kinds, letters = EXTENSION_HARBOURS, EXTENSION_SPIRAL
    else:
        raise InvalidInput("game", game, "base or extension (a game with a fixed island)")
    island = sorted(island, key=lambda h: (h.r, h.q))
    return GameSetup(
        which,
        tuple(island),
        tuple(sea_frame(island)),
        inventory,
        tokens,
        _harbour_places(island),
        kinds,
        letters,
    )
