"""Plunder players as policies on the exact solver: which deck to flip, when to dig.

Implements docs/plunder.md ("Policies"; seed ``seeds/003_cfc377110defcf34.txt``):
the flip with the most expected information, digging at a probability
threshold, digging by expected points against the others' likely digs, and a
random baseline, each a :class:`~isles.models.plunder.play.Policy` registered by
name (:mod:`~isles.solvers.plunder.registry`). :class:`SolverPolicy` and
:class:`SolverSeat` are the exact-solver policies' common part, which the search
policy models the other players by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, CODES, COPIES, VALUES, Category, Code
from isles.models.plunder.play import PlayerView, Policy, Seat
from isles.models.plunder.record import Observation
from isles.models.plunder.scoring import dig_points as points_for
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.registry import BuiltinPolicy, register

__all__ = [
    "CertainPolicy",
    "ExpectedPointsPolicy",
    "RandomPolicy",
    "SolverPolicy",
    "SolverSeat",
    "ThresholdPolicy",
    "best_flip",
    "follow_belief",
]


@lru_cache(maxsize=512)
def _belief(players: int, player: int, code: Code, seen: tuple[Observation, ...]) -> Belief:
    """A belief after the turns ``seen``, shared by seats that reach the same position
    (dig advice replays many games from one record)."""
    if not seen:
        return Belief.start(players, player, code)
    return _belief(players, player, code, seen[:-1]).observe(seen[-1])


def follow_belief(belief: Belief, view: PlayerView) -> Belief:
    """``belief`` brought up to the turns ``view`` has seen (a seat's belief between turns).

    A seat that joins late (no turn observed yet) reads the shared cache of
    beliefs by position; otherwise the new turns are observed one by one.

    Parameters
    ----------
    belief : Belief
        The seat's belief so far.
    view : PlayerView
        What the seat sees now.

    Returns
    -------
    Belief

    Examples
    --------
    >>> from isles.models.plunder.play import PlayerView
    >>> view = PlayerView(3, 0, Code(0, 0, 0), 15, Code(0, 0, 0), (), (), (), (), ((0,) * 6,) * 3)
    >>> follow_belief(Belief.start(3, 0, Code(0, 0, 0)), view).turns
    0
    """
    if belief.turns == view.turn:
        return belief
    if belief.turns == 0 and view.turn > 1:
        return _belief(view.players, view.player, view.code, view.observations)
    for obs in view.observations[belief.turns :]:
        belief = belief.observe(obs)
    return belief


def best_flip(belief: Belief, view: PlayerView) -> Category | None:
    """The flip with the most expected information about the deal (ties: none, island,
    marker, trap), as :func:`isles.solvers.plunder.flips.flip_advice` ranks them.

    Parameters
    ----------
    belief : Belief
        My belief, up to date with ``view``.
    view : PlayerView
        What I see on my turn.

    Returns
    -------
    Category or None

    Examples
    --------
    >>> from isles.models.plunder.play import PlayerView
    >>> view = PlayerView(3, 0, Code(0, 0, 0), 15, Code(0, 0, 0), (), (), (), (), ((0,) * 6,) * 3)
    >>> best_flip(Belief.start(3, 0, Code(0, 0, 0)), view)
    <Category.ISLAND: 'island'>
    """
    options = belief.flip_bits(view.clue, view.player, view.seen)
    best = max(range(len(options)), key=lambda i: (round(options[i][1], 9), -i))
    deck = options[best][0]
    return None if deck is None else CATEGORIES[deck]


class SolverSeat:
    """A seat on the exact belief: max-information flips, a dig rule per policy.

    Parameters
    ----------
    policy : SolverPolicy
        Its ``dig`` rule decides each crew card.
    players, player : int
    code : Code
        The seat's own code.
    """

    def __init__(self, policy: SolverPolicy, players: int, player: int, code: Code) -> None:
        self.policy = policy
        self.belief = Belief.start(players, player, code)

    def _update(self, view: PlayerView) -> Belief:
        self.belief = follow_belief(self.belief, view)
        return self.belief

    def flip(self, view: PlayerView) -> Category | None:
        return best_flip(self._update(view), view)

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        belief = self._update(view)
        out = []
        for target in view.targets_left():
            code, count = belief.best_code(target)
            p = count / belief.deals
            if view.turns_left == 0 or self.policy.dig(view, target, p):
                out.append((target, code))
        return out


class SolverPolicy:
    """The solver policies' common part: max-information flips; ``dig`` decides.

    A subclass names itself (``name``) and decides, per target, whether to send its
    crew card now (``dig``); its seats (:class:`SolverSeat`) keep the exact belief.
    """

    @property
    def name(self) -> str:
        raise NotImplementedError

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        """A new seat for one game (the solver policies use no randomness)."""
        return SolverSeat(self, players, player, code)

    def dig(self, view: PlayerView, target: int, probability: float) -> bool:
        raise NotImplementedError


@register
@dataclass(frozen=True)
class ThresholdPolicy(SolverPolicy, BuiltinPolicy):
    """Flip for the most information; dig on a target once its most likely code has
    probability ``threshold`` or more; on the last turn, dig every target left.

    Examples
    --------
    >>> ThresholdPolicy(0.8).name
    'threshold:0.8'
    """

    key: ClassVar[str] = "threshold"
    summary: ClassVar[str] = (
        "digs once the most likely code has probability P or more (default 0.5)"
    )
    argument: ClassVar[str | None] = "P"

    threshold: float = 0.5

    @classmethod
    def from_argument(cls, argument: str | None, text: str, where: str) -> Policy:
        """``threshold`` (0.5) or ``threshold:P``, ``P`` a probability in (0, 1]
        (``threshold:`` is refused)."""
        if argument is None:
            return cls()
        # A plain decimal only: float() also reads other scripts' digits, "_" and spaces.
        plain = re.fullmatch(r"[0-9]*\.?[0-9]+(e-?[0-9]+)?|[0-9]+\.", argument) is not None
        value = float(argument) if plain else -1.0
        if not 0 < value <= 1:
            raise InvalidInput(where, text, "threshold:P with P a probability in (0, 1]")
        return cls(value)

    def __post_init__(self) -> None:
        if not 0 < self.threshold <= 1:
            raise InvalidInput("threshold", self.threshold, "a probability in (0, 1]")

    @property
    def name(self) -> str:
        """``threshold:P``."""
        return f"threshold:{self.threshold:.15g}"

    def dig(self, view: PlayerView, target: int, probability: float) -> bool:
        """Dig when the probability reaches the threshold."""
        return probability >= self.threshold


@register
@dataclass(frozen=True)
class CertainPolicy(SolverPolicy, BuiltinPolicy):
    """Flip for the most information; dig only on a code known for sure (and on the
    last turn, every target left).

    Examples
    --------
    >>> CertainPolicy().name
    'certain'
    """

    key: ClassVar[str] = "certain"
    summary: ClassVar[str] = "digs only on a code known for sure"

    @property
    def name(self) -> str:
        """``certain``."""
        return "certain"

    def dig(self, view: PlayerView, target: int, probability: float) -> bool:
        """Dig when the code is certain."""
        return probability >= 1


@register
@dataclass(frozen=True)
class ExpectedPointsPolicy(SolverPolicy, BuiltinPolicy):
    """Flip for the most information; dig when the expected points now beat a sure dig
    one place later in the chest.

    The others' likely digs: each other player (not the target) who has sent
    ``u`` crew cards is counted as ``u / (players - 1)`` of a correct dig on the
    target already in the chest (their targets are hidden); ``k`` is that sum,
    rounded down. Dig when ``p * points(k) >= points(k + 1)``, ``p`` the
    probability of my best guess and ``points`` 3, 2, 1, 0: waiting buys
    certainty but lets one more player in first. On the last turn, dig every
    target left. A heuristic, not an optimum (see ``dig_advice`` to weigh
    waiting by simulation).

    Examples
    --------
    >>> ExpectedPointsPolicy().name
    'expected'
    """

    key: ClassVar[str] = "expected"
    summary: ClassVar[str] = (
        "digs when p * points(k) >= points(k + 1): my best guess now beats a sure dig "
        "one place later in the chest"
    )

    @property
    def name(self) -> str:
        """``expected``."""
        return "expected"

    def dig(self, view: PlayerView, target: int, probability: float) -> bool:
        """Dig when ``p * points(k) >= points(k + 1)``."""
        others = [q for q in range(view.players) if q not in (view.player, target)]
        used = sum(view.players - view.cards_left(q) for q in others)
        k = int(used / (view.players - 1))
        return probability * points_for(k) >= points_for(k + 1) and probability > 0


@cache
def _codes_apart(code: Code) -> tuple[int, ...]:
    """The codes that share no card with ``code``: the ones an opponent can hold."""
    return tuple(
        c
        for c in range(CODES)
        if all(a != b for a, b in zip(Code.from_index(c).values, code.values, strict=True))
    )


class _RandomSeat:
    def __init__(self, players: int, player: int, code: Code, rng: np.random.Generator) -> None:
        self.rng = rng
        self.codes = _codes_apart(code)

    def flip(self, view: PlayerView) -> Category | None:
        decks: list[Category | None] = [None]
        decks += [c for k, c in enumerate(CATEGORIES) if sum(view.seen[k]) < COPIES * VALUES]
        return decks[int(self.rng.integers(len(decks)))]

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        out = []
        for target in view.targets_left():
            if self.rng.random() * (view.turns_left + 1) < 1:
                out.append((target, Code.from_index(self.codes[int(self.rng.integers(125))])))
        return out


@register
@dataclass(frozen=True)
class RandomPolicy(BuiltinPolicy):
    """The baseline: a random flip (or none); on each target, a random code an opponent
    can hold, sent at a uniformly random turn (with ``t`` turns left, now with
    probability ``1 / (t + 1)``).

    Examples
    --------
    >>> RandomPolicy().name
    'random'
    """

    key: ClassVar[str] = "random"
    summary: ClassVar[str] = (
        "a baseline: random flips, random codes an opponent can hold sent at random turns"
    )

    @property
    def name(self) -> str:
        """``random``."""
        return "random"

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        """A new seat for one game, drawing from ``rng``."""
        return _RandomSeat(players, player, code, rng)
