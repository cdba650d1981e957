"""What a ship risks (``isles risk``): the collision and pirate tables, the cargo left after
encounters, and the chance that the pirate ship reaches an edge within some rolls.

Implements docs/ships.md ("Collisions and pirates", "The pirate ship"; seed
004_644cf972d8964df4.txt, rules 11 and 12), exact: the answer to :class:`Risk`
(:func:`answer_risk`) and its keyword form :func:`risk`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, EdgeLike
from isles.models.jsonio import edge_json, probability_json
from isles.models.ships.encounters import (
    Encounter,
    Outcome,
    cargo_after,
    outcome_rolls,
    outcome_table,
)
from isles.models.ships.limits import CARGO_LIMIT, MAX_ENCOUNTERS, MAX_REACH_ROLLS, check_count
from isles.models.ships.questions import Risk
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.arrival import hit_within
from isles.solvers.ships.graph import WindGraph, wind_graph
from isles.solvers.work import Progress

__all__ = [
    "CargoOutlook",
    "PirateReach",
    "RiskReport",
    "answer_risk",
    "cargo_outlook",
    "pirate_reach_probability",
    "risk",
]


@dataclass(frozen=True)
class CargoOutlook:
    """What is left of a ship's cargo after a number of encounters (exact).

    Attributes
    ----------
    encounter : Encounter
        Collision (seed rule 11) or pirate (rule 12).
    start_cargo : int
        Cards on board before, 0..3.
    encounters : int
        Encounters in a row.
    sunk : Fraction
        Probability the ship went down.
    cargo : tuple of Fraction
        ``cargo[c]`` = probability the ship floats with ``c`` cards (c = 0..3).
    expected_cargo : Fraction
        Expected cards left (a sunk ship counts 0).

    Examples
    --------
    >>> out = cargo_outlook(Encounter.PIRATE, 3, 1)
    >>> out.sunk, out.cargo[0], out.to_dict()["expected_cargo_exact"]
    (Fraction(1, 12), Fraction(3, 4), '1/2')
    """

    encounter: Encounter
    start_cargo: int
    encounters: int
    sunk: Fraction
    cargo: tuple[Fraction, ...]
    expected_cargo: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/json.md): every Fraction as a float and its ``"p/q"``.

        Returns
        -------
        dict
            ``status`` (``exact``), ``encounter``, ``start_cargo``, ``encounters``,
            ``sunk``/``sunk_exact``, ``cargo`` (``[{"cards", "probability",
            "probability_exact"}]``), ``expected_cargo``/``expected_cargo_exact``.
        """
        return {
            "status": Status.EXACT.value,
            "encounter": self.encounter.value,
            "start_cargo": self.start_cargo,
            "encounters": self.encounters,
            **probability_json("sunk", self.sunk),
            "cargo": [
                {"cards": c, **probability_json("probability", p)} for c, p in enumerate(self.cargo)
            ],
            **probability_json("expected_cargo", self.expected_cargo),
        }


def cargo_outlook(encounter: Encounter, cargo: int, encounters: int) -> CargoOutlook:
    """Exact cargo distribution after ``encounters`` collisions or pirate attacks.

    Each encounter rolls independently on the table of seed rule 11 (collision)
    or 12 (pirate); a sunk ship stays sunk (docs/ships.md, "Collisions and pirates").

    Parameters
    ----------
    encounter : Encounter or str
    cargo : int
        Cards on board, 0..3.
    encounters : int
        Encounters in a row, 0..MAX_ENCOUNTERS.

    Returns
    -------
    CargoOutlook

    Raises
    ------
    InvalidInput
        If ``cargo`` is not in 0..3 or ``encounters`` is not in 0..MAX_ENCOUNTERS
        (exact fractions grow with every encounter).

    Examples
    --------
    >>> out = cargo_outlook(Encounter.COLLISION, 3, 1)
    >>> out.sunk, out.cargo[3], out.expected_cargo
    (Fraction(1, 36), Fraction(13, 18), Fraction(89, 36))
    """
    check_count(cargo, "cargo", CARGO_LIMIT)
    check_count(encounters, "encounters", MAX_ENCOUNTERS)
    table = outcome_table(encounter)
    dist = [Fraction(0)] * (CARGO_LIMIT + 1)
    dist[cargo] = Fraction(1)
    sunk = Fraction(0)
    for _ in range(encounters):
        nxt = [Fraction(0)] * (CARGO_LIMIT + 1)
        for c, pc in enumerate(dist):
            if not pc:
                continue
            for outcome, po in table.items():
                left = cargo_after(outcome, c)
                if left is None:
                    sunk += pc * po
                else:
                    nxt[left] += pc * po
        dist = nxt
    expected = sum((c * p for c, p in enumerate(dist)), Fraction(0))
    return CargoOutlook(Encounter(encounter), cargo, encounters, sunk, tuple(dist), expected)


def pirate_reach_probability(
    board: Board,
    pirate: Edge,
    edge_: Edge,
    rolls: int,
    steering: Literal["toward", "away"] = "toward",
    may_stay: bool = False,
) -> Fraction:
    """Exact chance that the pirate ship, starting on ``pirate``, stands on ``edge_``
    after one of the next ``rolls`` rolls (or starts there).

    The pirate moves with the winds like a ship and one edge on every 7
    (:func:`isles.models.ships.winds.pirate_options`). Its moves are chosen by players,
    so the answer depends on their aim: ``"toward"`` (they steer it to the edge:
    the worst case for a ship there) or ``"away"``.

    Parameters
    ----------
    board : Board
    pirate : Edge
        The pirate ship's edge.
    edge_ : Edge
        The edge it might reach.
    rolls : int
        Rolls, 0..MAX_REACH_ROLLS.
    steering : {"toward", "away"}
        The players' aim.
    may_stay : bool
        The seed's variant for winds along a coast.

    Returns
    -------
    Fraction

    Raises
    ------
    InvalidInput
        If an edge is not a ship edge, ``rolls`` is not in 0..MAX_REACH_ROLLS (the
        exact fractions grow with every roll), or ``steering`` unknown.

    Notes
    -----
    Finite-horizon dynamic programming in integers (numerators over ``36**k``)
    over the edges within ``rolls`` moves of the pirate: ``O(rolls * edges * 11)``
    big-integer operations at most.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> pirate_reach_probability(b, edge((0, 0), (1, 0)), edge((0, 0), (1, -1)), 1)
    Fraction(11, 36)
    """
    pirate = check_ship_edge(board, pirate, "pirate")
    edge_ = check_ship_edge(board, edge_, "edge")
    check_count(rolls, "rolls", MAX_REACH_ROLLS)
    if steering not in ("toward", "away"):
        raise InvalidInput("steering", steering, "'toward' or 'away'")
    graph = wind_graph(board, may_stay, pirate=True)
    return _pirate_reach(graph, pirate, edge_, rolls, "max" if steering == "toward" else "min")


def _pirate_reach(
    graph: WindGraph,
    pirate: Edge,
    spot: Edge,
    rolls: int,
    pick: Literal["max", "min"],
    progress: Progress = False,
) -> Fraction:
    is_target = np.zeros(len(graph), dtype=bool)
    is_target[graph.index[spot]] = True
    at = graph.index[pirate]
    return hit_within(graph.options, is_target, at, (rolls,), pick, progress)[rolls]


@dataclass(frozen=True)
class PirateReach:
    """The chance the pirate ship reaches an edge within some rolls, for both aims.

    Attributes
    ----------
    pirate : Edge
        Where the pirate ship stands.
    edge : Edge
        The edge it might reach.
    rolls : int
        The rolls counted.
    may_stay : bool
        The seed's variant for winds along a coast.
    toward : Fraction
        Exact chance when the players steer it toward ``edge`` (the worst case).
    away : Fraction
        Exact chance when they steer it away.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> r = risk(board=demo_board(), pirate=((0, 0), (1, 0)), edge=((0, 0), (1, 0)), rolls=2)
    >>> r.pirate_reach.toward, r.pirate_reach.to_dict()["away_exact"]  # it starts there
    (Fraction(1, 1), '1/1')
    """

    pirate: Edge
    edge: Edge
    rolls: int
    may_stay: bool
    toward: Fraction
    away: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``status`` (``exact``), the edges, ``rolls``, ``may_stay``,
        ``toward``/``toward_exact`` and ``away``/``away_exact``."""
        return {
            "status": Status.EXACT.value,
            "pirate": edge_json(self.pirate),
            "edge": edge_json(self.edge),
            "rolls": self.rolls,
            "may_stay": self.may_stay,
            **probability_json("toward", self.toward),
            **probability_json("away", self.away),
        }


@dataclass(frozen=True)
class RiskReport:
    """What :func:`isles.ships.risk` answers: the outcome tables, the cargo left, the pirate reach.

    Attributes
    ----------
    status : Status
        ``exact``: every number is an exact Fraction.
    tables : Mapping of Encounter to Mapping of Outcome to Fraction
        Seed rules 11 and 12.
    outlook : Mapping of Encounter to CargoOutlook
        The cargo after the encounters, for each kind.
    pirate_reach : PirateReach or None
        When a pirate and an edge were given.

    Examples
    --------
    >>> report = risk(cargo=1, encounters=2)
    >>> report.tables[Encounter.COLLISION][Outcome.SINKS], report.pirate_reach
    (Fraction(1, 36), None)
    >>> report.to_dict()["tables"]["pirate"][0]  # doctest: +NORMALIZE_WHITESPACE
    {'outcome': 'sinks', 'rolls': [11, 12], 'probability': 0.08333333333333333,
     'probability_exact': '1/12'}
    """

    status: Status
    tables: Mapping[Encounter, Mapping[Outcome, Fraction]]
    outlook: Mapping[Encounter, CargoOutlook]
    pirate_reach: PirateReach | None

    def to_dict(self) -> dict[str, Any]:
        """The answer as plain data, in the dialect of docs/json.md (what ``--json`` prints).

        Returns
        -------
        dict
            ``status``; ``tables`` (per encounter, rows ``{"outcome", "rolls",
            "probability", "probability_exact"}``); ``cargo_outlook`` (per
            encounter, :meth:`CargoOutlook.to_dict`); ``pirate_reach``
            (:meth:`PirateReach.to_dict` or null).
        """
        return {
            "status": self.status.value,
            "tables": {
                enc.value: [
                    {
                        "outcome": o.value,
                        "rolls": list(outcome_rolls(enc)[o]),
                        **probability_json("probability", p),
                    }
                    for o, p in table.items()
                ]
                for enc, table in self.tables.items()
            },
            "cargo_outlook": {enc.value: out.to_dict() for enc, out in self.outlook.items()},
            "pirate_reach": None if self.pirate_reach is None else self.pirate_reach.to_dict(),
        }


def answer_risk(question: Risk, *, progress: Progress = None) -> RiskReport:
    """The report a validated :class:`~isles.models.ships.questions.Risk` asks.

    What :func:`isles.ships.risk` and ``isles risk`` answer: both outcome tables,
    the cargo outlook of each kind of encounter (:func:`cargo_outlook`) and, with
    a pirate and an edge, the pirate's reach for both aims of the players
    (:func:`pirate_reach_probability`).

    Parameters
    ----------
    question : Risk
        The risks asked, validated.
    progress : bool, None or callable
        A bar over the rolls of the pirate's reach
        (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    RiskReport

    Raises
    ------
    InvalidInput
        What needs the board: ``pirate`` or ``edge`` not a ship edge of it.

    Notes
    -----
    docs/ships.md, "Collisions and pirates" and "The pirate ship".

    Examples
    --------
    >>> answer_risk(Risk.ask(cargo=3, encounters=1)).outlook[Encounter.COLLISION].expected_cargo
    Fraction(89, 36)
    """
    reach: PirateReach | None = None
    board, k, stay = question.board, question.rolls, question.may_stay
    if question.pirate is not None and question.edge is not None and board is not None:
        at = check_ship_edge(board, question.pirate, "pirate")
        spot = check_ship_edge(board, question.edge, "edge")
        graph = wind_graph(board, stay, pirate=True)
        reach = PirateReach(
            at,
            spot,
            k,
            stay,
            toward=_pirate_reach(graph, at, spot, k, "max", progress),
            away=_pirate_reach(graph, at, spot, k, "min", progress),
        )
    return RiskReport(
        status=Status.EXACT,
        tables={enc: outcome_table(enc) for enc in Encounter},
        outlook={enc: cargo_outlook(enc, question.cargo, question.encounters) for enc in Encounter},
        pirate_reach=reach,
    )


def risk(
    cargo: int = 3,
    encounters: int = 1,
    *,
    board: Board | None = None,
    pirate: EdgeLike | None = None,
    edge: EdgeLike | None = None,
    rolls: int | None = None,
    may_stay: bool = False,
    progress: Progress = None,
) -> RiskReport:
    """Collision and pirate risk: the exact tables, the cargo left, the pirate's reach.

    The one call behind ``isles risk``.

    Parameters
    ----------
    cargo : int
        Cards on board, 0..3.
    encounters : int
        Encounters in a row, 0..MAX_ENCOUNTERS.
    board : Board, optional
        The board of the pirate reach; only with ``pirate``.
    pirate, edge : Edge, optional
        The pirate ship's edge and the edge it might reach; both or neither.
    rolls : int, optional
        Rolls of the pirate reach, 0..MAX_REACH_ROLLS (when not given, the
        declared default
        :data:`isles.models.ships.questions.DEFAULT_REACH_ROLLS`, 10); only
        with ``pirate``.
    may_stay : bool
        The seed's variant for winds along a coast; only with ``pirate``.
    progress : bool, None or callable, default None
        A bar over the rolls of the pirate reach (:data:`isles.solvers.work.Progress`;
        ``isles risk`` on a terminal).

    Returns
    -------
    RiskReport

    Raises
    ------
    InvalidInput
        Naming the parameter: a count out of range, ``pirate`` without ``edge``
        or the reverse, ``board`` missing with ``pirate``, ``board``, ``rolls`` or
        ``may_stay`` given without ``pirate`` (they would do nothing), an edge
        that is not a ship edge of the board. The checks of the parameters alone
        are those of the declaration :class:`isles.models.ships.questions.Risk`.

    Notes
    -----
    docs/ships.md, "Collisions and pirates" and "The pirate ship".

    Examples
    --------
    >>> r = risk(3, 1)
    >>> r.status, r.outlook["collision"].expected_cargo
    (<Status.EXACT: 'exact'>, Fraction(89, 36))
    """
    question = Risk.ask(
        cargo=cargo,
        encounters=encounters,
        board=board,
        pirate=pirate,
        edge=edge,
        rolls=rolls,
        may_stay=may_stay,
    )
    return answer_risk(question, progress=progress)
