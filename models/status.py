"""What an answer is: one status vocabulary for every result isles returns.

Implements docs/json.md ("status"): every result type has a ``status`` from
:class:`Status`, with the same meaning in every game and in every ``--json``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol

__all__ = ["Answer", "Status"]


class Status(StrEnum):
    """The kind of answer a result holds.

    Values
    ------
    optimal
        The best answer there is, proven (a route, a board, a steering policy,
        the win probability under optimal play).
    exact
        A value computed exactly, with nothing to optimise (a posterior, the win
        probability of a fixed policy); floats carry their stated error.
    feasible
        A valid answer that is not proven best (a bound is given beside it).
    infeasible
        Proven: no answer exists (the conflicting rules are named).
    inconsistent
        The facts given contradict each other (a smallest conflict is named).
    unreachable
        No sequence of moves gets there.
    unaffordable
        A way exists, but not with the cards the player holds.
    estimate
        A sampled (Monte Carlo) estimate with its confidence interval, or an
        interval between certified bounds.
    timed_out
        A time or work limit ended the search before it found or proved an answer.

    Examples
    --------
    >>> Status("timed_out") is Status.TIMED_OUT, str(Status.OPTIMAL)
    (True, 'optimal')
    """

    OPTIMAL = "optimal"
    EXACT = "exact"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    INCONSISTENT = "inconsistent"
    UNREACHABLE = "unreachable"
    UNAFFORDABLE = "unaffordable"
    ESTIMATE = "estimate"
    TIMED_OUT = "timed_out"

    @property
    def answered(self) -> bool:
        """Whether the result holds an answer (exit status 0 on the command line).

        >>> Status.FEASIBLE.answered, Status.INFEASIBLE.answered
        (True, False)
        """
        return self in (Status.OPTIMAL, Status.EXACT, Status.FEASIBLE, Status.ESTIMATE)


class Answer(Protocol):
    """What every answer of isles is: a :class:`Status` and its JSON (docs/json.md).

    The command line's ``--json`` prints ``to_dict()``; the web app sends it.
    """

    @property
    def status(self) -> Status:
        """What kind of answer it is."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The answer in the JSON dialect of docs/json.md."""
        ...
