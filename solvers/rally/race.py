"""A Race answered: two to four cars under the same rolls; who is likely to arrive first?

Implements docs/rally.md ("The race"; seed 002_8684547a41c0941c.txt). Each car
is a player of the board file with their buildings, a start and their goals;
each plays its own committed-routes policy of :func:`isles.rally.plan_income`
(``method="route"``: the fewest expected turns alone within the restrictions it
lists, even where the whole policy space would fit; it does not react to the
other cars). Where the cars' joint chain fits (``method="auto"``) the chances are
computed exactly (:mod:`~isles.solvers.rally.race_exact`); else the game is
played out by Monte Carlo, every game's rolls shared by all the cars in turn
order, vectorised over the games in NumPy; each car's chance of arriving first
comes with a 95% Wilson interval [1]_. Seeded: the same question gives the same
answer.

References
----------
.. [1] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", Journal of the American Statistical Association
   22(158), 209-212, 1927.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.rally.questions import MAX_JOINT_STATES, Car, Race, RaceMethod, Switch
from isles.models.rally.rules import TradeMode
from isles.models.status import Status
from isles.solvers.rally.income import solve_income
from isles.solvers.rally.income_plan import IncomePlan
from isles.solvers.rally.race_exact import exact_answer
from isles.solvers.rally.race_result import RaceCar, RaceResult, wilson_interval
from isles.solvers.rally.simulation import CarState, policy_of
from isles.solvers.work import Bar, Deadline, Progress

__all__ = ["BATCH", "answer_race", "race_cars"]

#: Games simulated at once (one vectorised batch).
BATCH = 2_000
#: The question's fields, whose defaults the keyword form reads.
_RACE = Race.model_fields


def answer_race(race: Race, *, progress: Progress = None) -> RaceResult:
    """The answer to a validated :class:`~isles.models.rally.questions.Race` (:func:`race_cars`).

    Parameters
    ----------
    race : Race
        The question (``Race.read`` or ``Race.ask``), its cars checked on its board.
    progress : bool, None or callable
        A bar over the games of the Monte Carlo (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    RaceResult

    Raises
    ------
    InvalidInput
        Naming ``cars[i]``: a car whose plan cannot be made (too many card
        states); naming ``method``: ``exact`` asked for a joint chain too big.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8), (1, 1): Tile(Terrain.HILLS, 5)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red"),
    ...                          vertex((1, 0), (2, 0), (1, 1)): Building("blue")})
    >>> race = Race.read({"board": board, "cars": ["red:0,0:2,0", "blue:0,0:2,0"],
    ...                   "trade": "none", "method": "monte_carlo", "games": 500})
    >>> result = answer_race(race, progress=False)
    >>> str(result.status), result.games, [car.player for car in result.cars]
    ('estimate', 500, ['red', 'blue'])
    """
    # The time limit counts from here; perf_counter, read through this module's time.
    deadline = Deadline(race.time_limit, clock=time.perf_counter)
    plans = _car_plans(race)
    if race.method != "monte_carlo":
        exact = exact_answer(race, plans, deadline)
        if exact is not None:
            return exact
        if race.method == "exact":
            raise InvalidInput(
                "method",
                race.method,
                "auto or monte_carlo: the cars' joint chain has over "
                f"{MAX_JOINT_STATES:,} states, or outlasts --time-limit",
            )
    winner, arrived, status = _monte_carlo(race, plans, deadline, progress)
    return _result(race, plans, winner, arrived, status, deadline)


def _car_plans(race: Race) -> list[IncomePlan]:
    """Each car's own plan, its policy what the games play."""
    plans: list[IncomePlan] = []
    # The cars' owners, starts and goals were checked as the question was read (Race).
    for i, car in enumerate(race.cars):
        try:
            plan = solve_income(
                race.board,
                car.player,
                car.start,
                car.goals,
                players=race.players,
                trade=race.trade,
                discard=race.discard == "on",
                value_only=True,  # the policy is what the games play
            )
        except InvalidInput as exc:  # the car's plan refused (too big): named as the car's
            raise InvalidInput(
                f"cars[{i}]", car.text, f"{exc.field}: {exc.expected}", problem=exc.problem
            ) from None
        plans.append(plan)
    return plans


def _monte_carlo(
    race: Race, plans: list[IncomePlan], deadline: Deadline, progress: Progress
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Status]:
    """The games, a batch at a time until they are played or the time is up: each game's
    winner (-1: none), each car's arrival turn in each game, and the status."""
    discard = race.discard == "on"
    rng = np.random.default_rng(race.seed)
    winners: list[npt.NDArray[np.int64]] = []
    arrivals: list[npt.NDArray[np.int64]] = []
    done = 0
    status = Status.ESTIMATE
    with Bar(race.games, "rally race", progress, unit="game") as bar:
        while done < race.games:
            if deadline.passed():
                status = Status.TIMED_OUT
                break
            n = min(BATCH, race.games - done)
            cars = [CarState(policy_of(p), n) for p in plans]
            w, a = _batch(cars, race.players, discard, race.turns, rng)
            winners.append(w)
            arrivals.append(a)
            done += n
            bar.update(n)
    winner = np.concatenate(winners) if winners else np.zeros(0, np.int64)
    arrived = np.concatenate(arrivals, axis=1) if arrivals else np.zeros((len(plans), 0), np.int64)
    return winner, arrived, status


def _batch(
    cars: list[CarState], players: int, discard: bool, turns: int, rng: np.random.Generator
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One batch of games: (winner seat per game, -1: none; arrival turns (cars, games))."""
    games = len(cars[0].pos)
    winner = np.full(games, -1, np.int64)
    for turn in range(1, turns + 1):
        for seat in range(players):
            rolls = rng.integers(1, 7, games) + rng.integers(1, 7, games)
            for car in cars:
                car.roll(rolls, discard)
            if seat < len(cars):
                arrived = cars[seat].decide(turn, rng)
                winner[arrived & (winner < 0)] = seat
        if all(not (car.pos >= 0).any() for car in cars):
            break
    return winner, np.stack([car.arrived for car in cars])


def _result(
    race: Race,
    plans: list[IncomePlan],
    winner: npt.NDArray[np.int64],
    arrived: npt.NDArray[np.int64],
    status: Status,
    deadline: Deadline,
) -> RaceResult:
    """The games' answer: each car's wins, share, interval and arrival turns."""
    done = len(winner)
    out = []
    for seat, plan in enumerate(plans):
        wins = int((winner == seat).sum())
        turn = arrived[seat]
        hit = turn[turn > 0]
        counts = np.bincount(hit, minlength=race.turns + 1)[1:]
        # No game played (the time limit came first): every chance absent, never 0.
        within: tuple[float | None, ...] = (
            tuple(float(x) for x in np.cumsum(counts) / done) if done else (None,) * race.turns
        )
        out.append(
            RaceCar(
                plan.player,
                plan.start,
                plan.goals,
                plan,
                wins,
                wins / done if done else None,
                wilson_interval(wins, done) if done else None,
                float(hit.mean()) if len(hit) else None,
                within,
            )
        )
    restrictions = sorted({"own_policy", *(r for p in plans for r in p.restrictions)})
    return RaceResult(
        status,
        done,
        race.games,
        race.seed,
        race.players,
        race.trade,
        race.discard == "on",
        race.turns,
        tuple(out),
        int((winner < 0).sum()),
        tuple(restrictions),
        deadline.elapsed(),
        race.time_limit,
    )


def race_cars(
    board: Board,
    cars: Iterable[Car | str | Mapping[str, object]],
    *,
    players: int = _RACE["players"].default,
    trade: TradeMode = _RACE["trade"].default,
    discard: Switch = _RACE["discard"].default,
    method: RaceMethod = _RACE["method"].default,
    games: int = _RACE["games"].default,
    seed: int = _RACE["seed"].default,
    turns: int = _RACE["turns"].default,
    time_limit: float = _RACE["time_limit"].default,
    progress: Progress = None,
) -> RaceResult:
    """Each car's chance of arriving first, under the same rolls (docs/rally.md, "The race").

    Parameters
    ----------
    board : Board
        With the players' buildings (and roads, harbours) from the board file.
    cars : iterable of Car, str or mapping
        2..4 cars in seat order, each ``"PLAYER:Q,R"`` or a mapping
        ``{"player": ..., "start": [q, r], "goals": [[q, r], ...]}`` (goals
        optional: the land opposite the start group).
    players : int
        3..6 players at the table, at least the cars (the others only roll).
        Every default is the declaration's (:class:`isles.models.rally.questions.Race`).
    trade : {"none", "bank", "harbours"}
    discard : {"on", "off"}
        The 7-card rule.
    method : {"auto", "exact", "monte_carlo"}
        ``auto``: exact (:mod:`isles.solvers.rally.race_exact`, status
        ``exact``) where the cars' joint chain has at most
        ``MAX_JOINT_STATES`` states, else Monte Carlo; ``exact``: refused
        beyond; ``monte_carlo``: always the games.
    games : int
        Games to play (Monte Carlo), 1..1,000,000.
    seed : int
        The random generator's seed (the same seed, the same answer).
    turns : int
        Rounds played at most in a game (1..1000).
    time_limit : float
        Seconds; the games played by then are the answer (``timed_out``).
    progress : bool, None or callable
        A bar over the games (:data:`isles.solvers.work.Progress`; None: on a
        terminal, once the games have taken a second).

    Returns
    -------
    RaceResult

    Raises
    ------
    InvalidInput
        Naming the parameter; the checks are those of the declaration
        :class:`isles.models.rally.questions.Race`, then the board's (a
        player, a start, goals).

    Notes
    -----
    Each car's policy is its own of :func:`isles.rally.plan_income` with ``method="route"``
    (committed routes, even where the whole space would fit), solved once; the
    games then cost a few NumPy operations per car and turn over a batch of
    2,000 games. The tie rule is :data:`~isles.solvers.rally.race_result.TIE_RULE`.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8), (1, 1): Tile(Terrain.HILLS, 5)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red"),
    ...                          vertex((1, 0), (2, 0), (1, 1)): Building("blue")})
    >>> cars = [{"player": "red", "start": (0, 0), "goals": [(2, 0)]},
    ...         {"player": "blue", "start": (0, 0), "goals": [(2, 0)]}]
    >>> race = race_cars(board, cars, trade="none", method="monte_carlo", games=2000, seed=1)
    >>> str(race.status), race.games, [c.player for c in race.cars]
    ('estimate', 2000, ['red', 'blue'])
    >>> sum(c.wins for c in race.cars) + race.no_winner
    2000
    >>> exact = race_cars(board, cars, trade="none")  # the joint chain fits: exact
    >>> str(exact.status), [round(c.first, 4) for c in exact.cars]
    ('exact', [0.8585, 0.1415])
    """
    race = Race.ask(
        board=board,
        cars=cars if isinstance(cars, str) else list(cars),  # one car typed: refused, named
        players=players,
        trade=trade,
        discard=discard,
        method=method,
        games=games,
        seed=seed,
        turns=turns,
        time_limit=time_limit,
    )
    return answer_race(race, progress=progress)
