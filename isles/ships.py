"""Ships under winds (seed 004_644cf972d8964df4.txt; docs/ships.md).

One call per question; each builds its question and answers it:

- :func:`sail` (:class:`Sail`, answered by a :class:`Voyage`): steer one ship to a
  target in the fewest expected rolls (``isles sail --from E``);
- :func:`fleet` (:class:`Fleet`, a :class:`FleetVoyage`): every ship of a fleet of
  2 or 3 on a scoring edge at once: the best chance within R rolls, the fewest
  expected rolls, the first move (``isles sail --from E1 --from E2 ... --within R``);
  :class:`Rollers` says which ships roll in a collision;
- :func:`risk` (:class:`Risk`, a :class:`RiskReport`): collision and pirate odds
  (``isles risk``);
- :func:`convert` (:class:`Convert`, a :class:`Conversion`): a paid ship becoming a
  settlement, soonest (rule 10; ``isles ships convert``);
- :func:`harvest_course` (:class:`Harvest`, a :class:`HarvestOutlook`): the cargo
  picked up on the way (rule 7; ``isles ships harvest``);
- :func:`check_log` (:class:`LogCheck`, a :class:`LogReplay`): replay a log book
  (rule 13; ``isles ships check``), read by :meth:`LogBook.load` or :func:`read_log`;
- :func:`demo_board`: the embedded ships board.

A question object (docs/json.md, "Questions"), built with its ``read`` or
``ask``, is answered by :func:`isles.answer`, as the call of the same name
answers it. This catalogue lists what a user calls; the engine (the wind graph,
the navigation of every edge, the arrival odds, the fleet's dynamic programmes,
the ports, the pirate's reach) stays reachable under :mod:`isles.solvers.ships`
(its modules are listed there) and the rules under :mod:`isles.models.ships`.

Examples
--------
>>> from isles import ships
>>> board = ships.demo_board()
>>> v = ships.sail(board, ((0, 1), (0, 2)), near=[((0, 2), (0, 3), (1, 2))])
>>> v.status, round(v.expected_rolls, 2), v.to_dict()["arrival_within"][0]["rolls"]
(<Status.OPTIMAL: 'optimal'>, 34.11, 5)
>>> ships.risk(cargo=3, encounters=1).to_dict()["cargo_outlook"]["pirate"]["sunk_exact"]
'1/12'

Two ships home at once, next to red's settlements, within 10 rolls:

>>> f = ships.fleet(board, [((0, 0), (0, 1)), ((1, 1), (1, 2))],
...                 near=[((0, 1), (0, 2), (1, 1)), ((-1, 0), (0, 0), (-1, 1))], within=10)
>>> round(f.odds.probability(), 4), f.reach.value, round(f.expected_rolls, 2)
(0.1214, 'reachable', 42.56)

A ship lacking brick for its settlement, with and without the variant:

>>> c = ships.convert(board, ((0, 1), (0, 2)), "brick")
>>> round(c.expected_rolls, 2), str(c.best_spot.edge)
(42.87, '-1,3:0,3')
>>> round(ships.convert(board, ((0, 1), (0, 2)), "brick", on_turn=True).expected_rolls, 2)
31.59

The cargo on the way to a settlement, and a log book replayed:

>>> h = ships.harvest_course(board, ((1, 1), (1, 2)), near=[((0, 2), (0, 3), (1, 2))],
...                          player="red", rolls=10)
>>> round(float(h.expected_cargo), 3)
0.647
>>> log = ships.read_log({"player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
...                       "rolls": [{"roll": 2, "events": [
...                           {"event": "wind", "ship": 1, "to": [[-1, 1], [0, 1]]}]}]})
>>> ships.check_log(board, log).status
<Status.EXACT: 'exact'>

The same question, asked as an object:

>>> import isles
>>> isles.answer(ships.Sail.read({"board": board, "start": [[0, 1], [0, 2]],
...                               "near": [[[0, 2], [0, 3], [1, 2]]]})).to_dict() == v.to_dict()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from isles.models.catan import Board, Resource
from isles.models.ships.demo import demo_board
from isles.models.ships.fleet import Rollers
from isles.models.ships.logbook import LogBook, read_log
from isles.models.ships.questions import (
    DEFAULT_FLEET_ROLLS,
    DEFAULT_HORIZONS,
    Convert,
    Fleet,
    Harvest,
    LogCheck,
    Risk,
    Sail,
)
from isles.solvers.ships.conversion import Conversion, answer_convert
from isles.solvers.ships.fleet import FleetVoyage, answer_fleet
from isles.solvers.ships.graph import WindGraph
from isles.solvers.ships.harvest import HarvestOutlook, answer_harvest
from isles.solvers.ships.joint_states import FleetSpace
from isles.solvers.ships.logbook import LogReplay, answer_log_check
from isles.solvers.ships.risk import RiskReport, answer_risk
from isles.solvers.ships.voyage import Voyage, answer_sail
from isles.solvers.work import Progress

__all__ = [
    "Conversion",
    "Convert",
    "Fleet",
    "FleetVoyage",
    "Harvest",
    "HarvestOutlook",
    "LogBook",
    "LogCheck",
    "LogReplay",
    "Risk",
    "RiskReport",
    "Rollers",
    "Sail",
    "Voyage",
    "check_log",
    "convert",
    "demo_board",
    "fleet",
    "harvest_course",
    "read_log",
    "risk",
    "sail",
]


def sail(
    board: Board | WindGraph,
    start: object,
    targets: Iterable[object] = (),
    *,
    near: Iterable[object] = (),
    ports: Iterable[str] = (),
    may_stay: bool = False,
    players: int = 4,
    within: Iterable[int] = DEFAULT_HORIZONS,
    progress: Progress = False,
) -> Voyage:
    """Steer a ship from ``start`` to the targets in the fewest expected rolls of 2d6.

    The one call behind ``isles sail``: the target set, the navigation, the
    steering at the start, the exact odds of arriving within a few rolls, and the
    rounds of play this takes.

    Parameters
    ----------
    board : Board or WindGraph
        The board (or its prebuilt wind graph, whose own ``may_stay`` then holds).
    start : Edge
        The ship's edge (an ``Edge`` or a pair of hexes ``((q, r), (q, r))``).
    targets : iterable of Edge
        Target edges.
    near : iterable of Vertex
        Settlement corners: the coast edges next to each are targets too (seed
        rule 5).
    ports : iterable of str
        Harbour kinds (``generic``, ``wool``, ..., or ``any``): the board's
        harbours of these kinds are targets too (seed rule 8).
    may_stay : bool
        The seed's variant: a ship along a coast may stay.
    players : int
        Players at the table, 3..6: one roll per player turn.
    within : iterable of int
        Horizons, in rolls, of the arrival odds (each in 0..MAX_WITHIN).
    progress : bool, None or callable
        A bar over the policy-iteration rounds and the rolls of the exact odds
        (:data:`isles.solvers.work.Progress`; ``isles sail`` on a terminal).

    Returns
    -------
    Voyage
        Its ``status`` says what it is: ``optimal``, ``feasible``,
        ``unreachable`` or ``infeasible`` (trapped).

    Raises
    ------
    InvalidInput
        Naming the parameter: ``players`` not in 3..6, a horizon out of range,
        ``start`` or ``targets[i]`` not a ship edge of the board, ``near[i]``
        next to no coast, ``ports[i]`` a kind of harbour the board has not, no
        target at all, a board without ship edges, or ``may_stay`` against a
        prebuilt graph built without it. The checks of the parameters alone are
        those of the declaration :class:`isles.models.ships.questions.Sail`.

    See Also
    --------
    isles.solvers.ships.voyage.answer_sail : how it is answered (the method, its references).
    isles.solvers.ships.navigation.navigate : the values and steering from every edge.
    isles.solvers.ships.arrival.arrival_distribution : the whole arrival-roll distribution.

    Notes
    -----
    docs/ships.md, "What the navigator answers". The expected rolls are floats
    from sparse policy iteration (Howard 1960; Bertsekas and Tsitsiklis 1991);
    ``error_bound`` bounds their error from the Bellman residual. The arrival
    odds are exact Fractions for the steering found. When ``start`` is a target
    the answer is 0 rolls, no steering, arrival certain.

    Examples
    --------
    >>> v = sail(demo_board(), ((0, 2), (1, 2)), near=[((0, 2), (0, 3), (1, 2))])
    >>> v.status, round(v.expected_rolls, 2), v.arrival_within[0]
    (<Status.OPTIMAL: 'optimal'>, 7.2, (5, Fraction(31837025, 60466176)))
    >>> sail(demo_board(), ((0, 2), (0, 3)), [((0, 2), (0, 3))]).expected_rolls
    0.0
    """

    question = Sail.ask(
        board=board,
        start=start,
        targets=targets,
        near=near,
        ports=ports,
        may_stay=may_stay,
        players=players,
        within=within,
    )
    return answer_sail(question, progress=progress)


def fleet(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[object],
    targets: Iterable[object] = (),
    *,
    near: Iterable[object] = (),
    ports: Iterable[str] = (),
    within: int = DEFAULT_FLEET_ROLLS,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    exact: bool = False,
    progress: Progress = False,
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
    progress : bool, None or callable
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


def risk(
    cargo: int = 3,
    encounters: int = 1,
    *,
    board: Board | None = None,
    pirate: object = None,
    edge: object = None,
    rolls: int | None = None,
    may_stay: bool = False,
    progress: Progress = False,
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
    progress : bool, None or callable
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


def convert(
    board: Board | WindGraph,
    start: object,
    missing: Resource | str,
    *,
    on_turn: bool = False,
    players: int = 4,
    rolls_to_turn: int = 0,
    may_stay: bool = False,
    within: Iterable[int] = DEFAULT_HORIZONS,
    max_iterations: int = 1000,
    progress: Progress = False,
) -> Conversion:
    """Steer a paid ship to become a settlement in the fewest expected rolls (seed rule 10).

    The player has paid three of the four settlement cards; the ship becomes a
    settlement as soon as a roll shows the number of the land hex it lies along,
    when that hex yields the missing card (a gold hex yields any). The roll finds
    the ship where it stood before the roll (resources before the ships move).
    Under the variant ``on_turn`` the ship also converts on its owner's turn when
    it stands on a spot after that turn's move.

    Parameters
    ----------
    board : Board or WindGraph
    start : Edge
        The ship's edge.
    missing : Resource
        The settlement card not paid (lumber, brick, wool or grain; any resource
        is accepted).
    on_turn : bool
        The seed's variant of rule 10 ("automatique ... lorsqu'il est en phase").
    players : int
        Players, 3..6: the owner rolls every ``players`` rolls (with ``on_turn``).
    rolls_to_turn : int
        Rolls before the owner's own roll, 0..players-1 (with ``on_turn``).
    may_stay : bool
        The seed's variant of rule 6: a ship along a coast may stay.
    within : iterable of int
        Horizons of the exact conversion odds, 0..MAX_WITHIN.
    max_iterations : int
        Cap on policy-iteration rounds (status ``timed_out`` if hit).
    progress : bool, None or callable
        A bar over the solves, one per spot (:data:`isles.solvers.work.Progress`;
        ``isles ships convert`` on a terminal).

    Returns
    -------
    Conversion

    Raises
    ------
    InvalidInput
        Naming the parameter: ``start`` not a ship edge, ``missing`` not a
        resource, ``players`` or ``rolls_to_turn`` out of range, a horizon out of
        range, no spot on the board for ``missing``; ``board`` when the solves
        would take more than ``MAX_CONVERSION_STATES`` states (ship edges, times
        ``players`` with ``on_turn``, times one plus the spots), with the count
        and the limit, before any work. The checks of the parameters alone are
        those of the declaration :class:`isles.models.ships.questions.Convert`.

    Notes
    -----
    A stochastic shortest path (docs/ships.md): states are edges, and with
    ``on_turn`` pairs (edge, rolls to the owner's turn). ``V(s) = 1 + sum_n P(n)
    [0 if n converts s, else min over the allowed moves of V(s')]``, where a move
    onto a spot on the owner's turn ends the attempt under the variant. Policy
    iteration (Howard 1960) from the proper policy "the option fewest steps from
    converting", one sparse LU solve per round; ``error_bound`` is the Bellman
    residual times the largest value. The spots' table repeats the solve with
    one spot at a time. The odds within ``k`` rolls are exact Fractions for the
    steering found.

    References
    ----------
    Howard, R. A. (1960). *Dynamic Programming and Markov Processes*. Bertsekas,
    D. P. & Tsitsiklis, J. N. (1991), stochastic shortest paths. Rules:
    docs/ships.md; seed 004_644cf972d8964df4.txt, rule 10.

    Examples
    --------
    >>> c = convert(demo_board(), ((0, 1), (0, 2)), "brick")
    >>> c.status, round(c.expected_rolls, 2), str(c.best_spot.edge)
    (<Status.OPTIMAL: 'optimal'>, 42.87, '-1,3:0,3')
    >>> round(convert(demo_board(), ((0, 1), (0, 2)), "brick", on_turn=True).expected_rolls, 2)
    31.59
    """
    question = Convert.ask(
        board=board,
        start=start,
        missing=missing,
        on_turn=on_turn,
        players=players,
        rolls_to_turn=rolls_to_turn,
        may_stay=may_stay,
        within=within,
        max_iterations=max_iterations,
    )
    return answer_convert(question, progress=progress)


def harvest_course(
    board: Board,
    start: object,
    targets: Iterable[object] = (),
    *,
    near: Iterable[object] = (),
    player: str,
    rolls: int,
    start_cargo: int = 0,
    may_stay: bool = False,
    progress: Progress = False,
) -> HarvestOutlook:
    """The exact cargo of a ship steered to the targets, after ``rolls`` rolls (seed rule 7).

    The course is the navigator's: the steering that reaches the targets in the
    fewest expected rolls (:func:`isles.solvers.ships.navigation.navigate`). On each roll
    the ship first takes a card if :func:`isles.models.ships.settlements.harvest` allows it
    (the land hex it lies along carries the roll; no enemy building touches the
    hex, no enemy road runs along the edge, at most one building around the
    hex: the board's ``buildings`` and ``roads``); a fourth card sends one
    overboard; then the wind moves it. The voyage ends on a target: the cargo is
    counted there.

    Parameters
    ----------
    board : Board
        The board, with the players' buildings and roads (docs/boards.md).
    start : Edge
    targets, near
        As :func:`sail`.
    player : str
        The ship's owner, one of ``board.players()`` (spelt as the board file
        does); any name on a board that names no player (no buildings, no
        roads: rule 7 then involves no owner).
    rolls : int
        0..MAX_WITHIN.
    start_cargo : int
        Cards on board at the start, 0..3.
    may_stay : bool
        The seed's variant of rule 6.
    progress : bool, None or callable
        A bar over the navigation's rounds and the rolls
        (:data:`isles.solvers.work.Progress`; ``isles ships harvest`` on a terminal).

    Returns
    -------
    HarvestOutlook

    Raises
    ------
    InvalidInput
        Naming the parameter (``start``, ``targets[i]``, ``near[i]``, ``rolls``,
        ``start_cargo``, ``player``: also a player the board does not name, with
        the players it names). The checks of the parameters alone are those of
        the declaration :class:`isles.models.ships.questions.Harvest`.

    Notes
    -----
    Forward dynamic programming over (edge, cards on board), in integers over
    ``36**t``: exact Fractions. docs/ships.md, "Harvest on a course".

    Examples
    --------
    >>> out = harvest_course(demo_board(), ((1, 1), (1, 2)), near=[((0, 2), (0, 3), (1, 2))],
    ...                      player="red", rolls=10)
    >>> round(float(out.expected_cargo), 4), round(float(out.arrived), 4)
    (0.6474, 0.2084)
    """
    question = Harvest.ask(
        board=board,
        start=start,
        targets=targets,
        near=near,
        player=player,
        rolls=rolls,
        start_cargo=start_cargo,
        may_stay=may_stay,
    )
    return answer_harvest(question, progress=progress)


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
