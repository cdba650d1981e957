"""Plunder tournaments: how good is each policy, does the seat matter, on Dask.

Implements docs/plunder.md ("Tournaments"; seed ``seeds/003_cfc377110defcf34.txt``):
games between policies with the seats rotated, win rates, mean scores and
first-dig rates with 95% intervals; the games run on ``dask.distributed``
(a local cluster, or a scheduler's address) and depend only on the seed.
"""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.plunder import MAX_PLAYERS, MIN_PLAYERS
from isles.models.plunder_game import TURN_LIMIT, Policy, play_game
from isles.models.status import Status
from isles.solvers.plunder_policies import policy_by_name

__all__ = [
    "DEFAULT_LINEUP",
    "MAX_GAMES",
    "GameResult",
    "PolicyStats",
    "Tournament",
    "play_games",
    "tournament",
]

DEFAULT_LINEUP = ("expected", "threshold", "certain")
"""The policies seated when none is named: the exact-solver ones."""

MAX_GAMES = 1_000_000
"""Most games in one tournament."""

_Z95 = 1.959963984540054

_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
"""The Dask setting behind the environment variable the nanny gives its workers."""


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament, in brief.

    Attributes
    ----------
    index : int
        The game's number: its seed is child ``index`` of the tournament's
        ``numpy.random.SeedSequence(seed)``.
    seats : tuple of str
        The policy in each seat.
    totals : tuple of int
        Each seat's score.
    winners : tuple of int
        The winning seat(s) after the tie-break.
    first_dig : int or None
        The seat whose crew card was the game's first correct dig (chest order).
    turns : int
        Turns played.
    """

    index: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    first_dig: int | None
    turns: int


def _lineup(players: int, policies: Sequence[Policy], index: int) -> list[Policy]:
    """Seat ``s`` of game ``index``: the lineup (policies repeated to fill the seats)
    turned by ``index`` places, so that every policy sits in every seat in turn."""
    return [policies[(s + index) % players % len(policies)] for s in range(players)]


def play_games(
    players: int, policies: Sequence[Policy], seed: int, indices: Iterable[int], turn_limit: int
) -> list[GameResult]:
    """Play the tournament's games ``indices`` (one Dask task plays a chunk of them).

    Parameters
    ----------
    players : int
    policies : sequence of Policy
        The lineup.
    seed : int
        The tournament's seed.
    indices : iterable of int
        Game numbers.
    turn_limit : int

    Returns
    -------
    list of GameResult

    Examples
    --------
    >>> from isles.solvers.plunder_policies import RandomPolicy
    >>> [r.seats for r in play_games(2, [RandomPolicy()], 0, [0, 1], 15)]
    [('random', 'random'), ('random', 'random')]
    """
    out = []
    for g in indices:
        seats = _lineup(players, policies, g)
        game = play_game(seats, np.random.SeedSequence(seed, spawn_key=(g,)), turn_limit=turn_limit)
        score = game.score()
        chest = game.chest
        first = next((chest[k].proposer for k, ok in enumerate(score.counted) if ok), None)
        out.append(
            GameResult(
                g,
                tuple(p.name for p in seats),
                score.total,
                score.winners,
                first,
                len(game.turns),
            )
        )
    return out


def _wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    # scipy.stats takes seconds to import: only a finished tournament needs it.
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return (float(ci.low), float(ci.high))


def _mean_ci(xs: Sequence[int]) -> tuple[float, tuple[float, float]]:
    arr = np.array(xs, dtype=np.float64)
    mean = float(arr.mean()) if len(arr) else 0.0
    half = _Z95 * float(arr.std(ddof=1)) / math.sqrt(len(arr)) if len(arr) > 1 else math.inf
    low, high = mean - half, mean + half
    return mean, (low if math.isfinite(low) else 0.0, high if math.isfinite(high) else 18.0)


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
        Normal 95% interval of the mean score.
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
        return {
            "name": self.name,
            "played": self.played,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_ci95": list(self.win_ci95),
            "mean_score": self.mean_score,
            "score_ci95": list(self.score_ci95),
            "first_digs": self.first_digs,
            "first_dig_rate": self.first_dig_rate,
            "first_dig_ci95": list(self.first_dig_ci95),
        }


def _stats(name: str, rows: list[tuple[int, bool, bool]]) -> PolicyStats:
    """``rows``: (score, won, dug first) per seat played."""
    wins = sum(w for _, w, _ in rows)
    first = sum(f for _, _, f in rows)
    mean, ci = _mean_ci([s for s, _, _ in rows])
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
    seed : int
    lineup : tuple of str
        The policies as named, seated in turn.
    policies : tuple of PolicyStats
        Per policy, in lineup order (each name once).
    seats : tuple of PolicyStats
        Per seat (seat 0 plays first), whatever the policy.
    mean_turns : float
    results : tuple of GameResult
        Every game, by index.

    Examples
    --------
    >>> t = tournament(2, ["random"], games=4, seed=1, workers=0)
    >>> t.status.value, t.policies[0].played, [s.played for s in t.seats]
    ('estimate', 8, [4, 4])
    """

    players: int
    games: int
    seed: int
    lineup: tuple[str, ...]
    policies: tuple[PolicyStats, ...]
    seats: tuple[PolicyStats, ...]
    mean_turns: float
    results: tuple[GameResult, ...]

    @property
    def status(self) -> Status:
        """``estimate``: sampled rates and means with 95% intervals."""
        return Status.ESTIMATE

    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON (docs/plunder.md, "Tournaments"); no per-game rows."""
        return {
            "status": str(self.status),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "mean_turns": self.mean_turns,
            "policies": [p.to_dict() for p in self.policies],
            "seats": [s.to_dict() for s in self.seats],
        }


def _summarise(
    players: int, games: int, seed: int, lineup: Sequence[str], results: Sequence[GameResult]
) -> Tournament:
    results = sorted(results, key=lambda r: r.index)
    by_policy: dict[str, list[tuple[int, bool, bool]]] = {name: [] for name in lineup}
    by_seat: list[list[tuple[int, bool, bool]]] = [[] for _ in range(players)]
    for r in results:
        for s, name in enumerate(r.seats):
            row = (r.totals[s], s in r.winners, r.first_dig == s)
            by_policy[name].append(row)
            by_seat[s].append(row)
    return Tournament(
        players,
        games,
        seed,
        tuple(lineup),
        tuple(_stats(name, rows) for name, rows in by_policy.items()),
        tuple(_stats(f"seat {s}", rows) for s, rows in enumerate(by_seat)),
        float(np.mean([r.turns for r in results])) if results else 0.0,
        tuple(results),
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
    progress: bool = False,
) -> Tournament:
    """Play ``games`` games between policies, seats rotated, on Dask.

    Parameters
    ----------
    players : int
        2..6 seats.
    policies : sequence of Policy or str, optional
        The lineup, repeated to fill the seats (names of
        :func:`~isles.solvers.plunder_policies.policy_by_name` or Policy
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
        Worker processes of the local cluster (default: the cores, at most 8);
        0 plays in this process without Dask.
    turn_limit : int, default TURN_LIMIT (15)
    progress : bool, default False
        A tqdm bar of games done on stderr.

    Returns
    -------
    Tournament
        ``status`` ``estimate``.

    Raises
    ------
    InvalidInput
        A bad option (named), or both ``scheduler`` and ``workers``.

    Notes
    -----
    Win rates and first-dig rates carry Wilson score intervals, mean scores
    normal ones (95%). docs/plunder.md, "Tournaments".

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
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidInput("players", players, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput("players", players, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InvalidInput("games", games, f"an integer in 1..{MAX_GAMES}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise InvalidInput("seed", seed, f"an integer in 0..{SEED_MAX}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 0
    ):
        raise InvalidInput("workers", workers, "an integer >= 0")
    if scheduler is not None and workers is not None:
        raise InvalidInput("workers", workers, "no workers with a scheduler (it has its own)")
    named = list(policies) if policies is not None else list(DEFAULT_LINEUP)
    if not named:
        raise InvalidInput("policies", [], "at least one policy")
    lineup = [policy_by_name(p, "policy") if isinstance(p, str) else p for p in named]
    names = list(dict.fromkeys(p.name for p in lineup))
    bar: Any = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc="games", unit="game", file=sys.stderr, leave=False)
    try:
        if workers == 0:
            results = []
            for g in range(games):
                results += play_games(players, lineup, seed, [g], turn_limit)
                if bar is not None:
                    bar.update(1)
        else:
            results = _on_dask(players, lineup, seed, games, turn_limit, scheduler, workers, bar)
    finally:
        if bar is not None:
            bar.close()
    return _summarise(players, games, seed, names, results)


def _on_dask(
    players: int,
    lineup: Sequence[Policy],
    seed: int,
    games: int,
    turn_limit: int,
    scheduler: str | None,
    workers: int | None,
    bar: Any,
) -> list[GameResult]:
    # dask.distributed loads here: a second or so, and only tournaments need it.
    import os

    import dask
    import distributed

    # dask.distributed is partly untyped: used through Any.
    dist: Any = distributed
    cluster = None
    if scheduler is None:
        n = workers if workers is not None else min(8, os.cpu_count() or 1)
        # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, which turns off
        # glibc's adaptive mmap threshold: every large array is then mapped and unmapped
        # anew, and the games ran twice as slow (half the time in the kernel).
        with dask.config.set({_TRIM: None}):
            cluster = dist.LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = dist.Client(cluster)
    else:
        try:
            client = dist.Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidInput(
                "scheduler", scheduler, f"a running Dask scheduler ({exc})"
            ) from None
    try:
        slots = max(1, sum(client.nthreads().values()))
        size = max(1, min(50, math.ceil(games / (4 * slots))))
        chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
        futures = client.map(
            play_games,
            [players] * len(chunks),
            [list(lineup)] * len(chunks),
            [seed] * len(chunks),
            chunks,
            [turn_limit] * len(chunks),
            pure=False,
        )
        results: list[GameResult] = []
        for future in dist.as_completed(futures):
            part = future.result()
            results += part
            if bar is not None:
                bar.update(len(part))
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
