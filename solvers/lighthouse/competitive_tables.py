"""Lighthouses, competitive variant: the rules tabulated for the sweeps, and the simple policies.

Implements docs/lighthouse.md ("Competitive variant", "The simple policies"; seed
000_aeb701e368f40145.txt): greedy and random play of a seat (the cooperative
policies applied to its own lighthouses), and the rules of models/lighthouse/competitive.py
tabulated once per kit, seats and policies, as the arrays competitive_kernels.py sweeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.competitive import (
    CompetitiveDecision,
    CompetitivePosition,
    competitive_decisions,
    from_seat_decision,
    play_competitive_turn,
    removal_weights,
    seat_islands,
    seat_kit,
    seat_position,
)
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.rules import Roll, roll_outcomes
from isles.solvers.lighthouse.policies import decision_weights

__all__ = ["FINISHED", "STATES", "Floats", "Ints", "RuleTables", "policy_decisions", "rule_tables"]

STATES = 8
"""A lighthouse's states: empty, 1-3 discs with either colour on top, finished."""

FINISHED = STATES - 1
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


# --- lighthouse codes -----------------------------------------------------------------------


def _island_state(island: tuple[str, str], stack: Sequence[str]) -> int:
    """0 empty, ``1 + 2 (discs - 1) + top`` for 1-3 discs (top: the colour's index), 7 finished."""
    if not stack:
        return 0
    if len(stack) >= DISCS_PER_LIGHTHOUSE:
        return FINISHED
    return 1 + 2 * (len(stack) - 1) + island.index(stack[-1])


def _island_stack(island: tuple[str, str], state: int) -> tuple[str, ...]:
    """The discs of ``state`` bottom to top (a finished one ends in the second colour)."""
    if state == 0:
        return ()
    discs, top = (4, 1) if state == FINISHED else ((state - 1) // 2 + 1, (state - 1) % 2)
    return tuple(island[(top + discs - 1 - i) % 2] for i in range(discs))


def _code(kit: Kit, discs: Sequence[Sequence[str]], islands: Sequence[int]) -> int:
    return sum(_island_state(kit.islands[i], discs[i]) * STATES**q for q, i in enumerate(islands))


def _stacks(kit: Kit, code: int, islands: Sequence[int]) -> dict[int, tuple[str, ...]]:
    return {
        i: _island_stack(kit.islands[i], code // STATES**q % STATES) for q, i in enumerate(islands)
    }


# --- greedy and random play -----------------------------------------------------------------


def policy_decisions(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll, policy: str
) -> tuple[tuple[CompetitiveDecision, Fraction], ...]:
    """The decisions greedy or random play takes for ``roll``, with their probabilities.

    The landing's removal is :func:`~isles.models.lighthouse.competitive.removal_weights`;
    the seat's own discs are the cooperative policy itself,
    :func:`isles.solvers.lighthouse.decision_weights` (docs/lighthouse.md, "The
    simple policies"), applied to the seat's own lighthouses
    (:func:`~isles.models.lighthouse.competitive.seat_kit`,
    :func:`~isles.models.lighthouse.competitive.seat_position`) and read back by
    :func:`~isles.models.lighthouse.competitive.from_seat_decision`: one definition of
    each policy for both games.

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    tuple of (CompetitiveDecision, Fraction)
        Each decision is among
        :func:`~isles.models.lighthouse.competitive.competitive_decisions`; the
        probabilities sum to 1 (greedy: one decision).

    Raises
    ------
    InvalidInput
        A policy other than greedy or random.

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> kit = competitive_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> start = CompetitivePosition.start(kit)
    >>> [d.placements for d, _ in policy_decisions(kit, 2, start, roll, "greedy")]
    [(('blue', 0), ('red', 0))]
    >>> len(policy_decisions(kit, 2, start, roll, "random"))
    4
    """
    removals = removal_weights(kit, seats, position, roll, policy)
    own = seat_kit(kit, seats, position.seat)
    view = seat_position(kit, seats, position)
    acc: dict[CompetitiveDecision, Fraction] = {}
    for decision, w in decision_weights(own, view, roll, policy):
        for removal, wr in removals:
            key = from_seat_decision(kit, seats, position, removal, decision)
            acc[key] = acc.get(key, Fraction(0)) + w * wr
    return tuple(acc.items())


# --- the tables of the rules ---------------------------------------------------------------


@dataclass(frozen=True)
class RuleTables:
    """The rules of one kit, seats and policies as arrays (for competitive_kernels)."""

    k: int
    n: int
    seats: int
    codes: int
    cpow: Ints
    group_p: Floats
    group_boat: npt.NDArray[np.bool_]
    group_max: npt.NDArray[np.bool_]
    own_n: Ints
    own_c: Ints
    own_r: Ints
    own_p: Floats
    rem_n: Ints
    rem_d: Ints
    rem_p: Floats
    wclass: Ints

    @property
    def terms(self) -> int:
        """Most terms one Bellman update adds (a bound for the rounding error)."""
        per_group = int(self.own_n.max()) * int(self.rem_n.max())
        return int(self.own_n.shape[2]) * per_group + 6


def _maurice_classes(n: int) -> tuple[Ints, list[int]]:
    """Maurice matters only through whether a walk of 1 or 2 reaches his island.

    Class 2: he is one island short (``m = n - 1``), class 1: two short, class 0:
    further. Returns the class of each ``m`` and a representative ``m`` per class.
    """
    wclass = np.array([2 if m == n - 1 else 1 if m == n - 2 else 0 for m in range(n)])
    reps = [0 if n >= 3 else -1, n - 2 if n >= 2 else -1, n - 1]
    return wclass.astype(np.int64), reps


def _pad(rows: list[list[tuple[int, int, Fraction]]], width: int) -> tuple[Ints, Ints, Floats]:
    codes = np.zeros((len(rows), width), dtype=np.int64)
    returned = np.zeros((len(rows), width), dtype=np.int64)
    probs = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        for o, (c, r, p) in enumerate(row):
            codes[i, o], returned[i, o], probs[i, o] = c, r, float(p)
    return codes, returned, probs


def _own_results(
    kit: Kit, seats: int, seat: int, code: int, roll: Roll, maurice: int, policy: Policy
) -> list[tuple[int, int, Fraction]]:
    """(own code after, discs sent back, probability) of the seat's discs for ``roll``."""
    mine = seat_islands(kit, seats, seat)
    discs: list[tuple[str, ...]] = [()] * len(kit.islands)
    for i, stack in _stacks(kit, code, mine).items():
        discs[i] = stack
    pos = CompetitivePosition(tuple(discs), 0, maurice, seat)
    weighted: Sequence[tuple[CompetitiveDecision, Fraction]]
    if policy == "optimal":
        weighted = [(d, Fraction(0)) for d in competitive_decisions(kit, seats, pos, roll)]
    else:
        weighted = policy_decisions(kit, seats, pos, roll, policy)
    acc: dict[tuple[int, int], Fraction] = {}
    for decision, w in weighted:
        after = play_competitive_turn(kit, seats, pos, roll, decision, check=False).position
        key = (_code(kit, after.discs, mine), decision.returned)
        acc[key] = acc.get(key, Fraction(0)) + w
    return [(c, r, p) for (c, r), p in acc.items()]


def _own_by_class(
    kit: Kit,
    seats: int,
    seat: int,
    code: int,
    roll: Roll,
    reps: list[int],
    policy: Policy,
) -> list[list[tuple[int, int, Fraction]]]:
    """:func:`_own_results` for each Maurice class (empty for a class the kit does not have).

    The results for a class that cannot reach Maurice's island with the discs
    this roll may send back are those of class 0 (no bonus): computed once.
    """
    out: list[list[tuple[int, int, Fraction]]] = []
    calm: list[tuple[int, int, Fraction]] | None = None
    for w, rep in enumerate(reps):
        if rep < 0:
            out.append([])
        elif calm is not None and max(r for _, r, _ in calm) < 3 - w:
            out.append(calm)
        else:
            out.append(_own_results(kit, seats, seat, code, roll, rep, policy))
            if w == 0:
                calm = out[0]
    return out


def _removals(
    kit: Kit, seats: int, seat: int, others: int, policy: Policy
) -> list[tuple[int, int, Fraction]]:
    """(change of the full lighthouse code, 0, probability) of each landing removal."""
    n = len(kit.islands)
    rest = [i for i in range(n) if i not in seat_islands(kit, seats, seat)]
    discs: list[tuple[str, ...]] = [()] * n
    for i, stack in _stacks(kit, others, rest).items():
        discs[i] = stack
    pos = CompetitivePosition(tuple(discs), kit.sea_cards, 0, seat)
    before = _code(kit, pos.discs, range(n))
    landing = Roll(True, (), Fraction(1))
    weighted: Sequence[tuple[CompetitiveDecision, Fraction]]
    if policy == "optimal":
        weighted = [(d, Fraction(0)) for d in competitive_decisions(kit, seats, pos, landing)]
    else:
        weighted = policy_decisions(kit, seats, pos, landing, policy)
    acc: dict[int, Fraction] = {}
    for decision, w in weighted:
        after = play_competitive_turn(kit, seats, pos, landing, decision, check=False).position
        delta = _code(kit, after.discs, range(n)) - before
        acc[delta] = acc.get(delta, Fraction(0)) + w
    return [(d, 0, p) for d, p in acc.items()]


Results = list[tuple[int, int, Fraction]]
Group = tuple[bool, bool, Fraction, Results]
"""(moves the boat, the seat chooses, probability, results) of a group of rolls."""


def _groups(rolls: Sequence[Roll], by_roll: Sequence[Results], policy: Policy) -> list[Group]:
    """The rolls of one own code and Maurice class, grouped for the sweep.

    Rolls the seat cannot choose in (a fixed policy's, or a single result) are
    averaged into two groups, with and without the boat, the roll's
    probability folded into each result's. An optimising seat's rolls with a
    choice form one group per distinct (boat, set of results): the same
    choice, whatever the colours.
    """
    averaged: list[dict[tuple[int, int], Fraction]] = [{}, {}]
    chosen: dict[tuple[bool, frozenset[tuple[int, int]]], Fraction] = {}
    for roll, results in zip(rolls, by_roll, strict=True):
        if policy == "optimal" and len(results) > 1:
            key = (roll.boat, frozenset((c, r) for c, r, _ in results))
            chosen[key] = chosen.get(key, Fraction(0)) + roll.probability
            continue
        into = averaged[roll.boat]
        for c, r, p in results:
            share = Fraction(1) if policy == "optimal" else p
            into[(c, r)] = into.get((c, r), Fraction(0)) + roll.probability * share
    out: list[Group] = [
        (bool(boat), False, Fraction(1), [(c, r, p) for (c, r), p in into.items()])
        for boat, into in enumerate(averaged)
        if into
    ]
    for (boat, options), p in sorted(chosen.items(), key=lambda item: sorted(item[0][1])):
        out.append((boat, True, p, [(c, r, Fraction(1)) for c, r in sorted(options)]))
    return out


@lru_cache(maxsize=4)
def rule_tables(kit: Kit, seats: int, policies: tuple[Policy, ...]) -> RuleTables:
    """Tabulate models/lighthouse/competitive.py for every own code, Maurice class and roll."""
    n = len(kit.islands)
    codes = STATES ** (n // seats)
    rolls = roll_outcomes(kit)
    wclass, reps = _maurice_classes(n)
    cells: list[list[Group]] = []
    for seat, policy in enumerate(policies):
        for code in range(codes):
            by_roll = [_own_by_class(kit, seats, seat, code, roll, reps, policy) for roll in rolls]
            for w in range(3):
                cells.append(_groups(rolls, [results[w] for results in by_roll], policy))
    rem: list[Results] = []
    for seat in range(seats):
        for others in range(codes ** (seats - 1)):
            rem.append(_removals(kit, seats, seat, others, policies[seat]))
    groups = max(len(cell) for cell in cells)
    width = max(len(group[3]) for cell in cells for group in cell)
    shape = (seats, codes, 3, groups)
    group_p = np.zeros(shape)
    group_boat = np.zeros(shape, dtype=np.bool_)
    group_max = np.zeros(shape, dtype=np.bool_)
    own_n = np.zeros(shape, dtype=np.int64)
    rows: list[Results] = []
    for index, cell in enumerate(cells):
        seat, rest = divmod(index, codes * 3)
        code, w = divmod(rest, 3)
        for g in range(groups):
            if g < len(cell):
                boat, choose, p, results = cell[g]
                group_boat[seat, code, w, g] = boat
                group_max[seat, code, w, g] = choose
                group_p[seat, code, w, g] = float(p)
                own_n[seat, code, w, g] = len(results)
                rows.append(results)
            else:
                rows.append([])
    own_c, own_r, own_p = _pad(rows, width)
    rem_width = max(len(r) for r in rem)
    rem_d, _, rem_p = _pad(rem, rem_width)
    # The kernels index (seat, code, group, class): Maurice's class varies fastest per group.
    order = (0, 1, 3, 2)
    return RuleTables(
        k=kit.sea_cards,
        n=n,
        seats=seats,
        codes=codes,
        cpow=np.array([codes**t for t in range(seats + 1)], dtype=np.int64),
        group_p=np.ascontiguousarray(group_p.transpose(order)),
        group_boat=np.ascontiguousarray(group_boat.transpose(order)),
        group_max=np.ascontiguousarray(group_max.transpose(order)),
        own_n=np.ascontiguousarray(own_n.transpose(order)),
        own_c=np.ascontiguousarray(own_c.reshape((*shape, width)).transpose((*order, 4))),
        own_r=np.ascontiguousarray(own_r.reshape((*shape, width)).transpose((*order, 4))),
        own_p=np.ascontiguousarray(own_p.reshape((*shape, width)).transpose((*order, 4))),
        rem_n=np.array([len(r) for r in rem], dtype=np.int64).reshape(seats, -1),
        rem_d=rem_d.reshape((seats, -1, rem_width)),
        rem_p=rem_p.reshape((seats, -1, rem_width)),
        wclass=wclass,
    )
