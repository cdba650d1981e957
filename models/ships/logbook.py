"""The log book of a player's ships: its JSON record format, read and checked for shape.

Implements docs/ships.md ("The log book"; seed 004_644cf972d8964df4.txt, rule 13): the
record of each numbered ship's edge and cargo and of the events of each roll. The
replay against the rules is :func:`isles.solvers.ships.logbook.check_log`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from isles.models.catan import Resource
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex
from isles.models.jsonio import (
    load_json,
    read_bool,
    read_corner,
    read_edge,
    read_int,
    read_list,
    read_object,
    read_str,
)
from isles.models.ships.limits import CARGO_LIMIT, MAX_SHIPS

__all__ = [
    "MAX_LOG_ROLLS",
    "MAX_SHIP_NUMBER",
    "EventKind",
    "LogBook",
    "LogEvent",
    "LogRoll",
    "LogShip",
    "read_log",
]

#: Most rolls a log book holds (a long game has a few hundred).
MAX_LOG_ROLLS = 10_000
#: Ship numbers are 1..MAX_SHIP_NUMBER (the seed advises numbering the pieces).
MAX_SHIP_NUMBER = 99
#: Most events in one roll.
_MAX_EVENTS = 100
_RESOURCES = [r.value for r in Resource]


class EventKind(StrEnum):
    """What happened to a ship on a roll (docs/ships.md, "The log book").

    Examples
    --------
    >>> [k.value for k in EventKind]
    ['harvest', 'wind', 'collision', 'pirate', 'unload', 'trade', 'convert', 'launch']
    """

    HARVEST = "harvest"
    WIND = "wind"
    COLLISION = "collision"
    PIRATE = "pirate"
    UNLOAD = "unload"
    TRADE = "trade"
    CONVERT = "convert"
    LAUNCH = "launch"


#: The keys of each event besides ``event`` and ``ship``: (required, optional).
_EVENT_KEYS: dict[EventKind, tuple[tuple[str, ...], tuple[str, ...]]] = {
    EventKind.HARVEST: (("resource",), ("overboard",)),
    EventKind.WIND: (("to",), ()),
    EventKind.COLLISION: (("dice",), ("lost",)),
    EventKind.PIRATE: (("dice",), ("lost",)),
    EventKind.UNLOAD: (("cards",), ()),
    EventKind.TRADE: (("give", "take"), ()),
    EventKind.CONVERT: (("missing", "corner"), ()),
    EventKind.LAUNCH: (("edge",), ()),
}


@dataclass(frozen=True)
class LogShip:
    """A ship at the start of the log: its number, edge and cargo (``field``: its entry)."""

    ship: int
    edge: Edge
    cargo: tuple[Resource, ...]
    field: str


@dataclass(frozen=True)
class LogEvent:
    """One event of a roll, as written (``field`` says where it sits in the file).

    Attributes
    ----------
    kind : EventKind
    ship : int
        The ship's number.
    field : str
        The entry's place, ``rolls[3].events[1]``, for messages.
    resource : Resource or None
        ``harvest``: the card taken; ``trade``: the card taken (``take``);
        ``convert``: the missing resource.
    overboard : Resource or None
        ``harvest``: the card thrown overboard to make room (rule 7).
    to : Edge or None
        ``wind``: the new edge; ``launch``: the edge the new ship is placed on.
    dice : int or None
        ``collision`` and ``pirate``: the ship's 2d6 roll (rules 11 and 12).
    cards : tuple of Resource
        ``collision``/``pirate``: the cards lost; ``unload``: the cards
        unloaded; ``trade``: the cards given.
    corner : Vertex or None
        ``convert``: where the new settlement stands.
    """

    kind: EventKind
    ship: int
    field: str
    resource: Resource | None = None
    overboard: Resource | None = None
    to: Edge | None = None
    dice: int | None = None
    cards: tuple[Resource, ...] = ()
    corner: Vertex | None = None


@dataclass(frozen=True)
class LogRoll:
    """One roll of 2d6 (any player's turn) and its events, in the order written."""

    roll: int
    own_turn: bool
    events: tuple[LogEvent, ...]
    field: str


@dataclass(frozen=True)
class LogBook:
    """A player's log book (seed rule 13): the ships at the start and every roll since.

    Attributes
    ----------
    player : str
        The owner (a name of the board file's buildings and roads).
    may_stay : bool
        The seed's variant of rule 6: a ship along a coast may stay.
    convert_on_turn : bool
        The seed's variant of rule 10: a paid ship converts on its owner's turn.
    ships : tuple of LogShip
    rolls : tuple of LogRoll
    source : str
        Where it came from (the file name), the prefix of every field in messages.
    """

    player: str
    may_stay: bool
    convert_on_turn: bool
    ships: tuple[LogShip, ...]
    rolls: tuple[LogRoll, ...]
    source: str = "log"

    @classmethod
    def load(cls, path: str | Path) -> LogBook:
        """Read a log book file (``-``: standard input); see :meth:`from_dict`."""
        return read_log(load_json(path, "log book"), str(path))

    @classmethod
    def from_dict(cls, data: object, source: str = "log") -> LogBook:
        """A log book from its parsed JSON (docs/ships.md, "The log book"), as
        :meth:`isles.Board.from_dict` reads a board's: :func:`read_log`.

        Examples
        --------
        >>> LogBook.from_dict({"player": "red", "ships": [], "rolls": []}).player
        'red'
        """
        return read_log(data, source)


def _resource(value: object, field: str) -> Resource:
    return Resource(read_str(value, field, _RESOURCES))


def _cards(value: object, field: str, most: int = CARGO_LIMIT) -> tuple[Resource, ...]:
    cards = read_list(value, field)
    if len(cards) > most:
        raise InvalidInput(field, len(cards), f"at most {most} cards")
    return tuple(_resource(c, f"{field}[{i}]") for i, c in enumerate(cards))


def _ship_number(value: object, field: str) -> int:
    return read_int(value, field, 1, MAX_SHIP_NUMBER)


def _event(value: object, field: str) -> LogEvent:
    if not isinstance(value, dict) or "event" not in value:
        read_object(value, field, ["event", "ship"])
    assert isinstance(value, dict)
    kind = EventKind(read_str(value["event"], f"{field}.event", [k.value for k in EventKind]))
    required, optional = _EVENT_KEYS[kind]
    read_object(value, field, ["event", "ship", *required], optional)
    ship = _ship_number(value["ship"], f"{field}.ship")
    out = LogEvent(kind=kind, ship=ship, field=field)
    if kind is EventKind.HARVEST:
        over = value.get("overboard")
        return LogEvent(
            kind,
            ship,
            field,
            resource=_resource(value["resource"], f"{field}.resource"),
            overboard=None if over is None else _resource(over, f"{field}.overboard"),
        )
    if kind is EventKind.WIND:
        return LogEvent(kind, ship, field, to=read_edge(value["to"], f"{field}.to"))
    if kind is EventKind.LAUNCH:
        return LogEvent(kind, ship, field, to=read_edge(value["edge"], f"{field}.edge"))
    if kind in (EventKind.COLLISION, EventKind.PIRATE):
        return LogEvent(
            kind,
            ship,
            field,
            dice=read_int(value["dice"], f"{field}.dice", 2, 12),
            cards=_cards(value.get("lost", []), f"{field}.lost"),
        )
    if kind is EventKind.UNLOAD:
        return LogEvent(kind, ship, field, cards=_cards(value["cards"], f"{field}.cards"))
    if kind is EventKind.TRADE:
        return LogEvent(
            kind,
            ship,
            field,
            cards=_cards(value["give"], f"{field}.give"),
            resource=_resource(value["take"], f"{field}.take"),
        )
    if kind is EventKind.CONVERT:
        return LogEvent(
            kind,
            ship,
            field,
            resource=_resource(value["missing"], f"{field}.missing"),
            corner=read_corner(value["corner"], f"{field}.corner"),
        )
    return out  # pragma: no cover - every kind is handled above


def read_log(data: object, source: str = "log") -> LogBook:
    """A log book from parsed JSON (docs/ships.md, "The log book"); the shape only.

    Parameters
    ----------
    data : object
        The parsed JSON object: ``player``, ``ships`` and ``rolls`` required,
        ``variants`` (``{"may_stay", "convert_on_turn"}``, both optional booleans) optional.
    source : str
        Where it came from, for messages.

    Returns
    -------
    LogBook

    Raises
    ------
    InvalidInput
        Naming the entry (``log.rolls[2].events[0].to``): unknown or missing keys,
        a value of the wrong type or range, a ship number given twice, more than
        3 ships or 3 cards, an event of no known kind.

    Examples
    --------
    >>> log = read_log({"player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
    ...                 "rolls": [{"roll": 2, "events": [
    ...                     {"event": "wind", "ship": 1, "to": [[-1, 1], [0, 1]]}]}]})
    >>> log.ships[0].ship, log.rolls[0].events[0].kind
    (1, <EventKind.WIND: 'wind'>)
    >>> read_log({"player": "red", "ships": [], "rolls": [], "colour": "red"})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: log: unknown key 'colour'; expected only the keys ...
    """
    top = read_object(data, source, ["player", "ships", "rolls"], ["variants"])
    player = read_str(top["player"], f"{source}.player")
    if len(player) > 40:
        raise InvalidInput(f"{source}.player", player, "a name of 1 to 40 characters")
    variants = read_object(
        top.get("variants", {}), f"{source}.variants", [], ["may_stay", "convert_on_turn"]
    )
    may_stay = read_bool(variants.get("may_stay", False), f"{source}.variants.may_stay")
    convert = read_bool(
        variants.get("convert_on_turn", False), f"{source}.variants.convert_on_turn"
    )
    ships_raw = read_list(top["ships"], f"{source}.ships")
    if len(ships_raw) > MAX_SHIPS:
        raise InvalidInput(f"{source}.ships", len(ships_raw), f"at most {MAX_SHIPS} ships (rule 2)")
    ships: list[LogShip] = []
    for i, raw in enumerate(ships_raw):
        field = f"{source}.ships[{i}]"
        entry = read_object(raw, field, ["ship", "edge"], ["cargo"])
        number = _ship_number(entry["ship"], f"{field}.ship")
        if any(s.ship == number for s in ships):
            raise InvalidInput(f"{field}.ship", number, "a ship number not given before")
        ships.append(
            LogShip(
                number,
                read_edge(entry["edge"], f"{field}.edge"),
                _cards(entry.get("cargo", []), f"{field}.cargo", most=MAX_LOG_ROLLS),
                field,
            )
        )
    rolls_raw = read_list(top["rolls"], f"{source}.rolls")
    if len(rolls_raw) > MAX_LOG_ROLLS:
        raise InvalidInput(f"{source}.rolls", len(rolls_raw), f"at most {MAX_LOG_ROLLS} rolls")
    rolls: list[LogRoll] = []
    for i, raw in enumerate(rolls_raw):
        field = f"{source}.rolls[{i}]"
        entry = read_object(raw, field, ["roll"], ["events", "own_turn"])
        roll = read_int(entry["roll"], f"{field}.roll", 2, 12)
        own = read_bool(entry.get("own_turn", False), f"{field}.own_turn")
        events_raw = read_list(entry.get("events", []), f"{field}.events")
        if len(events_raw) > _MAX_EVENTS:
            raise InvalidInput(f"{field}.events", len(events_raw), f"at most {_MAX_EVENTS} events")
        events = tuple(_event(e, f"{field}.events[{j}]") for j, e in enumerate(events_raw))
        rolls.append(LogRoll(roll, own, events, field))
    return LogBook(player, may_stay, convert, tuple(ships), tuple(rolls), source)
