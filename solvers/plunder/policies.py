"""Plunder players as policies on the exact solver: which deck to flip, when to dig.

Implements docs/plunder.md ("Policies"; seed ``seeds/003_cfc377110defcf34.txt``):
the flip with the most expected information, digging at a probability
threshold, digging by expected points against the others' likely digs, and a
random baseline, each a :class:`~isles.models.plunder.game.Policy`.

The built-in policies are one registry, :data:`POLICIES`: each is a class
decorated with :func:`register`, named by its ``key``, with a one-line
``summary`` and, when it takes one, an ``argument`` (``threshold:P``).
:func:`policy_by_name` is the one parser of ``name[:ARG]``; the command line's
help, the tournament's line-up and docs/plunder.md ("Adding a policy") read
the registry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar, TypeVar

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, CODES, COPIES, VALUES, Category, Code
from isles.models.plunder.game import TURN_LIMIT, GameRecord, PlayerView, Policy, Seat
from isles.models.plunder.game import play_game as play_seats
from isles.models.plunder.record import Observation
from isles.models.plunder.scoring import dig_points as points_for
from isles.solvers.plunder.belief import Belief

__all__ = [
    "POLICIES",
    "POLICY_NAMES",
    "BuiltinPolicy",
    "CertainPolicy",
    "ExpectedPointsPolicy",
    "RandomPolicy",
    "ThresholdPolicy",
    "best_flip",
    "policies_text",
    "policy_by_name",
    "register",
]


class BuiltinPolicy:
    """What a built-in policy declares to be found by name in :data:`POLICIES`.

    Class attributes: ``key`` (the name before any ``:``), ``summary`` (one
    line for ``--help`` and the docs) and ``argument`` (the placeholder of
    ``name:ARG``, ``None`` when it takes none). :meth:`from_argument` builds
    the policy from the text after the ``:``.
    """

    key: ClassVar[str]
    summary: ClassVar[str]
    argument: ClassVar[str | None] = None

    @classmethod
    def from_argument(cls, argument: str | None, text: str, where: str) -> Policy:
        """The policy ``text`` names; ``argument`` is what follows ``:`` (None: no ``:``;
        ``""`` for a ``:`` with nothing after it, which names no argument: refused).

        The default takes no argument: a policy with ``argument`` overrides it.
        """
        if argument is not None:
            raise InvalidInput(where, text, f"{cls.key} with no ':' ({policies_text()})")
        policy: Policy = cls()  # type: ignore[assignment]
        return policy


P = TypeVar("P", bound=type[BuiltinPolicy])

POLICIES: dict[str, type[BuiltinPolicy]] = {}
"""The built-in policies by ``key``, in the order registered (:func:`register`)."""


def register(cls: P) -> P:
    """Add a built-in policy class to :data:`POLICIES` (a class decorator).

    Raises
    ------
    ValueError
        A ``key`` registered twice.
    """
    if cls.key in POLICIES:
        raise ValueError(f"policy {cls.key!r} registered twice")
    POLICIES[cls.key] = cls
    return cls


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
    >>> from isles.models.plunder.game import PlayerView
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
    marker, trap), as :func:`isles.solvers.plunder.analysis.flip_advice` ranks them.

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
    >>> from isles.models.plunder.game import PlayerView
    >>> view = PlayerView(3, 0, Code(0, 0, 0), 15, Code(0, 0, 0), (), (), (), (), ((0,) * 6,) * 3)
    >>> best_flip(Belief.start(3, 0, Code(0, 0, 0)), view)
    <Category.ISLAND: 'island'>
    """
    options = belief.flip_bits(view.clue, view.player, view.seen)
    best = max(range(len(options)), key=lambda i: (round(options[i][1], 9), -i))
    deck = options[best][0]
    return None if deck is None else CATEGORIES[deck]


class _SolverSeat:
    """A seat on the exact belief: max-information flips, a dig rule per policy."""

    def __init__(self, policy: _SolverPolicy, players: int, player: int, code: Code) -> None:
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


class _SolverPolicy:
    """The solver policies' common part: max-information flips; ``dig`` decides."""

    @property
    def name(self) -> str:
        raise NotImplementedError

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        """A new seat for one game (the solver policies use no randomness)."""
        return _SolverSeat(self, players, player, code)

    def dig(self, view: PlayerView, target: int, probability: float) -> bool:
        raise NotImplementedError


@register
@dataclass(frozen=True)
class ThresholdPolicy(_SolverPolicy, BuiltinPolicy):
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
class CertainPolicy(_SolverPolicy, BuiltinPolicy):
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
class ExpectedPointsPolicy(_SolverPolicy, BuiltinPolicy):
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


def play_game(
    policies: Sequence[Policy | str],
    seed: int | np.random.SeedSequence,
    *,
    turn_limit: int = TURN_LIMIT,
) -> GameRecord:
    """Play one game between policies given as objects or by name (``"threshold:0.5"``).

    :func:`isles.models.plunder.game.play_game`, each name read by the one parser
    of policy names (:func:`policy_by_name`); the catalogue's ``isles.plunder.play_game``.

    Parameters
    ----------
    policies : sequence of Policy or str
        One per seat, 2..6 seats.
    seed : int or numpy.random.SeedSequence
        Everything random in the game; an integer in 0..SEED_MAX.
    turn_limit : int, default TURN_LIMIT (15)

    Returns
    -------
    GameRecord

    Raises
    ------
    InvalidInput
        An unknown policy name (naming ``policies[i]``), or as the model's.

    Examples
    --------
    >>> play_game(["certain", "random", "expected"], seed=1).score().total
    (9, 1, 8)
    """
    seats = [
        policy_by_name(p, f"policies[{i}]") if isinstance(p, str) else p
        for i, p in enumerate(policies)
    ]
    return play_seats(seats, seed, turn_limit=turn_limit)


def policies_text() -> str:
    """The built-in policies as ``--help`` and errors list them.

    >>> policies_text()
    'threshold (threshold:P), certain, expected, random or search (search:BUDGET)'
    """
    names = [k if c.argument is None else f"{k} ({k}:{c.argument})" for k, c in POLICIES.items()]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def policy_by_name(text: str, where: str = "policy") -> Policy:
    """A built-in policy by its name, ``name[:ARG]``: the one parser of policy names.

    Parameters
    ----------
    text : str
        The name: a key of :data:`POLICIES`, then ``:ARG`` for a policy that
        takes an argument (``threshold:0.9``).
    where : str, default "policy"
        The parameter or field, for messages (the command line's readers
        respell a field as its option, from the declaration).

    Returns
    -------
    Policy

    Raises
    ------
    InvalidInput
        An unknown name or a bad argument.

    Examples
    --------
    >>> policy_by_name("threshold:0.9").name, policy_by_name("expected").name
    ('threshold:0.9', 'expected')
    >>> policy_by_name("greedy")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: policy: 'greedy' is invalid; expected one of threshold ...
    """
    if not isinstance(text, str):
        raise InvalidInput(where, text, "a policy name: " + policies_text())
    key, sep, argument = text.partition(":")
    kind = POLICIES.get(key)
    if kind is None:
        raise InvalidInput(where, text, "one of " + policies_text())
    return kind.from_argument(argument if sep else None, text, where)


# The search policy registers itself here (it plays the others as the policies above).
from isles.solvers.plunder import search as plunder_search  # noqa: E402, F401

POLICY_NAMES = tuple(POLICIES)
"""The built-in policies' keys, in the registry's order (``threshold:P`` sets the threshold)."""
