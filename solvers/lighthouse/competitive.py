"""Lighthouses, the competitive variant: what is each seat's chance of finishing first?

Implements docs/lighthouse.md ("Competitive variant"; seed
000_aeb701e368f40145.txt): one turn of the variant under a fixed policy
(its rules are the model's: ``isles.models.lighthouse.competitive_landing`` and
friends; the policies are policies.py's), each seat's exact chance for small
kits (an absorbing Markov chain, sparse LU), and simulation beyond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput, expect
from isles.models.jsonio import probability_json, read_int
from isles.models.lighthouse import (
    BOAT,
    DEFAULT_GAMES,
    DISCS_PER_LIGHTHOUSE,
    EXACT_COMPETITIVE_ISLANDS,
    CompetitiveState,
    Kit,
    Policy,
    Roll,
    can_take,
    check_seats,
    competitive_landing,
    competitive_start,
    default_kit,
    lay_disc,
    remove_top_disc,
    roll_outcomes,
    seat_islands,
)
from isles.models.status import Status
from isles.solvers.lighthouse.policies import (
    bonus_rank,
    check_policy,
    choose,
    greedy_lay_rank,
    greedy_swaps,
)
from isles.solvers.lighthouse.simulation import check_games, check_seed, wilson_interval

__all__ = [
    "CompetitiveExact",
    "CompetitiveResult",
    "CompetitiveState",
    "competitive_branches",
    "competitive_exact",
    "competitive_kit",
    "competitive_odds",
    "simulate_competitive",
]


@dataclass(frozen=True)
class CompetitiveResult:
    """Each seat's chance of winning the competitive variant, by simulation.

    From :func:`simulate_competitive` (or :func:`competitive_odds` for larger
    kits); ``status`` is ``estimate``.

    Parameters
    ----------
    policy : {"greedy", "random"}
        The policy every seat plays.
    seats : int
    games : int
    wins : tuple of int
        ``wins[s]``: games won by seat ``s`` (seat 0 starts).
    ci95 : tuple of (float, float)
        Each seat's Wilson 95% interval.
    unfinished : int
        Games that hit the turn limit.
    mean_turns : float
        Mean game length in turns (unfinished games count the limit).
    seed : int or None
        The seed of the random generator.

    Examples
    --------
    >>> res = simulate_competitive(default_kit(2, 3), 2, "greedy", 50, seed=1)
    >>> res.status, len(res.win_probability)
    (<Status.ESTIMATE: 'estimate'>, 2)
    """

    policy: Policy
    seats: int
    games: int
    wins: tuple[int, ...]
    ci95: tuple[tuple[float, float], ...]
    unfinished: int
    mean_turns: float
    seed: int | None = None

    @property
    def status(self) -> Status:
        """Always ``estimate``: sampled values with their confidence intervals."""
        return Status.ESTIMATE

    @property
    def win_probability(self) -> tuple[float, ...]:
        """Each seat's estimated chance of winning."""
        return tuple(w / self.games for w in self.wins)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> res = simulate_competitive(default_kit(2, 3), 2, "greedy", 50, seed=1)
        >>> sorted(res.to_dict()["by_seat"][0])
        ['ci95', 'seat', 'win_probability', 'win_probability_exact', 'wins']
        """
        return {
            "status": str(self.status),
            "method": "monte carlo",
            "policy": self.policy,
            "seats": self.seats,
            "games": self.games,
            "seed": self.seed,
            "unfinished": self.unfinished,
            "mean_turns": self.mean_turns,
            "by_seat": [
                {
                    "seat": s + 1,
                    "wins": w,
                    **probability_json("win_probability", w / self.games),
                    "ci95": list(ci),
                }
                for s, (w, ci) in enumerate(zip(self.wins, self.ci95, strict=True))
            ],
        }


def competitive_kit(seats: int = 2, sea_cards: int = 3) -> Kit:
    """The competitive kit (docs/lighthouse.md, "Competitive variant").

    2 seats hold 3 islands each, 3 or 4 seats 2 each, of the default kit.

    Parameters
    ----------
    seats : int
        2, 3 or 4 players.
    sea_cards : int
        Sea cards (the variant plays with 3).

    Returns
    -------
    Kit

    Raises
    ------
    InvalidInput
        ``seats`` outside 2..4, or a bad number of sea cards.

    Examples
    --------
    >>> len(competitive_kit(2).islands), competitive_kit(2).sea_cards
    (6, 3)
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
        raise InvalidInput("seats", seats, "2, 3 or 4 players")
    return default_kit(6 if seats == 2 else 2 * seats, sea_cards)


def _own_placements(
    kit: Kit,
    mine: Sequence[int],
    stacks: tuple[tuple[str, ...], ...],
    order: Sequence[str],
    policy: Policy,
) -> list[tuple[tuple[tuple[str, ...], ...], int, Fraction]]:
    """The seat's placements of the discs in ``order``: (stacks, discs returned, probability)."""
    if not order:
        return [(stacks, 0, Fraction(1))]
    colour, rest = order[0], order[1:]
    takers = [i for i in mine if can_take(kit.islands[i], stacks[i], colour)]
    if not takers:
        return [(s2, r + 1, w) for s2, r, w in _own_placements(kit, mine, stacks, rest, policy)]
    out = []
    for i, wi in choose(policy, takers, lambda i: greedy_lay_rank(len(stacks[i]), i)):
        for s2, r, w in _own_placements(kit, mine, lay_disc(stacks, i, colour), rest, policy):
            out.append((s2, r, wi * w))
    return out


def competitive_branches(
    kit: Kit, seats: int, state: CompetitiveState, roll: Roll, policy: str
) -> list[tuple[CompetitiveState, Fraction, int]]:
    """One competitive turn for ``roll``: (next state, probability, winner or -1) per branch.

    Seat ``s`` owns a contiguous block of ``len(islands) // seats`` islands
    (seat 0 holds Maurice's island) and builds only those. When the boat moves
    past the last card the active seat removes the top disc of another seat's
    unfinished lighthouse (greedy: the one with most discs, first on ties;
    random: uniform), the boat goes back onto position ``sea_cards - 1`` and the
    turn goes on with the colour dice. Discs, Maurice and the bonus follow the
    cooperative rules restricted to the active seat's own lighthouses and the
    greedy/random rules of docs/lighthouse.md. A seat that finishes all its
    lighthouses wins at once (docs/lighthouse.md, "Competitive variant").

    Parameters
    ----------
    kit : Kit
    seats : int
        Players, each holding ``len(kit.islands) // seats`` islands.
    state : CompetitiveState
        (stacks, boat, Maurice offset, seat to play).
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    list of (CompetitiveState, Fraction, int)
        The branches; their probabilities sum to 1.

    Raises
    ------
    InvalidInput
        An unknown policy.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> start = competitive_start(kit)
    >>> [(b[0][0][0], b[2]) for b in
    ...  competitive_branches(kit, 2, start, Roll(True, ("red",), Fraction(1, 18)), "greedy")]
    [(('red',), -1)]
    """
    pol = check_policy(policy)
    stacks, boat, maurice, seat = state
    n, k = len(kit.islands), kit.sea_cards
    mine = seat_islands(kit, seats, seat)
    starts: list[tuple[tuple[tuple[str, ...], ...], int, Fraction]] = [(stacks, boat, Fraction(1))]
    if roll.boat:
        if boat + 1 > k:
            back, targets = competitive_landing(kit, seats, state)
            starts = [(stacks, back, Fraction(1))]
            if targets:
                # Greedy removes from the lighthouse of highest rank: most discs, first island.
                starts = [
                    (remove_top_disc(stacks, v), back, w)
                    for v, w in choose(pol, targets, lambda i: greedy_lay_rank(len(stacks[i]), i))
                ]
        else:
            starts = [(stacks, boat + 1, Fraction(1))]
    out: list[tuple[CompetitiveState, Fraction, int]] = []
    for st0, b0, w0 in starts:
        colours = list(roll.colours)
        orders = [colours]
        if len(colours) == 2 and colours[0] != colours[1]:
            if pol == "greedy":
                ok = [any(can_take(kit.islands[i], st0[i], c) for i in mine) for c in colours]
                orders = [colours[::-1] if greedy_swaps(ok[0], ok[1]) else colours]
            else:
                orders = [colours, colours[::-1]]
        for order in orders:
            for st1, returned, w1 in _own_placements(kit, mine, st0, order, pol):
                bonus: list[tuple[tuple[tuple[str, ...], ...], Fraction]] = [(st1, Fraction(1))]
                if maurice + returned >= n:
                    options = [
                        (c, i)
                        for i in mine
                        for c in kit.islands[i]
                        if can_take(kit.islands[i], st1[i], c)
                    ]
                    if options:
                        bonus = [
                            (lay_disc(st1, i, c), w)
                            for (c, i), w in choose(pol, options, bonus_rank(kit, st1))
                        ]
                for st2, w2 in bonus:
                    won = all(len(st2[i]) == DISCS_PER_LIGHTHOUSE for i in mine)
                    nxt = (st2, b0, (maurice + returned) % n, seat if won else (seat + 1) % seats)
                    out.append((nxt, w0 * w1 * w2 / len(orders), seat if won else -1))
    return out


def _check_competitive(kit: Kit, seats: int, policy: str) -> Policy:
    pol = check_policy(policy)
    if pol == "optimal":
        raise InvalidInput(
            "policy",
            policy,
            "greedy or random for the competitive variant (its optimum is not solved)",
        )
    check_seats(kit, seats)
    return pol


def simulate_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    max_turns: int = 2_000,
    progress: bool = False,
) -> CompetitiveResult:
    """Play the competitive variant ``games`` times (rules: :func:`competitive_branches`).

    Parameters
    ----------
    kit : Kit
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
        Every seat's policy.
    games : int
        1..:data:`MAX_GAMES` (about 550 games a second for 2 x 3 islands).
    seed : int
        The seed of NumPy's random generator, >= 0.
    max_turns : int
        Games longer than this count as unfinished.
    progress : bool
        A tqdm progress bar (stderr) over the games.

    Returns
    -------
    CompetitiveResult

    Raises
    ------
    InvalidInput
        Unknown or optimal policy (the optimum is not solved), islands not
        divisible among the seats, ``games`` outside 1..:data:`MAX_GAMES`, a
        negative seed.

    References
    ----------
    E. B. Wilson (1927), for the intervals (see :func:`wilson_interval`).

    Examples
    --------
    >>> res = simulate_competitive(competitive_kit(2), 2, "greedy", 200, seed=1)
    >>> sum(res.wins) + res.unfinished
    200
    """
    pol = _check_competitive(kit, seats, policy)
    games = check_games(games)
    seed = check_seed(seed)
    max_turns = read_int(max_turns, "max_turns", 1)
    rng = np.random.default_rng(seed)
    wins = [0] * seats
    unfinished = 0
    turns_total = 0
    iterator: Any = range(games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc="competitive games", unit="game")
    for _ in iterator:
        state: CompetitiveState = competitive_start(kit)
        winner = -1
        for turn in range(1, max_turns + 1):
            faces = [die[int(rng.integers(len(die)))] for die in kit.dice]
            roll = Roll(BOAT in faces, tuple(sorted(f for f in faces if f != BOAT)), Fraction(1))
            branches = competitive_branches(kit, seats, state, roll, pol)
            pick = 0
            if len(branches) > 1:
                weights = np.array([float(w) for _, w, _ in branches])
                pick = int(rng.choice(len(branches), p=weights / weights.sum()))
            state, _, winner = branches[pick]
            if winner >= 0:
                turns_total += turn
                break
        if winner < 0:
            unfinished += 1
            turns_total += max_turns
        else:
            wins[winner] += 1
    return CompetitiveResult(
        pol,
        seats,
        games,
        tuple(wins),
        tuple(wilson_interval(w, games) for w in wins),
        unfinished,
        turns_total / games,
        seed,
    )


@dataclass(frozen=True)
class CompetitiveExact:
    """Each seat's exact chance of winning the competitive variant under a fixed policy.

    From :func:`competitive_exact`; ``status`` is ``exact``. The game is an
    absorbing Markov chain with cycles (the boat removes discs); the absorption
    probabilities solve a sparse linear system in floats.

    Parameters
    ----------
    policy : {"greedy", "random"}
    seats : int
    positions : int
        Reachable positions (transient states of the chain).
    win_probability : tuple of float
        Each seat's chance, seat 0 (who starts) first.
    residual : float
        Largest residual of the linear solve.
    error_bound : float
        Every chance is within this of the exact value (see :func:`competitive_exact`).

    Examples
    --------
    >>> res = competitive_exact(default_kit(2, 2), 2, "greedy")
    >>> res.status, round(sum(res.win_probability), 9)
    (<Status.EXACT: 'exact'>, 1.0)
    """

    policy: Policy
    seats: int
    positions: int
    win_probability: tuple[float, ...]
    residual: float
    error_bound: float = 0.0

    @property
    def status(self) -> Status:
        """Always ``exact``: the chances of a fixed policy, floats within ``error_bound``."""
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> competitive_exact(default_kit(2, 2), 2, "greedy").to_dict()["method"]
        'sparse linear solve'
        """
        return {
            "status": str(self.status),
            "method": "sparse linear solve",
            "policy": self.policy,
            "seats": self.seats,
            "positions": self.positions,
            "residual": self.residual,
            "error_bound": self.error_bound,
            "by_seat": [
                {"seat": s + 1, **probability_json("win_probability", p)}
                for s, p in enumerate(self.win_probability)
            ],
        }


def competitive_exact(
    kit: Kit, seats: int = 2, policy: str = "greedy", *, max_positions: int = 50_000
) -> CompetitiveExact:
    """Exact chances of each seat in the competitive variant, for small kits.

    Enumerates the positions reachable from the start (seat 0 to play), builds
    the transition matrix of the policy and solves ``(I - Q) X = R`` with a
    sparse LU factorisation (SciPy's SuperLU).

    Parameters
    ----------
    kit : Kit
        A small kit (:data:`EXACT_COMPETITIVE_ISLANDS` islands: about 10,000 positions).
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
    max_positions : int
        Most reachable positions before giving up.

    Returns
    -------
    CompetitiveExact

    Raises
    ------
    InvalidInput
        Bad policy or seats, more than ``max_positions`` reachable positions.

    Notes
    -----
    Error bound: the error of the computed ``X`` is ``N (R - (I - Q) X)`` with
    ``N = (I - Q)^-1 >= 0`` the fundamental matrix, whose largest row sum is
    the longest expected time to absorption ``t`` (solved with the same
    factorisation, ``(I - Q) t = 1``). So every chance is within
    ``max(t) * residual``; the stated bound doubles it for the rounding of ``t``
    and of the residual itself.

    References
    ----------
    J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, 1960 (absorbing
    chains, the fundamental matrix). X. S. Li, "An overview of SuperLU", *ACM
    Transactions on Mathematical Software* 31 (2005) 302-325.

    Examples
    --------
    >>> kit = competitive_kit(2, sea_cards=2)
    >>> tiny = Kit(kit.islands[:2], kit.dice, 2)
    >>> res = competitive_exact(tiny, 2, "greedy")
    >>> round(sum(res.win_probability), 9), res.error_bound < 1e-9
    (1.0, True)
    """
    pol = _check_competitive(kit, seats, policy)
    # SciPy is loaded only here: `import isles.lighthouse` stays quick.
    from scipy.sparse import coo_matrix, identity
    from scipy.sparse.linalg import splu

    rolls = roll_outcomes(kit)
    start: CompetitiveState = competitive_start(kit)
    index: dict[CompetitiveState, int] = {start: 0}
    queue = [start]
    rows: list[int] = []
    cols: list[int] = []
    probs: list[float] = []
    absorb = [[0.0] * seats]
    head = 0
    while head < len(queue):
        state = queue[head]
        here = head
        head += 1
        for roll in rolls:
            for nxt, w, winner in competitive_branches(kit, seats, state, roll, pol):
                p = float(roll.probability * w)
                if winner >= 0:
                    absorb[here][winner] += p
                    continue
                j = index.get(nxt)
                if j is None:
                    if len(index) >= max_positions:
                        raise InvalidInput(
                            "kit",
                            None,
                            f"a competitive kit with at most {max_positions} reachable "
                            "positions (simulate_competitive plays larger ones)",
                            problem=f"{len(kit.islands)} islands reach more",
                        )
                    j = index[nxt] = len(queue)
                    queue.append(nxt)
                    absorb.append([0.0] * seats)
                rows.append(here)
                cols.append(j)
                probs.append(p)
    size = len(queue)
    q = coo_matrix((probs, (rows, cols)), shape=(size, size)).tocsc()
    a = (identity(size, format="csc") - q).tocsc()
    r = np.array(absorb)
    lu = splu(a)
    x = lu.solve(r).reshape(size, seats)
    steps = lu.solve(np.ones(size))
    residual = float(np.abs(a @ x - r).max())
    bound = 2.0 * float(np.abs(steps).max()) * max(residual, 2.0**-53)
    return CompetitiveExact(pol, seats, size, tuple(float(v) for v in x[0]), residual, bound)


def competitive_odds(
    kit: Kit,
    seats: int = 2,
    policy: str = "greedy",
    *,
    games: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> CompetitiveExact | CompetitiveResult:
    """Each seat's chance in the competitive variant, exact for small kits, else simulated.

    Kits of at most :data:`EXACT_COMPETITIVE_ISLANDS` islands are solved exactly
    (:func:`competitive_exact`); larger ones are simulated
    (:func:`simulate_competitive`), with ``games`` (default :data:`DEFAULT_GAMES`).

    Parameters
    ----------
    kit : Kit
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
        Every seat's policy.
    games : int, optional
        Games to simulate, 1..:data:`MAX_GAMES`; only when the kit is simulated.
    seed : int, optional
        The simulation's seed (default 0); only when the kit is simulated.
    progress : bool
        A progress bar (stderr) over the simulated games.

    Returns
    -------
    CompetitiveExact or CompetitiveResult
        ``status`` exact or estimate.

    Raises
    ------
    InvalidInput
        Bad policy or seats; ``games`` or ``seed`` for a kit solved exactly (they
        would do nothing); ``games`` above :data:`MAX_GAMES`.

    Examples
    --------
    >>> competitive_odds(default_kit(2, 3)).status
    <Status.EXACT: 'exact'>
    >>> competitive_odds(default_kit(2, 3), games=10)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 10 is invalid; expected games only ...
    """
    expect(kit, Kit, "kit", "a Kit (competitive_kit builds one)")
    _check_competitive(kit, seats, policy)
    if len(kit.islands) <= EXACT_COMPETITIVE_ISLANDS:
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only when the kit is simulated (more than "
                    f"{EXACT_COMPETITIVE_ISLANDS} islands; smaller kits are solved exactly)",
                )
        return competitive_exact(kit, seats, policy)
    return simulate_competitive(
        kit,
        seats,
        policy,
        DEFAULT_GAMES if games is None else games,
        seed=0 if seed is None else seed,
        progress=progress,
    )


# --- the odds of a kit in one call -------------------------------------------------------
