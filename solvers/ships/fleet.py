"""Every ship of a fleet home at once (``isles sail`` with two or three ``--from``): the best
chance within R rolls, the fewest expected rolls, the first move, the ports.

Implements docs/ships.md ("The fleet", "Ports"; seed 004_644cf972d8964df4.txt, rules
6, 8 and 11 and the end of the game): the answer to :class:`Fleet`
(:func:`answer_fleet`), from one joint table valued twice, and its keyword form
:func:`fleet`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import CornerLike, EdgeLike, Vertex
from isles.models.jsonio import corner_json, edge_json
from isles.models.ships.fleet import Rollers, check_fleet, fleet_targets
from isles.models.ships.harbours import Port, ports
from isles.models.ships.questions import DEFAULT_FLEET_ROLLS, Fleet
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.fleet_chance import FleetOdds, fleet_odds
from isles.solvers.ships.fleet_navigation import FleetNavigation, fleet_navigate
from isles.solvers.ships.graph import WindGraph
from isles.solvers.ships.joint_states import FleetSpace, fleet_board, space_for
from isles.solvers.ships.navigation import Reach
from isles.solvers.ships.voyage import voyage_targets
from isles.solvers.work import Progress

__all__ = ["FleetVoyage", "answer_fleet", "fleet"]


@dataclass(frozen=True, eq=False)
class FleetVoyage:
    """Every ship home at once: the odds within R rolls, the fewest expected rolls, the ports.

    Attributes
    ----------
    status : Status
        ``OPTIMAL`` (the odds are those of the best steering) unless no sequence of
        rolls brings every ship home: ``UNREACHABLE``.
    odds : FleetOdds
        The best chance within every horizon 0..R and the first move's advice.
    navigation : FleetNavigation
        The fewest expected rolls (finite only where ``reach`` is reachable).
    near : tuple of Vertex
        The corners given; their ship edges are among the scoring edges.
    ports : tuple of Port
        The harbours among the scoring edges and what the cargo may be traded for there.
    """

    status: Status
    odds: FleetOdds
    navigation: FleetNavigation
    near: tuple[Vertex, ...]
    ports: tuple[Port, ...]

    @property
    def reach(self) -> Reach:
        """Reachable (surely), trapped (possibly, not surely) or unreachable from the start."""
        return self.navigation.reach()

    @property
    def expected_rolls(self) -> float | None:
        """Fewest expected rolls until every ship scores at once; None unless reachable."""
        return self.navigation.expected_rolls()

    @property
    def at_target(self) -> bool:
        """Whether every ship already stands on a scoring edge (0 rolls: the moment is now)."""
        return all(e in self.odds.scoring for e in self.odds.start)

    def to_dict(self) -> dict[str, Any]:
        """What ``isles sail --json`` prints with several ``--from``.

        Members: ``status``, ``ships``, ``to`` (every scoring edge, sorted),
        ``near`` (corners), ``rolls`` (R), ``may_stay``, ``collision_rollers``,
        ``joint_states``, ``reach``, ``at_target`` (every ship already scores),
        ``expected_rolls`` (null unless reachable),
        ``ports`` (:meth:`isles.models.ships.harbours.Port.to_dict` each), ``odds``
        (:meth:`FleetOdds.to_dict`) and ``navigation`` (:meth:`FleetNavigation.to_dict`).
        """
        return {
            "status": str(self.status),
            "ships": [edge_json(e) for e in self.odds.start],
            "to": [edge_json(e) for e in sorted(self.odds.scoring)],
            "near": [corner_json(v) for v in self.near],
            "rolls": self.odds.rolls,
            "may_stay": self.odds.space.may_stay,
            "collision_rollers": str(self.odds.space.rollers),
            "joint_states": self.odds.joint_states,
            "reach": str(self.reach),
            "at_target": self.at_target,
            "expected_rolls": self.expected_rolls,
            "ports": [p.to_dict() for p in self.ports],
            "odds": self.odds.to_dict(),
            "navigation": self.navigation.to_dict(),
        }


def answer_fleet(question: Fleet, *, progress: Progress = None) -> FleetVoyage:
    """The fleet's voyage a validated :class:`~isles.models.ships.questions.Fleet` asks.

    What :func:`isles.ships.fleet` and ``isles sail`` with two or three ``--from``
    answer. The scoring edges are the targets plus every ship edge at the
    ``near`` corners (:func:`isles.models.ships.fleet.fleet_targets`) and the
    harbours of the kinds asked; harbours among them are ports (seed rule 8).
    One joint table (:func:`~isles.solvers.ships.joint_states.fleet_space`)
    serves :func:`~isles.solvers.ships.fleet_chance.fleet_odds` (the best chance
    within every horizon up to ``within`` rolls, and the first move) and
    :func:`~isles.solvers.ships.fleet_navigation.fleet_navigate` (the fewest
    expected rolls, reachable or trapped).

    Parameters
    ----------
    question : Fleet
        The fleet's voyage asked, validated.
    progress : bool, None or callable
        Bars over the table, the horizon and the policy-iteration rounds
        (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    FleetVoyage

    Raises
    ------
    InvalidInput
        What needs the board: ``ships[i]``, ``targets[i]``, ``near[i]`` or
        ``ports[i]`` not on it, a board too big for the joint table (with its
        count and the limit), ``within`` too long for the table kept, settings
        that disagree with a prebuilt table.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> q = Fleet.ask(board=demo_board(), ships=[((0, 0), (0, 1)), ((1, 1), (1, 2))],
    ...               near=[((0, 1), (0, 2), (1, 1)), ((-1, 0), (0, 0), (-1, 1))], within=10)
    >>> v = answer_fleet(q)
    >>> v.status, v.reach, round(v.odds.probability(), 4), round(v.expected_rolls, 2)
    (<Status.OPTIMAL: 'optimal'>, <Reach.REACHABLE: 'reachable'>, 0.1214, 42.56)
    """
    board = question.board
    plain = fleet_board(board)
    ships = question.ships
    fleet_edges = [check_ship_edge(plain, e, f"ships[{i}]") for i, e in enumerate(ships)]
    targets, corners = voyage_targets(plain, question)
    scoring = fleet_targets(plain, targets, corners)
    size = len(check_fleet(plain, fleet_edges))
    space = space_for(board, size, question.may_stay, question.rollers, progress)
    try:
        odds = fleet_odds(
            space, fleet_edges, scoring, question.within, exact=question.exact, progress=progress
        )
    except InvalidInput as exc:
        if exc.field != "rolls":
            raise
        raise InvalidInput("within", exc.value, exc.expected) from None
    navigation = fleet_navigate(space, fleet_edges, scoring, progress=progress)
    status = Status.UNREACHABLE if navigation.reach() is Reach.UNREACHABLE else Status.OPTIMAL
    return FleetVoyage(
        status=status,
        odds=odds,
        navigation=navigation,
        near=tuple(corners),
        ports=ports(plain, scoring),
    )


def fleet(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[EdgeLike],
    targets: Iterable[EdgeLike] = (),
    *,
    near: Iterable[CornerLike] = (),
    ports: Iterable[str] = (),
    within: int = DEFAULT_FLEET_ROLLS,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    exact: bool = False,
    progress: Progress = None,
) -> FleetVoyage:
    """Bring every ship of a fleet onto a scoring edge at once: the one call of ``isles sail``.

    The scoring edges are ``targets`` plus every ship edge at the ``near``
    corners (:func:`isles.models.ships.fleet.fleet_targets`); harbours among them
    are ports (seed rule 8). One joint table serves the best chance within every
    horizon up to ``within`` rolls, and the first move
    (:func:`isles.solvers.ships.fleet_chance.fleet_odds`), and the fewest expected
    rolls, reachable or trapped
    (:func:`isles.solvers.ships.fleet_navigation.fleet_navigate`).

    Parameters
    ----------
    board : Board, WindGraph or FleetSpace
        The board (its harbours are the ports), or a prebuilt graph or joint table.
    ships : sequence of Edge
        1..3 ship edges (each an ``Edge`` or a pair of hexes).
    targets : iterable of Edge
        Scoring edges.
    near : iterable of Vertex
        Corners of the player's buildings (each a ``Vertex`` or three hexes).
    ports : iterable of str
        Harbour kinds (``generic``, ``wool``, ..., or ``any``): the board's
        harbours of these kinds score too.
    within : int
        The horizon R, 0..MAX_FLEET_ROLLS (the question requires it; this call
        asks 10 rolls when given none).
    may_stay : bool, optional
        The seed's variant (a ship along a coast may stay); default False, or
        the prebuilt graph's or table's setting.
    rollers : Rollers, optional
        Which ships on a crowded edge roll (default ``Rollers.EXCESS``, or the table's).
    exact : bool
        Fractions instead of floats (small tables only).
    progress : bool, None or callable, default None
        Bars over the table, the horizon and the policy-iteration rounds
        (:data:`isles.solvers.work.Progress`; ``isles sail`` on a terminal).

    Returns
    -------
    FleetVoyage

    Raises
    ------
    InvalidInput
        Naming the parameter (``ships[i]``, ``targets[i]``, ``near[i]``,
        ``ports[i]``, ``within``, a board too big for the joint table with its
        count and the limit). The checks of the parameters alone are those of
        the declaration :class:`isles.models.ships.questions.Fleet`.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> v = fleet(demo_board(), [((0, 0), (0, 1)), ((1, 1), (1, 2))],
    ...           near=[((0, 1), (0, 2), (1, 1)), ((-1, 0), (0, 0), (-1, 1))], within=10)
    >>> v.status, v.reach, round(v.odds.probability(), 4), round(v.expected_rolls, 2)
    (<Status.OPTIMAL: 'optimal'>, <Reach.REACHABLE: 'reachable'>, 0.1214, 42.56)
    """
    question = Fleet.ask(
        board=board,
        ships=ships,
        targets=targets,
        near=near,
        ports=ports,
        within=within,
        may_stay=may_stay,
        rollers=rollers,
        exact=exact,
    )
    return answer_fleet(question, progress=progress)
