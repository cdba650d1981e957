"""Lighthouses: how do games go? Monte Carlo of any policy, and exact length distributions.

Implements docs/lighthouse.md ("What is computed": ``simulate``,
``outcome_distribution``; seed 000_aeb701e368f40145.txt): thousands of games
side by side in NumPy arrays (Wilson 95% intervals, game lengths, the boat's
final card), and the exact distribution of how a game ends, pushed forward in
Fractions. Every policy is that of policies.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.jsonio import exact_text, probability_json, read_int
from isles.models.lighthouse.caps import DEFAULT_GAMES, MAX_GAMES, Policy
from isles.models.lighthouse.kit import BOAT, Kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Outcome, play_turn, roll_outcomes
from isles.models.status import Status
from isles.solvers.lighthouse.advice import ValueTable, advise
from isles.solvers.lighthouse.classes import ClassIndex
from isles.solvers.lighthouse.codes import DISCS, FINISHED, TRANS, Geometry, geometry
from isles.solvers.lighthouse.policies import (
    check_policy,
    decision_weights,
    greedy_bonus_rank,
    greedy_lay_rank,
    greedy_swaps,
    policy_status,
)
from isles.solvers.work import Bar, Progress

__all__ = [
    "OutcomeDistribution",
    "SimulationResult",
    "check_games",
    "check_seed",
    "greedy_turn",
    "outcome_distribution",
    "simulate",
    "wilson_interval",
]


def check_games(games: object) -> int:
    """A number of games in 1..MAX_GAMES (the one cap of every simulation).

    Examples
    --------
    >>> check_games(10)
    10
    """
    return read_int(games, "games", 1, MAX_GAMES)


def check_seed(seed: object) -> int:
    """A random seed: an integer 0..SEED_MAX (NumPy refuses negative seeds).

    Examples
    --------
    >>> check_seed(0)
    0
    """
    return read_int(seed, "seed", 0, SEED_MAX)


@dataclass(frozen=True)
class SimulationResult:
    """Monte Carlo estimate of a policy's win probability and game statistics.

    From :func:`simulate`; ``status`` is ``estimate``.

    Parameters
    ----------
    policy : {"optimal", "greedy", "random"}
        The policy played.
    games : int
    wins : int
    ci95 : (float, float)
        The Wilson score 95% interval of the win probability.
    length_won, length_lost : tuple of int
        ``length_won[t]`` / ``length_lost[t]``: games won / lost at turn ``t``.
    final_boat : tuple of int
        ``final_boat[b]``: games ending with the boat on position ``b``
        (``sea_cards + 1``: landed on Maurice's island).
    seed : int or None
        The seed of the random generator.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> res = simulate(default_kit(1, 1), "greedy", 100, seed=3)
    >>> res.status, res.games
    (<Status.ESTIMATE: 'estimate'>, 100)
    """

    policy: Policy
    games: int
    wins: int
    ci95: tuple[float, float]
    length_won: tuple[int, ...]
    length_lost: tuple[int, ...]
    final_boat: tuple[int, ...]
    seed: int | None = None

    @property
    def status(self) -> Status:
        """Always ``estimate``: a sampled value with its confidence interval."""
        return Status.ESTIMATE

    @property
    def win_probability(self) -> float:
        """Fraction of games won."""
        return self.wins / self.games

    @property
    def half_width(self) -> float:
        """Half the width of the 95% interval."""
        return (self.ci95[1] - self.ci95[0]) / 2

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers").

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> sorted(simulate(default_kit(1, 1), "greedy", 10).to_dict())[:4]
        ['ci95', 'final_boat', 'games', 'length_lost']
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "games": self.games,
            "seed": self.seed,
            "wins": self.wins,
            **probability_json("win_probability", self.win_probability),
            "ci95": list(self.ci95),
            "length_won": list(self.length_won),
            "length_lost": list(self.length_lost),
            "final_boat": list(self.final_boat),
        }


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default 95%).

    Parameters
    ----------
    wins : int
        Successes, ``0..games``.
    games : int
        Trials, at least 1.
    z : float
        The normal quantile (1.96 for 95%).

    Returns
    -------
    (float, float)
        The interval, clipped to [0, 1]; exactly 0 (1) when no (every) game is won.

    Raises
    ------
    InvalidInput
        ``games < 1``.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", *Journal of the American Statistical Association* 22 (1927) 209-212.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if games <= 0:
        raise InvalidInput("games", games, "a positive number of games")
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    low = 0.0 if wins == 0 else max(0.0, float(centre - half))
    high = 1.0 if wins == games else min(1.0, float(centre + half))
    return (low, high)


def simulate(
    kit: Kit,
    policy: str = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    solution: ValueTable | None = None,
    progress: Progress = None,
    batch: int = 20_000,
) -> SimulationResult:
    """Play ``games`` games of ``policy`` at once, vectorised with NumPy.

    Parameters
    ----------
    kit : Kit
        Any kit (8 islands and more included).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` needs ``solution`` (a float or exact table of that kit) and
        plays its best decision; greedy and random follow docs/lighthouse.md
        ("The simple policies").
    games : int
        Number of games, 1..:data:`MAX_GAMES`.
    seed : int
        The seed of NumPy's random generator, >= 0.
    solution : LighthouseSolution, optional
        Tables of the kit, for ``optimal``.
    progress : bool, None or callable
        A progress bar (stderr) over the games, or a callable told the fraction
        played, as :data:`isles.solvers.work.Progress`.
    batch : int
        Games simulated side by side.

    Returns
    -------
    SimulationResult
        ``status`` estimate, with the Wilson 95% interval.

    Raises
    ------
    InvalidInput
        Unknown policy, ``games`` outside 1..:data:`MAX_GAMES`, a negative seed,
        or ``optimal`` without a matching solution.

    References
    ----------
    N. Metropolis and S. Ulam, "The Monte Carlo method", *Journal of the
    American Statistical Association* 44 (1949) 335-341.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> res = simulate(default_kit(2, sea_cards=2), "greedy", 2000, seed=1)
    >>> res.ci95[0] < 0.6358 < res.ci95[1]
    True
    """
    pol = check_policy(policy)
    games = check_games(games)
    seed = check_seed(seed)
    batch = read_int(batch, "batch", 1)
    if pol == "optimal" and (solution is None or solution.kit != kit):
        raise InvalidInput("solution", None, "a solved table of the same kit for optimal play")
    rng = np.random.default_rng(seed)
    geo = geometry(kit)
    k = kit.sea_cards
    faces = [
        np.array([-1 if f == BOAT else geo.colours.index(f) for f in die], dtype=np.int64)
        for die in kit.dice
    ]
    table = None
    if pol == "optimal":
        assert solution is not None
        table = _Lookup(solution, geo)
    wins = 0
    length_won: dict[int, int] = {}
    length_lost: dict[int, int] = {}
    final_boat = [0] * (k + 2)
    done = 0
    with Bar(games, "lighthouse Monte Carlo", progress, unit="game") as bar:
        while done < games:
            g = min(batch, games - done)
            w, lw, ll, fb = _simulate_batch(kit, geo, pol, g, rng, faces, table)
            wins += w
            for t, c in lw.items():
                length_won[t] = length_won.get(t, 0) + c
            for t, c in ll.items():
                length_lost[t] = length_lost.get(t, 0) + c
            for b in range(k + 2):
                final_boat[b] += fb[b]
            done += g
            bar.update(g)
    longest = max([0, *length_won, *length_lost])
    return SimulationResult(
        pol,
        games,
        wins,
        wilson_interval(wins, games),
        tuple(length_won.get(t, 0) for t in range(longest + 1)),
        tuple(length_lost.get(t, 0) for t in range(longest + 1)),
        tuple(final_boat),
        seed,
    )


class _Lookup:
    """Values of positions given as rows of lighthouse states, read from a table.

    The table is a class DP's (rows found through the classes' canonical keys),
    greedy play's or the reference's (rows are the lighthouse codes).
    """

    def __init__(self, solution: ValueTable, geo: Geometry) -> None:
        self.values: npt.NDArray[Any] = np.asarray(getattr(solution, "values"))  # noqa: B009
        self.first_boat = int(getattr(solution, "first_boat", 0))
        index = getattr(solution, "index", None)
        self.index = index if isinstance(index, ClassIndex) else None
        self.geo = geo

    def rows(self, states: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        codes: npt.NDArray[np.int64] = (states * self.geo.powers).sum(axis=1)
        if self.index is None:
            return codes
        coding = self.index.coding
        open_states, pool = coding.codes_to_state(codes)
        keys, _ = coding.canonical(open_states, pool)
        return self.index.indices(keys, coding.discs_laid(open_states, pool))

    def __call__(
        self, states: npt.NDArray[np.int64], boat: npt.NDArray[np.int64], m: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float64]:
        """The value of each position (the boat clipped to the last card)."""
        b = np.minimum(boat, self.geo.k) - self.first_boat
        return np.asarray(self.values[self.rows(states), b, m], dtype=np.float64)

    def after(
        self,
        states: npt.NDArray[np.int64],
        boat: npt.NDArray[np.int64],
        walked: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float64]:
        """The value after the discs, Maurice having walked to ``walked``: the best bonus
        placement when he reached or passed his island and some lighthouse can take one."""
        n = self.geo.n
        out = self(states, boat, walked % n)
        home = np.flatnonzero((walked >= n) & ~(states == FINISHED).all(axis=1))
        if home.size:
            best = np.full(home.size, -np.inf)
            for i in range(n):
                for side in (0, 1):
                    t = TRANS[states[home, i], side]
                    ok = np.flatnonzero(t >= 0)
                    if ok.size == 0:
                        continue
                    moved = states[home[ok]].copy()
                    moved[:, i] = t[ok]
                    best[ok] = np.maximum(
                        best[ok], self(moved, boat[home[ok]], walked[home[ok]] % n)
                    )
            out[home] = best
        return out


def _simulate_batch(
    kit: Kit,
    geo: Geometry,
    policy: Policy,
    games: int,
    rng: np.random.Generator,
    faces: list[npt.NDArray[np.int64]],
    table: _Lookup | None,
) -> tuple[int, dict[int, int], dict[int, int], list[int]]:
    n, k = geo.n, kit.sea_cards
    st = np.zeros((games, n), dtype=np.int64)
    boat = np.zeros(games, dtype=np.int64)
    maurice = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    wins = 0
    length_won: dict[int, int] = {}
    length_lost: dict[int, int] = {}
    final_boat = [0] * (k + 2)
    side = np.vstack([geo.colour_side, np.full((1, n), -1, dtype=np.int64)])  # row -1: no disc
    rank = np.argsort(np.argsort(np.array(geo.colours)))
    turn = 0
    while alive.size:
        turn += 1
        g = alive.size
        c1 = faces[0][rng.integers(len(faces[0]), size=g)]
        c2 = faces[1][rng.integers(len(faces[1]), size=g)]
        # Two colours are listed alphabetically, like Roll.colours (greedy's tie-break).
        swap = (c1 >= 0) & (c2 >= 0) & (rank[np.maximum(c1, 0)] > rank[np.maximum(c2, 0)])
        c1, c2 = np.where(swap, c2, c1), np.where(swap, c1, c2)
        if policy == "greedy":
            s, b, m, won, lost = greedy_turn(
                geo, st[alive], boat[alive], maurice[alive], c1, c2, side
            )
        else:
            s, b, m, won, lost = _turn(
                geo, policy, st[alive], boat[alive], maurice[alive], c1, c2, rng, table, side
            )
        ended = won | lost
        for flag, store in ((won, length_won), (lost, length_lost)):
            c = int(flag.sum())
            if c:
                store[turn] = store.get(turn, 0) + c
        wins += int(won.sum())
        for bb in np.minimum(b[ended], k + 1).tolist():
            final_boat[bb] += 1
        st[alive] = s
        boat[alive] = b
        maurice[alive] = m
        alive = alive[~ended]
    return wins, length_won, length_lost, final_boat


def _turn(
    geo: Geometry,
    policy: Policy,
    s: npt.NDArray[np.int64],
    boat: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    c1: npt.NDArray[np.int64],
    c2: npt.NDArray[np.int64],
    rng: np.random.Generator,
    table: _Lookup | None,
    side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]:
    """One turn of many games at once: lighthouse states, boat, Maurice, won, lost.

    ``c1``/``c2`` are the die faces as colour indices (-1 = boat), two colours
    in alphabetical order.
    """
    n, k = geo.n, geo.k
    b = boat + ((c1 < 0) | (c2 < 0))
    lost = b > k
    chosen_state, chosen_r = _choose(geo, policy, s, b, m, c1, c2, rng, table, side)
    s = chosen_state
    m = m + chosen_r
    bonus = (m >= n) & ~(s == FINISHED).all(axis=1)
    if bonus.any():
        s = _bonus(s, bonus, b, m % n, policy, rng, table)
    m = m % n
    won = (s == FINISHED).all(axis=1) & ~lost
    return s, b, m, won, lost


def _choose(
    geo: Geometry,
    policy: Policy,
    s: npt.NDArray[np.int64],
    b: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    c1: npt.NDArray[np.int64],
    c2: npt.NDArray[np.int64],
    rng: np.random.Generator,
    table: _Lookup | None,
    side: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each game's decision for its roll under ``policy``: the lighthouse states after
    the discs are laid, and the discs returned (Maurice's steps)."""
    n = geo.n
    g = s.shape[0]
    # Candidates: order o, first lighthouse i (-1 = none), second j (-1 = none).
    best_key = np.full(g, -np.inf)
    chosen_state = s.copy()
    chosen_r = np.zeros(g, dtype=np.int64)
    draws = rng.random(g)
    cum = np.zeros(g)
    for o in (0, 1):
        a_col = c1 if o == 0 else c2
        b_col = c2 if o == 0 else c1
        o_ok = np.ones(g, dtype=bool) if o == 0 else (c1 >= 0) & (c2 >= 0) & (c1 != c2)
        n_orders = np.where((c1 >= 0) & (c2 >= 0) & (c1 != c2), 2, 1)
        t_a = TRANS[s, np.clip(side[a_col], 0, 1)]
        take_a = (side[a_col] >= 0) & (t_a >= 0)
        any_a = take_a.any(axis=1)
        n_a = np.maximum(take_a.sum(axis=1), 1)
        for i in range(-1, n):
            if i < 0:
                ok_i = o_ok & ~any_a
                s1 = s
                r1 = (a_col >= 0).astype(np.int64)
            else:
                ok_i = o_ok & take_a[:, i]
                if not ok_i.any():
                    continue
                s1 = s.copy()
                s1[:, i] = np.where(ok_i, t_a[:, i], s[:, i])
                r1 = np.zeros(g, dtype=np.int64)
            t_b = TRANS[s1, np.clip(side[b_col], 0, 1)]
            take_b = (side[b_col] >= 0) & (t_b >= 0)
            any_b = take_b.any(axis=1)
            n_b = np.maximum(take_b.sum(axis=1), 1)
            for j in range(-1, n):
                if j < 0:
                    ok = ok_i & ~any_b
                    s2 = s1
                    r = r1 + (b_col >= 0)
                else:
                    ok = ok_i & take_b[:, j]
                    if not ok.any():
                        continue
                    s2 = s1.copy()
                    s2[:, j] = np.where(ok, t_b[:, j], s1[:, j])
                    r = r1
                if policy == "optimal":
                    assert table is not None
                    key = np.full(g, -np.inf)
                    sub = np.flatnonzero(ok)
                    key[sub] = table.after(s2[sub], b[sub], (m + r)[sub])
                else:
                    cum = cum + np.where(ok, 1.0 / (n_orders * n_a * n_b), 0.0)
                    key = np.where(draws < cum, 1.0, -np.inf)
                better = ok & (key > best_key)
                if policy == "random":
                    best_key = np.where(ok & (key > 0), np.inf, best_key)
                else:
                    best_key = np.where(better, key, best_key)
                chosen_state[better] = s2[better]
                chosen_r[better] = r[better]
    return chosen_state, chosen_r


def greedy_turn(
    geo: Geometry,
    s: npt.NDArray[np.int64],
    boat: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    c1: npt.NDArray[np.int64],
    c2: npt.NDArray[np.int64],
    side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]:
    """One turn of greedy play in many games at once (docs/lighthouse.md, "The simple policies").

    Parameters
    ----------
    geo : Geometry
        The kit's arrays.
    s : ndarray, shape (g, n)
        Each game's lighthouse states.
    boat, m : ndarray, shape (g,)
        The boat's card and Maurice's offset.
    c1, c2 : ndarray, shape (g,)
        The die faces as colour indices (-1 = boat), two colours in alphabetical order.
    side : ndarray, shape (colours + 1, n)
        ``geo.colour_side`` with a last row of -1 (the boat's "colour").

    Returns
    -------
    (states, boat, Maurice, won, lost)
        After the turn.
    """
    n, k = geo.n, geo.k
    b = boat + ((c1 < 0) | (c2 < 0))
    lost = b > k
    islands = np.arange(n)

    def takers(
        state: npt.NDArray[np.int64], col: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        sd = side[col]
        t = TRANS[state, np.clip(sd, 0, 1)]
        return t, (sd >= 0) & (t >= 0)

    ok1 = takers(s, c1)[1].any(axis=1)
    ok2 = takers(s, c2)[1].any(axis=1)
    swap = greedy_swaps(ok1, ok2)
    first, second = np.where(swap, c2, c1), np.where(swap, c1, c2)
    s = s.copy()
    returned = np.zeros(s.shape[0], dtype=np.int64)
    for col in (first, second):
        t, ok = takers(s, col)
        score = np.where(ok, greedy_lay_rank(DISCS[s], islands), -(10**6))
        best = score.argmax(axis=1)
        has = ok.any(axis=1)
        rows = np.flatnonzero(has)
        s[rows, best[rows]] = t[rows, best[rows]]
        returned += (col >= 0) & ~has
    m = m + returned
    bonus = (m >= n) & ~(s == FINISHED).all(axis=1)
    if bonus.any():
        s = _bonus(s, bonus, b, m % n, "greedy", None, None)
    m = m % n
    won = (s == FINISHED).all(axis=1) & ~lost
    return s, b, m, won, lost


def _bonus(
    s: npt.NDArray[np.int64],
    mask: npt.NDArray[np.bool_],
    b: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    policy: Policy,
    rng: np.random.Generator | None,
    table: _Lookup | None,
) -> npt.NDArray[np.int64]:
    """The bonus disc placed by ``policy`` in the games of ``mask``."""
    g, n = s.shape
    best = np.full(g, -np.inf)
    out = s.copy()
    count = np.zeros(g)
    for i in range(n):
        for side in (0, 1):
            count += TRANS[s[:, i], side] >= 0
    draws = np.zeros(g)
    if policy == "random":
        assert rng is not None
        draws = np.floor(rng.random(g) * np.maximum(count, 1))
    seen = np.zeros(g)
    for i in range(n):
        for side in (0, 1):
            t = TRANS[s[:, i], side]
            ok = mask & (t >= 0)
            if not ok.any():
                continue
            if policy == "optimal":
                assert table is not None
                sub = np.flatnonzero(ok)
                moved = s[sub].copy()
                moved[:, i] = t[sub]
                key = np.full(g, -np.inf)
                key[sub] = table(moved, b[sub], m[sub])
            elif policy == "greedy":
                key = greedy_bonus_rank(DISCS[s[:, i]], i, side).astype(np.float64)
            else:
                key = np.where(seen == draws, 1.0, -np.inf)
                seen = seen + ok
            better = ok & (key > best)
            best = np.where(better, key, best)
            out[better] = s[better]
            out[better, i] = t[better]
    return out


# --- exact distributions of the game's length and of the boat at the end ------------------


@dataclass(frozen=True)
class OutcomeDistribution:
    """Exact distribution of how a game ends under one policy (from :func:`outcome_distribution`).

    Parameters
    ----------
    policy : {"optimal", "greedy", "random"}
    won_at, lost_at : tuple of Fraction
        ``won_at[t]`` / ``lost_at[t]``: the probability that the game is won /
        lost at turn ``t`` (index 0 unused).
    final_boat : tuple of Fraction
        ``final_boat[b]``: the probability that the game ends with the boat on
        position ``b`` (``sea_cards + 1``: landed).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> dist = outcome_distribution(default_kit(1, 1), "greedy")
    >>> dist.status, dist.win_probability
    (<Status.EXACT: 'exact'>, Fraction(1226471, 1679616))
    """

    policy: Policy
    won_at: tuple[Fraction, ...]
    lost_at: tuple[Fraction, ...]
    final_boat: tuple[Fraction, ...]

    @property
    def status(self) -> Status:
        """``optimal`` for the optimal policy, ``exact`` for greedy or random play."""
        return policy_status(self.policy)

    @property
    def win_probability(self) -> Fraction:
        """Total probability of winning."""
        return sum(self.won_at, Fraction(0))

    @property
    def expected_turns(self) -> Fraction:
        """Expected number of turns the game lasts."""
        return sum(
            (t * (w + lo) for t, (w, lo) in enumerate(zip(self.won_at, self.lost_at, strict=True))),
            Fraction(0),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data: each list of probabilities as floats with the exact ``"p/q"`` beside it.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> outcome_distribution(default_kit(1, 1), "greedy").to_dict()["won_at_exact"][:3]
        ['0/1', '0/1', '1/9']
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            **probability_json("win_probability", self.win_probability),
            "expected_turns": float(self.expected_turns),
            "expected_turns_exact": exact_text(self.expected_turns),
            "won_at": [float(p) for p in self.won_at],
            "won_at_exact": [exact_text(p) for p in self.won_at],
            "lost_at": [float(p) for p in self.lost_at],
            "lost_at_exact": [exact_text(p) for p in self.lost_at],
            "final_boat": [float(p) for p in self.final_boat],
            "final_boat_exact": [exact_text(p) for p in self.final_boat],
        }


def outcome_distribution(
    kit: Kit,
    policy: str = "optimal",
    solution: ValueTable | None = None,
    *,
    max_positions: int = 200_000,
) -> OutcomeDistribution:
    """Exact distribution of the game's length and of the final boat position.

    Propagates the probability of every reachable position turn by turn
    (Fractions). ``optimal`` plays the first best decision of ``advise`` on
    ``solution`` (ties change the length distribution, not the win probability).

    Parameters
    ----------
    kit : Kit
        A small kit.
    policy : {"optimal", "greedy", "random"}
    solution : LighthouseSolution, optional
        Tables of the kit, for ``optimal``.
    max_positions : int
        Most positions in one turn before giving up.

    Returns
    -------
    OutcomeDistribution

    Raises
    ------
    InvalidInput
        Unknown policy, ``optimal`` without a solution of this kit, or more than
        ``max_positions`` positions in a turn.

    References
    ----------
    J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
    (the distribution of absorption times, pushed forward step by step).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(1, sea_cards=1)
    >>> dist = outcome_distribution(kit, "greedy")
    >>> from isles.solvers.lighthouse.dp import solve
    >>> dist.win_probability == solve(kit, "greedy", exact=True).exact_win_probability()
    True
    """
    pol = check_policy(policy)
    if pol == "optimal" and (solution is None or solution.kit != kit):
        raise InvalidInput("solution", None, "a solved table of the same kit for optimal play")
    rolls = roll_outcomes(kit)
    k = kit.sea_cards
    frontier: dict[Position, Fraction] = {Position.start(kit): Fraction(1)}
    won_at: list[Fraction] = [Fraction(0)]
    lost_at: list[Fraction] = [Fraction(0)]
    final_boat = [Fraction(0)] * (k + 2)
    while frontier:
        if len(frontier) > max_positions:
            raise InvalidInput(
                "kit", len(kit.islands), f"a kit with at most {max_positions} positions per turn"
            )
        won_at.append(Fraction(0))
        lost_at.append(Fraction(0))
        nxt: dict[Position, Fraction] = {}
        for pos, p in frontier.items():
            for roll in rolls:
                if pol == "optimal":
                    assert solution is not None
                    choices = [(advise(solution, pos, roll).best, Fraction(1))]
                else:
                    choices = decision_weights(kit, pos, roll, pol)
                for decision, wt in choices:
                    q = p * roll.probability * wt
                    res = play_turn(kit, pos, roll, decision, check=False)
                    if res.outcome is Outcome.PLAYING:
                        nxt[res.position] = nxt.get(res.position, Fraction(0)) + q
                    elif res.outcome is Outcome.WON:
                        won_at[-1] += q
                        final_boat[res.position.boat] += q
                    else:
                        lost_at[-1] += q
                        final_boat[k + 1] += q
        frontier = nxt
    return OutcomeDistribution(pol, tuple(won_at), tuple(lost_at), tuple(final_boat))


# --- the competitive variant ----------------------------------------------------------
