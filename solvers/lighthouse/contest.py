"""Lighthouses, competitive variant: each seat's chance, exact where the solve fits, else simulated.

Implements docs/lighthouse.md ("Competitive variant"; seed 000_aeb701e368f40145.txt):
the answer to :class:`~isles.models.lighthouse.questions.LighthouseContest`, by the
exact solve of competitive.py or the simulation of competitive_simulation.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import DEFAULT_GAMES
from isles.models.lighthouse.competitive import (
    check_policies,
    check_seats,
)
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.questions import LighthouseContest
from isles.solvers.lighthouse.competitive import (
    MAX_COMPETITIVE_BYTES,
    CompetitiveSolution,
    exact_solve_fits,
    solve_competitive,
)
from isles.solvers.lighthouse.competitive_simulation import (
    CompetitiveSimulation,
    simulate_competitive,
)
from isles.solvers.work import Progress

__all__ = ["answer_lighthouse_contest", "competitive_odds"]


def _contest_seats(question: LighthouseContest, kit: Kit) -> int:
    """The seats, which must share the kit's islands equally.

    Without ``seats`` (2 by default) the kit is named, the field that gave the islands.
    """
    n = len(kit.islands)
    if n % question.seats and "seats" not in question.model_fields_set:
        if question.kit is not None:
            raise InvalidInput(
                "kit",
                question.kit.to_dict(),
                f"a kit whose islands the {question.seats} seats share equally (or choose "
                f"the seats; {n} islands)",
                problem=f"{n} islands",
            )
        raise InvalidInput(
            "islands",
            n,
            f"a number of islands the {question.seats} seats share equally (or choose the seats)",
        )
    return check_seats(kit, question.seats)


def answer_lighthouse_contest(
    question: LighthouseContest, *, progress: Progress = None
) -> CompetitiveSolution | CompetitiveSimulation:
    """Each seat's chance in the competitive variant, as a validated question asks.

    Kits whose solve fits (:func:`~isles.solvers.lighthouse.competitive.exact_solve_fits`:
    the default 2-seat kit, 3 seats x 2 islands) are solved exactly
    (:func:`~isles.solvers.lighthouse.competitive.solve_competitive`, within the
    question's ``time_limit``); larger ones (4 seats x 2 islands, 2 seats x 4
    islands) are simulated
    (:func:`~isles.solvers.lighthouse.competitive_simulation.simulate_competitive`,
    ``games`` default :data:`~isles.models.lighthouse.caps.DEFAULT_GAMES`), and the
    answer says so (``status`` exact/optimal or estimate).

    Parameters
    ----------
    question : LighthouseContest
        Read by :meth:`~isles.models.contract.Question.read` or built by
        ``isles.lighthouse.competitive_odds``; no kit chosen, the registry's
        ``competitive-SEATS``.
    progress : bool, None or callable
        As :data:`isles.solvers.work.Progress`.

    Returns
    -------
    CompetitiveSolution or CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy; ``games`` or ``seed`` for a kit solved exactly, or
        ``time_limit`` for one simulated (they would do nothing); ``optimal``
        for a kit beyond the exact solve.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseContest
    >>> answer_lighthouse_contest(LighthouseContest.read({"islands": 2, "seats": 2})).status
    <Status.EXACT: 'exact'>
    """
    kit = question.chosen_kit()
    seats = _contest_seats(question, kit)
    policy, games, seed = question.policy, question.games, question.seed
    policies = check_policies(policy, seats)
    if exact_solve_fits(kit, seats):
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only for a kit that is simulated (this one is solved exactly)",
                )
        return solve_competitive(
            kit, seats, policies, time_limit=question.time_limit, progress=progress
        )
    if "optimal" in policies:
        raise InvalidInput(
            "policy",
            policy,
            "greedy or random for a kit this large (optimal play is solved only for kits "
            f"whose solve fits in {MAX_COMPETITIVE_BYTES / 2**30:g} GiB)",
        )
    if "time_limit" in question.model_fields_set:
        raise InvalidInput(
            "time_limit", question.time_limit, "a time limit only for a kit that is solved exactly"
        )
    return simulate_competitive(
        kit,
        seats,
        policies,
        DEFAULT_GAMES if games is None else games,
        seed=0 if seed is None else seed,
        progress=progress,
    )


def competitive_odds(
    kit: Kit | str | Mapping[str, object] | None = None,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    *,
    games: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: Progress = None,
) -> CompetitiveSolution | CompetitiveSimulation:
    """Each seat's chance in the competitive variant: exact where the solve fits, else simulated.

    Kits whose solve fits in 2 GiB (the default 2-seat kit, 3 seats x 2 islands)
    are solved exactly by value iteration; larger ones (4 seats x 2 islands,
    2 seats x 4 islands) are simulated, and the answer says so (``status``
    exact, optimal or estimate; docs/lighthouse.md, "Competitive variant").

    Parameters
    ----------
    kit : Kit, str or mapping, optional
        A kit, a name of the registry or a kit's JSON; default the registry's
        ``competitive-SEATS`` (3 sea cards).
    seats : int
        2..4 seats dividing the islands.
    policy : str or sequence of str
        ``greedy``, ``random`` or (2 seats, solved kits) ``optimal``; one, or one per seat.
    games : int, optional
        Games to simulate (default 20,000); only for a kit that is simulated.
    seed : int, optional
        The simulation's seed (default 0); only for a kit that is simulated.
    time_limit : float, optional
        Seconds for an exact solve (default 600): when they run out the answer
        is ``timed_out``, its chances still within ``error_bound``; only for a
        kit that is solved.
    progress : bool, None or callable
        A progress bar (stderr), as :func:`~isles.lighthouse.odds`'s.

    Returns
    -------
    CompetitiveSolution or CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy; ``games`` or ``seed`` for a kit solved exactly, or
        ``time_limit`` for one simulated (they would do nothing); ``optimal``
        for a kit beyond the exact solve.

    References
    ----------
    L. S. Shapley, "Stochastic games", *Proc. Natl. Acad. Sci.* 39 (1953)
    1095-1100 (value iteration); E. B. Wilson (1927), for the intervals.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> competitive_odds(default_kit(2, 3)).status
    <Status.EXACT: 'exact'>
    >>> competitive_odds(default_kit(2, 3), games=10)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 10 is invalid; expected games only ...
    """
    question = LighthouseContest.ask(
        kit=kit, seats=seats, policy=policy, games=games, seed=seed, time_limit=time_limit
    )
    return answer_lighthouse_contest(question, progress=progress)
