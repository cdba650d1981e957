"""The board set-up's question, declared once: :class:`Layout` and the parts it is made of.

Implements docs/layout.md ("What is asked", "Games", "Defaults", "Your own
rules", "Next move", "The command line"; seeds/004_644cf972d8964df4.txt and
seeds/002_8684547a41c0941c.txt, "MISE EN PLACE"). One question is asked:
:class:`Layout` (``isles layout``, the web app's set-up jobs, ``isles.answer``),
answered by a board, several boards or the next move. It is made of parts
never asked alone, each declared once and read by the library's functions
too: :class:`SetUp` (what board to lay: ``setup_request``), :class:`Solving`,
:class:`Search` and :class:`Series` (how to search: ``solve_layout``,
``layout_boards``) and :class:`Move` (the tiles in hand: ``next_move``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import PlainValidator

from isles.models.board import Board
from isles.models.catan import Terrain, Tile
from isles.models.contract import (
    AtLeast,
    Given,
    HexValue,
    Is,
    Missing,
    NotWith,
    OnlyWith,
    Question,
    Together,
    param,
)
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.hexgrid import Hex, as_hex
from isles.models.layout.board_rule import BoardRule
from isles.models.layout.board_rules import (
    MAX_CORNER_PIPS,
    MAX_GROUP_LIMIT,
    MAX_PIPS_LIMIT,
)
from isles.models.layout.games import Game
from isles.models.layout.request import (
    MAX_PLAYERS,
    MAX_POSITIONS,
    MAX_RADIUS,
    TILES_PER_PLAYER,
    Rule,
)
from isles.models.layout.rules_file import read_rules

__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_SEED",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORKERS",
    "MAX_COUNT",
    "Layout",
    "Move",
    "Search",
    "Series",
    "SetUp",
    "Solving",
]

#: Seconds each CP-SAT solve may take by default.
DEFAULT_TIME_LIMIT = 20.0
#: CP-SAT workers by default: one makes the search deterministic.
DEFAULT_WORKERS = 1
#: The variety seed by default (and CP-SAT's random seed).
DEFAULT_SEED = 0
#: Players of a free shape when none is given.
DEFAULT_PLAYERS = 3
#: Most boards one series lays (a tournament's worth; each is one CP-SAT solve).
MAX_COUNT = 100

_ISLANDS = (Game.BASE.value, Game.EXTENSION.value)


def _game(value: object) -> Game:
    if isinstance(value, str) and value in {g.value for g in Game}:
        return Game(value)
    raise InvalidInput("", value, "one of " + ", ".join(g.value for g in Game))


def _corner(value: object) -> str | Hex:
    if isinstance(value, str):
        return value
    if isinstance(value, Hex | tuple | list):
        return as_hex(value, "")
    raise InvalidInput("", value, "a corner: its name (top-left, ...) or its hex Q,R")


def _switches(value: object) -> dict[Rule, bool]:
    """``{name: on}``, or the command line's ``[(name, on), ...]``, each rule once."""
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, list | tuple):
        raise InvalidInput("", value, "a mapping rule name -> true or false")
    names = ", ".join(r.value for r in Rule)
    out: dict[Rule, bool] = {}
    for pair in pairs:
        name, on = pair if isinstance(pair, tuple | list) and len(pair) == 2 else (pair, None)
        if not isinstance(name, str) or name not in {r.value for r in Rule}:
            raise InvalidInput("", name, f"a rule among {names}")
        rule = Rule(name)
        if not isinstance(on, bool):
            raise InvalidInput(f"[{rule.value}]", on, "true or false")
        if rule in out:
            raise InvalidInput("", f"{rule.value}", f"each rule switched once ({rule.value} twice)")
        out[rule] = on
    return out


def _fixed(value: object) -> Board | dict[Hex, Tile]:
    """Tiles on the table: a Board, its JSON (the web app) or a mapping (q, r) -> Tile."""
    if isinstance(value, Board):
        return value
    if isinstance(value, Mapping) and "hexes" in value:
        return Board.from_dict(value)
    if isinstance(value, Mapping):
        tiles: dict[Hex, Tile] = {}
        for h, tile in value.items():
            if not isinstance(tile, Tile):
                raise InvalidInput(str(h), tile, "a Tile")
            tiles[as_hex(h, "")] = tile
        return tiles
    raise InvalidInput("", value, "a Board, its JSON or a mapping (q, r) -> Tile")


def _rules(value: object) -> tuple[BoardRule, ...]:
    """Rule objects, or a rules file's JSON (``{"rules": [...]}``)."""
    if isinstance(value, tuple | list) and all(isinstance(r, BoardRule) for r in value):
        return tuple(value)
    return read_rules(value, "")


def _holding(value: object) -> tuple[Terrain, Terrain]:
    # The set-up lays the box's tiles: gold is not among them.
    laid = [t.value for t in Terrain if t is not Terrain.GOLD]
    tiles = list(value) if isinstance(value, tuple | list) else None
    if tiles is None or len(tiles) != 2 or not all(isinstance(t, str) and t in laid for t in tiles):
        raise InvalidInput("", value, "two terrains (the tiles in hand) among " + ", ".join(laid))
    return Terrain(tiles[0]), Terrain(tiles[1])


GameValue = Annotated[Game, PlainValidator(_game)]
#: A corner of the island, by name or hex (read against the island by the library).
CornerValue = Annotated[str, PlainValidator(_corner)]
Switches = Annotated[dict[Rule, bool], PlainValidator(_switches)]
FixedValue = Annotated[Any, PlainValidator(_fixed)]
RulesValue = Annotated[tuple[BoardRule, ...], PlainValidator(_rules)]
Holding = Annotated[tuple[Terrain, Terrain], PlainValidator(_holding)]


class SetUp(Question):
    """What board to lay (``setup_request``'s parameters): a part of :class:`Layout`.

    Examples
    --------
    >>> SetUp.read({"game": "base", "radius": 2})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: radius: 2 is invalid; expected radius only with game = 'ships'
    >>> SetUp.read({"rules": {"sea-apart": False}}).rules
    {<Rule.SEA_APART: 'sea-apart'>: False}
    """

    game: GameValue = param(
        Game.SHIPS,
        help="ships (seed 004's sea mosaic), base (19 land hexes, 9 harbours) or extension "
        "(the 5-6 player island: 30 land hexes, 11 harbours)",
    )
    spiral: CornerValue | None = param(
        None,
        help="with --game base or extension: lay the lettered tokens along the rulebook's "
        "spiral from this corner (right, top-right, top-left, left, bottom-left, "
        "bottom-right, or its hex Q,R), deserts skipped",
        metavar="CORNER",
    )
    radius: int | None = param(
        None,
        help=f"hexagon of this radius, 0..{MAX_RADIUS} (default 3)",
        ge=0,
        le=MAX_RADIUS,
        metavar="R",
    )
    positions: list[HexValue] | None = param(
        None,
        help="board JSON file whose hexes are the positions ('-': stdin)",
        option="--shape",
        metavar="FILE",
        cli=False,
    )
    land: int | None = param(
        None,
        help="land hexes (default: round(hexes / 3))",
        ge=0,
        le=MAX_POSITIONS,
        metavar="N",
    )
    players: int | None = param(
        None,
        help=f"with --free-shape: {TILES_PER_PLAYER} tiles per player, 1..{MAX_PLAYERS} "
        f"(default {DEFAULT_PLAYERS})",
        ge=1,
        le=MAX_PLAYERS,
        metavar="N",
    )
    fixed: FixedValue | None = param(
        None,
        help="board JSON file of the tiles already on the table ('-': stdin)",
        metavar="FILE",
        cli=False,
    )
    rules: Switches | None = param(
        None,
        help="switch a rule: "
        + ", ".join(r.value for r in Rule)
        + " (repeatable, once per rule; docs/layout.md)",
        option="--rule",
        metavar="NAME=on|off",
        repeat=True,
        text="switch",
    )
    max_pips: int | None = param(
        None,
        help="vertex pip limit K (switches vertex-pips on)",
        ge=0,
        le=MAX_PIPS_LIMIT,
        metavar="K",
    )
    min_corner_pips: int | None = param(
        None,
        help="least pips L where three land hexes meet (switches corner-pips-min on)",
        ge=0,
        le=MAX_CORNER_PIPS,
        metavar="L",
    )
    max_group: int | None = param(
        None,
        help=f"terrain group limit G, 1..{MAX_GROUP_LIMIT} (switches terrain-groups on)",
        ge=1,
        le=MAX_GROUP_LIMIT,
        metavar="G",
    )
    extra_rules: RulesValue = param(
        (),
        help='rules file: your own rules as JSON, {"rules": [{"kind": ...}, ...]} '
        '(docs/layout.md, "Your own rules")',
        option="--rules",
        metavar="FILE",
        cli=False,
    )

    together: ClassVar[tuple[Together, ...]] = (
        OnlyWith("radius", Is("game", ("ships",))),
        OnlyWith("positions", Is("game", ("ships",))),
        OnlyWith("land", Is("game", ("ships",))),
        OnlyWith("players", Is("game", ("ships",))),
        OnlyWith("spiral", Is("game", _ISLANDS)),
        NotWith("positions", "radius"),
        NotWith("positions", "players"),
    )


class Solving(Question):
    """How long each CP-SAT solve may take, on how many workers: a part of :class:`Layout`."""

    time_limit: float = param(
        DEFAULT_TIME_LIMIT,
        help="seconds per CP-SAT solve",
        metavar="SEC",
        gt=0,
        finite=True,
        expected="a finite number of seconds > 0",
    )
    workers: int = param(
        DEFAULT_WORKERS,
        help="CP-SAT workers, 1..8 (one: deterministic)",
        ge=1,
        le=8,
        cli=False,
        expected="an integer in 1..8 (CP-SAT workers)",
    )


class Search(Solving):
    """A board search (``solve_layout``): its variety seed too; a part of :class:`Layout`."""

    seed: int = param(
        DEFAULT_SEED,
        help="variety: a different optimal board (0..2**31-1; not with --hold)",
        ge=0,
        le=SEED_MAX,
    )


class Series(Search):
    """Several different boards (``layout_boards``): a part of :class:`Layout`."""

    count: int | None = param(
        None,
        help=f"lay this many different boards, 1..{MAX_COUNT} (a game night, a tournament)",
        ge=1,
        le=MAX_COUNT,
        metavar="N",
    )
    min_difference: int | None = param(
        None,
        help="with --count of 2 or more: hexes in which every board differs from each earlier one "
        "and its rotations and reflections (default: a third of the hexes)",
        option="--differ",
        ge=1,
        le=10_000,
        metavar="D",
    )

    # One board differs from no other: --differ needs a series.
    together: ClassVar[tuple[Together, ...]] = (OnlyWith("min_difference", AtLeast("count", 2)),)


class Move(Solving):
    """The next two tiles to lay (``next_move``): a part of :class:`Layout`."""

    holding: Holding | None = param(
        None,
        help="next-move advice: the two terrains in the hand of the player about to lay",
        option="--hold",
        metavar="T1,T2",
        text="names",
    )


class Layout(SetUp, Series, Move):
    """The board set-up's question: what ``isles layout`` and the web app's set-up jobs ask.

    With ``holding``: the next move (a ``NextMove``); with ``count``: several
    boards (a ``LayoutSeries``); otherwise the best board (a
    ``LayoutResult``). ``free_shape`` chooses the board's hexes too.
    ``isles.answer`` answers it; ``base_board`` and ``extension_board`` of
    :mod:`isles.layout` ask it with a game's island.

    Examples
    --------
    >>> Layout.read({"players": 2}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --players: 2 is invalid; expected --players only with ...
    >>> Layout.read({"holding": ["forest", "sea"], "seed": 3}, spelling="key").seed
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: seed: 3 is invalid; expected seed only without holding
    """

    free_shape: bool = param(
        False, help="choose the board's hexes too: one connected board inside the hexagon"
    )

    together = (
        *SetUp.together,
        *Series.together,
        OnlyWith("free_shape", Is("game", ("ships",))),
        OnlyWith("players", Given("free_shape")),
        NotWith("positions", "free_shape"),
        OnlyWith("seed", Missing("holding")),
        OnlyWith("holding", Is("game", ("ships",))),
        OnlyWith("holding", Missing("count")),
    )

    def set_up(self) -> SetUp:
        """The :class:`SetUp` this asks: its fields as given, a free shape's players defaulted."""
        given = {n: getattr(self, n) for n in SetUp.model_fields if n in self.model_fields_set}
        if self.free_shape and "players" not in given:
            given["players"] = DEFAULT_PLAYERS
        return SetUp.model_construct(_fields_set=set(given), **given)


#: This game's questions, by name (gathered by isles.models.questions.questions()): one,
#: of which SetUp, Solving, Search, Series and Move are parts, never asked alone.
QUESTIONS: dict[str, type[Question]] = {"layout": Layout}
