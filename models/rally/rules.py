"""The car rally's rules: what entering a hex costs, card values and budgets, income, trades.

Implements docs/rally.md ("Moving", "Card values and budgets", "The rally as it is
played"), the reading of seeds/002_8684547a41c0941c.txt: costs in resource cards,
own-road halving, 2d6 desert exits, a player's roads, what each roll brings, the
trades and the 7-card rule. The rim, start groups and goals are :mod:`.rim`'s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, get_args

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, neighbours

__all__ = [
    "BANK_RATIO",
    "CARD_COUNT",
    "HAND_LIMIT",
    "MAX_CARDS",
    "MAX_CARD_VALUE",
    "OBJECTIVES",
    "ROLLS",
    "TRADE_MODES",
    "EntryCost",
    "Income",
    "Objective",
    "TradeMode",
    "card_values",
    "desert_exit_probability",
    "discard_count",
    "entry_cost",
    "player_roads",
    "roll_income",
    "spending_budget",
    "trade_ratios",
]

#: What a route minimises first (docs/rally.md, "What the planner minimises").
Objective = Literal["cards", "turns", "expected_turns", "weighted"]
#: The objectives, in the order the command line lists them.
OBJECTIVES: tuple[str, ...] = get_args(Objective)

#: Largest value of one card for the ``weighted`` objective (docs/rally.md, "Card
#: values and budgets"): any route's weighted total then stays far below the
#: largest float, so that its float form is exact enough and never overflows.
MAX_CARD_VALUE = 10**6


@dataclass(frozen=True, slots=True)
class EntryCost:
    """What entering one hex costs a car (docs/rally.md, "Moving").

    Attributes
    ----------
    resource : Resource or None
        The card type paid; None for a desert (free) and for gold, which is
        paid in any single resource of the payer's choice (``cards > 0``).
    cards : int
        How many cards.
    halved : bool
        Whether one of the mover's own roads on the crossed edge halved the
        cost (rounded up).

    Examples
    --------
    >>> entry_cost(Tile(Terrain.HILLS, 5), own_road=True).to_dict()
    {'resource': 'brick', 'cards': 3, 'halved': True}
    """

    resource: Resource | None
    cards: int
    halved: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data.

        Returns
        -------
        dict
            ``resource`` (a name, ``"any"`` for gold, None when free),
            ``cards``, ``halved``.

        Examples
        --------
        >>> entry_cost(Tile(Terrain.GOLD, 9)).to_dict()
        {'resource': 'any', 'cards': 9, 'halved': False}
        """
        name = self.resource.value if self.resource else ("any" if self.cards else None)
        return {"resource": name, "cards": self.cards, "halved": self.halved}


def entry_cost(tile: Tile, own_road: bool = False) -> EntryCost:
    """Cost of entering ``tile`` (docs/rally.md, "Moving"; seed 002, "Déplacer sa voiture").

    Parameters
    ----------
    tile : Tile
        The hex entered (any land terrain).
    own_road : bool, default False
        Whether the edge crossed carries one of the mover's own roads.

    Returns
    -------
    EntryCost
        ``n`` cards of the hex's resource for number token ``n``, ``ceil(n / 2)``
        across an own road; gold costs the same in any single resource; a
        desert costs nothing.

    Raises
    ------
    InvalidInput
        For a sea hex, which cars never enter.

    Examples
    --------
    >>> entry_cost(Tile(Terrain.FOREST, 3))  # the seed's first example: 3 lumber
    EntryCost(resource=<Resource.LUMBER: 'lumber'>, cards=3, halved=False)
    >>> entry_cost(Tile(Terrain.FIELDS, 5), own_road=True).cards  # second example: 3 grain
    3
    """
    if tile.terrain is Terrain.SEA:
        raise InvalidInput("hex terrain", "sea", "a land hex: cars never enter the sea")
    if tile.terrain is Terrain.DESERT or tile.number is None:
        return EntryCost(None, 0, False)
    n = tile.number
    return EntryCost(tile.terrain.resource, math.ceil(n / 2) if own_road else n, own_road)


def desert_exit_probability(target: Tile) -> Fraction:
    """Chance that one try to leave a desert for ``target`` succeeds (docs/rally.md, "Moving").

    Parameters
    ----------
    target : Tile
        The hex the player names before rolling.

    Returns
    -------
    Fraction
        ``P(2d6 <= n)`` for the target's number token ``n``; 1 for a target
        without one (another desert), reached without a roll. Each try takes
        a turn, so the move takes ``1 / p`` turns on average.

    Examples
    --------
    >>> [desert_exit_probability(Tile(Terrain.HILLS, n)) for n in (2, 6, 12)]
    [Fraction(1, 36), Fraction(5, 12), Fraction(1, 1)]
    """
    if not isinstance(target, Tile):
        raise InvalidInput("target", target, "a Tile (the hex the player names)")
    if target.number is None:
        return Fraction(1)
    n = target.number
    return Fraction(sum(6 - abs(7 - s) for s in range(2, n + 1)), 36)


def player_roads(board: Board, player: str) -> list[Edge]:
    """A player's own roads, as the board file gives them (docs/boards.md, "Roads").

    Parameters
    ----------
    board : Board
    player : str
        A player named by the board's roads or buildings.

    Returns
    -------
    list of Edge
        The sides carrying the player's roads, sorted (possibly none: a player
        with buildings only); crossing one halves the rally's entry cost.

    Raises
    ------
    InvalidInput
        Naming ``player``, when the board names no such player (the players it
        names are listed).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> from isles.models.hexgrid import edge
    >>> board = beginner_board().replace(roads={edge((0, -2), (0, -1)): "red"})
    >>> player_roads(board, "red")
    [Edge(a=Hex(q=0, r=-2), b=Hex(q=0, r=-1))]
    >>> player_roads(board, "blue")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: player: 'blue' is invalid; expected a player of the board: red
    """
    board.check_player(player)
    return sorted(e for e, owner in board.roads.items() if owner == player)


# -- card values and budgets ---------------------------------------------------------


def _resource(name: object, field: str) -> Resource:
    if isinstance(name, Resource):
        return name
    try:
        return Resource(str(name))
    except ValueError:
        raise InvalidInput(
            field, name, "a resource: " + ", ".join(r.value for r in Resource)
        ) from None


def card_values(
    values: Mapping[Any, float | int | Fraction] | None, field: str = "values"
) -> dict[Resource, Fraction]:
    """Check card values for the ``weighted`` objective and read them exactly.

    Parameters
    ----------
    values : mapping of resource (name or :class:`Resource`) to number, or None
        The value of one card of each resource named; resources not named are
        worth 1. A float is read exactly from its shortest decimal text
        (``0.1`` is ``1/10``).
    field : str
        The parameter's name in messages (``"--value"`` on the command line).

    Returns
    -------
    dict of Resource to Fraction
        Every resource, with its exact value.

    Raises
    ------
    InvalidInput
        Naming ``field.resource``: an unknown resource, a value that is not a
        number (a bool, a string), not finite (``nan``, ``inf``), negative or
        above :data:`MAX_CARD_VALUE`.

    Examples
    --------
    >>> card_values({"ore": 2, "wool": 0.5})[Resource.WOOL]
    Fraction(1, 2)
    >>> card_values({"ore": 1e308})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: values.ore: 1e+308 is invalid; expected a number in 0..1000000
    """
    out = dict.fromkeys(Resource, Fraction(1))
    expected = f"a number in 0..{MAX_CARD_VALUE}"
    for key, v in (values or {}).items():
        r = _resource(key, field)
        where = f"{field}.{r.value}"
        if isinstance(v, bool) or not isinstance(v, int | float | Fraction):
            raise InvalidInput(where, v, expected)
        if isinstance(v, float) and not math.isfinite(v):
            raise InvalidInput(where, v, expected)
        if not 0 <= v <= MAX_CARD_VALUE:
            raise InvalidInput(where, v, expected)
        out[r] = Fraction(str(v)) if isinstance(v, float) else Fraction(v)
    return out


#: The most cards of one resource a player can hold, in hand or in the fuel reserve:
#: the bank holds 19 cards of each resource in the base game, so a 20th is never
#: dealt (docs/rally.md, "Card values and budgets"). Larger counts are refused at
#: once rather than searched.
MAX_CARDS = 19
#: What a card count may be, in messages.
CARD_COUNT = (
    f"a whole number of cards in 0..{MAX_CARDS} (the bank holds {MAX_CARDS} cards of each resource)"
)


def spending_budget(budget: Mapping[Any, int], field: str = "budget") -> dict[Resource, int]:
    """Check what a player can spend, per resource (docs/rally.md, "Card values and budgets").

    Parameters
    ----------
    budget : mapping of resource (name or :class:`Resource`) to int
        Cards in hand plus fuel reserve, per resource; resources not named: 0.
    field : str
        The parameter's name in messages (``"--budget"`` on the command line).

    Returns
    -------
    dict of Resource to int
        Every resource.

    Raises
    ------
    InvalidInput
        Naming ``field.resource``: an unknown resource, or a count that is not
        a whole number in 0..:data:`MAX_CARDS` (bools and floats are refused).

    Examples
    --------
    >>> spending_budget({"ore": 10})[Resource.ORE], spending_budget({"ore": 10})[Resource.WOOL]
    (10, 0)
    >>> spending_budget({"ore": 2.5})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: budget.ore: 2.5 is invalid; expected a whole number ...
    >>> spending_budget({"brick": 20})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: budget.brick: 20 is invalid; expected ... cards in 0..19 ...
    """
    out = dict.fromkeys(Resource, 0)
    for key, v in budget.items():
        r = _resource(key, field)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_CARDS:
            raise InvalidInput(f"{field}.{r.value}", v, CARD_COUNT)
        out[r] = v
    return out


# -- the rally as it is played: income, trades, the 7-card rule ----------------------

#: The 2d6 rolls, 2..12.
ROLLS: tuple[int, ...] = tuple(range(2, 13))
#: Cards a hand may hold when a 7 is rolled without discarding (the base rules).
HAND_LIMIT = 7
#: The bank's ratio: 4 cards of one resource for 1 of any.
BANK_RATIO = 4
#: How a player may trade in ``isles rally --income`` (docs/rally.md, "The rally as it is played").
TradeMode = Literal["none", "bank", "harbours"]
TRADE_MODES: tuple[str, ...] = get_args(TradeMode)


@dataclass(frozen=True, slots=True)
class Income:
    """What one roll of 2d6 gives a player: cards per resource, and gold cards of their choice.

    Attributes
    ----------
    cards : tuple of tuple of int
        ``cards[i][j]``: cards of ``list(Resource)[j]`` on roll ``ROLLS[i]``.
    gold : tuple of int
        ``gold[i]``: cards of the owner's choice (gold hexes) on roll ``ROLLS[i]``.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> from isles.models.catan import Building, BuildingKind
    >>> from isles.models.hexgrid import vertex
    >>> corner = vertex((0, -2), (0, -1), (1, -2))  # mountains 10, hills 6, pasture 2
    >>> board = beginner_board().replace(buildings={corner: Building("red", BuildingKind.CITY)})
    >>> inc = roll_income(board, "red")
    >>> inc.cards[ROLLS.index(10)], inc.cards[ROLLS.index(6)]
    ((0, 0, 0, 0, 2), (0, 0, 0, 2, 0))
    """

    cards: tuple[tuple[int, ...], ...]
    gold: tuple[int, ...]

    def per_roll_max(self) -> tuple[int, ...]:
        """The most cards of each resource one roll can give (gold counted for every resource)."""
        return tuple(
            max(row[j] + g for row, g in zip(self.cards, self.gold, strict=True))
            for j in range(len(Resource))
        )


def roll_income(board: Board, player: str) -> Income:
    """The cards each roll gives ``player`` from their buildings (seed 002, "Les règles de base").

    Every roll at the table (every player's turn) gives each of the player's
    buildings next to a land hex carrying the rolled number 1 card (settlement)
    or 2 (city) of that hex's resource; a gold hex gives cards of the owner's
    choice; a 7 gives nothing. docs/rally.md, "The rally as it is played".

    Parameters
    ----------
    board : Board
        With the players' ``buildings`` (docs/boards.md).
    player : str
        One of ``board.players()``.

    Returns
    -------
    Income

    Raises
    ------
    InvalidInput
        Naming ``player``: a name the board does not give (with those it gives).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> from isles.models.catan import Building
    >>> from isles.models.hexgrid import vertex
    >>> corner = vertex((0, -2), (0, -1), (1, -2))
    >>> board = beginner_board().replace(buildings={corner: Building("red")})
    >>> sum(map(sum, roll_income(board, "red").cards))  # three hexes, one card each
    3
    """
    board.check_player(player)
    resources = list(Resource)
    cards = [[0] * len(resources) for _ in ROLLS]
    gold = [0] * len(ROLLS)
    for corner, building in board.buildings.items():
        if building.player != player:
            continue
        amount = 2 if building.kind.value == "city" else 1
        for h in corner:
            tile = board.tiles[h]
            if not tile.terrain.produces or tile.number is None:
                continue
            i = ROLLS.index(tile.number)
            resource = tile.terrain.resource
            if resource is None:  # gold: the owner's choice
                gold[i] += amount
            else:
                cards[i][resources.index(resource)] += amount
    return Income(tuple(tuple(row) for row in cards), tuple(gold))


def trade_ratios(board: Board, player: str, mode: str) -> tuple[int, ...] | None:
    """The cards of each resource ``player`` gives for one card of any (None: no trades).

    ``bank``: 4 of anything. ``harbours``: also 3 at a generic harbour and 2 of
    a 2:1 harbour's resource, where the player has a building on one of the
    two corners of the harbour's side (the base rules). docs/rally.md, "The
    rally as it is played".

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> from isles.models.catan import Building, HarbourKind
    >>> from isles.models.hexgrid import edge, vertex
    >>> side = edge((0, -3), (0, -2))
    >>> town = {vertex((0, -3), (0, -2), (1, -3)): Building("red")}
    >>> board = beginner_board().replace(harbours={side: HarbourKind.ORE}, buildings=town)
    >>> trade_ratios(board, "red", "harbours"), trade_ratios(board, "red", "bank")
    ((4, 4, 4, 4, 2), (4, 4, 4, 4, 4))
    """
    if mode == "none":
        return None
    ratios = [BANK_RATIO] * len(Resource)
    if mode == "harbours":
        mine = {v for v, b in board.buildings.items() if b.player == player}
        for side, kind in board.harbours.items():
            a, b = side
            ends = [h for h in neighbours(a) if h in neighbours(b)]
            corners = {tuple(sorted((a, b, c))) for c in ends}
            if not any(tuple(v) in corners for v in mine):
                continue
            for j, resource in enumerate(Resource):
                if kind.resource is None or kind.resource is resource:
                    ratios[j] = min(ratios[j], kind.ratio)
    return tuple(ratios)


def discard_count(hand: int, limit: int = HAND_LIMIT) -> int:
    """Cards a player holding ``hand`` cards discards on a 7: half, rounded down, above the limit.

    Examples
    --------
    >>> [discard_count(n) for n in (7, 8, 9, 12)]
    [0, 4, 4, 6]
    """
    return hand // 2 if hand > limit else 0
