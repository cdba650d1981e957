"""Plunder: dig now or wait? The expected points of a crew card sent now or later.

Implements docs/plunder.md ("Dig now or wait"; seed
``seeds/003_cfc377110defcf34.txt``): for a record and its writer, per target,
the points of sending the crew card now against waiting one, two, ... turns,
the others following a stated policy, by playing the rest of the game on from
deals drawn exactly from the posterior.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Category, Code
from isles.models.plunder.game import TURN_LIMIT, GameRecord, GameTurn
from isles.models.plunder.play import PlayerView, Policy, Seat, play_turns
from isles.models.plunder.questions import DIG_SAMPLES, DigQuestion
from isles.models.plunder.record import Record
from isles.models.plunder.scoring import CrewCard
from isles.models.plunder.scoring import dig_points as points_for
from isles.models.status import Status
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.policies import SolverPolicy
from isles.solvers.plunder.registry import as_policy
from isles.solvers.plunder.replay import OTHERS, Replay, shared_models
from isles.solvers.plunder.search import SearchPolicy, checkpoint
from isles.solvers.work import Bar, Deadline, Progress

__all__ = [
    "DEFAULT_SAMPLES",
    "DigAdvice",
    "DigOption",
    "TargetDig",
    "answer_dig_question",
    "dig_advice",
]

DEFAULT_SAMPLES = DIG_SAMPLES
"""Games played on per dig advice, by default (declared by
:class:`isles.models.plunder.questions.DigQuestion`)."""

_Z95 = 1.959963984540054

_clock = time.monotonic
"""The clock of the time limit (a test replaces it)."""


@dataclass(frozen=True)
class DigOption:
    """Sending the crew card after ``wait`` more turns (0: now).

    Attributes
    ----------
    wait : int
    expected_points : float
        The mean points of the card over the games played on (an estimate).
    ci95 : (float, float)
        Its 95% interval (normal approximation, clipped to 0..3).
    right : float
        How often the card named the right code.

    Examples
    --------
    >>> DigOption(0, 1.5, (1.2, 1.8), 0.5).to_dict()["ci95"]
    [1.2, 1.8]
    """

    wait: int
    expected_points: float
    ci95: tuple[float, float]
    right: float

    def to_dict(self) -> dict[str, Any]:
        """The option as JSON."""
        return {
            "wait": self.wait,
            "expected_points": self.expected_points,
            "ci95": list(self.ci95),
            "right": self.right,
        }


@dataclass(frozen=True)
class TargetDig:
    """Dig now or wait, for one target.

    Attributes
    ----------
    target : int
    code : Code
        My best guess now (most likely code, ties by index).
    probability : Fraction
        Its exact probability now.
    now_exact : Fraction
        The exact expected points of sending it now were it first in the chest
        (``3 * probability``). The estimate of option 0 is its Monte Carlo twin
        when the chest holds no card yet; with the others' cards of the turns so
        far replayed ahead of mine, option 0 counts them and this does not.
    options : tuple of DigOption
        Now, then waiting 1, 2, ... turns.

    Examples
    --------
    >>> t = TargetDig(1, Code(1, 1, 1), Fraction(1, 2), Fraction(3, 2),
    ...               (DigOption(0, 1.5, (1.0, 2.0), 0.5), DigOption(1, 2.0, (1.5, 2.5), 0.7)))
    >>> t.best.wait
    1
    """

    target: int
    code: Code
    probability: Fraction
    now_exact: Fraction
    options: tuple[DigOption, ...]

    @property
    def best(self) -> DigOption:
        """The option with the most expected points (the earliest on a tie)."""
        return max(self.options, key=lambda o: (o.expected_points, -o.wait))

    def to_dict(self) -> dict[str, Any]:
        """The target's advice as JSON."""
        return {
            "target": self.target,
            "code": self.code.to_dict(),
            **probability_json("p", self.probability),
            **probability_json("now_exact", self.now_exact),
            "best_wait": self.best.wait,
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True)
class DigAdvice:
    """Dig now or wait, for every target I have not dug yet.

    Attributes
    ----------
    player : int
        Me.
    turn : int
        Turns played so far.
    policy : str
        The policy the others (and my flips) follow in the games played on.
    samples : int
        Games played on: those asked for, or fewer (at least one) when the
        time limit stopped the advice (the first ``samples`` games of the
        seed: the same as asking for that many).
    seed : int
    targets : tuple of TargetDig
    samples_asked : int
        Games asked for (``samples`` unless the time limit stopped it).
    time_limit : float or None
        The time limit in seconds, None for none.

    Examples
    --------
    >>> from isles.models.plunder.record import Me, Observation
    >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),), Me(0, Code(0, 0, 0)))
    >>> adv = dig_advice(r, waits=1, samples=20, seed=1)
    >>> adv.status.value, [o.wait for o in adv.targets[0].options]
    ('estimate', [0, 1])
    >>> adv.samples, adv.samples_asked, adv.stopped_at_time_limit
    (20, 20, False)
    """

    player: int
    turn: int
    policy: str
    samples: int
    seed: int
    targets: tuple[TargetDig, ...]
    samples_asked: int
    time_limit: float | None = None

    @property
    def stopped_at_time_limit(self) -> bool:
        """Whether the time limit ended the advice before every game asked for."""
        return self.samples < self.samples_asked

    @property
    def status(self) -> Status:
        """``estimate``: sampled means with 95% intervals."""
        return Status.ESTIMATE

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON (docs/plunder.md, "Dig now or wait")."""
        return {
            "status": str(self.status),
            "player": self.player,
            "turn": self.turn,
            "policy": self.policy,
            "samples": self.samples,
            "samples_asked": self.samples_asked,
            "time_limit": self.time_limit,
            "stopped_at_time_limit": self.stopped_at_time_limit,
            "seed": self.seed,
            "targets": [t.to_dict() for t in self.targets],
        }


class _Watcher:
    """My seat in the games played on: flips by the policy, sends nothing, and notes my
    best guess on each target after every turn."""

    def __init__(self, inner: Seat, belief: Belief, targets: tuple[int, ...]) -> None:
        self.inner = inner
        self.belief = belief
        self.targets = targets
        self.guesses: list[dict[int, Code]] = []

    def flip(self, view: PlayerView) -> Category | None:
        return self.inner.flip(view)

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        for obs in view.observations[self.belief.turns :]:
            self.belief = self.belief.observe(obs)
        self.guesses.append({q: self.belief.best_code(q)[0] for q in self.targets})
        return []


def _remaining_decks(
    seen: tuple[tuple[int, ...], ...], rng: np.random.Generator
) -> tuple[tuple[int, ...], ...]:
    decks = []
    for k in range(len(CATEGORIES)):
        cards = [v for v in range(VALUES) for _ in range(COPIES - seen[k][v])]
        decks.append(tuple(int(v) for v in rng.permutation(np.array(cards, dtype=np.int64))))
    return tuple(decks)


def _points(
    chest: list[tuple[int, int, CrewCard]], deal: tuple[Code, ...], target: int, before: int
) -> int:
    """Correct counting digs on ``target`` among the chest's first ``before`` slots."""
    firsts: set[int] = set()
    right = 0
    for slot, _, card in chest:
        if slot >= before:
            break
        if card.target != target or card.proposer in firsts:
            continue
        firsts.add(card.proposer)
        right += card.code == deal[target]
    return right


def dig_advice(
    record: Record,
    *,
    policy: Policy | str = "threshold",
    waits: int = 3,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    turn_limit: int = TURN_LIMIT,
    time_limit: float | None = None,
    progress: Progress = None,
) -> DigAdvice:
    """Per target: the expected points of my crew card sent now or after 1, 2, ... turns.

    Parameters
    ----------
    record : Record
        The record, with ``me`` (whose cards these are). Turns in seat order
        (from the first turn's player on), at most one card changed a turn.
    policy : Policy or str, default "threshold"
        What the others do (flips and crew cards) in the games played on, and
        how I flip meanwhile; a name of :func:`policy_by_name` or a Policy.
    waits : int, default 3
        The longest wait weighed, 0..15 (capped by the turns left).
    samples : int, default DEFAULT_SAMPLES (200)
        Games played on, 1..100_000; the intervals shrink as ``1 / sqrt(samples)``.
    seed : int, default 0
        The same seed, the same answer.
    turn_limit : int, default TURN_LIMIT (15)
    time_limit : float or None, default None
        Seconds (wall clock, from the call) after which no more games are
        played on: the answer is then that of the games played so far (at
        least one), and says so (``samples`` < ``samples_asked``,
        ``stopped_at_time_limit``). A search policy's game still going at the
        limit stops within its decision and is dropped; if it was the first,
        the limit is refused (no answer stands on no game). None: every game
        asked for.
    progress : bool, None or callable, default None
        A bar of games played on (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    DigAdvice
        ``status`` ``estimate``.

    Raises
    ------
    InvalidInput
        No ``me``, an inconsistent record, a finished game, turns out of seat
        order, a ``time_limit`` past which a search's first game was still
        going, or a bad option (named): the checks of the declaration
        :class:`isles.models.plunder.questions.DigQuestion`, then those that need the
        game (a consistent record, its turns in seat order).

    Notes
    -----
    Each game played on draws a deal uniformly from the deals consistent with
    the record and my code (an exact draw from the posterior,
    :meth:`Belief.sample`), shuffles the cards left in each deck, and plays
    on with every seat following ``policy``, except that I send no card. My
    card on target ``q`` sent after ``w`` turns names my most likely code for
    ``q`` at that time and scores 3, 2, 1 or 0 by the others' correct first
    cards on ``q`` ahead of it in the chest (waiting ``w`` turns puts it in my
    seat's place in that turn's crew round). The crew cards already in the
    chest count: a deduction record does not hold them, but with an exact-solver
    ``policy`` (``threshold``, ``certain``, ``expected``) the others' cards of
    the turns so far are fixed by their code and the record, and each game
    played on replays them (:class:`isles.solvers.plunder.replay.Replay`),
    ahead of mine in the chest. ``policy="search"`` plays the others and my
    flips on by the search policy (slow: a search a turn a seat); their cards of
    the turns so far are replayed as the search models them, ``threshold:0.5``
    (:data:`isles.solvers.plunder.replay.OTHERS`). With another policy
    (``random``, a user's) the chest is taken as empty. The others do not see
    that my card went in. docs/plunder.md, "Dig now or wait".

    Examples
    --------
    >>> from isles.models.plunder.record import Me, Observation
    >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),), Me(0, Code(0, 0, 0)))
    >>> t = dig_advice(r, waits=1, samples=50, seed=2).targets[0]
    >>> t.target, t.probability, t.now_exact
    (1, Fraction(1, 61), Fraction(3, 61))
    """
    question = DigQuestion.read(
        {
            "record": record,
            "policy": policy,
            "waits": waits,
            "samples": samples,
            "seed": seed,
            "turn_limit": turn_limit,
            "time_limit": time_limit,
        }
    )
    return answer_dig_question(question, progress=progress)


class _TimeUp(Exception):
    """The time limit came during a search's decision in a game played on."""


@dataclass(frozen=True)
class _Start:
    """What every game played on starts from: the record's position, checked once."""

    record: Record
    belief: Belief
    seen: tuple[tuple[int, ...], ...]
    waits: int
    targets: tuple[int, ...]
    now: dict[int, tuple[Code, int]]
    replay: Replay | None = None
    replayed_seats: bool = False


def _start(question: DigQuestion, pol: Policy) -> _Start:
    """The checks that need the game, then the position the games are played on from."""
    record, turn_limit = question.record, question.turn_limit
    assert record.me is not None  # the declaration's check
    t0 = len(record.observations)
    if t0 >= turn_limit:
        raise InvalidInput("record.observations", t0, f"fewer than {turn_limit} turns (a game on)")
    belief = Belief.from_record(record)
    if not belief.deals:
        raise InvalidInput("record", "inconsistent", "a consistent record")
    seen = record.seen
    if t0:
        # Checks seat order and one flip a turn once, on my own code's view of any deal.
        template = GameRecord.from_record(record, belief.sample(np.random.default_rng(0), 1)[0])
        seen = template.seen() if not any(map(any, record.seen)) else record.seen
    targets = tuple(q for q in range(record.players) if q != record.me.player)
    now = {q: belief.best_code(q) for q in targets}
    replay = None
    # The others' crew cards of the turns so far are replayed per deal: by their policy
    # when it is a solver's, by the search's own model of them (OTHERS) under search.
    past: SolverPolicy | None = pol if isinstance(pol, SolverPolicy) else None
    if isinstance(pol, SearchPolicy):
        past = OTHERS
    if t0 and past is not None:
        n, me = record.players, record.me.player
        view = PlayerView(
            n,
            me,
            record.me.code,
            turn_limit,
            record.observations[-1].clue,
            record.observations,
            tuple(t.flip for t in template.turns),
            ((),) * t0,
            (),
            seen,
        )
        replay = Replay(view, past, table=template.table, public=False)
    waits = min(question.waits, turn_limit - t0)
    return _Start(record, belief, seen, waits, targets, now, replay, past is pol)


#: One game played on: the deal, the chest ``(slot, turn, card)``, the turns, my seat.
_PlayedOn = tuple[tuple[Code, ...], list[tuple[int, int, CrewCard]], list[GameTurn], _Watcher]


def _play_on(
    start: _Start, policy: Policy, child: np.random.SeedSequence, turn_limit: int
) -> _PlayedOn:
    """One game played on from a deal drawn from the posterior: the deal, the chest
    ``(slot, turn, card)``, the turns and my seat (its guesses after each turn)."""
    record = start.record
    assert record.me is not None
    me, n, t0 = record.me.player, record.players, len(record.observations)
    rng = np.random.default_rng(child)
    deal = start.belief.sample(rng, 1)[0]
    decks = _remaining_decks(start.seen, rng)
    seat_rngs = [np.random.default_rng(s) for s in child.spawn(n)]
    seats: list[Seat] = [policy.seat(n, p, deal[p], seat_rngs[p]) for p in range(n)]
    watcher = _Watcher(seats[me], start.belief, start.targets)
    seats[me] = watcher
    if start.replay is not None:
        game, replayed = start.replay.game(deal, watcher, {})
        if start.replayed_seats:  # the others play on as replayed (else: fresh seats)
            seats = [watcher if p == me else replayed[p] for p in range(n)]
    elif t0:
        game = GameRecord.from_record(record, deal, turn_limit)
    else:
        game = GameRecord(n, deal, Code(*(d[0] for d in decks)), (), turn_limit)
        decks = tuple(d[1:] for d in decks)
    turns = play_turns(game, decks, seats, until=t0 + start.waits)
    chest = []  # (slot, turn, card): my slot after w turns sits in turn t0+w-1
    for i, turn in enumerate(turns):
        # the cards of the turns so far (the others', replayed) come before any of mine
        order = [(turn.observation.active + j) % n for j in range(n)]
        for card in turn.crew:
            slot = (i - t0 + (i >= t0)) * (n + 1) + order.index(card.proposer)
            chest.append((slot, i - t0, card))
    return deal, chest, list(turns), watcher


def _my_card(
    start: _Start, turns: list[GameTurn], watcher: _Watcher, target: int, wait: int
) -> tuple[Code, int]:
    """My card on ``target`` sent after ``wait`` turns: its code and its slot in the chest."""
    record = start.record
    assert record.me is not None
    n, t0 = record.players, len(record.observations)
    if wait == 0:
        return start.now[target][0], 0
    if wait - 1 < len(watcher.guesses):
        order = [(turns[t0 + wait - 1].observation.active + j) % n for j in range(n)]
        return watcher.guesses[wait - 1][target], wait * (n + 1) + order.index(record.me.player)
    # The game ended first (every other card sent): keep the last guess.
    return watcher.guesses[-1][target], 10**9


def answer_dig_question(question: DigQuestion, *, progress: Progress = None) -> DigAdvice:
    """The dig advice a validated :class:`~isles.models.plunder.questions.DigQuestion` asks
    for: what :func:`dig_advice` answers, and ``isles.answer`` for this question.

    Examples
    --------
    >>> from isles.models.plunder.record import Me, Observation
    >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),), Me(0, Code(0, 0, 0)))
    >>> answer_dig_question(DigQuestion.read({"record": r, "samples": 5, "waits": 1})).samples
    5
    """
    pol = as_policy(question.policy, "policy")
    start = _start(question, pol)
    deadline = Deadline(question.time_limit, clock=_clock)
    tally = _Tally.of(start)
    with Bar(question.samples, "games played on", progress, unit="game") as bar:
        _play_all(question, start, pol, deadline, tally, bar)
    out = []
    for q in start.targets:
        options = tuple(tally.option(q, w) for w in range(start.waits + 1))
        code, count = start.now[q]
        p = Fraction(count, start.belief.deals)
        out.append(TargetDig(q, code, p, p * points_for(0), options))
    assert question.record.me is not None
    return DigAdvice(
        question.record.me.player,
        len(question.record.observations),
        pol.name,
        tally.played,
        question.seed,
        tuple(out),
        question.samples,
        None if question.time_limit is None else float(question.time_limit),
    )


@dataclass
class _Tally:
    """The points of my card per target and wait over the games played on so far, and
    how often it named the right code."""

    points: dict[tuple[int, int], list[int]]
    right: dict[tuple[int, int], int]
    played: int = 0

    @classmethod
    def of(cls, start: _Start) -> _Tally:
        """Nothing played yet: every target, every wait from 0 to ``start.waits``."""
        keys = [(q, w) for q in start.targets for w in range(start.waits + 1)]
        return cls({k: [] for k in keys}, dict.fromkeys(keys, 0))

    def add(self, start: _Start, game: _PlayedOn) -> None:
        """One more game played on: my card on each target after each wait, scored."""
        deal, chest, turns, watcher = game
        self.played += 1
        for q, w in self.points:
            guess, slot = _my_card(start, turns, watcher, q, w)
            ok = guess == deal[q]
            self.right[q, w] += ok
            self.points[q, w].append(points_for(_points(chest, deal, q, slot)) if ok else 0)

    def option(self, q: int, wait: int) -> DigOption:
        """One option's mean points, its 95% interval and how often it was right."""
        xs = np.array(self.points[q, wait], dtype=np.float64)
        mean = float(xs.mean())
        n = self.played
        half = _Z95 * float(xs.std(ddof=1)) / math.sqrt(n) if n > 1 else 3.0
        ci = (max(0.0, mean - half), min(3.0, mean + half))
        return DigOption(wait, mean, ci, self.right[q, wait] / n)


def _play_all(
    question: DigQuestion, start: _Start, pol: Policy, deadline: Deadline, tally: _Tally, bar: Bar
) -> None:
    """The games played on, one per child of the seed, until the time limit (at least one)."""

    def check() -> None:
        """Within a search's decision (before each of its games played on)."""
        if deadline.passed():
            raise _TimeUp

    # the games' fresh search seats share the others' models along the record
    # (the same answers as each seat replaying them alone, faster)
    with shared_models(len(question.record.observations)):
        for child in np.random.SeedSequence(question.seed).spawn(question.samples):
            if tally.played and deadline.passed():
                break  # the time limit: the games played so far (at least one)
            try:
                with checkpoint(check):  # a search's game stops within its decision
                    game = _play_on(start, pol, child, question.turn_limit)
            except _TimeUp:
                if not tally.played:  # a search's first game still going at the limit
                    raise InvalidInput(
                        "time_limit",
                        question.time_limit,
                        f"a limit long enough for one game played on ({pol.name} "
                        f"had finished none at {question.time_limit:g} s)",
                    ) from None
                break  # that game dropped: the ones played so far
            tally.add(start, game)
            bar.update(1)
