"""Plunder: what a record proves: consistency, a smallest conflict, forced values and proofs.

Implements docs/plunder.md ("Smallest conflicts", "Time limit", rule decision 4;
seed ``seeds/003_cfc377110defcf34.txt``): the exact posterior first, then Z3 for a
smallest set of conflicting answers, or for the smallest proof of each forced value,
within a time limit past which they stay minimal and the answer says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import z3

from isles.models.errors import expect
from isles.models.plunder.codes import CATEGORIES, Category
from isles.models.plunder.questions import ANALYSIS_TIME_LIMIT
from isles.models.plunder.record import Record
from isles.models.status import Status
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.posterior import Posterior
from isles.solvers.plunder.z3record import AnswerId, Z3Record
from isles.solvers.work import Bar, Deadline, Progress, check_time_limit

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Deduction",
    "ForcedValue",
    "ProofKind",
    "deduce",
    "forced_values",
    "minimal_conflict",
    "prove",
    "smallest_conflict",
    "z3_consistent",
]

DEFAULT_TIME_LIMIT = ANALYSIS_TIME_LIMIT
"""Seconds :func:`deduce` and :func:`analyse` spend, by default, proving that
proofs and conflicts are smallest; past it they keep proofs minimal by inclusion
(docs/plunder.md, "Time limit"). Declared once, by
:class:`isles.models.plunder.questions.RecordAnalysis`."""

ProofKind = Literal["smallest", "minimal"]
"""What a conflict or a proof is: ``smallest`` (no set of fewer answers does
it, proven) or ``minimal`` (no answer of it can be dropped; a smaller set may
exist)."""


@dataclass(frozen=True)
class ForcedValue:
    """A value that every consistent deal gives to a player, with its proof.

    Attributes
    ----------
    player : int
        The player.
    category : Category
        The category.
    value : int
        The forced value (index 0..5).
    proof : tuple of AnswerId
        A set of answers that forces it, with the distinctness of cards and my
        own code as known facts. Dropping any one answer lets the player hold
        another value (the proof is minimal).
    smallest : bool
        Whether the proof is also proven smallest: no fewer answers force the
        value. False when the time limit ran out first (docs/plunder.md,
        "Time limit").

    Examples
    --------
    >>> ForcedValue(1, Category.TRAP, 0, (AnswerId(0, 1),)).to_dict()
    {'player': 1, 'category': 'trap', 'value': 0, 'proof': [{'observation': 0, 'player': 1}], \
'proof_kind': 'smallest'}
    """

    player: int
    category: Category
    value: int
    proof: tuple[AnswerId, ...]
    smallest: bool = True

    @property
    def proof_kind(self) -> ProofKind:
        """``"smallest"`` or ``"minimal"``."""
        return "smallest" if self.smallest else "minimal"

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/plunder.md ("JSON output")."""
        return {
            "player": self.player,
            "category": self.category.value,
            "value": self.value,
            "proof": [a.to_dict() for a in self.proof],
            "proof_kind": self.proof_kind,
        }


def z3_consistent(record: Record) -> bool:
    """Whether some deal agrees with the record, decided by Z3 (one check).

    An independent check of :func:`posterior` (``posterior(r).deals > 0``).

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    bool

    Examples
    --------
    >>> z3_consistent(Record(6))
    True
    """
    model = Z3Record(record)
    return bool(model.check(list(model.literal.values())) == z3.sat)


def smallest_conflict(record: Record) -> tuple[AnswerId, ...]:
    """A smallest set of answers that cannot all be true; empty when consistent.

    No time limit: on long records (dozens of turns, 5-6 players) this can
    take minutes. :func:`deduce` bounds it with ``time_limit``;
    :func:`minimal_conflict` is the fast, minimal-only variant.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    tuple of AnswerId
        Sorted. No set with fewer answers is inconsistent (with my code and the
        distinctness of cards as facts), so every proper subset is consistent
        too: the set is both smallest and minimal (docs/plunder.md, rule
        decision 4).

    See Also
    --------
    minimal_conflict, deduce

    Notes
    -----
    Minimum-cardinality unsatisfiable subset by implicit hitting-set duality
    on a Z3 model with one assumption literal per answer, seeded with a
    minimal unsat core (Z3 unsat core shrunk by deletion) as the upper bound.
    docs/plunder.md, "Smallest conflicts".

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> from isles.models.plunder.codes import Code
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 1, 1), {1: False}),
    ...                Observation(0, Code(1, 0, 1), {1: False}),
    ...                Observation(0, Code(1, 1, 0), {1: False}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> smallest_conflict(r)
    (AnswerId(observation=0, player=1), AnswerId(observation=4, player=1))
    """
    core, _ = Z3Record(record).smallest_core()
    return core if core is not None else ()


def minimal_conflict(record: Record) -> tuple[AnswerId, ...]:
    """A set of answers that cannot all be true, minimal by inclusion; empty when consistent.

    Dropping any one answer of the set makes it consistent, but a set with
    fewer answers may exist elsewhere in the record (see
    :func:`smallest_conflict`). Fast: a Z3 unsat core shrunk by deletion.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    tuple of AnswerId
        Sorted.

    Examples
    --------
    >>> from isles.models.plunder.codes import Code
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> minimal_conflict(r), minimal_conflict(Record(3))
    ((AnswerId(observation=0, player=1), AnswerId(observation=1, player=1)), ())
    """
    core = Z3Record(record).minimal_core()
    return core if core is not None else ()


def _minimal_proofs(
    record: Record, post: Posterior, model: Z3Record
) -> list[tuple[int, Category, int, Any, tuple[AnswerId, ...]]]:
    """Each forced value with its guard literal ("the player does not hold it") and a
    proof minimal by inclusion."""
    found: list[tuple[int, Category, int, Any, tuple[AnswerId, ...]]] = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        for k, cat in enumerate(CATEGORIES):
            v = post.forced(p, cat)
            if v is None:
                continue
            guard = z3.Bool(f"not_{p}_{cat.value}_{v}", model.ctx)
            model.solver.add(z3.Implies(guard, model.x[p][k] != v))
            proof = model.minimal_core([guard])
            if proof is None:  # pragma: no cover - the count and Z3 disagree
                raise AssertionError(f"Z3 does not confirm forced value {p} {cat} {v}")
            found.append((p, cat, v, guard, proof))
    return found


def _redraw(bar: Bar) -> Callable[[], None]:
    """What a search calls as it goes: the bar shows the time spent (no step done)."""
    return lambda: bar.reach(bar.done)


def _forced_values(
    record: Record,
    post: Posterior,
    smallest: bool,
    deadline: Deadline,
    progress: Progress,
) -> tuple[ForcedValue, ...]:
    if not post.deals:
        return ()
    model = Z3Record(record)
    found = _minimal_proofs(record, post, model)
    if not smallest:
        return tuple(
            ForcedValue(p, cat, v, proof, len(proof) <= 1) for p, cat, v, _, proof in found
        )
    # Short minimal proofs first: they are the quick searches, so a time limit
    # leaves as few proofs as possible unproven.
    order = sorted(range(len(found)), key=lambda i: (len(found[i][4]), i))
    out: dict[int, ForcedValue] = {}
    with Bar(len(found), "smallest proofs", progress if found else False, unit="set") as bar:
        for i in order:
            p, cat, v, guard, proof = found[i]
            best, proven = model.smallest_core([guard], proof, deadline, _redraw(bar))
            assert best is not None
            out[i] = ForcedValue(p, cat, v, best, proven)
            bar.update(1)
    return tuple(out[i] for i in range(len(found)))


def forced_values(
    record: Record,
    post: Posterior | None = None,
    *,
    smallest: bool = True,
    time_limit: float | None = None,
    progress: Progress = False,
) -> tuple[ForcedValue, ...]:
    """Every value forced on a player other than me, each with a proof.

    Parameters
    ----------
    record : Record
        The record.
    post : Posterior, optional
        The posterior of ``record`` (computed when omitted).
    smallest : bool, default True
        Search for proofs of minimum cardinality. With False, proofs are
        only minimal by inclusion (a Z3 unsat core shrunk by deletion),
        which is much faster on long records (docs/plunder.md, "Benchmark").
    time_limit : float or None, default None
        Seconds for the searches for smallest proofs (all together); a proof
        not proven smallest by then stays minimal, with ``smallest=False``.
        None: no limit (minutes on long 6-player records).
    progress : bool, None or callable, default False
        A progress bar over the proofs (:data:`isles.solvers.work.Progress`:
        ``True`` on stderr, ``None`` on a terminal after a second, a callable
        told the fraction done).

    Returns
    -------
    tuple of ForcedValue
        By player, then category; ``()`` for an inconsistent record.

    Raises
    ------
    InvalidInput
        A ``time_limit`` that is not a number of seconds > 0.

    Notes
    -----
    A value is forced when no consistent deal gives the player another one
    (read from the exact posterior). Its proof is first a minimal set of
    answers under which "the player does not hold it" is unsatisfiable (Z3
    unsat core shrunk by deletion); then, shortest first, each is replaced
    by a smallest such set (the hitting-set search of
    :func:`smallest_conflict` with that negation as an extra fact) while
    time remains.

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> from isles.models.plunder.codes import Code
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(4, 0, 0), {1: True}),
    ...                Observation(0, Code(5, 0, 0), {1: False})))
    >>> [(f.player, f.category.value, f.value, len(f.proof), f.smallest) for f in forced_values(r)]
    [(1, 'island', 4, 2, True)]
    """
    deadline = Deadline(check_time_limit(time_limit))
    post = post or posterior(record)
    return _forced_values(record, post, smallest, deadline, progress)


@dataclass(frozen=True)
class Deduction:
    """Everything the record proves: status, posterior, conflict, forced values.

    Attributes
    ----------
    status : Status
        ``exact`` (the record is consistent; the posterior is exact) or
        ``inconsistent`` (no deal agrees with every answer).
    posterior : Posterior
        The exact posterior (no deal when inconsistent).
    conflict : tuple of AnswerId
        For an inconsistent record, a set of answers that cannot all be true
        (smallest when ``proofs == "smallest"``, else minimal); else empty.
    forced : tuple of ForcedValue
        The forced values of the players other than me, with their proofs.
    proofs : "smallest" or "minimal"
        ``smallest`` when the conflict and every proof are proven smallest;
        ``minimal`` when the time limit ran out first (each is then still
        minimal by inclusion; see each ``ForcedValue.smallest``).
    time_limit : float or None
        The time limit the search had, in seconds.

    Examples
    --------
    >>> d = deduce(Record(3))
    >>> d.to_dict()["status"], d.to_dict()["deals"], d.proofs
    ('exact', 1728000, 'smallest')
    """

    status: Status
    posterior: Posterior
    conflict: tuple[AnswerId, ...]
    forced: tuple[ForcedValue, ...]
    proofs: ProofKind = "smallest"
    time_limit: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The deduction as JSON (docs/plunder.md, "JSON output")."""
        return {
            **self.posterior.to_dict(),
            "status": str(self.status),
            "conflict": [a.to_dict() for a in self.conflict],
            "forced": [f.to_dict() for f in self.forced],
            "proofs": self.proofs,
            "time_limit": self.time_limit,
        }


def deduce(
    record: Record,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: Progress = None,
) -> Deduction:
    """The posterior, then a smallest conflict (inconsistent) or the forced values' proofs.

    Parameters
    ----------
    record : Record
        The record.
    time_limit : float or None, default DEFAULT_TIME_LIMIT (3 s)
        Seconds for the searches for smallest sets (the conflict, or all the
        proofs together). Past it, sets stay minimal by inclusion and
        ``proofs`` says ``"minimal"``. The posterior and the minimal sets are
        always computed (about a second on a 200-turn 6-player record).
        None: no limit.
    progress : bool, None or callable, default None
        A progress bar over the proofs (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    Deduction

    Raises
    ------
    InvalidInput
        A ``time_limit`` that is not a number of seconds > 0.

    See Also
    --------
    analyse : the deduction with flip and guess advice (``isles plunder``).

    Notes
    -----
    docs/plunder.md: "How the posterior is computed", "Smallest conflicts",
    "Time limit".

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> d = deduce(Record(3))
    >>> d.status.value, d.posterior.deals, d.conflict, d.forced, d.proofs
    ('exact', 1728000, (), (), 'smallest')
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    return prove(record, check_time_limit(time_limit), progress)


def prove(record: Record, time_limit: float | None, progress: Progress) -> Deduction:
    """:func:`deduce` on a record and a time limit already checked (a question's).

    Examples
    --------
    >>> prove(Record(2), None, False).posterior.deals
    27000
    """
    deadline = Deadline(time_limit)
    post = posterior(record)
    if post.deals:
        forced = _forced_values(record, post, True, deadline, progress)
        kind: ProofKind = "smallest" if all(f.smallest for f in forced) else "minimal"
        return Deduction(Status.EXACT, post, (), forced, kind, time_limit)
    with Bar(1, "smallest conflict", progress, unit="set") as bar:
        core, proven = Z3Record(record).smallest_core(deadline=deadline, tick=_redraw(bar))
        bar.update(1)
    if core is None:  # pragma: no cover - the count and Z3 disagree
        raise AssertionError("Z3 finds a deal where the count finds none")
    kind = "smallest" if proven else "minimal"
    return Deduction(Status.INCONSISTENT, post, core, (), kind, time_limit)
