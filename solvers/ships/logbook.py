"""Does a player's log book keep the rules, and where does each ship stand after each roll
(``isles ships check``)?

Implements docs/ships.md ("The log book"; seed 004_644cf972d8964df4.txt, rules 4 to 13):
the replay of a log book against the rules, naming the first entry that breaks one; the
answer to :class:`LogCheck` (:func:`answer_log_check`) and its keyword form :func:`check_log`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from isles.models.board import Board
from isles.models.catan import Resource, Terrain
from isles.models.hexgrid import Edge, Vertex
from isles.models.jsonio import edge_json
from isles.models.ships.encounters import Encounter, Outcome, outcome_rolls
from isles.models.ships.limits import CARGO_LIMIT, MAX_SHIPS
from isles.models.ships.logbook import LogBook, LogEvent, LogRoll
from isles.models.ships.questions import LogCheck
from isles.models.ships.settlements import (
    harvest_refusal,
    land_hex,
    placement_edges,
    settlement_edges,
)
from isles.models.ships.winds import edge_vertices, is_ship_edge, ship_options
from isles.models.status import Status
from isles.solvers.work import Progress

__all__ = ["LogBreach", "LogReplay", "ShipFate", "ShipState", "answer_log_check", "check_log"]


class ShipFate(StrEnum):
    """Whether a numbered ship is still at sea."""

    AFLOAT = "afloat"
    SUNK = "sunk"
    CONVERTED = "converted"


@dataclass(frozen=True)
class ShipState:
    """A numbered ship after a roll: its edge (the last one, when gone), cargo and fate."""

    ship: int
    edge: Edge
    cargo: tuple[Resource, ...]
    fate: ShipFate

    def to_dict(self) -> dict[str, Any]:
        """``{"ship", "edge", "cargo", "fate"}``."""
        return {
            "ship": self.ship,
            "edge": edge_json(self.edge),
            "cargo": [c.value for c in self.cargo],
            "fate": self.fate.value,
        }

    def __str__(self) -> str:
        cargo = ", ".join(c.value for c in self.cargo) or "empty"
        if self.fate is ShipFate.AFLOAT:
            return f"ship {self.ship} at {self.edge} [{cargo}]"
        return f"ship {self.ship} {self.fate.value} (last at {self.edge})"


@dataclass(frozen=True)
class LogBreach:
    """The first entry of a log book that breaks a rule.

    Attributes
    ----------
    entry : str
        Where it sits in the file (``log.rolls[3].events[1]``).
    rule : int
        The seed's rule number (2 to 13).
    message : str
        What is wrong, in words.
    """

    entry: str
    rule: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        """``{"entry", "rule", "message"}``."""
        return {"entry": self.entry, "rule": self.rule, "message": self.message}

    def __str__(self) -> str:
        return f"{self.entry}: {self.message} (rule {self.rule})"


@dataclass(frozen=True)
class LogReplay:
    """A log book replayed against the rules.

    Attributes
    ----------
    status : Status
        ``EXACT`` when every entry keeps the rules, ``INCONSISTENT`` when one
        does not (``breach`` names the first).
    player : str
    start : tuple of ShipState
        The ships as the log starts.
    after : tuple of tuple of ShipState
        Every ship (afloat, sunk or converted) after each roll replayed without a
        breach, in the log's order.
    breach : LogBreach or None
    started : bool
        Whether the ships at the start keep the rules; when not, ``start`` is
        empty and ``breach`` names the ship's entry (``log.ships[1].cargo``).
    """

    status: Status
    player: str
    start: tuple[ShipState, ...]
    after: tuple[tuple[ShipState, ...], ...]
    rolls: tuple[int, ...] = field(default=())
    breach: LogBreach | None = None
    started: bool = True

    def to_dict(self) -> dict[str, Any]:
        """``{"status", "player", "start": [ship], "rolls": [{"roll", "ships": [ship]}],
        "breach": {"entry", "rule", "message"} or null}`` (what ``isles ships check --json``
        prints)."""
        return {
            "status": self.status.value,
            "player": self.player,
            "start": [s.to_dict() for s in self.start],
            "rolls": [
                {"roll": n, "ships": [s.to_dict() for s in ships]}
                for n, ships in zip(self.rolls, self.after, strict=True)
            ],
            "breach": None if self.breach is None else self.breach.to_dict(),
        }


class _Breach(Exception):
    def __init__(self, entry: str, rule: int, message: str) -> None:
        super().__init__(message)
        self.breach = LogBreach(entry, rule, message)


@dataclass
class _Ship:
    edge: Edge
    cargo: list[Resource]
    fate: ShipFate = ShipFate.AFLOAT


def _take(cargo: list[Resource], cards: tuple[Resource, ...], entry: str, rule: int) -> None:
    """Remove ``cards`` from ``cargo``, or name the entry if the cargo lacks them."""
    need, have = Counter(cards), Counter(cargo)
    short = [r.value for r in need if need[r] > have[r]]
    if short:
        raise _Breach(
            entry,
            rule,
            f"the cargo ({', '.join(c.value for c in cargo) or 'empty'}) lacks " + ", ".join(short),
        )
    for c in cards:
        cargo.remove(c)


def _text(v: Vertex) -> str:
    return ":".join(str(h) for h in v)


_ENCOUNTER_RULE = {Encounter.COLLISION: 11, Encounter.PIRATE: 12}


class _Replay:
    """The state of a replay: the board's buildings and roads, the ships, the roll's moves."""

    def __init__(self, board: Board, log: LogBook) -> None:
        self.board = board
        self.log = log
        self.buildings: dict[Vertex, str] = {v: b.player for v, b in board.buildings.items()}
        self.roads: Mapping[Edge, str] = dict(board.roads)
        self.ships: dict[int, _Ship] = {}

    def states(self) -> tuple[ShipState, ...]:
        return tuple(
            ShipState(n, s.edge, tuple(s.cargo), s.fate) for n, s in sorted(self.ships.items())
        )

    def afloat(self, event: LogEvent) -> _Ship:
        ship = self.ships.get(event.ship)
        if ship is None:
            raise _Breach(event.field, 13, f"ship {event.ship} is not in the log book")
        if ship.fate is not ShipFate.AFLOAT:
            raise _Breach(event.field, 13, f"ship {event.ship} is {ship.fate.value}")
        return ship

    def check_cargo(self, ship: _Ship, entry: str, rule: int = 4) -> None:
        if len(ship.cargo) > CARGO_LIMIT:
            raise _Breach(
                entry, rule, f"cargo over {CARGO_LIMIT}: {', '.join(c.value for c in ship.cargo)}"
            )

    def own_corners(self) -> list[Vertex]:
        return [v for v, owner in self.buildings.items() if owner == self.log.player]

    # -- one roll ---------------------------------------------------------------------

    def roll(self, roll: LogRoll) -> None:
        started = {n: s.edge for n, s in self.ships.items() if s.fate is ShipFate.AFLOAT}
        moved: set[int] = set()
        for event in roll.events:
            handler = getattr(self, f"_{event.kind.value}")
            handler(event, roll, moved)
        for n, edge_ in sorted(started.items()):
            ship = self.ships[n]
            if n in moved or ship.fate is not ShipFate.AFLOAT:
                continue
            options = ship_options(self.board, edge_, roll.roll, self.log.may_stay)
            if edge_ not in options:
                raise _Breach(
                    roll.field,
                    6,
                    f"ship {n} on {edge_} did not move on a {roll.roll}: the wind of a sea hex "
                    f"numbered {roll.roll} blows there and moving is compulsory "
                    f"(to {', '.join(map(str, options))})",
                )

    def _harvest(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        ship = self.afloat(event)
        if event.ship in moved:
            raise _Breach(
                event.field, 6, f"ship {event.ship} harvests after moving: resources come first"
            )
        why = harvest_refusal(
            self.board, ship.edge, roll.roll, self.log.player, self.buildings, self.roads
        )
        if why is not None:
            raise _Breach(event.field, 7, f"ship {event.ship} on {ship.edge} takes nothing: {why}")
        hex_ = land_hex(self.board, ship.edge)
        assert hex_ is not None  # a ship that takes a card lies along land
        terrain = self.board.terrain(hex_)
        assert event.resource is not None
        if terrain is not Terrain.GOLD and terrain.resource is not event.resource:
            raise _Breach(
                event.field,
                7,
                f"ship {event.ship} takes {event.resource.value}, but {hex_} "
                f"({terrain.value}) yields {terrain.resource.value if terrain.resource else '-'}",
            )
        ship.cargo.append(event.resource)
        if event.overboard is not None:
            _take(ship.cargo, (event.overboard,), event.field, 7)
        self.check_cargo(ship, event.field, 7)

    def _wind(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        ship = self.afloat(event)
        assert event.to is not None
        if event.ship in moved:
            raise _Breach(event.field, 6, f"ship {event.ship} moves twice on one roll")
        if roll.roll == 7:
            raise _Breach(event.field, 6, "a 7 moves no ship")
        options = ship_options(self.board, ship.edge, roll.roll, self.log.may_stay)
        if event.to not in options:
            stay = " or stay along the coast" if self.log.may_stay else ""
            raise _Breach(
                event.field,
                6,
                f"ship {event.ship} moves from {ship.edge} to {event.to}, not one edge along a "
                f"sea hex numbered {roll.roll} of its edge (allowed: "
                f"{', '.join(map(str, options))}{stay})",
            )
        moved.add(event.ship)
        ship.edge = event.to

    def _encounter(self, event: LogEvent, encounter: Encounter) -> None:
        ship = self.afloat(event)
        assert event.dice is not None
        rule = _ENCOUNTER_RULE[encounter]
        outcome = next(o for o, ns in outcome_rolls(encounter).items() if event.dice in ns)
        lose = {
            Outcome.SINKS: 0,
            Outcome.LOSES_ALL: len(ship.cargo),
            Outcome.LOSES_TWO: min(2, len(ship.cargo)),
            Outcome.LOSES_ONE: min(1, len(ship.cargo)),
            Outcome.UNHARMED: 0,
        }[outcome]
        if len(event.cards) != lose:
            raise _Breach(
                event.field,
                rule,
                f"a {encounter.value} roll of {event.dice} means {outcome.label}: "
                f"{lose} card(s) lost, not {len(event.cards)}",
            )
        _take(ship.cargo, event.cards, event.field, rule)
        if outcome is Outcome.SINKS:
            ship.fate = ShipFate.SUNK

    def _collision(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        self._encounter(event, Encounter.COLLISION)

    def _pirate(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        self._encounter(event, Encounter.PIRATE)

    def _unload(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        ship = self.afloat(event)
        if not any(ship.edge in settlement_edges(self.board, v) for v in self.own_corners()):
            raise _Breach(
                event.field,
                5,
                f"ship {event.ship} unloads on {ship.edge}, not along a coast next to a "
                f"settlement or city of {self.log.player}",
            )
        _take(ship.cargo, event.cards, event.field, 5)

    def _trade(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        ship = self.afloat(event)
        kind = self.board.harbours.get(ship.edge)
        if kind is None:
            raise _Breach(event.field, 8, f"ship {event.ship} trades on {ship.edge}: no harbour")
        given = Counter(event.cards)
        want = kind.resource
        if (
            len(given) != 1
            or len(event.cards) != kind.ratio
            or (want is not None and want not in given)
        ):
            what = "cards of one resource" if want is None else want.value
            raise _Breach(
                event.field,
                8,
                f"the {kind.value} harbour at {ship.edge} takes {kind.ratio} {what}, "
                f"not {', '.join(c.value for c in event.cards) or 'nothing'}",
            )
        _take(ship.cargo, event.cards, event.field, 8)
        assert event.resource is not None
        ship.cargo.append(event.resource)

    def _convert(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        ship = self.afloat(event)
        assert event.resource is not None and event.corner is not None
        hex_ = land_hex(self.board, ship.edge)
        tile = None if hex_ is None else self.board[hex_]
        if hex_ is None or tile is None or not tile.terrain.produces:
            raise _Breach(event.field, 10, f"ship {event.ship} on {ship.edge} lies along no land")
        if tile.terrain is not Terrain.GOLD and tile.terrain.resource is not event.resource:
            raise _Breach(
                event.field,
                10,
                f"{hex_} ({tile.terrain.value}) does not yield the missing {event.resource.value}",
            )
        on_turn = self.log.convert_on_turn and roll.own_turn
        if not on_turn:
            if tile.number != roll.roll:
                raise _Breach(
                    event.field,
                    10,
                    f"ship {event.ship} converts on a {roll.roll}, but {hex_} carries "
                    f"{tile.number}",
                )
            if event.ship in moved:
                raise _Breach(
                    event.field, 10, f"ship {event.ship} converts after moving: the roll found it"
                )
        if event.corner not in edge_vertices(ship.edge):
            raise _Breach(
                event.field, 10, f"the corner {_text(event.corner)} is not an end of {ship.edge}"
            )
        if event.corner in self.buildings:
            raise _Breach(
                event.field, 10, f"the corner {_text(event.corner)} already has a building"
            )
        ship.fate = ShipFate.CONVERTED
        self.buildings[event.corner] = self.log.player

    def _launch(self, event: LogEvent, roll: LogRoll, moved: set[int]) -> None:
        old = self.ships.get(event.ship)
        if old is not None and old.fate is not ShipFate.SUNK:
            raise _Breach(event.field, 13, f"ship {event.ship} is {old.fate.value}")
        if sum(s.fate is ShipFate.AFLOAT for s in self.ships.values()) >= MAX_SHIPS:
            raise _Breach(event.field, 2, f"{self.log.player} already has {MAX_SHIPS} ships")
        assert event.to is not None
        spots = [
            e
            for v in self.own_corners()
            for e in placement_edges(self.board, v, self.log.player, self.roads)
        ]
        if event.to not in spots:
            raise _Breach(
                event.field,
                3,
                f"ship {event.ship} is launched on {event.to}, not on a sea edge next to a "
                f"settlement of {self.log.player} (nor along an enemy road)",
            )
        self.ships[event.ship] = _Ship(event.to, [])
        moved.add(event.ship)


def answer_log_check(question: LogCheck, *, progress: Progress = None) -> LogReplay:
    """The replay a validated :class:`~isles.models.ships.questions.LogCheck` asks.

    What :func:`isles.ships.check_log` and ``isles ships check`` answer: the log
    book replayed against the rules, roll by roll, up to the first entry that
    breaks one.

    Parameters
    ----------
    question : LogCheck
        The board and the log book, validated.
    progress : bool, None or callable
        Unused: a replay takes no time worth a bar.

    Returns
    -------
    LogReplay
        ``EXACT`` with every ship's state after each roll, or ``INCONSISTENT``
        with the states up to the last roll kept and the first breach.

    Raises
    ------
    InvalidInput
        Naming ``log.player`` (with the log's source), when the board names
        players (buildings, roads) and the log's is not one of them, spelt as
        the board spells it: rule 7 and scoring read the board against it.

    Notes
    -----
    Within a roll, the events are read in the order written, with the seed's
    order of play: resources (harvest, conversion on the number) come before
    the ships move; a harvest or conversion of a ship that already moved is a
    breach. A ship whose wind blows and that has no ``wind`` event on that roll
    breaks rule 6 unless staying is allowed (the variant, along a coast).
    Collision and pirate rolls are checked against the outcome tables of rules
    11 and 12 (the cards lost must be the number the roll says, from the
    cargo); whether a collision happened at all involves other players' ships,
    which the log does not hold. docs/ships.md, "The log book".

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> from isles.models.ships.logbook import read_log
    >>> log = read_log({"player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
    ...                 "rolls": [{"roll": 2, "events": [
    ...                     {"event": "wind", "ship": 1, "to": [[0, 0], [1, 0]]}]}]})
    >>> replay = answer_log_check(LogCheck.ask(board=demo_board(), log=log))
    >>> replay.status
    <Status.INCONSISTENT: 'inconsistent'>
    >>> print(replay.breach)  # doctest: +NORMALIZE_WHITESPACE
    log.rolls[0].events[0]: ship 1 moves from 0,0:0,1 to 0,0:1,0, not one edge along a sea
    hex numbered 2 of its edge (allowed: -1,1:0,1, 0,1:1,0) (rule 6)
    """
    board, log = question.board, question.log
    if board.players():  # a board naming none (the demo board) reads nothing against it
        board.check_player(log.player, f"{log.source}.player")
    state = _Replay(board, log)
    start: list[ShipState] = []
    after: list[tuple[ShipState, ...]] = []
    rolls: list[int] = []
    try:
        for ship in log.ships:
            if not is_ship_edge(board, ship.edge):
                raise _Breach(
                    f"{ship.field}.edge",
                    2,
                    f"ship {ship.ship} starts on {ship.edge}, not a ship edge of the board "
                    "(expected two adjacent hexes of the board, at least one of them sea)",
                )
            if len(ship.cargo) > CARGO_LIMIT:
                raise _Breach(
                    f"{ship.field}.cargo",
                    4,
                    f"ship {ship.ship} starts with {len(ship.cargo)} cards "
                    f"({', '.join(c.value for c in ship.cargo)}); expected at most "
                    f"{CARGO_LIMIT} cards on board",
                )
            state.ships[ship.ship] = _Ship(ship.edge, list(ship.cargo))
        start = list(state.states())
        for roll in log.rolls:
            state.roll(roll)
            after.append(state.states())
            rolls.append(roll.roll)
    except _Breach as exc:
        return LogReplay(
            Status.INCONSISTENT,
            log.player,
            tuple(start),
            tuple(after),
            tuple(rolls),
            exc.breach,
            started=len(start) == len(log.ships),
        )
    return LogReplay(Status.EXACT, log.player, tuple(start), tuple(after), tuple(rolls))


def check_log(board: Board, log: LogBook) -> LogReplay:
    """Replay a log book against the rules; name the first entry that breaks one.

    Parameters
    ----------
    board : Board
        The board, with the buildings and roads of every player (docs/boards.md):
        they decide harvest (rule 7), unloading (rule 5) and launching (rule 3).
        Settlements the log's conversions found are added as the replay goes.
    log : LogBook
        The record (:func:`isles.models.ships.logbook.read_log`); nothing in it is
        changed or dropped.

    Returns
    -------
    LogReplay
        ``EXACT`` with every ship's state after each roll, or ``INCONSISTENT``
        with the states up to the last roll kept and the first breach.

    Raises
    ------
    InvalidInput
        Naming ``log.player`` (with the log's source), when the board names
        players (buildings, roads) and the log's is not one of them, spelt as
        the board spells it: rule 7 and scoring read the board against it;
        ``board`` or ``log`` of the wrong kind (the declaration
        :class:`isles.models.ships.questions.LogCheck`).

    Notes
    -----
    Within a roll, the events are read in the order written, with the seed's
    order of play: resources (harvest, conversion on the number) come before
    the ships move; a harvest or conversion of a ship that already moved is a
    breach. A ship whose wind blows and that has no ``wind`` event on that roll
    breaks rule 6 unless staying is allowed (the variant, along a coast).
    Collision and pirate rolls are checked against the outcome tables of rules
    11 and 12 (the cards lost must be the number the roll says, from the
    cargo); whether a collision happened at all involves other players' ships,
    which the log does not hold.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> from isles.models.ships.logbook import read_log
    >>> log = read_log({"player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
    ...                 "rolls": [{"roll": 2, "events": [
    ...                     {"event": "wind", "ship": 1, "to": [[0, 0], [1, 0]]}]}]})
    >>> replay = check_log(demo_board(), log)
    >>> replay.status
    <Status.INCONSISTENT: 'inconsistent'>
    >>> print(replay.breach)  # doctest: +NORMALIZE_WHITESPACE
    log.rolls[0].events[0]: ship 1 moves from 0,0:0,1 to 0,0:1,0, not one edge along a sea
    hex numbered 2 of its edge (allowed: -1,1:0,1, 0,1:1,0) (rule 6)
    """
    return answer_log_check(LogCheck.ask(board=board, log=log))
