"""The set-up asked in players' terms, made a request: the defaults of docs/layout.md.

Implements docs/layout.md ("Games", "Defaults", "Free shape") for
seeds/004_644cf972d8964df4.txt ("MISE EN PLACE", rule 1) and
seeds/002_8684547a41c0941c.txt ("MISE EN PLACE": a board laid by the base
rules): the question :class:`~isles.models.layout.questions.SetUp` (game,
shape, rules, tiles on the table) turned into the
:class:`~isles.models.layout.request.SetupRequest` it asks (:func:`request_of`),
and the same from keywords (:func:`setup_request`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from isles.models.board import Board
from isles.models.catan import HarbourKind, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, as_hex, hexagon
from isles.models.layout.board_rule import BoardRule
from isles.models.layout.games import Game, game_setup, parse_corner, spiral_order
from isles.models.layout.questions import SetUp
from isles.models.layout.request import (
    DEFAULT_RULES,
    GAME_RULES,
    MAX_RADIUS,
    TILES_PER_PLAYER,
    Rule,
    SetupRequest,
)

__all__ = ["free_shape_radius", "request_of", "setup_request"]


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
        as :func:`~isles.models.layout.rules_file.read_rules` reads it.

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
