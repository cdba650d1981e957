"""Lighthouses: how do optimal, greedy and random players choose? One definition of each policy.

Implements docs/lighthouse.md ("The simple policies"; seed 000_aeb701e368f40145.txt).
Every core (the class DP and its compiled kernels, the greedy sweep, the
simulations, the exact distributions, the competitive variant, the reference
tables) takes its choices from here: greedy's ranks and order rule are plain
arithmetic, so the same functions serve Python scalars, NumPy arrays and the
numba kernels (which compile them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import POLICIES, Policy
from isles.models.lighthouse.kit import MAX_ISLANDS, Kit
from isles.models.lighthouse.position import Position, can_take
from isles.models.lighthouse.rules import Decision, Roll, bonus_options
from isles.models.status import Status

__all__ = [
    "RANK_BASE",
    "bonus_rank",
    "check_policy",
    "choose",
    "decision_weights",
    "greedy_bonus_rank",
    "greedy_lay_rank",
    "greedy_swaps",
    "policy_status",
    "ranked",
]

T = TypeVar("T")

RANK_BASE = 16
"""Greedy's ranks weigh a disc more than any island index (``RANK_BASE > MAX_ISLANDS``)."""

assert RANK_BASE > MAX_ISLANDS


def check_policy(policy: str) -> Policy:
    """``policy`` if it is one of :data:`POLICIES`, else InvalidInput naming it.

    Examples
    --------
    >>> check_policy("greedy")
    'greedy'
    """
    for known in POLICIES:
        if policy == known:
            return known
    raise InvalidInput("policy", policy, "one of " + ", ".join(POLICIES))


def policy_status(policy: Policy) -> Status:
    """Optimal play is ``optimal``; the value of a fixed policy is ``exact``.

    Examples
    --------
    >>> str(policy_status("random"))
    'exact'
    """
    return Status.OPTIMAL if policy == "optimal" else Status.EXACT


# --- greedy: ranks and the order rule (Python ints, NumPy arrays, numba) --------------------


def greedy_lay_rank(discs: Any, island: Any) -> Any:
    """Greedy's rank of a lighthouse for a disc: most discs first, then the island listed first.

    Greedy lays each disc on the lighthouse of highest rank among those that can
    take it. The competitive variant's greedy seat removes the top disc of the
    other seats' lighthouse of highest rank too.

    Parameters
    ----------
    discs : int or ndarray
        Discs on the lighthouse (0..3 when it can still take one).
    island : int or ndarray
        Its index in the kit (0 is Maurice's island).

    Returns
    -------
    int or ndarray
        ``discs * RANK_BASE - island``: no two lighthouses tie.

    Examples
    --------
    >>> greedy_lay_rank(2, 5) > greedy_lay_rank(1, 0) > greedy_lay_rank(1, 3)
    True
    """
    return discs * RANK_BASE - island


def greedy_bonus_rank(discs: Any, island: Any, side: Any) -> Any:
    """Greedy's rank of a bonus disc: most discs, then the island first, then its first colour.

    Parameters
    ----------
    discs, island : int or ndarray
        As for :func:`greedy_lay_rank`.
    side : int or ndarray
        0 for the island's first colour, 1 for its second.

    Returns
    -------
    int or ndarray
        Greedy places the bonus on the (lighthouse, colour) of highest rank:
        twice :func:`greedy_lay_rank`, less the side (written out, so that numba
        compiles it on its own).

    Examples
    --------
    >>> greedy_bonus_rank(0, 0, 0) > greedy_bonus_rank(0, 0, 1) > greedy_bonus_rank(0, 1, 0)
    True
    >>> greedy_bonus_rank(3, 2, 1) == 2 * greedy_lay_rank(3, 2) - 1
    True
    """
    return (discs * RANK_BASE - island) * 2 - side


def greedy_swaps(first_can: Any, second_can: Any) -> Any:
    """Whether greedy handles the roll's second colour first.

    Greedy handles first a disc that can be laid now if only one of the two can;
    otherwise the colours in alphabetical order, which is the order of
    ``Roll.colours``.

    Parameters
    ----------
    first_can, second_can : bool or ndarray of bool
        Whether some lighthouse can take the roll's first / second colour now.

    Returns
    -------
    bool or ndarray of bool

    Examples
    --------
    >>> greedy_swaps(False, True), greedy_swaps(True, True), greedy_swaps(False, False)
    (True, False, False)
    """
    return second_can > first_can


def bonus_rank(kit: Kit, stacks: Sequence[Sequence[str]]) -> Callable[[tuple[str, int]], int]:
    """Greedy's rank of a bonus option ``(colour, island)`` with these stacks.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> rank = bonus_rank(default_kit(2), ((), ("green",)))
    >>> rank(("orange", 1)) > rank(("red", 0))
    True
    """

    def rank(option: tuple[str, int]) -> int:
        colour, i = option
        return int(greedy_bonus_rank(len(stacks[i]), i, kit.islands[i].index(colour)))

    return rank


# --- a choice point, as Python data ----------------------------------------------------------


def choose(
    policy: Policy, options: Sequence[T], rank: Callable[[T], Any] | None = None
) -> list[tuple[T, Fraction]]:
    """The options ``policy`` takes at one choice point, with their probabilities.

    Parameters
    ----------
    policy : {"greedy", "random"}
        ``greedy``: the option of highest ``rank`` (the first on ties);
        ``random``: every option with the same probability.
    options : sequence
        The legal options, at least one.
    rank : callable, optional
        Greedy's rank of an option (:func:`greedy_lay_rank`, ...).

    Returns
    -------
    list of (option, Fraction)

    Raises
    ------
    InvalidInput
        ``optimal`` (its choice needs values: :func:`ranked`), or greedy without a rank.

    Examples
    --------
    >>> choose("greedy", [3, 1, 2], rank=lambda i: -i)
    [(1, Fraction(1, 1))]
    >>> choose("random", ["a", "b"])
    [('a', Fraction(1, 2)), ('b', Fraction(1, 2))]
    """
    if policy == "greedy":
        if rank is None:
            raise InvalidInput("rank", None, "a rank for the greedy policy")
        return [(max(options, key=rank), Fraction(1))]
    if policy == "random":
        return [(o, Fraction(1, len(options))) for o in options]
    raise InvalidInput("policy", policy, "greedy or random (optimal play ranks by values)")


def ranked(values: Sequence[Any]) -> list[int]:
    """Optimal play's order of the options: highest value first, ties in the legal order.

    Parameters
    ----------
    values : sequence of Fraction or float
        The win probability after each legal option.

    Returns
    -------
    list of int
        Indices into ``values``, best first.

    Examples
    --------
    >>> ranked([0.2, 0.5, 0.5])
    [1, 2, 0]
    """
    return sorted(range(len(values)), key=lambda i: (-values[i], i))


# --- the whole decision for a roll -------------------------------------------------------


def _placements(
    kit: Kit, stacks: tuple[tuple[str, ...], ...], order: tuple[str, ...], policy: Policy
) -> list[tuple[tuple[tuple[str, int | None], ...], tuple[tuple[str, ...], ...], Fraction]]:
    """Disc placements for one order of the discs, with their probabilities."""
    if not order:
        return [((), stacks, Fraction(1))]
    colour, rest = order[0], order[1:]
    takers = [i for i, isl in enumerate(kit.islands) if can_take(isl, stacks[i], colour)]
    if not takers:
        return [
            (((colour, None), *tail), final, wt)
            for tail, final, wt in _placements(kit, stacks, rest, policy)
        ]
    out = []
    for i, wi in choose(policy, takers, lambda i: greedy_lay_rank(len(stacks[i]), i)):
        placed = (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])
        for tail, final, wt in _placements(kit, placed, rest, policy):
            out.append((((colour, i), *tail), final, wi * wt))
    return out


def decision_weights(
    kit: Kit, position: Position, roll: Roll, policy: str
) -> list[tuple[Decision, Fraction]]:
    """The decisions the greedy or random policy takes for a roll, with their probabilities.

    ``greedy`` returns one decision with weight 1; ``random`` chooses uniformly
    at each choice point in turn (order of the discs, each disc's lighthouse,
    the bonus): docs/lighthouse.md, "The simple policies". Optimal play ranks
    the legal decisions by their values (:func:`ranked`; advice in
    ``isles.solvers.lighthouse.advice``).

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    list of (Decision, Fraction)
        The decisions with their probabilities (summing to 1).

    Raises
    ------
    InvalidInput
        An unknown policy, or ``optimal``.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> roll = Roll(True, ("red",), Fraction(1, 18))
    >>> decision_weights(kit, Position.start(kit), roll, "greedy")
    [(Decision(placements=(('red', 0),), bonus=None), Fraction(1, 1))]
    """
    pol = check_policy(policy)
    if pol == "optimal":
        raise InvalidInput("policy", policy, "greedy or random (use advise for optimal)")
    n = len(kit.islands)
    colours = roll.colours
    orders = [colours] if len(colours) < 2 or colours[0] == colours[1] else [colours, colours[::-1]]
    if pol == "greedy" and len(orders) == 2:
        can = [
            any(can_take(isl, position.discs[i], c) for i, isl in enumerate(kit.islands))
            for c in colours
        ]
        orders = [orders[1] if greedy_swaps(can[0], can[1]) else orders[0]]
    out: dict[Decision, Fraction] = {}
    for order in orders:
        for placements, stacks, wt in _placements(kit, position.discs, order, pol):
            wt = wt / len(orders)
            returned = sum(1 for _, i in placements if i is None)
            options = bonus_options(kit, stacks) if position.maurice + returned >= n else []
            if not options:
                key = Decision(placements, None)
                out[key] = out.get(key, Fraction(0)) + wt
                continue
            picks = choose(pol, options, bonus_rank(kit, stacks))
            for bonus, wb in picks:
                key = Decision(placements, bonus)
                out[key] = out.get(key, Fraction(0)) + wt * wb
    return list(out.items())
