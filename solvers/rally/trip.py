"""A Trip answered: a car's best route from its hex, or the best start of every group.

Implements docs/rally.md ("What the planner minimises", "The best start",
"Answers"; seed 002_8684547a41c0941c.txt): the keyword forms of the question
:class:`~isles.models.rally.questions.Trip` (:func:`plan_route`,
:func:`choose_start`) and :func:`answer_trip`, what ``isles.answer`` calls.

References
----------
.. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
   Numerische Mathematik 1, 269-271, 1959.
.. [2] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic
   determination of minimum cost paths", IEEE Transactions on Systems Science
   and Cybernetics 4(2), 100-107, 1968 (A*).
.. [3] S. Irnich, G. Desaulniers, "Shortest path problems with resource
   constraints", in Column Generation, Springer, 33-65, 2005 (label setting
   over Pareto labels).
.. [4] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for scientific
   computing in Python", Nature Methods 17, 261-272, 2020
   (``scipy.sparse.csgraph``).
.. [5] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network structure,
   dynamics, and function using NetworkX", SciPy 2008.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.rally.questions import Trip
from isles.models.rally.rules import Objective
from isles.solvers.rally.graph import RallyGraph, Road
from isles.solvers.rally.planner import route_of
from isles.solvers.rally.route import Route
from isles.solvers.rally.start import StartChoice, best_start
from isles.solvers.work import Progress

__all__ = ["CardCounts", "CardValues", "answer_trip", "choose_start", "plan_route"]

#: Card values as a caller gives them: by resource or by its name.
CardValues = Mapping[Resource, float | int | Fraction] | Mapping[str, float | int | Fraction]
#: Cards per resource as a caller gives them: by resource or by its name.
CardCounts = Mapping[Resource, int] | Mapping[str, int]


def answer_trip(trip: Trip, *, progress: Progress = None) -> Route | StartChoice:
    """The answer to a validated :class:`Trip`: its car's route, or without a start the best start.

    Parameters
    ----------
    trip : Trip
        The question (``Trip.read`` or ``Trip.ask``).
    progress : bool, None or callable
        As :data:`isles.solvers.work.Progress`: a bar over a budget search's
        seconds, or over the start groups.

    Returns
    -------
    Route or StartChoice
        :class:`Route` for a trip with a ``start`` (as :func:`plan_route`),
        :class:`StartChoice` without (as :func:`choose_start`).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> answer_trip(Trip.read({"board": beginner_board(), "start": (0, -3)})).total_cards
    24
    >>> str(answer_trip(Trip.read({"board": beginner_board()})).route.start)
    '2,-3'
    """
    if trip.start is None:
        return best_start(trip, progress=progress)
    return route_of(trip, progress=progress)


def plan_route(
    board: Board | RallyGraph,
    start: tuple[int, int],
    goals: Sequence[tuple[int, int]] | None = None,
    roads: Iterable[Road] = (),
    objective: Objective = "cards",
    values: CardValues | None = None,
    budget: CardCounts | None = None,
    group: Sequence[tuple[int, int]] | None = None,
    time_limit: float | None = None,
    player: str | None = None,
    progress: Progress = None,
) -> Route:
    """Plan a car's best route from ``start`` to the nearest of ``goals``.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (a graph prebuilt by :func:`isles.solvers.rally.graph.build_graph`
        skips the build; then ``roads`` must be empty, the graph's own roads apply).
    start : (q, r)
        The car's hex: a rim start at the beginning of the game (a sea hex on
        the board's rim next to land), or any hex of a car under way.
    goals : sequence of (q, r), optional
        Land hexes. Default (docs/rally.md, "Start groups and goals"): the
        land next to the rim starts opposite the start group
        (:func:`isles.models.rally.rim.default_goals` of ``group``, itself
        defaulting to :func:`isles.models.rally.rim.start_group` of a rim start).
        Required when ``start`` is not a rim start and no ``group`` is given.
    roads : iterable of edges
        The player's own roads (halve the cost of crossing them, rounded up).
    objective : "cards" | "turns" | "expected_turns" | "weighted"
        Routes are ordered by three keys, compared in turn:

        - ``cards``: cards, moves, expected turns;
        - ``turns``: moves, cards, expected turns;
        - ``expected_turns``: expected turns (each desert exit try is a turn;
          a roll of ``<= n`` succeeds), cards, moves;
        - ``weighted``: total card value (``values``; gold paid in the least
          valued resource), moves, expected turns.
    values : mapping resource -> number, optional
        Card values in ``0..MAX_CARD_VALUE`` for ``weighted`` only (default 1
        each; floats are read exactly from their decimal text); see
        :func:`isles.models.rally.rules.card_values`.
    budget : mapping resource -> int, optional
        Cards the player can spend (hand plus fuel reserve) per resource: the
        best route payable now (see Notes). Gold may be paid from any one
        resource; the search tries each.
    group : sequence of (q, r), optional
        The start group (sea hexes) to take the default goals from, only
        without ``goals``; a sea ``start`` joins it.
    time_limit : float, optional
        Seconds allowed for a budget search (None: the declared default,
        :data:`isles.models.rally.questions.DEFAULT_TIME_LIMIT`, 60 s); past it
        the answer is ``timed_out``. Only with ``budget``: the searches
        without a budget always finish in near-linear time.
    player : str, optional
        A player named by the board: their roads on the board are their own
        (added to ``roads``).
    progress : bool, None or callable, default None
        A bar over a budget search's seconds (:data:`isles.solvers.work.Progress`):
        True on stderr at once, None on a terminal once the search has taken a
        second.

    Returns
    -------
    Route
        Status ``optimal``, or ``unreachable`` / ``unaffordable`` /
        ``timed_out`` (see :class:`Route`).

    Raises
    ------
    InvalidInput
        Naming the parameter: an off-board or malformed start; a goal off the
        board or on the sea; no goals for a start that is not a rim start; an
        unknown objective or resource; ``values`` without ``weighted``, or a
        value that is not a number in ``0..MAX_CARD_VALUE``; a negative or
        fractional budget; a bad road or group; ``group`` with ``goals``; a
        time limit that is not a number of seconds > 0, or without ``budget``;
        a player the board does not name. The checks of the parameters alone
        are those of the declaration :class:`isles.models.rally.questions.Trip`.

    See Also
    --------
    isles.rally.cost_field : the cheapest costs to every hex at once.

    Notes
    -----
    All answers are exact. ``cards`` and ``turns`` run Dijkstra [1]_ on the
    CSR form (SciPy csgraph [4]_, the first two keys packed into one exact
    integer weight), then pick the least expected turns among the tied
    shortest paths by dynamic programming over their DAG; the other
    objectives run Dijkstra over exact Fraction keys on the NetworkX graph
    [5]_. A budget turns the question into a resource-constrained shortest
    path: a label-setting search [3]_ over Pareto labels (keys, cards spent
    per resource), ordered as in A* [2]_ by exact lower bounds (a backward
    Dijkstra from the goals). Ties on all three keys go to the hex earliest
    in board order, so the same query always returns the same route.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.
    .. [2] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the
       heuristic determination of minimum cost paths", IEEE Transactions on
       Systems Science and Cybernetics 4(2), 100-107, 1968.
    .. [3] S. Irnich, G. Desaulniers, "Shortest path problems with resource
       constraints", in Column Generation, Springer, 33-65, 2005.
    .. [4] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for
       scientific computing in Python", Nature Methods 17, 261-272, 2020.
    .. [5] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network
       structure, dynamics, and function using NetworkX", SciPy 2008.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> r = plan_route(beginner_board(), (0, -3), goals=[(0, 0)])
    >>> str(r.status), [str(h) for h in r.path], r.total_cards
    ('optimal', ['0,-3', '0,-2', '0,-1', '0,0'], 16)
    >>> plan_route(beginner_board(), (1, -1))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: goals: required: the car's start is not a rim start, ...
    """
    # The parameters, as given, are the question's fields (isles.models.rally.questions.Trip).
    trip = Trip.ask(
        board=board,
        start=start,
        goals=goals,
        roads=roads,
        objective=objective,
        values=values,
        budget=budget,
        group=group,
        time_limit=time_limit,
        player=player,
    )
    return route_of(trip, progress=progress)


def choose_start(
    board: Board | RallyGraph,
    roads: Iterable[Road] = (),
    objective: Objective = "cards",
    values: CardValues | None = None,
    budget: CardCounts | None = None,
    group: Sequence[tuple[int, int]] | None = None,
    time_limit: float | None = None,
    progress: Progress = None,
    player: str | None = None,
) -> StartChoice:
    """The best start of a car: every start group of the board, its best car, the best of all.

    Before the race each player puts a car on one of the four adjacent rim
    sea hexes of the start group (seed 002, "MISE EN PLACE"). For each start
    group of the board (:func:`isles.models.rally.rim.start_groups`: one per rim
    start, in rim order), or only for ``group``, this plans the route of the
    car on each of its hexes to the group's default goals
    (:func:`isles.models.rally.rim.default_goals`) and keeps the best car; the
    answer's :attr:`StartChoice.route` is the best of all groups.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (a base or 5-6 player board in its sea frame, or any board
        with sea on its rim next to land).
    roads, objective, values, budget
        As for :func:`plan_route`; routes are compared by the objective's
        three keys, a route that reaches a goal before one that does not.
    group : sequence of (q, r), optional
        One start group (sea hexes of the board) instead of all of them:
        which of its hexes is the best start.
    time_limit : float, optional
        Seconds allowed for the whole search (None: the declared default,
        60 s); past it the answer is ``timed_out``.
    progress : bool, None or callable, default None
        A bar over the groups (:data:`isles.solvers.work.Progress`): True on
        stderr at once, None on a terminal once the search has taken a second.
    player : str, optional
        As for :func:`plan_route`.

    Returns
    -------
    StartChoice
        One :class:`GroupPlan` per group; ties go to the car and then the
        group earliest in rim order.

    Raises
    ------
    InvalidInput
        As :func:`plan_route`, and naming ``board`` when the board has no rim
        start (no sea hex on its rim next to land: nowhere to start) and no
        ``group`` is given; naming ``group[i]`` for a hex that is not a sea
        hex of the board.

    See Also
    --------
    plan_route : the best route of one car.

    Notes
    -----
    One :func:`plan_route` per car and group, exact as it is; on the integer
    objectives a car's cheapest costs (one Dijkstra [1]_) serve every group
    the car belongs to. A board of ``R`` rim starts costs about ``R``
    searches: well under a second on a base or 5-6 player board.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> choice = choose_start(beginner_board(), objective="expected_turns")
    >>> str(choice.status), [str(h) for h in choice.group], str(choice.route.start)
    ('optimal', ['2,-3', '1,-3', '0,-3', '-1,-2'], '2,-3')
    >>> float(choice.route.expected_turns), choice.route.total_cards
    (4.0, 14)
    """
    given = {k: v for k, v in locals().items() if k != "progress"}
    return best_start(Trip.ask(**given), progress=progress)
