"""The race: two to four cars under the same rolls; who is likely to arrive first?

Implements docs/rally.md ("The race"; seed 002_8684547a41c0941c.txt). Each car
is a player of the board file with their buildings, a start and their goals;
each plays its own committed-routes policy of :func:`isles.rally.plan_income`
(``method="route"``: the fewest expected turns alone within the restrictions it
lists, even where the whole policy space would fit; it does not react to the
other cars). The game is played
out by Monte Carlo, every game's rolls shared by all the cars in turn order,
vectorised over the games in NumPy; each car's chance of arriving first comes
with a 95% Wilson interval [1]_. Seeded: the same question gives the same
answer. Where the cars' joint chain fits (``method="auto"``), the chances are
computed exactly instead (:mod:`isles.solvers.rally.race_exact`).

References
----------
.. [1] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", Journal of the American Statistical Association
   22(158), 209-212, 1927.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.catan import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.jsonio import float_or_none, hex_json
from isles.models.rally.questions import MAX_JOINT_STATES
from isles.models.rally.rules import HAND_LIMIT, ROLLS
from isles.models.status import Status
from isles.solvers.rally.income import (
    RESTRICTIONS,
    IncomePlan,
    _Game,
    _wild_best,
    solve_income,
)

__all__ = ["TIE_RULE", "RaceCar", "RaceResult", "plan_race", "race_cars", "wilson_interval"]

#: Who wins when two cars could arrive in the same round (docs/rally.md, "The race").
TIE_RULE = (
    "turn order decides: the first car to enter a goal on its own turn wins; "
    "a car seated earlier moves earlier in each round"
)
#: The restriction every race answer has on top of its cars' own.
OWN_POLICY = (
    "each car plays its own committed-routes policy of plan_income (method route: "
    "fewest expected turns alone within its restrictions), not a reply to the other cars"
)
#: Games simulated at once (one vectorised batch).
BATCH = 2_000
_NR = 5
_Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Parameters
    ----------
    wins, games : int
        Successes and trials (``games`` >= 1).
    z : float
        The normal quantile (1.96: 95%).

    Returns
    -------
    (float, float)
        The lower and upper bounds, inside [0, 1].

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class RaceCar:
    """One car of a race and how it fared.

    Attributes
    ----------
    player : str
        The car's owner (a player of the board file); their seat is the car's
        place in the list.
    start : Hex
    goals : tuple of Hex
    plan : IncomePlan
        The car's own plan (its policy, its exact expected turns alone).
    wins : int
        Games this car arrived first.
    first : float or None
        ``wins / games``; None when no game was played (timed out first).
    interval : (float, float) or None
        95% Wilson interval of ``first``; None when no game was played.
    mean_turns : float or None
        Mean turns to arrive, over the games it arrived within ``turns``.
    within : tuple of float or None
        ``within[t - 1]``: the share of games it arrived within ``t`` turns;
        every one None when no game was played.
    """

    player: str
    start: Hex
    goals: tuple[Hex, ...]
    plan: IncomePlan
    wins: int
    first: float | None
    interval: tuple[float, float] | None
    mean_turns: float | None
    within: tuple[float | None, ...]

    def to_dict(self) -> dict[str, Any]:
        """``player``, ``start``, ``goals``, ``plan_status``, ``expected_turns_alone``,
        ``wins``, ``first``, ``interval``, ``mean_turns``, ``within``."""
        return {
            "player": self.player,
            "start": hex_json(self.start),
            "goals": [hex_json(g) for g in self.goals],
            "plan_status": self.plan.status.value,
            "expected_turns_alone": float_or_none(self.plan.expected_turns),
            "route": [hex_json(h) for h in self.plan.route],
            "wins": self.wins,
            "first": self.first,
            "interval": None if self.interval is None else list(self.interval),
            "mean_turns": float_or_none(self.mean_turns),
            "within": [{"turns": t + 1, "probability": p} for t, p in enumerate(self.within)],
        }


@dataclass(frozen=True)
class RaceResult:
    """The answer of :func:`isles.rally.race_cars`.

    Attributes
    ----------
    status : Status
        ``exact`` (the joint chain, ``method="exact"``), ``estimate`` (Monte
        Carlo), or ``timed_out`` (the time limit stopped it: the figures are
        those of the games played, ``games``; with none played, each car's
        ``first``, ``interval`` and ``within`` chances are None).
    games : int
        Games played.
    asked : int
        Games asked.
    seed : int
    cars : tuple of RaceCar
        In seat order.
    no_winner : int
        Games no car arrived in within ``turns`` turns.
    restrictions : tuple of str
        ``own_policy`` and the restrictions of the cars' plans.
    method : str
        ``"monte_carlo"``, or ``"exact"``: the cars' joint chain solved
        (:mod:`isles.solvers.rally.race_exact`), status ``exact``, no games
        played.
    joint_states : int or None
        The exact chain's states.
    error : float or None
        The exact chances' bound on round-off.
    no_winner_chance : float or None
        Exact: the chance no car arrives within ``turns`` rounds.
    """

    status: Status
    games: int
    asked: int
    seed: int
    players: int
    trade: str
    discard: bool
    turns: int
    cars: tuple[RaceCar, ...]
    no_winner: int
    restrictions: tuple[str, ...]
    seconds: float
    time_limit: float
    method: str = "monte_carlo"
    joint_states: int | None = None
    error: float | None = None
    no_winner_chance: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """What ``isles rally --race --json`` prints (docs/json.md, "Rally race")."""
        texts = {**RESTRICTIONS, "own_policy": OWN_POLICY}
        return {
            "status": self.status.value,
            "games": self.games,
            "asked": self.asked,
            "seed": self.seed,
            "players": self.players,
            "trade": self.trade,
            "discard": "on" if self.discard else "off",  # as the request spells it
            "turns": self.turns,
            "tie_rule": TIE_RULE,
            "cars": [c.to_dict() for c in self.cars],
            "no_winner": self.no_winner,
            "restrictions": [{"name": r, "text": texts[r]} for r in self.restrictions],
            "seconds": self.seconds,
            "time_limit": self.time_limit,
            "method": self.method,
            "joint_states": self.joint_states,
            "error": self.error,
            "no_winner_chance": self.no_winner_chance,
        }


# -- one car in the simulation ---------------------------------------------------------


class _Car:
    """A car's state over a batch of games: position, reserve, hand (6th pile: gold)."""

    def __init__(self, game: _Game | None, games: int) -> None:
        self.game = game
        self.pos = np.full(games, -2 if game is None else game.start, np.int64)
        self.reserve = np.zeros((games, _NR), np.int64)
        self.hand = np.zeros((games, _NR + 1), np.int64)
        self.arrived = np.zeros(games, np.int64)  # the turn it arrived, 0: not yet
        if game is not None:
            self.income = np.array(game.income, np.int64)
            self.gold = np.array(game.gold, np.int64)

    def roll(self, rolls: npt.NDArray[np.int64], discard: bool) -> None:
        """The cards of one roll per game (every car not arrived), and the 7-card rule."""
        if self.game is None:
            return
        live = self.pos >= 0
        i = rolls - ROLLS[0]
        self.hand[:, :_NR] += np.where(live[:, None], self.income[i], 0)
        self.hand[:, _NR] += np.where(live, self.gold[i], 0)
        if not discard:
            return
        held = self.hand.sum(axis=1)  # discard_count, over all the games at once
        count = np.where((rolls == 7) & live & (held > HAND_LIMIT), held // 2, 0)
        while (count > 0).any():  # each card from the largest pile (ties: the first)
            rows = np.flatnonzero(count > 0)
            j = self.hand[rows].argmax(axis=1)
            self.hand[rows, j] -= 1
            count[rows] -= 1

    def decide(self, turn: int, rng: np.random.Generator) -> npt.NDArray[np.bool_]:
        """The car's turn in every game: its policy's trade, reserve and move.

        Returns which games it arrived in this turn.
        """
        arrived = np.zeros(len(self.pos), bool)
        game = self.game
        if game is None:
            return arrived
        exit_roll = rng.random(len(self.pos))  # leaving a desert: the extra roll
        for v in np.unique(self.pos[self.pos >= 0]):
            pos = game.positions[int(v)]
            rows = np.flatnonzero(self.pos == v)
            idx = pos.flat(self.reserve[rows] + self.hand[rows, :_NR])
            best = _wild_best(game, pos)
            wild = np.minimum(self.hand[rows, _NR], len(best) - 1)
            state = np.empty(len(rows), np.int64)
            for k in np.unique(wild):
                sel = wild == k
                state[sel] = best[int(k)][idx[sel]]
            post = pos._post[state]  # type: ignore[attr-defined]
            option = pos.option[post]
            x = np.stack(np.unravel_index(post, pos.shape), axis=-1).astype(np.int64)
            reserve = np.minimum(x, pos.need)
            self.reserve[rows] = reserve
            self.hand[rows, :_NR] = np.minimum(x - reserve, game.fodder)
            self.hand[rows, _NR] = 0
            for o in np.unique(option):
                m, payer = pos._labels[int(o)]  # type: ignore[attr-defined]
                if m < 0:
                    continue
                move = pos.moves[m]
                sel = rows[(option == o) & (exit_roll[rows] < float(move.p_exit))]
                if payer >= 0:
                    self.reserve[sel, payer] -= move.cards
                if move.target < 0:
                    self.pos[sel] = -1
                    self.arrived[sel] = turn
                    arrived[sel] = True
                else:
                    self.pos[sel] = move.target
                    tgt = game.positions[move.target]
                    self.reserve[sel] = np.minimum(self.reserve[sel], tgt.need)
        return arrived


def _batch(
    cars: list[_Car], players: int, discard: bool, turns: int, rng: np.random.Generator
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


def race_cars(
    board: Board,
    cars: Iterable[object],
    *,
    players: int = 4,
    trade: str = "bank",
    discard: str = "on",
    method: str = "auto",
    games: int = 10_000,
    seed: int = 0,
    turns: int = 200,
    time_limit: float = 60.0,
    progress: bool | None = None,
) -> RaceResult:
    """Each car's chance of arriving first, under the same rolls (docs/rally.md, "The race").

    Parameters
    ----------
    board : Board
        With the players' buildings (and roads, harbours) from the board file.
    cars : iterable
        2..4 cars in seat order, each ``"PLAYER:Q,R"`` or a mapping
        ``{"player": ..., "start": [q, r], "goals": [[q, r], ...]}`` (goals
        optional: the land opposite the start group).
    players : int
        3..6 players at the table, at least the cars (the others only roll).
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
    progress : bool or None
        A tqdm bar on stderr over the games (None: only on a terminal).

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
    Each car's policy is its own of :func:`plan_income` with ``method="route"``
    (committed routes, even where the whole space would fit), solved once; the
    games then cost a few NumPy operations per car and turn over a batch of
    2,000 games. The tie rule is :data:`TIE_RULE`.

    Examples
    --------
    >>> from isles.models.catan import Board, Building, Terrain, Tile
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
    from isles.models.rally.questions import Race

    question = Race.ask(
        board=board,
        cars=list(cars),
        players=players,
        trade=trade,
        discard=discard,
        method=method,
        games=games,
        seed=seed,
        turns=turns,
        time_limit=time_limit,
    )
    return plan_race(question, progress=progress)


def plan_race(question: Any, *, progress: bool | None = None) -> RaceResult:
    """The answer to a validated :class:`~isles.models.rally.questions.Race`.

    See :func:`race_cars`.
    """
    import sys

    t0 = time.perf_counter()
    board: Board = question.board
    plans: list[IncomePlan] = []
    # The cars' owners, starts and goals were checked as the question was read (Race).
    for i, car in enumerate(question.cars):
        player = board.check_player(car.player, f"cars[{i}]")
        try:
            plan = solve_income(
                board,
                player,
                car.start,
                car.goals,
                players=question.players,
                trade=question.trade,
                discard=question.discard == "on",
                value_only=True,  # the policy is what the games play
            )
        except InvalidInput as exc:  # the car's start or goals: named as the car's
            raise InvalidInput(
                f"cars[{i}]", car.text, f"{exc.field}: {exc.expected}", problem=exc.problem
            ) from None
        plans.append(plan)
    # -- the exact race where the cars' joint chain fits (rally_race_exact) --
    if question.method != "monte_carlo":
        from isles.solvers.rally.race_exact import exact_answer

        exact = exact_answer(question, plans, t0)
        if exact is not None:
            return exact
        if question.method == "exact":
            raise InvalidInput(
                "method",
                question.method,
                "auto or monte_carlo: the cars' joint chain has over "
                f"{MAX_JOINT_STATES:,} states, or outlasts --time-limit",
            )
    # -- Monte Carlo --
    discard = question.discard == "on"
    rng = np.random.default_rng(question.seed)
    bar = None
    if progress or (progress is None and sys.stderr.isatty()):
        from tqdm import tqdm  # imported only when a bar is shown

        bar = tqdm(total=question.games, desc="rally race", unit="game", file=sys.stderr)
    winners: list[npt.NDArray[np.int64]] = []
    arrivals: list[npt.NDArray[np.int64]] = []
    done = 0
    status = Status.ESTIMATE
    try:
        while done < question.games:
            if time.perf_counter() - t0 > question.time_limit:
                status = Status.TIMED_OUT
                break
            n = min(BATCH, question.games - done)
            cars = [_Car(p.policy if p.status.answered else None, n) for p in plans]
            w, a = _batch(cars, question.players, discard, question.turns, rng)
            winners.append(w)
            arrivals.append(a)
            done += n
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    winner = np.concatenate(winners) if winners else np.zeros(0, np.int64)
    arrived = np.concatenate(arrivals, axis=1) if arrivals else np.zeros((len(plans), 0), np.int64)
    out = []
    for seat, plan in enumerate(plans):
        wins = int((winner == seat).sum())
        turn = arrived[seat]
        hit = turn[turn > 0]
        counts = np.bincount(hit, minlength=question.turns + 1)[1:]
        # No game played (the time limit came first): every chance absent, never 0.
        within: tuple[float | None, ...] = (
            tuple(float(x) for x in np.cumsum(counts) / done) if done else (None,) * question.turns
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
        question.games,
        question.seed,
        question.players,
        question.trade,
        discard,
        question.turns,
        tuple(out),
        int((winner < 0).sum()),
        tuple(restrictions),
        time.perf_counter() - t0,
        question.time_limit,
    )
