"""The best chance that every ship of a fleet stands on a scoring edge at once within R rolls,
and the steering that achieves it.

Implements docs/ships.md ("The fleet"; seed 004_644cf972d8964df4.txt, rules 6 and 11
and the end of the game): a finite-horizon Markov decision process over the fleet's
joint positions, by backward induction, in floats or exact Fractions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.catan import roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge
from isles.models.jsonio import edge_json, probability_json
from isles.models.ships.fleet import MAX_FLEET_ROLLS, Rollers, check_fleet, survival_probability
from isles.models.ships.limits import ROLLS
from isles.models.status import Status
from isles.solvers.ships.graph import ROLL_INDEX, ROLL_P, UNIT_ROUNDOFF, BoolArray, WindGraph
from isles.solvers.ships.joint_states import (
    FleetSpace,
    ShipMove,
    check_scoring,
    fleet_board,
    space_for,
)
from isles.solvers.work import Bar, Progress

__all__ = ["MAX_EXACT_STATES", "MAX_TABLE_CELLS", "FleetAdvice", "FleetOdds", "fleet_odds"]

#: Largest joint table for exact Fractions (their size grows with every roll).
MAX_EXACT_STATES = 5_000
#: Most values a finite-horizon table keeps (one per joint state and rolls left,
#: 8 bytes each): the steering of every position for every horizon.
MAX_TABLE_CELLS = 40_000_000
_ROLL_P_EXACT: npt.NDArray[Any] = np.array([roll_probability(n) for n in ROLLS], dtype=object)


@dataclass(frozen=True)
class FleetAdvice:
    """The advised placement of the fleet after one roll, with ``rolls_left`` rolls to go.

    Attributes
    ----------
    roll : int
        The 2d6 sum, 2..12.
    rolls_left : int
        Rolls to go, this one included.
    moves : tuple of ShipMove
        ``(from, to)`` for every ship (``from == to`` when it stays).
    probability : Fraction or float
        The chance to have every ship on a scoring edge at once within the
        ``rolls_left`` rolls, this roll's placement made (its collision rolls included).
    """

    roll: int
    rolls_left: int
    moves: tuple[ShipMove, ...]
    probability: Fraction | float

    def to_dict(self) -> dict[str, Any]:
        """``{"roll", "rolls_left", "moves": [{"from", "to"}], "probability",
        "probability_exact"}``."""
        return {
            "roll": self.roll,
            "rolls_left": self.rolls_left,
            "moves": [{"from": edge_json(a), "to": edge_json(b)} for a, b in self.moves],
            **probability_json("probability", self.probability),
        }


@dataclass(frozen=True, eq=False)
class FleetOdds:
    """The best chance that every ship scores at once within R rolls; the steering.

    Attributes
    ----------
    status : Status
        ``Status.OPTIMAL``: the values are those of the optimal policy.
    space : FleetSpace
        The joint positions valued.
    start : tuple of Edge
        The fleet's edges, sorted.
    scoring : frozenset of Edge
        The scoring edges.
    rolls : int
        The horizon R.
    exact : bool
        Values are Fractions (else floats within ``error_bound``).
    error_bound : float
        Largest possible difference between a float value and the exact one
        (0 for exact tables): ``16 * R * 2**-53`` (see :func:`fleet_odds`).
    values : ndarray, shape (R + 1, S)
        ``values[t, s]`` = the best probability from joint state ``s`` with ``t``
        rolls to go (Fractions in an object array when ``exact``).
    """

    status: Status
    space: FleetSpace = field(repr=False)
    start: tuple[Edge, ...]
    scoring: frozenset[Edge]
    rolls: int
    exact: bool
    error_bound: float
    values: npt.NDArray[Any] = field(repr=False)

    @property
    def joint_states(self) -> int:
        """Joint positions in the table."""
        return len(self.space)

    @property
    def within(self) -> tuple[Fraction | float, ...]:
        """The start's best probability within ``t`` rolls, for ``t = 0..rolls``."""
        s = self.space.index(self.start)
        return tuple(self._scalar(self.values[t, s]) for t in range(self.rolls + 1))

    def probability(
        self, rolls: int | None = None, fleet: Sequence[Edge] | None = None
    ) -> Fraction | float:
        """Best probability from ``fleet`` (default: the start) within ``rolls`` (default: R).

        Raises
        ------
        InvalidInput
            If ``rolls`` is not in 0..R, or ``fleet`` is not a fleet of this table.
        """
        t = self._rolls_left(self.rolls if rolls is None else rolls, "rolls", 0)
        s = self.space.index(self.start if fleet is None else fleet, "fleet")
        return self._scalar(self.values[t, s])

    def steer(self, fleet: Sequence[Edge], roll: int, rolls_left: int) -> tuple[ShipMove, ...]:
        """Where to put the ships of ``fleet`` after ``roll`` with ``rolls_left`` rolls to go.

        ``rolls_left`` counts this roll (1..R): the placement maximises the best
        probability with ``rolls_left - 1`` rolls after it, collision rolls of
        this roll included. Ties go to the first placement in the order of
        :meth:`FleetSpace.moves`.

        Raises
        ------
        InvalidInput
            If ``roll`` is not in 2..12, ``rolls_left`` not in 1..R, or ``fleet``
            is not a fleet of this table.
        """
        return self._best(fleet, roll, rolls_left)[0]

    def advice(self) -> tuple[FleetAdvice, ...]:
        """The first move from the start with R rolls to go, per roll 2..12 (empty if R = 0)."""
        if self.rolls == 0:
            return ()
        out = []
        for n in ROLLS:
            moves, value = self._best(self.start, n, self.rolls)
            out.append(FleetAdvice(n, self.rolls, moves, value))
        return tuple(out)

    def _best(
        self, fleet: Sequence[Edge], roll: int, rolls_left: int
    ) -> tuple[tuple[ShipMove, ...], Fraction | float]:
        if isinstance(roll, bool) or not isinstance(roll, int) or roll not in ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        t = self._rolls_left(rolls_left, "rolls_left", 1)
        s = self.space.index(fleet, "fleet")
        after = self.values[t - 1]
        best: tuple[tuple[ShipMove, ...], Any] | None = None
        for moves, succ in self.space.moves(s, roll):
            value = self._survival(succ) * after[succ]
            if best is None or value > best[1]:
                best = (moves, value)
        assert best is not None  # every roll leaves at least one placement
        return best[0], self._scalar(best[1])

    def _survival(self, state: int) -> Fraction | float:
        p = survival_probability(int(self.space.collision_rolls[state]))
        return p if self.exact else float(p)

    def _rolls_left(self, t: int, name: str, low: int) -> int:
        if isinstance(t, bool) or not isinstance(t, int) or not low <= t <= self.rolls:
            raise InvalidInput(name, t, f"an integer in {low}..{self.rolls}")
        return t

    def _scalar(self, x: Any) -> Fraction | float:
        return Fraction(x) if self.exact else float(x)

    def to_dict(self) -> dict[str, Any]:
        """The result in the JSON dialect of docs/json.md.

        Members: ``status``, ``ships`` (edges), ``scoring`` (edges, sorted),
        ``rolls``, ``may_stay``, ``collision_rollers``, ``joint_states``,
        ``probability`` / ``probability_exact`` (within R rolls), ``within``
        (one ``{"rolls", "probability", "probability_exact"}`` per t = 0..R),
        ``error_bound`` and ``advice`` (:meth:`FleetAdvice.to_dict` per roll).
        """
        within = self.within
        return {
            "status": str(self.status),
            "ships": [edge_json(e) for e in self.start],
            "scoring": [edge_json(e) for e in sorted(self.scoring)],
            "rolls": self.rolls,
            "may_stay": self.space.may_stay,
            "collision_rollers": str(self.space.rollers),
            "joint_states": self.joint_states,
            **probability_json("probability", within[-1]),
            "within": [
                {"rolls": t, **probability_json("probability", p)} for t, p in enumerate(within)
            ],
            "error_bound": self.error_bound,
            "advice": [a.to_dict() for a in self.advice()],
        }


def _horizon_values(
    space: FleetSpace, scoring: BoolArray, rolls: int, exact: bool, progress: Progress = False
) -> npt.NDArray[Any]:
    """``values[t, s]``: backward induction over t = 0..rolls (the one DP core).

    ``V_0 = [s scores]``; ``V_t(s) = 1`` if ``s`` scores, else
    ``sum_n P(n) max_{s' in A(s, n)} q(s') V_{t-1}(s')``, with ``q(s')`` the
    chance that the collision rolls on ``s'`` sink no ship and ``A(s, n) = {s}``
    for a roll that moves no ship.
    """
    n_states = len(space)
    dtype: Any = object if exact else np.float64
    probs = _ROLL_P_EXACT if exact else ROLL_P
    most = int(space.collision_rolls.max(initial=0))
    by_rolls = [survival_probability(m) for m in range(most + 1)]
    survival = np.array(by_rolls if exact else [float(p) for p in by_rolls], dtype=dtype)[
        space.collision_rolls
    ]
    one: Any = Fraction(1) if exact else 1.0
    zero: Any = Fraction(0) if exact else 0.0
    values = np.empty((rolls + 1, n_states), dtype=dtype)
    v = np.full(n_states, zero, dtype=dtype)
    v[scoring] = one
    values[0] = v
    flat = [space.pair_state[rows] * len(ROLLS) + space.pair_roll[rows] for rows, _ in space.groups]
    # One contiguous array per choice column: a running maximum over a few columns is
    # several times faster than a reduction along a short axis.
    columns = [
        [np.ascontiguousarray(succ[:, j]) for j in range(succ.shape[1])] for _, succ in space.groups
    ]
    per_roll = np.empty((n_states, len(ROLLS)), dtype=dtype)
    with Bar(rolls, "fleet odds", progress, unit="roll") as bar:
        for t in range(1, rolls + 1):
            w = survival * v
            per_roll[:] = w[:, None]
            cells = per_roll.reshape(-1)
            for where, cols in zip(flat, columns, strict=True):
                best = w[cols[0]]
                for col in cols[1:]:
                    np.maximum(best, w[col], out=best)
                cells[where] = best
            # einsum, not a BLAS product: 11 columns gain nothing from threads.
            v = np.einsum("sr,r->s", per_roll, probs)
            v[scoring] = one
            values[t] = v
            bar.update(1)
    return values


def fleet_odds(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[Edge],
    scoring: Iterable[Edge],
    rolls: int,
    *,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    exact: bool = False,
    progress: Progress = False,
) -> FleetOdds:
    """The steering that maximises the chance that every ship stands on a scoring edge at once
    within ``rolls`` rolls, and that chance for every horizon up to ``rolls``.

    A finite-horizon Markov decision process over the fleet's joint positions
    (unordered: ships of one player are interchangeable). One roll of 2d6 moves
    every ship whose wind blows (seed rule 6); the owner then places each ship
    on one of its allowed edges; the collision rolls of seed rule 11 follow on
    every crowded edge, and a sunk ship ends the attempt (docs/ships.md). The
    attempt succeeds as soon as every ship stands on a scoring edge after a
    roll (or at the start).

    Parameters
    ----------
    board : Board, WindGraph or FleetSpace
        The board, or a prebuilt graph or joint table (reused across calls).
    ships : sequence of Edge
        The fleet's edges, 1..3 ships (repeats allowed: ships may share an edge).
    scoring : iterable of Edge
        The scoring edges (see :func:`isles.models.ships.fleet.scoring_edges`).
    rolls : int
        The horizon R, 0..MAX_FLEET_ROLLS.
    may_stay : bool, optional
        The seed's variant (a ship along a coast may stay); default False, or
        the prebuilt graph's or table's setting.
    rollers : Rollers, optional
        Which ships on a crowded edge roll (default ``Rollers.EXCESS``, or the table's).
    exact : bool
        Fractions instead of floats (at most ``MAX_EXACT_STATES`` joint states).
    progress : bool, None or callable
        A bar over the table's rolls and the horizon's (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    FleetOdds
        The values of every joint state for every horizon 0..R (the policy),
        the start's probabilities and the first move's advice.

    Raises
    ------
    InvalidInput
        A ship or scoring edge not on the board, not 1..3 ships, ``rolls`` out
        of range, a table over ``MAX_JOINT_STATES`` joint states (or over
        ``MAX_EXACT_STATES`` when ``exact``, or over ``MAX_TABLE_CELLS`` values
        for R + 1 horizons), or settings that disagree with a prebuilt table.

    Notes
    -----
    Backward induction: ``V_0(s) = 1`` if every ship of ``s`` scores, else 0;
    ``V_t(s) = 1`` on scoring states and otherwise
    ``V_t(s) = sum_n P(n) max_{s' in A(s, n)} q(s') V_{t-1}(s')``, where
    ``A(s, n)`` are the joint placements after roll ``n`` (``{s}`` when no wind
    blows) and ``q(s') = (35/36)**m`` for ``m`` collision rolls on ``s'``. One
    vectorised sweep per roll: a gather and a row maximum over the distinct
    successors of every (state, moving roll) pair, then one dense product with
    the 11 roll probabilities. Cost per roll linear in those successors
    (about 1.2 million for 3 ships on the demo board).

    Float error (``u = 2**-53``, values in [0, 1]): per roll, ``q * V`` with a
    rounded ``q`` costs at most ``2u``, the maxima are exact, the 11-term dot
    product at most ``11.01u`` (``gamma_11``, any summation order) and the
    rounded roll probabilities ``u``: at most ``14.01u < 16u``. The Bellman
    operator is non-expansive (its weights are probabilities and ``q <= 1``), so
    after ``R`` rolls every value is within ``16 R u`` of the exact one:
    ``error_bound`` (5e-14 for R = 30).

    References
    ----------
    Puterman, M. L. (1994). *Markov Decision Processes: Discrete Stochastic
    Dynamic Programming*, ch. 4 (finite-horizon models, backward induction).
    Rules: docs/ships.md ("The fleet"); seed 004_644cf972d8964df4.txt.

    Examples
    --------
    Two ships on the demo board; red's two settlements make six scoring edges:

    >>> from isles.models.ships.fleet import scoring_edges
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.ships.demo import demo_board
    >>> board = demo_board()
    >>> red = {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    >>> home = scoring_edges(board, "red", red)
    >>> odds = fleet_odds(board, [edge((0, 0), (0, 1)), edge((1, 1), (1, 2))], home, 10)
    >>> odds.joint_states, round(odds.probability(), 4), round(odds.probability(3), 4)
    (3486, 0.1214, 0.0129)

    On a 10 with 10 rolls to go, the first ship turns onto a scoring edge:

    >>> [f"{a} -> {b}" for a, b in odds.steer(odds.start, 10, 10)]
    ['0,0:0,1 -> -1,1:0,0', '1,1:1,2 -> 1,1:1,2']
    """
    start = check_fleet(fleet_board(board), ships)
    target = check_scoring(fleet_board(board), scoring)
    if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls <= MAX_FLEET_ROLLS:
        raise InvalidInput("rolls", rolls, f"an integer in 0..{MAX_FLEET_ROLLS}")
    space = space_for(board, len(start), may_stay, rollers, progress)
    n_states = len(space)
    if exact and n_states > MAX_EXACT_STATES:
        raise InvalidInput(
            "exact",
            True,
            f"floats for {n_states:,} joint states (exact Fractions up to {MAX_EXACT_STATES:,})",
        )
    if (rolls + 1) * n_states > MAX_TABLE_CELLS:
        raise InvalidInput(
            "rolls",
            rolls,
            f"at most {MAX_TABLE_CELLS // n_states - 1} rolls for {n_states:,} joint states "
            f"(the table keeps at most {MAX_TABLE_CELLS:,} values)",
        )
    values = _horizon_values(space, space.scoring_mask(target), rolls, exact, progress)
    return FleetOdds(
        status=Status.OPTIMAL,
        space=space,
        start=start,
        scoring=target,
        rolls=rolls,
        exact=exact,
        error_bound=0.0 if exact else 16.0 * rolls * UNIT_ROUNDOFF,
        values=values,
    )
