"""Every ship of a fleet home at once (``isles sail`` with two or three ``--from``): the best
chance within R rolls, the fewest expected rolls, the first move, the ports.

Implements docs/ships.md ("The fleet", "Ports"; seed 004_644cf972d8964df4.txt, rules
6, 8 and 11 and the end of the game): the answer to :class:`Fleet`, from one joint
table valued twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.hexgrid import Vertex
from isles.models.jsonio import corner_json, edge_json
from isles.models.ships.fleet import check_fleet, fleet_targets
from isles.models.ships.harbours import Port, ports
from isles.models.ships.questions import Fleet
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.fleet_chance import FleetOdds, fleet_odds
from isles.solvers.ships.fleet_navigation import FleetNavigation, fleet_navigate
from isles.solvers.ships.joint_states import fleet_board, space_for
from isles.solvers.ships.navigation import Reach
from isles.solvers.ships.voyage import voyage_targets
from isles.solvers.work import Progress

__all__ = ["FleetVoyage", "answer_fleet"]


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
