"""Plunder's built-in policies by name: the registry, the one reader of policy names.

Implements docs/plunder.md ("Policies", "Adding a policy"; seed
``seeds/003_cfc377110defcf34.txt``). Each built-in policy is a class decorated with
:func:`register`, named by its ``key``, with a one-line ``summary`` and, when it
takes one, an ``argument`` (``threshold:P``); :func:`policy_by_name` reads
``name[:ARG]``. The policies' own modules register them as they load
(:mod:`~isles.solvers.plunder.policies`, :mod:`~isles.solvers.plunder.search`), which
the package does on its first import. The command line's help, the questions'
policies and docs/plunder.md read the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.plunder.game import TURN_LIMIT, GameRecord
from isles.models.plunder.play import Policy
from isles.models.plunder.play import play_game as play_seats

__all__ = [
    "POLICIES",
    "BuiltinPolicy",
    "as_policy",
    "play_game",
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


def as_policy(policy: Policy | str, where: str) -> Policy:
    """A policy given as an object or by its name (read by :func:`policy_by_name`).

    >>> as_policy("certain", "policies[0]").name
    'certain'
    """
    return policy_by_name(policy, where) if isinstance(policy, str) else policy


def play_game(
    policies: Sequence[Policy | str],
    seed: int | np.random.SeedSequence,
    *,
    turn_limit: int = TURN_LIMIT,
) -> GameRecord:
    """Play one game between policies given as objects or by name (``"threshold:0.5"``).

    :func:`isles.models.plunder.play.play_game`, each name read by the one parser
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
    seats = [as_policy(p, f"policies[{i}]") for i, p in enumerate(policies)]
    return play_seats(seats, seed, turn_limit=turn_limit)
