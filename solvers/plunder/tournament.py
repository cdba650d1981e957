"""Plunder tournaments: how good is each policy, does the seat matter, on Dask.

Implements docs/plunder.md ("Tournaments"; seed ``seeds/003_cfc377110defcf34.txt``):
games between policies with the seats rotated, win rates, mean scores and
first-dig rates with 95% intervals; the games run in this process or on
``dask.distributed`` (:mod:`~isles.solvers.plunder.cluster`: a local cluster, or a
scheduler's address) and depend only on the seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from isles.models.plunder.codes import Category, Code
from isles.models.plunder.game import TURN_LIMIT
from isles.models.plunder.play import PlayerView, Policy, Seat
from isles.models.plunder.questions import (
    DEFAULT_LINEUP,
    MAX_GAMES,
    TOURNAMENT_TIME_LIMIT,
    TournamentQuestion,
)
from isles.models.plunder.scoring import score_range
from isles.models.status import Status
from isles.solvers.plunder.cluster import GameResult, on_dask, play_games
from isles.solvers.plunder.registry import as_policy
from isles.solvers.plunder.search import checkpoint
from isles.solvers.work import Bar, Deadline, Progress

__all__ = [
    "DEFAULT_LINEUP",
    "MAX_GAMES",
    "PolicyStats",
    "Tournament",
    "answer_tournament_question",
    "tournament",
]

_Z95 = 1.959963984540054


_clock = time.monotonic
"""The clock of the time limit, read before each game (a test replaces it)."""

_decision_clock = time.monotonic
"""The clock of the time limit read after each decision of a game played in this
process (a test replaces it): a game still going at the limit is stopped and dropped."""


class _TimeUp(Exception):
    """The time limit came during a game (raised by a :class:`_TimedSeat`)."""


class _TimedSeat:
    """A seat that stops its game once a decision ends at or past the deadline."""

    def __init__(self, seat: Seat, deadline: Deadline) -> None:
        self.inner = seat
        self.deadline = deadline

    def _check(self) -> None:
        if self.deadline.passed():
            raise _TimeUp

    def flip(self, view: PlayerView) -> Category | None:
        flip = self.inner.flip(view)
        self._check()
        return flip

    def crew(self, view: PlayerView) -> Sequence[tuple[int, Code]]:
        crew = self.inner.crew(view)
        self._check()
        return crew


@dataclass(frozen=True)
class _TimedPolicy:
    """``policy`` under a deadline of :data:`_decision_clock`, checked after each decision."""

    policy: Policy
    deadline: Deadline

    @property
    def name(self) -> str:
        return self.policy.name

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        return _TimedSeat(self.policy.seat(players, player, code, rng), self.deadline)


def _wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    # scipy.stats takes seconds to import: only a finished tournament needs it.
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return (float(ci.low), float(ci.high))


def _mean_ci(xs: Sequence[int], bounds: tuple[int, int]) -> tuple[float, tuple[float, float]]:
    """The mean of ``xs`` and its normal 95% interval, clipped to ``bounds`` (the scores
    possible: with few games the normal interval reaches past them); the whole range
    for fewer than two."""
    arr = np.array(xs, dtype=np.float64)
    mean = float(arr.mean()) if len(arr) else 0.0
    half = _Z95 * float(arr.std(ddof=1)) / math.sqrt(len(arr)) if len(arr) > 1 else math.inf
    low, high = np.clip([mean - half, mean + half], *bounds)
    return mean, (float(low), float(high))


@dataclass(frozen=True)
class PolicyStats:
    """How one policy (or one seat) did.

    Attributes
    ----------
    name : str
        The policy's name, or ``seat N``.
    played : int
        Seats played (a policy in two seats of a game counts twice).
    wins : int
        Times among the winners (ties that the tie-break leaves count for each).
    win_ci95 : (float, float)
        Wilson 95% interval of the win rate.
    mean_score : float
    score_ci95 : (float, float)
        Normal 95% interval of the mean score, clipped to the scores possible
        (:func:`isles.models.plunder.scoring.score_range`).
    first_digs : int
        Games in which it made the first correct dig.
    first_dig_ci95 : (float, float)
        Wilson 95% interval of the first-dig rate.
    """

    name: str
    played: int
    wins: int
    win_ci95: tuple[float, float]
    mean_score: float
    score_ci95: tuple[float, float]
    first_digs: int
    first_dig_ci95: tuple[float, float]

    @property
    def win_rate(self) -> float:
        """``wins / played``."""
        return self.wins / self.played if self.played else 0.0

    @property
    def first_dig_rate(self) -> float:
        """``first_digs / played``."""
        return self.first_digs / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The statistics as JSON."""
        played = self.played > 0  # rates and means of no game are absent: null
        return {
            "name": self.name,
            "played": self.played,
            "wins": self.wins,
            "win_rate": self.win_rate if played else None,
            "win_ci95": list(self.win_ci95) if played else None,
            "mean_score": self.mean_score if played else None,
            "score_ci95": list(self.score_ci95) if played else None,
            "first_digs": self.first_digs,
            "first_dig_rate": self.first_dig_rate if played else None,
            "first_dig_ci95": list(self.first_dig_ci95) if played else None,
        }


def _stats(name: str, rows: list[tuple[int, bool, bool]], players: int) -> PolicyStats:
    """``rows``: (score, won, dug first) per seat played in games of ``players``."""
    wins = sum(w for _, w, _ in rows)
    first = sum(f for _, _, f in rows)
    mean, ci = _mean_ci([s for s, _, _ in rows], score_range(players))
    return PolicyStats(
        name, len(rows), wins, _wilson(wins, len(rows)), mean, ci, first, _wilson(first, len(rows))
    )


@dataclass(frozen=True)
class Tournament:
    """The results of a tournament.

    Attributes
    ----------
    players : int
    games : int
        Games played: those asked for, or fewer when the time limit stopped
        the tournament (games ``0 .. games - 1``, the same as a tournament of
        that many games with the same seed).
    seed : int
    lineup : tuple of str
        The distinct policies, each named once, in the order of their first
        seat (how many seats each played: ``policies``; seat by seat: ``seats``).
    policies : tuple of PolicyStats
        Per policy, in lineup order (each name once).
    seats : tuple of PolicyStats
        Per seat (seat 0 plays first), whatever the policy.
    mean_turns : float
        0.0 when no game was played.
    results : tuple of GameResult
        Every game, by index.
    games_asked : int
        Games asked for (``games`` unless the time limit stopped it).
    time_limit : float or None
        The time limit in seconds, None for none.

    Examples
    --------
    >>> t = tournament(2, ["random"], games=4, seed=1, workers=0)
    >>> t.status.value, t.policies[0].played, [s.played for s in t.seats]
    ('estimate', 8, [4, 4])
    >>> t.games, t.games_asked, t.stopped_at_time_limit
    (4, 4, False)
    """

    players: int
    games: int
    seed: int
    lineup: tuple[str, ...]
    policies: tuple[PolicyStats, ...]
    seats: tuple[PolicyStats, ...]
    mean_turns: float
    results: tuple[GameResult, ...]
    games_asked: int
    time_limit: float | None = None

    @property
    def stopped_at_time_limit(self) -> bool:
        """Whether the time limit ended the tournament before every game asked for."""
        return self.games < self.games_asked

    @property
    def status(self) -> Status:
        """``estimate``: sampled rates and means with 95% intervals (from fewer games
        than asked when :attr:`stopped_at_time_limit`); ``timed_out`` when the time
        limit came before any game was played."""
        return Status.ESTIMATE if self.games else Status.TIMED_OUT

    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON (docs/plunder.md, "Tournaments"); no per-game rows."""
        return {
            "status": str(self.status),
            "players": self.players,
            "games": self.games,
            "games_asked": self.games_asked,
            "time_limit": self.time_limit,
            "stopped_at_time_limit": self.stopped_at_time_limit,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "mean_turns": self.mean_turns if self.games else None,
            "policies": [p.to_dict() for p in self.policies],
            "seats": [s.to_dict() for s in self.seats],
        }


def _summarise(
    players: int,
    games: int,
    seed: int,
    lineup: Sequence[str],
    results: Sequence[GameResult],
    time_limit: float | None = None,
) -> Tournament:
    results = sorted(results, key=lambda r: r.index)
    # Stopped at the time limit: keep games 0..n-1 (those finished before the first
    # missing one), so that the answer is the tournament of n games with this seed.
    played = next((i for i, r in enumerate(results) if r.index != i), len(results))
    results = results[:played]
    by_policy: dict[str, list[tuple[int, bool, bool]]] = {name: [] for name in lineup}
    by_seat: list[list[tuple[int, bool, bool]]] = [[] for _ in range(players)]
    for r in results:
        for s, name in enumerate(r.seats):
            row = (r.totals[s], s in r.winners, r.first_dig == s)
            by_policy[name].append(row)
            by_seat[s].append(row)
    return Tournament(
        players,
        len(results),
        seed,
        tuple(lineup),
        tuple(_stats(name, rows, players) for name, rows in by_policy.items()),
        tuple(_stats(f"seat {s}", rows, players) for s, rows in enumerate(by_seat)),
        float(np.mean([r.turns for r in results])) if results else 0.0,
        tuple(results),
        games,
        time_limit,
    )


def tournament(
    players: int,
    policies: Sequence[Policy | str] | None = None,
    games: int = 100,
    seed: int = 0,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    turn_limit: int = TURN_LIMIT,
    time_limit: float | None = TOURNAMENT_TIME_LIMIT,
    progress: Progress = None,
) -> Tournament:
    """Play ``games`` games between policies, seats rotated, on Dask.

    Parameters
    ----------
    players : int
        2..6 seats.
    policies : sequence of Policy or str, optional
        The lineup, repeated to fill the seats (names of
        :func:`~isles.solvers.plunder.registry.policy_by_name` or Policy
        objects, which must pickle to go to Dask workers). Default
        :data:`DEFAULT_LINEUP`. Game ``g`` turns the seats by ``g`` places, so
        over ``players`` games every policy sits in every seat.
    games : int, default 100
        1..MAX_GAMES.
    seed : int, default 0
        Game ``g`` is played from child ``g`` of ``numpy.random.SeedSequence(seed)``:
        the results depend on the seed only, never on the workers.
    scheduler : str, optional
        The address of a running Dask scheduler (``tcp://host:8786``, started
        with ``dask scheduler``, workers with ``dask worker ADDRESS``). Default:
        a local cluster on this machine.
    workers : int, optional
        Worker processes of the local cluster, 0..MAX_WORKERS (64; default: the
        cores, at most 8); 0 plays in this process without Dask.
    turn_limit : int, default TURN_LIMIT (15)
    time_limit : float or None, default TOURNAMENT_TIME_LIMIT (600)
        Seconds (wall clock, from the call, a local cluster's start included)
        after which no more games are played: the answer is then the
        tournament of the games ``0 .. n - 1`` finished by then, and says so
        (``games`` < ``games_asked``, ``stopped_at_time_limit``). None: every
        game asked for.
    progress : bool, None or callable, default None
        A bar of games done (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    Tournament
        ``status`` ``estimate``; ``timed_out`` when the time limit came before
        any game was played.

    Raises
    ------
    InvalidInput
        A bad option (named), or both ``scheduler`` and ``workers``: the checks
        of the declaration :class:`isles.models.plunder.questions.TournamentQuestion`.

    Notes
    -----
    Win rates and first-dig rates carry Wilson score intervals, mean scores
    normal ones (95%), clipped to the scores possible
    (:func:`isles.models.plunder.scoring.score_range`). docs/plunder.md, "Tournaments".

    References
    ----------
    .. [1] E. B. Wilson, "Probable inference, the law of succession, and
       statistical inference", JASA 22 (1927) 209-212.
    .. [2] Dask Development Team, "Dask: Library for dynamic task scheduling",
       https://dask.org (``dask.distributed``).

    Examples
    --------
    >>> t = tournament(3, ["certain", "random"], games=3, seed=2, workers=0)
    >>> [p.name for p in t.policies], t.games
    (['certain', 'random'], 3)
    >>> t = tournament(2, ["random"], games=50, seed=2, workers=0, time_limit=1e-9)
    >>> t.status.value, t.games, t.games_asked, t.stopped_at_time_limit
    ('timed_out', 0, 50, True)
    """
    question = TournamentQuestion.read(
        {
            "players": players,
            "games": games,
            "seed": seed,
            "turn_limit": turn_limit,
            **({} if policies is None else {"policies": policies}),
            **({} if scheduler is None else {"scheduler": scheduler}),
            **({} if workers is None else {"workers": workers}),
            "time_limit": time_limit,
        }
    )
    return answer_tournament_question(question, progress=progress)


def answer_tournament_question(
    question: TournamentQuestion, *, progress: Progress = None
) -> Tournament:
    """The tournament a validated
    :class:`~isles.models.plunder.questions.TournamentQuestion` asks for: what
    :func:`tournament` answers, and ``isles.answer`` for this question.

    Examples
    --------
    >>> q = TournamentQuestion.read({"players": 2, "policies": ["random"], "games": 2,
    ...                              "workers": 0})
    >>> answer_tournament_question(q).games
    2
    """
    deadline = Deadline(question.time_limit, clock=_clock)
    lineup = [as_policy(p, f"policies[{i}]") for i, p in enumerate(question.policies)]
    names = list(dict.fromkeys(p.name for p in lineup))
    with Bar(question.games, "games", progress, unit="game") as bar:
        if question.workers == 0:
            results = _in_process(question, lineup, bar, deadline)
        else:
            results = on_dask(question, lineup, bar, deadline)
    limit = None if question.time_limit is None else float(question.time_limit)
    return _summarise(question.players, question.games, question.seed, names, results, limit)


def _in_process(
    question: TournamentQuestion, lineup: Sequence[Policy], bar: Bar, deadline: Deadline
) -> list[GameResult]:
    """The games played one by one in this process (``workers=0``), up to the deadline:
    checked before each game and after each decision in a game, so that a game still
    going at the limit is stopped there and not counted (only games finished before
    the limit are)."""
    results: list[GameResult] = []
    timed: Sequence[Policy] = lineup
    stop = Deadline(None)
    if question.time_limit is not None:
        stop = Deadline(question.time_limit, clock=_decision_clock)
        timed = [_TimedPolicy(p, stop) for p in lineup]

    def check() -> None:
        if stop.passed():
            raise _TimeUp

    for g in range(question.games):
        if deadline.passed():
            break
        try:
            # Checked after each decision, and within a search's decision before each
            # game it plays on (a large budget's decision takes seconds).
            with checkpoint(check):
                game = play_games(question.players, timed, question.seed, [g], question.turn_limit)
        except _TimeUp:
            break
        results += game
        bar.update(1)
    return results
