"""Lighthouses: what is the best move for this roll, and what is every alternative worth?

Implements docs/lighthouse.md ("What is computed": advice; "One position
without the table"; seed 000_aeb701e368f40145.txt): every legal decision with
the win probability after it, from a table (solved, or read from the cache),
or from the classes that can follow the position alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import MAX_EXACT_ISLANDS, Policy
from isles.models.lighthouse.kit import BOAT, Kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import LighthouseAdvice
from isles.models.lighthouse.rules import (
    Decision,
    Outcome,
    Roll,
    boat_lands,
    legal_decisions,
    play_turn,
)
from isles.models.status import Status
from isles.solvers.lighthouse.cache import kept_table, solve_cached
from isles.solvers.lighthouse.dp import solve_from_class
from isles.solvers.lighthouse.kernel import Backend
from isles.solvers.lighthouse.policies import (
    check_policy,
    decision_weights,
    policy_status,
    ranked,
)
from isles.solvers.lighthouse.solution import LighthouseSolution, check_kit
from isles.solvers.lighthouse.symmetry import ClassCoding, colour_group
from isles.solvers.usercache import writable_cache_dir
from isles.solvers.work import Progress

__all__ = [
    "WHOLE_TABLE_DISCS",
    "WHOLE_TABLE_ISLANDS",
    "Advice",
    "ValueTable",
    "advise",
    "answer_lighthouse_advice",
    "best_move",
    "choose_decision",
    "solve_from",
]


class ValueTable(Protocol):
    """What advice reads: a kit's values under a policy (a solved or cached table)."""

    @property
    def kit(self) -> Kit:
        """The kit."""

    @property
    def policy(self) -> Policy:
        """The policy the values assume."""

    @property
    def exact(self) -> bool:
        """Whether the values are Fractions."""

    @property
    def error_bound(self) -> float:
        """Bound on the error of float values."""

    def value(self, position: Position) -> Fraction | float:
        """The win probability of a position."""


@dataclass(frozen=True)
class Advice:
    """Every legal decision for a roll with its win probability, best first.

    From :func:`answer_lighthouse_advice` (``isles.lighthouse.best_move``) or :func:`advise`.

    Parameters
    ----------
    roll : Roll
    alternatives : tuple of (Decision, Fraction or float)
        Every legal decision with the win probability after it (under the
        solution's policy from then on), best first; ties keep the legal order.
    position_value : Fraction or float or None
        The position's win probability before the roll (None when not known).
    error_bound : float
        Every float value is within this of the exact value (0 for Fractions).
    policy : {"optimal", "greedy", "random"}
        The policy the values assume after this turn.
    outcome : Outcome
        ``lost`` when the roll lands the boat on Maurice's island (the boat on
        the last sea card and a boat rolled): the game is lost before any disc
        is laid, whatever is decided, and every alternative is worth 0;
        ``playing`` otherwise (the decision is the players').

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.dp import solve
    >>> kit = default_kit(1, 1)
    >>> table = solve(kit, exact=True)
    >>> adv = advise(table, Position.start(kit), Roll.from_faces(kit, ("red", "blue")))
    >>> adv.best.placements, adv.win_probability
    ((('blue', 0), ('red', 0)), Fraction(10487, 11664))
    >>> last = Position(((),), boat=1)
    >>> advise(table, last, Roll.from_faces(kit, ("boat", "red"))).outcome
    <Outcome.LOST: 'lost'>
    """

    roll: Roll
    alternatives: tuple[tuple[Decision, Fraction | float], ...]
    position_value: Fraction | float | None = None
    error_bound: float = 0.0
    policy: Policy = "optimal"
    outcome: Outcome = Outcome.PLAYING

    @property
    def status(self) -> Status:
        """``optimal`` when the values assume optimal play, else ``exact``."""
        return policy_status(self.policy)

    @property
    def best(self) -> Decision:
        """The decision with the highest win probability."""
        return self.alternatives[0][0]

    @property
    def win_probability(self) -> Fraction | float:
        """Win probability after the best decision."""
        return self.alternatives[0][1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): islands are indices in the kit.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.dp import solve
        >>> kit = default_kit(1, 1)
        >>> adv = advise(solve(kit), Position.start(kit), Roll.from_faces(kit, ("boat", "red")))
        >>> adv.to_dict()["best"], adv.to_dict()["outcome"]
        ({'placements': [['red', 0]], 'bonus': None}, 'playing')
        """
        lost = self.outcome is Outcome.LOST
        return {
            "status": str(self.status),
            "policy": self.policy,
            "roll": self.roll.to_dict(),
            "outcome": str(self.outcome),
            **probability_json("win_probability", self.win_probability),
            **probability_json("position_win_probability", self.position_value),
            "error_bound": self.error_bound,
            # a roll that loses before any disc is laid has no move to play
            "best": None if lost else self.best.to_dict(),
            "alternatives": []
            if lost
            else [
                {**d.to_dict(), **probability_json("win_probability", v)}
                for d, v in self.alternatives
            ],
        }


def _check_in_play(kit: Kit, position: Position) -> None:
    """Refuse a position that does not fit the kit or whose game is over."""
    position.check(kit)
    if position.is_won():
        raise InvalidInput(
            "position",
            None,
            "a position still in play (advice is for a roll of a game not yet decided)",
            problem="every lighthouse is finished: the game is won",
        )


def _check_roll(kit: Kit, roll: Roll) -> None:
    faces = {f for die in kit.dice for f in die}
    for c in roll.colours:
        if c not in faces or c == BOAT:
            raise InvalidInput(
                "roll", c, "a colour face of the dice: " + ", ".join(sorted(faces - {BOAT}))
            )


def _after(table: ValueTable, position: Position, roll: Roll, decision: Decision) -> Any:
    res = play_turn(table.kit, position, roll, decision, check=False)
    if res.outcome is Outcome.WON:
        return Fraction(1) if table.exact else 1.0
    if res.outcome is Outcome.LOST:
        return Fraction(0) if table.exact else 0.0
    return table.value(res.position)


def advise(solution: ValueTable, position: Position, roll: Roll) -> Advice:
    """The best decision for ``roll`` in ``position``, with every alternative's odds.

    The win probability of an alternative is that of the position it leads to
    (1 when it wins, 0 when the boat lands) under the table's policy from then
    on (docs/lighthouse.md, "What is computed"). When the roll lands the boat,
    the advice's ``outcome`` is ``lost``: no decision is played.

    Parameters
    ----------
    solution : LighthouseSolution
        A table of the kit (``solve``, ``solve_cached``, :func:`solve_from`, or
        the reference tables), holding the positions that can follow this one.
    position : Position
        A position of the kit still in play.
    roll : Roll
        The roll to play, e.g. ``Roll.from_faces(kit, ("boat", "red"))``.

    Returns
    -------
    Advice

    Raises
    ------
    InvalidInput
        The position does not fit the kit or the table, or is won; a roll
        colour is not on the dice.

    See Also
    --------
    answer_lighthouse_advice : solve (or read the cache) and advise in one call.

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (the optimal decision is the one whose successor value is highest).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.dp import solve
    >>> kit = default_kit(2, sea_cards=2)
    >>> sol = solve(kit, exact=True)
    >>> adv = advise(sol, Position.start(kit), Roll(False, ("blue", "red"), Fraction(1, 18)))
    >>> adv.best.placements
    (('blue', 0), ('red', 0))
    """
    kit = solution.kit
    _check_in_play(kit, position)
    _check_roll(kit, roll)
    decisions = legal_decisions(kit, position, roll)
    values = [_after(solution, position, roll, d) for d in decisions]
    order = ranked(values)
    return Advice(
        roll,
        tuple((decisions[i], values[i]) for i in order),
        solution.value(position),
        solution.error_bound,
        solution.policy,
        Outcome.LOST if boat_lands(kit, position, roll) else Outcome.PLAYING,
    )


def solve_from(
    kit: Kit,
    position: Position,
    policy: str = "optimal",
    *,
    symmetric: bool = True,
    exact: bool = False,
    backend: Backend = "auto",
    progress: Progress = None,
) -> LighthouseSolution:
    """The values of every position that can follow ``position``, and of it.

    Parameters
    ----------
    kit : Kit, str or mapping
        At most 8 islands: a kit, a name of :data:`~isles.models.lighthouse.kit.KITS`
        or a kit's JSON.
    position : Position
        The position to start from.
    policy : {"optimal", "random"}
        The players' policy.
    symmetric : bool
        Use the kit's colour group (False: the identity, for tests).
    exact : bool
        Fractions (at most 4 islands).
    backend : {"auto", "numba", "numpy"}
        The compiled loops or the NumPy ones.
    progress : bool, None or callable
        Through the solve's phases (compiling, building the classes, valuing
        them: ``isles.solvers.lighthouse.dp.PHASES``), as
        :data:`isles.solvers.work.Progress`.

    Returns
    -------
    LighthouseSolution
        ``value`` answers the positions that contain this one's discs with
        the boat on or after its card (any Maurice); ``win_probability`` is
        not available unless ``position`` is the start.

    Raises
    ------
    InvalidInput
        The position does not fit the kit, the kit is too large, or greedy play
        (its positions are lighthouse codes: ``solve(kit, "greedy")``).

    Notes
    -----
    Discs are never removed and the boat never goes back, so the positions
    that can follow ``position`` are those whose lighthouses contain its
    discs, with the boat on the same card or further. Their classes are
    those met by laying discs from the position's class (the forward sweep
    of :func:`~isles.solvers.lighthouse.classes.class_graph`), and only
    the boat columns from its card on are valued. Late in the game this is
    a few classes: milliseconds; after four turns of 8 islands, up to about
    a third of the table (docs/lighthouse.md, "Measured").

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction, here over the sub-DAG below one position).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(8)
    >>> done = tuple((a, b, a, b) for a, b in kit.islands[:7])
    >>> late = Position((*done, ()), 3, 0)
    >>> sol = solve_from(kit, late)
    >>> sol.classes, round(sol.value(late), 6)
    (8, 0.949476)
    """
    pol = check_policy(policy)
    if pol == "greedy":
        raise InvalidInput("policy", policy, "optimal or random (greedy: solve(kit, 'greedy'))")
    position.check(kit)
    check_kit(kit, pol, exact)
    group = colour_group(kit, symmetric=symmetric)
    key, _ = ClassCoding(group).position_class(kit, position)
    return solve_from_class(
        kit, pol, group, key, position.discs_laid, position.boat, exact, backend, progress
    )


def answer_lighthouse_advice(question: LighthouseAdvice, *, progress: Progress = None) -> Advice:
    """The optimal decision for a roll in a position, with every alternative's odds.

    Reads the kit's optimal table from the cache when it is there (a few rows
    of a memory-mapped file: milliseconds), kept in memory for the next call
    (:func:`~isles.solvers.lighthouse.cache.kept_table`: one table per process).
    Without it, an early position (at most :data:`WHOLE_TABLE_DISCS` discs laid)
    of a kit of at least :data:`WHOLE_TABLE_ISLANDS` islands solves the whole
    table and keeps it in the cache (the real game: 12 to 17 s the first time on
    2 cores, 11 s once numba has compiled; every later roll reads it); any other
    position solves only the classes that can follow it (:func:`solve_from`).
    ``exact`` and ``cache=False`` never read nor write the cache.

    Parameters
    ----------
    question : LighthouseAdvice
        Read by :meth:`~isles.models.contract.Question.read` (the command line, the
        web app) or built by ``isles.lighthouse.best_move``.
    progress : bool, None or callable
        When the classes must be solved, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    Advice
        ``status`` optimal; ``outcome`` lost when the roll lands the boat on
        Maurice's island (the game is lost whatever is played).

    Raises
    ------
    InvalidInput
        The position does not fit the kit or is won; a roll colour not on the
        dice; a kit beyond the DP; ``exact`` for a large kit; each naming the
        question's field (``position.boat``, ``roll``).

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseAdvice
    >>> ask = LighthouseAdvice.read({"islands": 1, "sea_cards": 1, "roll": ["boat", "red"],
    ...                              "position": {"discs": [[]], "boat": 1, "maurice": 0}})
    >>> answer_lighthouse_advice(ask).outcome
    <Outcome.LOST: 'lost'>
    """
    kit = question.chosen_kit()
    position = question.chosen_position(kit)
    roll = question.chosen_roll(kit)
    exact = question.exact
    _check_in_play(kit, position)
    _check_roll(kit, roll)
    if len(kit.islands) > MAX_EXACT_ISLANDS:
        raise InvalidInput(
            "kit.islands",
            None,
            f"at most {MAX_EXACT_ISLANDS} islands for advice",
            problem=f"{len(kit.islands)} islands",
        )
    table: LighthouseSolution | None = None
    if question.cache and not exact:
        table = kept_table(kit)
        if table is None and _whole_table_pays(kit, position):
            table = solve_cached(kit, progress=progress)
    if table is None:
        table = solve_from(kit, position, exact=exact, progress=progress)
    return advise(table, position, roll)


WHOLE_TABLE_ISLANDS = 7
"""Advice on a kit of at least this many islands (7 and 8: the tables the cache keeps)
without its cached table solves the whole table once and keeps it (a few seconds more
than the early positions' own solves, then every roll reads it) when the position has at
most :data:`WHOLE_TABLE_DISCS` discs laid."""

WHOLE_TABLE_DISCS = 8
"""Discs laid up to which a position's own solve is seconds (after 4 turns of the real
game: up to 470,000 classes); later positions solve their few classes in a second."""


def best_move(
    kit: Kit | str | Mapping[str, object],
    position: Position | Mapping[str, object],
    roll: Roll | Sequence[str],
    *,
    exact: bool = False,
    cache: bool = True,
    progress: Progress = None,
) -> Advice:
    """The optimal decision for ``roll`` in ``position``, with every alternative's odds.

    Reads the kit's optimal table from the cache when it is there (a few rows of
    a memory-mapped file: milliseconds), and keeps it in memory for the next
    call. Without it, an early position of a kit of 7 or 8 islands (at most 8
    discs laid) solves the whole table and keeps it in the cache (the real
    game: 12 to 17 s the first time on 2 cores, 11 s once numba has compiled;
    every later roll reads it); any other position solves only the positions
    that can follow it (docs/lighthouse.md, "One position without the table").

    Parameters
    ----------
    kit : Kit, str or mapping
        At most 8 islands: a kit, a name of the registry or a kit's JSON.
    position : Position or mapping
        A position of the kit still in play (a won position is refused), or its JSON.
    roll : Roll or sequence of str
        The roll to play, e.g. ``Roll.from_faces(kit, ("boat", "red"))``, or its faces.
    exact : bool
        Fractions (at most 4 islands; never cached) instead of floats.
    cache : bool
        Read (and for an early position of 7 or 8 islands, keep) the kit's table
        in the user's cache directory; False solves the position's own classes.
    progress : bool, None or callable
        A progress bar (stderr) when solving, as :func:`~isles.lighthouse.odds`'s.

    Returns
    -------
    Advice
        ``status`` optimal; ``outcome`` lost when the roll lands the boat on
        Maurice's island (the game is lost whatever is played).

    Raises
    ------
    InvalidInput
        The position does not fit the kit or is won; a roll colour not on the
        dice; a kit beyond the DP; ``exact`` for a large kit.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2, 2)
    >>> pos = Position((("red",), ()), boat=1, maurice=1)
    >>> adv = best_move(kit, pos, Roll.from_faces(kit, ("blue", "green")))
    >>> adv.best.to_dict()
    {'placements': [['blue', 0], ['green', 1]], 'bonus': None}
    >>> best_move(kit, pos, ["boat", "red"], exact=True).win_probability
    Fraction(...)
    """
    question = LighthouseAdvice.ask(kit=kit, position=position, roll=roll, exact=exact, cache=cache)
    return answer_lighthouse_advice(question, progress=progress)


def _whole_table_pays(kit: Kit, position: Position) -> bool:
    """Whether advice should solve and cache the kit's whole table rather than the position's."""
    if len(kit.islands) < WHOLE_TABLE_ISLANDS or position.discs_laid > WHOLE_TABLE_DISCS:
        return False
    try:
        writable_cache_dir()
    except InvalidInput:  # no cache to keep it in: the position's own classes
        return False
    return True


def choose_decision(
    kit: Kit,
    position: Position,
    roll: Roll,
    policy: str,
    solution: ValueTable | None = None,
    rng: np.random.Generator | None = None,
) -> Decision:
    """One decision of ``policy``: optimal (needs ``solution``), greedy or random (``rng``).

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    policy : {"optimal", "greedy", "random"}
    solution : LighthouseSolution, optional
        Optimal tables of the kit (for ``optimal``).
    rng : numpy.random.Generator, optional
        The random source (for ``random``).

    Returns
    -------
    Decision

    Raises
    ------
    InvalidInput
        Unknown policy, ``optimal`` without ``solution``, ``random`` without ``rng``.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> choose_decision(kit, Position.start(kit), Roll.from_faces(kit, ("boat", "red")), "greedy")
    Decision(placements=(('red', 0),), bonus=None)
    """
    pol = check_policy(policy)
    if pol == "optimal":
        if solution is None:
            raise InvalidInput("solution", None, "a solved table for the optimal policy")
        return advise(solution, position, roll).best
    weights = decision_weights(kit, position, roll, pol)
    if pol == "greedy" or len(weights) == 1:
        return weights[0][0]
    if rng is None:
        raise InvalidInput("rng", None, "a numpy Generator for the random policy")
    probs = np.array([float(wt) for _, wt in weights])
    return weights[int(rng.choice(len(weights), p=probs / probs.sum()))][0]
