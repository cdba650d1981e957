"""Plunder: a policy that plans, by determinized rollouts from the seat's exact belief.

Implements docs/plunder.md ("The search policy"; seed
``seeds/003_cfc377110defcf34.txt``): ``search[:BUDGET]``, registered with the
built-in policies. At each decision the seat draws ``BUDGET`` deals exactly
from its own belief (its code and the public record only), shuffles the cards
left in each deck, plays the rest of the game on with each other player modelled
by the candidate policy (``threshold:0.5``, ``certain``, ``expected``:
``CANDIDATES``) whose best deal replays their public play (their flips and the
cards they sent) with the fewest misses, and chooses, by the seed's scoring (my
margin over the best of the others), the flip and the crew cards whose games end
best for it. Flat Monte Carlo with common random numbers: every option is scored
on the same sampled games. It weighs every deal of its belief (once they are at most
``POOL * BUDGET``: from its first plan at the default budget) by how well those
models replay the record and plays on from the weighed deals (my guesses in the
games played on by those weights, as the seat itself guesses); on the last turn,
once they are few, it scores every combination of its most likely codes exactly
over them. On its own turn it weighs each flip (none, or a deck) on ``BUDGET`` games
of its own (from a budget of ``FLIP_SEARCH_BUDGET``; below, it flips for its digs:
:func:`dig_flip`).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Category, Code
from isles.models.plunder.game import GameRecord, GameTurn, PlayerView, Policy, Seat, play_turns
from isles.models.plunder.scoring import CrewCard, dig_points, treasure_left
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.policies import (
    BuiltinPolicy,
    CertainPolicy,
    ExpectedPointsPolicy,
    ThresholdPolicy,
    _SolverPolicy,
    _SolverSeat,
    best_flip,
    follow_belief,
    register,
)

__all__ = [
    "CANDIDATES",
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "RULES",
    "SEARCH_DEALS",
    "Replay",
    "SearchPolicy",
    "checkpoint",
    "dig_flip",
    "draws",
    "plan_values",
    "seen_after",
    "shared_models",
]

DEFAULT_BUDGET = 32
"""Games played on per decision by default (``search``), and per flip weighed. Measured
at 6 players (benchmarks/bench_search.py, 176 decisions of 10 games, a shared 2-core
machine): median 17 ms, 90% 239 ms, at most 855 ms of CPU a decision with the flips
searched and the deals weighed from the first plan (54 decisions of 3 games: at most
468 ms); 16 won less often at 4 players, 64 no
more often at 6, nor at 4 with the weighed guesses (161 against 160 of 400 games, 1.9
times the CPU), 128 to 512 with the flip for the digs no more often at 4
(docs/plunder.md, "How strong")."""

MAX_BUDGET = 10_000
"""The largest budget ``search:BUDGET`` takes."""

_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("isles_search_check", default=None)
"""What each game played on of a search calls first (:func:`checkpoint`), if anything."""


@contextlib.contextmanager
def checkpoint(check: Callable[[], None]) -> Iterator[None]:
    """Within the block, every game a search plays on starts by calling ``check``,
    which may raise to stop the decision at once (a time limit: a decision of a
    large budget takes seconds).

    Parameters
    ----------
    check : callable
        Called with no argument; what it raises ends the search's decision and
        goes to the caller of the block.

    Yields
    ------
    None

    Raises
    ------
    Exception
        Whatever ``check`` raises, from inside the search's decision.

    Notes
    -----
    A context variable holds ``check``, so a block in one thread or task sets it
    for that one only. The time limits of :func:`isles.plunder.tournament` (with
    ``workers=0``) and :func:`isles.plunder.dig_advice` use it: a game whose
    search is stopped so is dropped, and the answer stands on the games finished.
    docs/plunder.md, "Dig now or wait" and "Tournaments" (seed
    ``seeds/003_cfc377110defcf34.txt``).

    References
    ----------
    Python's :mod:`contextvars` (PEP 567).

    Examples
    --------
    >>> from isles.solvers.plunder.policies import play_game
    >>> def stop() -> None:
    ...     raise TimeoutError("the time limit")
    >>> with checkpoint(stop):
    ...     play_game([SearchPolicy(2)] * 2, seed=0)
    Traceback (most recent call last):
    ...
    TimeoutError: the time limit
    """
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)


SEARCH_DEALS = 5_000
"""The search plans once its belief holds at most this many deals (at the default budget
weighing every one of them by the others' public play: POOL); before, it plays as
``threshold:0.5`` does (early on no guess is near a dig, and the others' beliefs would
be costly to rebuild per game played on)."""

FLOOR = 0.25
"""A dig now is weighed only for a guess with at least this probability (below, the card
waits; on the last turn every target left is dug). Was 0.1: against three
``threshold:0.5`` at 4 players (seed 0, paired on the same games) 0.25 won 162 against 160
of games 0 to 399 (where it was chosen) and 242 against 223 of games 400 to 999, at
about two thirds of the CPU a game (docs/plunder.md, "How strong")."""

RULES: tuple[float, ...] = (0.3, 0.5, 0.7, 0.9, 1.0)
"""The ways of waiting weighed: send the card at the first later turn on which my
best guess reaches this probability (on the last turn in any case)."""

MARGIN_WEIGHT = 0.2
"""Utility of a game played on when UTILITY is ``win``: 1 for a win (the seed's
tie-break), plus this much per point of margin over the best of the others (breaks
ties between options that
win equally often; 0.2 won as often as 0.05 at 4 players, with a larger margin:
docs/plunder.md, "How strong")."""

FLIP_RULES: tuple[float, ...] = (0.5, 0.7, 1.0)
"""The flips are weighed by the games played on with every card sent by the best of
these rules."""

UTILITY = "margin"
"""What a game played on is worth: ``margin`` (my points less the best other's, the
default), ``win`` (a win plus MARGIN_WEIGHT a point of that margin) or ``score`` (my
points). ``margin`` against ``win``, paired on the same games: 135 against 136 wins
of 400 at 4 players, margin +0.11 a game; 106 against 95 of 400 at 6, margin +0.26
(docs/plunder.md, "How strong")."""

FLIP_SEARCH_BUDGET = 32
"""The smallest budget at which the search, once it plans, weighs each flip (none, or
each deck with a card left) on ``BUDGET`` games played on of its own; below it, it
flips for its digs (:func:`dig_flip`). With 32 games a flip, against three
``threshold:0.5`` at 4 players (seed 0, 400 games): 144 wins against 135 for the flip
for the digs, margin over the others' mean +0.39 [+0.02, +0.76] a game higher; at 6
players 101 against 106, margin -0.01 [-0.30, +0.27] (docs/plunder.md, "How strong");
with 4 games a flip it played worse than the most informative flip."""

DIG_FLIP = True
"""Whether the search, once it plans with a budget below FLIP_SEARCH_BUDGET, flips for
its digs (:func:`dig_flip`: the flip after whose answers its best guesses are right
most often) rather than for the most information."""

LAST_TURN = True
"""Whether the last turn's cards are chosen exactly over the weighed deals (a
combination of codes, :meth:`_SearchSeat._last_turn`) rather than each target's most
likely code."""

LAST_CODES = 3
"""The most likely codes per target tried on the last turn."""

LAST_COMBOS = 64
"""At most this many combinations tried on the last turn (fewer codes per target)."""

OTHERS = ThresholdPolicy(0.5)
"""How the search plays the others in its games played on (unless their play names
another of CANDIDATES)."""

CANDIDATES: tuple[_SolverPolicy, ...] = (OTHERS, CertainPolicy(), ExpectedPointsPolicy())
"""The policies a player may be modelled by, in the order of preference (ties: the
first). A player whom no deal's OTHERS model replays without a miss is modelled by the
candidate with the fewest misses in its best deal (docs/plunder.md, "The search
policy")."""

CHECK_MODELS = True
"""Whether the search weighs its deals by the others' public play (docs/plunder.md,
"The search policy"): a deal whose models of the others would have flipped or sent
otherwise than the record says is less likely."""

CHECK_DEALS = 100_000
"""A model's flip and crew round are checked once its own belief holds at most this many
deals (before, the check would cost most and tell little). Was 5,000: with the deals
weighed from the first plan and MISS_WEIGHT 0.001, against three ``threshold:0.5`` at
4 players (seed 0, paired on the same games) 173 wins against 160 of games 0 to 399 and
242 against 223 of games 400 to 999 (docs/plunder.md, "How strong")."""

MISS_WEIGHT = 0.001
"""A deal weighs this to the power of its models' misses (a miss: a turn on which a
player's model, with the deal's code, would have played otherwise than they did): near
zero, for a deterministic model makes such a deal impossible (was 0.05, which left a
third of the weight on impossible deals when they were ten times as many)."""

PLAN_WEIGHED = True
"""Whether my guesses in the games played on, once the deals are weighed, come from the
weighed deals (filtered by the answers played on), as the seat itself guesses, rather
than from the belief alone. Measured (docs/plunder.md, "How strong", fourth round;
seed 0, rotated seats, paired on the same games): against ``threshold:0.5`` 144 to
160 wins of 400 at 4 players and 101 to 110 at 6, 38 games turned into wins and 5
into losses over the four matches of 1,200 games."""

POOL = 160
"""The deals are weighed once my belief holds at most ``POOL * BUDGET`` of them (every
one of them, exactly; 5,120 at the default budget, so from the first plan, SEARCH_DEALS
being 5,000; a smaller budget weighs later, and costs less a decision). Was 3 (96 deals
at the default budget), with CHECK_DEALS 5,000 and MISS_WEIGHT 0.05: the figures of
CHECK_DEALS."""

LAST_POOL = 3
"""The last turn's combination of codes is chosen exactly once my belief holds at most
``LAST_POOL * BUDGET`` deals (each deal's game is rebuilt and scored per combination);
before, each target's most likely code is sent."""


_CODES: tuple[Code, ...] = tuple(Code.from_index(i) for i in range(VALUES**3))
"""Every code, by index."""


def _table(view: PlayerView) -> Code:
    """The first three cards turned up: per deck, the card out that no flip brought."""
    if not view.observations:
        return view.clue
    first = view.observations[0].clue
    values = []
    for k, cat in enumerate(CATEGORIES):
        counts = list(view.seen[k])
        for obs, flip in zip(view.observations, view.flips, strict=True):
            if flip is cat:
                counts[obs.clue.values[k]] -= 1
        left = [v for v in range(VALUES) if counts[v] > 0]
        values.append(left[0] if left else first.values[k])
    return Code(*values)


def _decks(seen: Sequence[Sequence[int]], rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """The cards left in each deck, shuffled (an exact draw of their order)."""
    out = []
    for k in range(len(CATEGORIES)):
        cards = np.repeat(np.arange(VALUES), [COPIES - seen[k][v] for v in range(VALUES)])
        out.append(tuple(int(v) for v in rng.permutation(cards)))
    return tuple(out)


def draws(
    belief: Belief, seen: Sequence[Sequence[int]], seed: np.random.SeedSequence, games: int
) -> list[tuple[tuple[Code, ...], tuple[tuple[int, ...], ...]]]:
    """The determinizations of one decision: ``games`` deals drawn exactly from
    ``belief`` (:meth:`Belief.sample`), each with the cards left in the decks shuffled.

    Parameters
    ----------
    belief : Belief
        The deciding seat's belief.
    seen : three sequences of six ints
        Cards of each value out of each deck.
    seed : numpy.random.SeedSequence
        Draw ``g`` comes from its child ``g``.
    games : int

    Returns
    -------
    list of (deal, decks)

    Examples
    --------
    >>> b = Belief.start(2, 0, Code(0, 0, 0))
    >>> (deal, decks), = draws(b, ((1,) + (0,) * 5,) * 3, np.random.SeedSequence(1), 1)
    >>> deal[0], [len(d) for d in decks]
    (Code(island=0, marker=0, trap=0), [17, 17, 17])
    """
    out = []
    for child in seed.spawn(games):
        rng = np.random.default_rng(child)
        deal = belief.sample(rng, 1)[0]
        out.append((deal, _decks(seen, rng)))
    return out


def seen_after(view: PlayerView) -> list[tuple[tuple[int, ...], ...]]:
    """The cards out of each deck after each turn of ``view`` (the table and the flips).

    Examples
    --------
    >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, Code(1, 1, 1), (), (), (), (), ((0,) * 6,) * 3)
    >>> seen_after(v)
    []
    """
    table = _table(view)
    counts = [[0] * VALUES for _ in CATEGORIES]
    for k, v in enumerate(table.values):
        counts[k][v] += 1
    out = []
    for obs, flip in zip(view.observations, view.flips, strict=True):
        if flip is not None:
            k = CATEGORIES.index(flip)
            counts[k][obs.clue.values[k]] += 1
        out.append(tuple(tuple(r) for r in counts))
    return out


class _Model:
    """One opponent with one code, as the search plays them: a solver seat
    (``threshold:0.5``) driven along the public record, and its crew cards per turn.

    With the public senders known (``public``), a turn on which the player sent
    ``k`` cards gets ``k`` cards: the policy's own choice, cut to its ``k`` most
    likely guesses or filled up with them (and a turn on which they sent none gets
    none, and costs no guess); else the policy alone decides."""

    def __init__(
        self,
        players: int,
        player: int,
        code: Code,
        turn_limit: int,
        policy: _SolverPolicy = OTHERS,
    ) -> None:
        self.seat = _SolverSeat(policy, players, player, code)
        self.player = player
        self.code = code
        self.turn_limit = turn_limit
        self.cards: list[tuple[int, CrewCard]] = []
        self.upto = 0
        self.misses = 0
        """Turns on which the policy, with this code, would have flipped or sent
        otherwise than the record says (counted with the public senders only)."""

    def copy(self) -> _Model:
        """A model that goes on alone from this one's turns (its seat and cards copied)."""
        other = copy.copy(self)
        other.seat = copy.copy(self.seat)
        other.cards = list(self.cards)
        return other

    def view_at(
        self, view: PlayerView, i: int, seen_at: list[tuple[tuple[int, ...], ...]]
    ) -> PlayerView:
        """What this player saw in turn ``i``'s crew round."""
        return PlayerView(
            view.players,
            self.player,
            self.code,
            self.turn_limit,
            view.observations[i].clue,
            view.observations[: i + 1],
            view.flips[: i + 1],
            view.senders[: i + 1],
            tuple(c for _, c in self.cards),
            seen_at[i],
        )

    def _check_flip(
        self, view: PlayerView, i: int, before: tuple[Code, tuple[tuple[int, ...], ...]]
    ) -> None:
        """Count a miss when the policy would not have made turn ``i``'s flip (it flips for
        the most information: :func:`best_flip`), ``before``: the clue and cards out then."""
        b = self.seat.belief
        for obs in view.observations[b.turns : i]:
            b = b.observe(obs)
        self.seat.belief = b
        if b.deals > CHECK_DEALS:
            return
        clue, seen = before
        mine = PlayerView(
            view.players, self.player, self.code, self.turn_limit, clue, (), (), (), (), seen
        )
        if best_flip(b, mine) is not view.flips[i]:
            self.misses += 1

    def advance(
        self,
        view: PlayerView,
        seen_at: list[tuple[tuple[int, ...], ...]],
        upto: int,
        public: bool,
        before: Sequence[tuple[Code, tuple[tuple[int, ...], ...]]] = (),
    ) -> None:
        """Replay the turns before ``upto`` (their crew rounds are over); ``before``:
        the clue and the cards out before each turn (to check the flips, when public)."""
        for i in range(self.upto, upto):
            k = view.senders[i].count(self.player) if public else -1
            check = public and CHECK_MODELS and bool(before)
            if check and view.observations[i].active == self.player:
                self._check_flip(view, i, before[i])
            if k == 0:
                b = self.seat.belief
                for obs in view.observations[b.turns : i + 1]:
                    b = b.observe(obs)
                self.seat.belief = b
                if not (check and b.deals <= CHECK_DEALS):
                    continue
            chosen = list(self.seat.crew(self.view_at(view, i, seen_at)))
            if public and len(chosen) != k:
                self.misses += 1
            if k == 0:
                continue
            if k > 0 and len(chosen) != k:
                b = self.seat.belief
                done = {c.target for _, c in self.cards}
                left = [q for q in range(view.players) if q != self.player and q not in done]
                guesses = {q: b.best_code(q) for q in left}
                rank = sorted(left, key=lambda q: (-guesses[q][1], q))
                picked = [t for t, _ in chosen]
                if len(chosen) > k:
                    picked = sorted(picked, key=rank.index)[:k]
                else:
                    picked += [q for q in rank if q not in picked][: k - len(picked)]
                chosen = [(q, guesses[q][0]) for q in sorted(picked, key=rank.index)]
            for target, code in chosen:
                self.cards.append((i, CrewCard(self.player, target, code)))
        self.upto = max(self.upto, upto)


_SHARED: ContextVar[tuple[int, dict[tuple[object, ...], _Model]] | None] = ContextVar(
    "isles_search_models", default=None
)
"""The turns shared by :func:`shared_models` and the models kept, by policy, player,
code and record so far."""


@contextlib.contextmanager
def shared_models(turns: int) -> Iterator[None]:
    """Within the block, opponent models are shared by every replay of the same record.

    A search seat that starts in mid-game models each other player, for each code
    its belief leaves them, from the first turn. The games of one dig advice all
    start from the same record, so their fresh seats would replay the same turns
    with the same codes again and again: within the block, a model new to a
    seat starts from a copy of the one brought up to the same record (the same
    policy, player, code, table, turns, flips and senders) by an earlier seat, and
    goes on alone from there. The answers are the same as without the block (a
    model's turns are replayed one by one, in order, whatever the start).

    Parameters
    ----------
    turns : int
        The turns the replays have in common (the record's): models are kept brought
        up to these at most, the later turns being each game's own.

    Yields
    ------
    None

    Notes
    -----
    A context variable holds the models, so the block covers its own thread or task
    only, and they are freed when it ends. Used by :func:`isles.plunder.dig_advice`
    (docs/plunder.md, "Dig now or wait"; seed ``seeds/003_cfc377110defcf34.txt``).

    References
    ----------
    Memoization (Michie, "'Memo' functions and machine learning", Nature 218, 1968)
    of each model's state at the shared turns, copied before it goes on; the block's
    scope: PEP 567 (:mod:`contextvars`).

    Examples
    --------
    Two replays of one 2-player record (player 1 answered yes to the first clue):

    >>> from isles.models.plunder.record import Observation
    >>> first_turn = Observation(0, Code(1, 2, 3), {1: True})
    >>> seen = tuple(tuple(int(v == k + 1) for v in range(6)) for k in range(3))
    >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, first_turn.clue, (first_turn,), (None,),
    ...                ((),), (), seen)
    >>> with shared_models(1):
    ...     first = Replay(v).model(1, Code(1, 1, 1))
    ...     second = Replay(v).model(1, Code(1, 1, 1))
    >>> first is second, first.upto == second.upto == 1
    (False, True)
    """
    token = _SHARED.set((turns, {}))
    try:
        yield
    finally:
        _SHARED.reset(token)


Overrides = dict[int, tuple[_SolverPolicy, dict[tuple[int, Code], _Model]]]
"""Players modelled otherwise than by OTHERS: their policy and its models by code."""


class Replay:
    """The others' seats along a public record, for deals drawn: each other player
    played by a solver policy from the first turn, their crew cards of the turns so
    far found again (hidden in the chest, fixed by the policy and their code).

    One model per player and code, shared by every deal that gives them that code
    (``models``, kept between decisions: a later turn replays only the new turns).

    Parameters
    ----------
    view : PlayerView
        The position (the public record; ``view.player`` is the seat replaying).
    policy : solver policy, default ``threshold:0.5``
        How the others play.
    models : dict, optional
        The models kept so far.
    table : Code, optional
        The first cards turned up (default: found from ``view.seen`` and the flips).
    crew_round : bool, default False
        Whether ``view`` is in the crew round of its last turn (the players after
        ``view.player`` in that round still choose, by the policy), or after it.
    public : bool, default True
        Whether ``view.senders`` are the real senders: each other player then gets
        as many cards per turn as they sent (else the policy alone decides).
    others : dict, optional
        Players played by another policy than ``policy``: their policy and its
        models kept so far (by player and code).

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> obs = (Observation(0, Code(1, 2, 3), {1: True}),)
    >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, Code(1, 2, 3), obs, (None,), ((),), (),
    ...                ((0, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0)))
    >>> game, seats = Replay(v).game((Code(0, 0, 0), Code(1, 1, 1)), None, {})
    >>> len(game.turns), len(seats)
    (1, 2)
    """

    def __init__(
        self,
        view: PlayerView,
        policy: _SolverPolicy = OTHERS,
        models: dict[tuple[int, Code], _Model] | None = None,
        table: Code | None = None,
        *,
        crew_round: bool = False,
        public: bool = True,
        others: Overrides | None = None,
    ) -> None:
        self.view = view
        self.crew_round = crew_round
        self.public = public
        self.policy = policy
        self.models = {} if models is None else models
        self.others: Overrides = {} if others is None else dict(others)
        self.seen_at = seen_after(view)
        self.table = _table(view) if table is None else table
        counts = [[0] * VALUES for _ in CATEGORIES]
        for k, v in enumerate(self.table.values):
            counts[k][v] += 1
        first = tuple(tuple(r) for r in counts)
        self.before = [
            (self.table if i == 0 else view.observations[i - 1].clue,
             first if i == 0 else self.seen_at[i - 1])
            for i in range(view.turn)
        ]  # fmt: skip

    def model(
        self,
        p: int,
        code: Code,
        policy: _SolverPolicy | None = None,
        models: dict[tuple[int, Code], _Model] | None = None,
    ) -> _Model:
        """Player ``p``'s model with ``code``, kept in its models.

        Parameters
        ----------
        p : int
            The player.
        code : Code
            Their code in the deal.
        policy : solver policy, optional
            The policy to model them by, with ``models`` (its models by player and
            code); default: their policy here (``others``, else ``policy``).
        models : dict, optional

        Returns
        -------
        _Model

        Notes
        -----
        docs/plunder.md, "The search policy" (seed ``seeds/003_cfc377110defcf34.txt``).
        """
        if policy is None or models is None:
            policy, models = self.others.get(p, (self.policy, self.models))
        key = (p, code)
        if key not in models:
            models[key] = self._new_model(p, code, policy)
        return models[key]

    def _new_model(self, p: int, code: Code, policy: _SolverPolicy) -> _Model:
        """A model of ``p`` with ``code``: a copy of the one shared for this record (brought
        up to the shared turns whose crew rounds are over), when :func:`shared_models`
        keeps them."""
        view = self.view
        shared = _SHARED.get()
        if shared is None:
            return _Model(view.players, p, code, view.turn_limit, policy)
        turns, kept = shared
        upto = min(turns, view.turn - 1 if self.crew_round and view.turn else view.turn)
        if upto <= 0:
            return _Model(view.players, p, code, view.turn_limit, policy)
        key = (
            policy.name,
            self.public,
            CHECK_MODELS and bool(self.before),
            view.players,
            view.turn_limit,
            p,
            code,
            self.table,
            view.observations[:upto],
            view.flips[:upto],
            view.senders[:upto],
        )
        if key not in kept:
            model = _Model(view.players, p, code, view.turn_limit, policy)
            model.advance(view, self.seen_at, upto, self.public, self.before)
            kept[key] = model
        return kept[key].copy()

    def misses(self, deal: tuple[Code, ...]) -> list[int]:
        """How often each other player (in player order), with their code in ``deal``,
        would have played otherwise than the record says (their models brought up to the
        position)."""
        return [self.misses_of(deal, p) for p in range(self.view.players) if p != self.view.player]

    def misses_of(
        self,
        deal: tuple[Code, ...],
        p: int,
        policy: _SolverPolicy | None = None,
        models: dict[tuple[int, Code], _Model] | None = None,
    ) -> int:
        """How often player ``p``, with their code in ``deal``, would have played otherwise
        than the record says (their model brought up to the position).

        Parameters
        ----------
        deal : tuple of Code
        p : int
            The player (not ``view.player``).
        policy : solver policy, optional
            The policy to replay them by, with ``models``; default: their policy here.
        models : dict, optional
            The models of ``policy`` kept so far (by player and code).

        Returns
        -------
        int
            The turns on which the model flipped or sent otherwise.

        Examples
        --------
        >>> from isles.models.plunder.record import Observation
        >>> obs = (Observation(0, Code(1, 2, 3), {1: True}),)
        >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, Code(1, 2, 3), obs, (None,), ((),), (),
        ...                ((0, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0)))
        >>> Replay(v).misses_of((Code(0, 0, 0), Code(1, 1, 1)), 1, CANDIDATES[1], {})
        0

        Notes
        -----
        docs/plunder.md, "The search policy" (seed ``seeds/003_cfc377110defcf34.txt``):
        a player is modelled by the first of ``CANDIDATES`` whose best deal misses least.
        """
        model = self.model(p, deal[p], policy, models)
        upto = self.view.turn - 1 if self._later(p) else self.view.turn
        model.advance(self.view, self.seen_at, upto, self.public, self.before)
        return model.misses

    def _later(self, p: int) -> bool:
        """Whether ``p`` still chooses in this turn's crew round (after me)."""
        view, n, t = self.view, self.view.players, self.view.turn
        if not (self.crew_round and t):
            return False
        active = view.observations[-1].active
        return (p - active) % n > (view.player - active) % n

    def game(
        self, deal: tuple[Code, ...], me: Seat | None, mine: dict[int, list[CrewCard]]
    ) -> tuple[GameRecord, list[Seat]]:
        """The game so far under ``deal`` (my cards ``mine`` by turn, the others' as
        replayed) and the seats to play it on (``me`` in my place)."""
        view, n, t = self.view, self.view.players, self.view.turn
        per_turn: dict[int, list[CrewCard]] = {i: list(c) for i, c in mine.items()}
        seats: list[Seat] = []
        if self.crew_round and t:
            active = view.observations[-1].active
            place = {(active + j) % n: j for j in range(n)}
        for p in range(n):
            if p == view.player:
                seats.append(me)  # type: ignore[arg-type]
                continue
            model = self.model(p, deal[p])
            later = self.crew_round and t and place[p] > place[view.player]
            model.advance(view, self.seen_at, t - 1 if later else t, self.public, self.before)
            seat = copy.copy(model.seat)
            for i, card in model.cards:
                per_turn.setdefault(i, []).append(card)
            if later:  # still to choose in this turn's crew round: the policy does
                for target, code in seat.crew(model.view_at(view, t - 1, self.seen_at)):
                    per_turn.setdefault(t - 1, []).append(CrewCard(p, target, code))
            seats.append(seat)
        turns = []
        for i, obs in enumerate(view.observations):
            order = {(obs.active + j) % n: j for j in range(n)}
            crew = sorted(per_turn.get(i, []), key=lambda c: order[c.proposer])
            turns.append(GameTurn(obs, view.flips[i], tuple(crew)))
        return _start_game(view, deal, self.table, turns), seats


class _Pool:
    """My weighed deals at a decision, as arrays: each deal's values (deal, player,
    category), its code indices (deal, player) and its weight."""

    def __init__(self, deals: Sequence[tuple[Code, ...]], weights: npt.NDArray[np.float64]):
        self.values = np.array([[c.values for c in deal] for deal in deals], dtype=np.int64)
        self.index = self.values @ np.array([VALUES * VALUES, VALUES, 1], dtype=np.int64)
        self.weights = np.asarray(weights, dtype=np.float64)


class _Planner:
    """My seat in a game played on: a set first flip, then the most informative ones;
    it sends nothing and notes my best guess and its probability after every turn
    (by the weighed deals of the decision, filtered by the answers since, when
    ``pool`` is given: as the seat itself guesses; else by the belief)."""

    def __init__(
        self,
        belief: Belief,
        targets: tuple[int, ...],
        first: Category | None,
        set_first: bool,
        guesses: list[tuple[int, dict[int, tuple[Code, float]]]],
        pool: _Pool | None = None,
    ) -> None:
        self.belief = belief
        self.targets = targets
        self.first = first
        self.set_first = set_first
        self.guesses = list(guesses)
        self.pool = pool
        self.weights = None if pool is None else pool.weights
        self.rows = None if pool is None else np.arange(len(pool.weights))
        """The deals of the pool still in play (no answer since struck them out)."""
        self.seen = belief.turns
        """Observations the pool's weights have been filtered by."""

    def _pool_guesses(self, view: PlayerView) -> dict[int, tuple[Code, float]]:
        """My best guess on each target and its probability by the pool's weights, the
        deals that disagree with an answer since the decision struck out."""
        pool, w, rows = self.pool, self.weights, self.rows
        assert pool is not None and w is not None and rows is not None
        for obs in view.observations[self.seen :]:
            shown = np.array(obs.clue.values, dtype=np.int64)
            yes = (pool.values[rows] == shown).any(axis=2)
            keep = np.ones(len(rows), dtype=bool)
            for p, a in obs.answers.items():
                keep &= yes[:, p] == a
            rows, w = rows[keep], w[keep]
        self.seen = len(view.observations)
        self.weights, self.rows = w, rows
        total = float(w.sum())
        out = {}
        for q in self.targets:
            mass = np.round(np.bincount(pool.index[rows, q], w, VALUES**3) / total, 12)
            best = int(np.argmax(mass))
            out[q] = (_CODES[best], min(1.0, float(mass[best])))
        return out

    def _update(self, view: PlayerView) -> Belief:
        for obs in view.observations[self.belief.turns :]:
            self.belief = self.belief.observe(obs)
        return self.belief

    def flip(self, view: PlayerView) -> Category | None:
        if self.set_first:
            self.set_first = False
            return self.first
        return best_flip(self._update(view), view)

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        if self.pool is not None:
            self.guesses.append((view.turn - 1, self._pool_guesses(view)))
            return []
        b = self._update(view)
        guesses = {}
        for q in self.targets:
            code, count = b.best_code(q)
            guesses[q] = (code, count / b.deals)
        self.guesses.append((view.turn - 1, guesses))
        return []


def _score(
    deal: Sequence[Code], chest: Sequence[CrewCard], me: int
) -> tuple[float, tuple[int, ...]]:
    """The utility of a finished game to ``me`` (a win, plus a little per point of margin)
    and the totals, by the seed's scoring: as :func:`isles.models.plunder.scoring.score_game`."""
    n = len(deal)
    digs = [0] * n
    dug = [0] * n
    first: list[int | None] = [None] * n
    played: set[tuple[int, int]] = set()
    for k, card in enumerate(chest):
        key = (card.proposer, card.target)
        if key in played:
            continue
        played.add(key)
        if deal[card.target] == card.code:
            dug[card.proposer] += dig_points(digs[card.target])
            digs[card.target] += 1
            if first[card.proposer] is None:
                first[card.proposer] = k
    total = tuple(treasure_left(digs[p]) + dug[p] for p in range(n))
    best = max(total)
    tied = [p for p in range(n) if total[p] == best]
    diggers = [p for p in tied if first[p] is not None]
    if len(tied) > 1 and diggers:
        tied = [min(diggers, key=lambda p: first[p] or 0)]
    win = 1.0 if me in tied else 0.0
    other = max(total[p] for p in range(n) if p != me)
    if UTILITY == "score":
        return float(total[me]), total
    if UTILITY == "margin":
        return float(total[me] - other), total
    return win + MARGIN_WEIGHT * (total[me] - other), total


@dataclass
class _Played:
    """One game played on: the deal, the turns (others' cards in), my guesses per turn."""

    deal: tuple[Code, ...]
    turns: tuple[GameTurn, ...]
    guesses: list[tuple[int, dict[int, tuple[Code, float]]]]


def _plan_turn(played: _Played, q: int, start: int, rule: float | None) -> int | None:
    """The turn at which the plan sends my card on ``q``: ``rule`` None, at ``start``;
    else the first turn from ``start`` on with my guess at ``rule`` or more, else the
    last turn played (None: the game ended before ``start``)."""
    last = None
    for turn, guesses in played.guesses:
        if turn < start:
            continue
        if rule is None or guesses[q][1] >= rule:
            return turn
        last = turn
    return last


def _chest(played: _Played, me: int, plan: dict[int, int | None], n: int) -> list[CrewCard]:
    """The chest of a game played on with my cards sent at the plan's turns."""
    guess_at = dict(played.guesses)
    chest: list[CrewCard] = []
    for i, turn in enumerate(played.turns):
        mine = [
            CrewCard(me, q, guess_at[i][q][0])
            for q, at in plan.items()
            if at == i and i in guess_at
        ]
        if not mine:
            chest.extend(turn.crew)
            continue
        order = {(turn.observation.active + j) % n: j for j in range(n)}
        cards = sorted(turn.crew, key=lambda c: order[c.proposer])
        before = [c for c in cards if order[c.proposer] < order[me]]
        after = [c for c in cards if order[c.proposer] >= order[me]]
        chest.extend(before + mine + after)
    return chest


def plan_values(
    played: Sequence[_Played],
    me: int,
    targets: Sequence[int],
    start: int,
    options: dict[int, Sequence[float | None]],
    default: float = 0.5,
) -> dict[tuple[int, float | None], float]:
    """The mean utility of each option per target over games played on.

    Option ``(q, rule)``: my card on ``q`` sent by ``rule`` (None: at turn ``start``;
    a probability: the first turn from ``start + 1`` on with my guess there),
    every other target by ``default`` from ``start`` on. Common random numbers:
    every option is scored on the same games.

    Parameters
    ----------
    played : sequence of games played on
    me : int
    targets : sequence of int
        My targets left.
    start : int
        The turn of the decision (my cards can go in its crew round).
    options : dict
        Per target, the rules weighed.
    default : float, default 0.5

    Returns
    -------
    dict
        ``(q, rule) -> mean utility``.
    """
    out: dict[tuple[int, float | None], float] = {}
    for q, rules in options.items():
        for rule in rules:
            total = 0.0
            for game in played:
                n = len(game.deal)
                plan = {r: _plan_turn(game, r, start, default) for r in targets if r != q}
                plan[q] = _plan_turn(game, q, start if rule is None else start + 1, rule)
                total += _score(game.deal, _chest(game, me, plan, n), me)[0]
            out[q, rule] = total / max(1, len(played))
    return out


def _uniform_value(
    played: Sequence[_Played], me: int, targets: Sequence[int], start: int, rule: float
) -> float:
    """The mean utility of sending every card by one rule from turn ``start`` on."""
    total = 0.0
    for game in played:
        plan = {q: _plan_turn(game, q, start, rule) for q in targets}
        total += _score(game.deal, _chest(game, me, plan, len(game.deal)), me)[0]
    return total / max(1, len(played))


def dig_flip(
    deals: Sequence[tuple[Code, ...]],
    weights: npt.NDArray[np.float64],
    view: PlayerView,
    default: Category | None = None,
) -> Category | None:
    """The flip after whose answers my best guesses are right most often: the expected
    sum, over my targets left, of the probability of my best guess on each.

    Parameters
    ----------
    deals : sequence of deals
        My possible deals.
    weights : numpy array
        Their probabilities (summing to 1).
    view : PlayerView
        My turn, before the flip.
    default : Category or None
        Kept when it is among the best (ties).

    Returns
    -------
    Category or None

    Examples
    --------
    >>> b = Belief.start(2, 0, Code(0, 0, 0))
    >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, Code(0, 0, 0), (), (), (), (),
    ...                ((1,) + (0,) * 5,) * 3)
    >>> deals = b.deals_at(range(b.deals))
    >>> dig_flip(deals, np.full(len(deals), 1 / len(deals)), v)
    <Category.ISLAND: 'island'>

    Notes
    -----
    docs/plunder.md, "The search policy" (seed ``seeds/003_cfc377110defcf34.txt``):
    a flip's card is drawn by the copies left in its deck; the answers of every
    other player follow from the deal and the clue. Information is valued by the
    decision it serves (my best guesses), not by its bits.

    References
    ----------
    R. A. Howard, "Information Value Theory", IEEE Trans. Syst. Sci. Cybern. 2(1),
    1966, 22-26.
    """
    n, me = view.players, view.player
    values = np.array([[c.values for c in deal] for deal in deals], dtype=np.int64)
    index = values[:, :, 0] * VALUES * VALUES + values[:, :, 1] * VALUES + values[:, :, 2]
    others = [p for p in range(n) if p != me]
    targets = view.targets_left()
    size = VALUES**3

    def worth(clue: Code) -> float:
        shown = np.array(clue.values, dtype=np.int64)
        yes = (values[:, others, :] == shown).any(axis=2)
        pattern = yes @ (1 << np.arange(len(others), dtype=np.int64))
        total = 0.0
        for q in targets:
            mass = np.bincount(pattern * size + index[:, q], weights, (1 << len(others)) * size)
            total += float(mass.reshape(-1, size).max(axis=1).sum())
        return total

    options: dict[Category | None, float] = {None: worth(view.clue)}
    for k, cat in enumerate(CATEGORIES):
        left = [COPIES - view.seen[k][v] for v in range(VALUES)]
        if sum(left):
            options[cat] = sum(
                n_v * worth(view.clue.replace(cat, v)) for v, n_v in enumerate(left) if n_v
            ) / sum(left)
    top = max(options.values())
    if options.get(default, -1.0) >= top - 1e-9:
        return default
    return next(c for c, v in options.items() if v >= top - 1e-9)


class _SearchSeat:
    """A seat that plans: exact belief, opponent models, games played on per decision."""

    def __init__(
        self, policy: SearchPolicy, players: int, player: int, code: Code, rng: np.random.Generator
    ) -> None:
        self.policy = policy
        self.players = players
        self.player = player
        self.code = code
        self.rng = rng
        self.belief = Belief.start(players, player, code)
        self.models: dict[tuple[int, Code], _Model] = {}
        self.alt_models: dict[str, dict[tuple[int, Code], _Model]] = {
            c.name: {} for c in CANDIDATES[1:]
        }
        """The models of the other candidate policies, by policy name."""
        self.others: dict[int, _SolverPolicy] = {}
        """The players modelled by another candidate than OTHERS (found by their play)."""
        self._pool_key: tuple[int, bool] | None = None
        self._pool: tuple[list[tuple[Code, ...]], npt.NDArray[np.float64]] = ([], np.ones(0))
        self._arrays: tuple[tuple[int, bool] | None, _Pool | None] = (None, None)
        """The weighed deals as arrays, for the posterior of that key."""
        self.last_values: dict[tuple[int, float | None], float] = {}
        """The option values of the last crew decision searched (for tests and study)."""
        self.last_games: list[tuple[tuple[Code, ...], tuple[tuple[int, ...], ...]]] = []
        """The deals and decks of the last games played on (for tests and study)."""
        self.last_flips: dict[Category | None, float] = {}
        """The value of each flip at the last flip searched (for tests and study)."""
        self.last_guesses: dict[int, tuple[Code, float]] = {}
        """My best guesses and their probabilities at the last crew decision weighed (for
        tests and study)."""

    # -- the position ------------------------------------------------------------

    def _update(self, view: PlayerView) -> Belief:
        self.belief = follow_belief(self.belief, view)
        return self.belief

    def _my_cards_by_turn(self, view: PlayerView) -> dict[int, list[CrewCard]]:
        out: dict[int, list[CrewCard]] = {}
        mine = iter(view.my_cards)
        for i, senders in enumerate(view.senders):
            for p in senders:
                if p == view.player:
                    out.setdefault(i, []).append(next(mine))
        return out

    def _prune(self, belief: Belief) -> None:
        """Forget opponent models whose code my belief rules out (bounded memory)."""
        counts = {p: belief.code_counts(p) for p in belief.opponents}

        def keep(models: dict[tuple[int, Code], _Model]) -> dict[tuple[int, Code], _Model]:
            return {k: m for k, m in models.items() if counts[k[0]][k[1].index] > 0}

        self.models = keep(self.models)
        self.alt_models = {name: keep(models) for name, models in self.alt_models.items()}

    def _overrides(self) -> Overrides:
        """The players modelled by another candidate, with that candidate's models."""
        return {p: (c, self.alt_models[c.name]) for p, c in self.others.items()}

    def _replay(self, view: PlayerView, crew_round: bool = False) -> Replay:
        """The others along the record, each by the policy their play names so far."""
        return Replay(view, OTHERS, self.models, crew_round=crew_round, others=self._overrides())

    def _play_on(
        self, view: PlayerView, first: Category | None, games: int, flip: bool
    ) -> list[_Played]:
        """``games`` games played on from the position (deals drawn from my belief);
        ``flip``: on my turn before the flip (``first`` is the flip to play), else
        after the turn's answers (my guesses now are the first noted)."""
        belief = self._update(view)
        self._prune(belief)
        ss = np.random.SeedSequence(int(self.rng.integers(2**63)))
        mine = self._my_cards_by_turn(view)
        targets = view.targets_left()
        now: list[tuple[int, dict[int, tuple[Code, float]]]] = []
        if not flip:
            guesses = {}
            for q in targets:
                code, count = belief.best_code(q)
                guesses[q] = (code, count / belief.deals)
            now = [(view.turn - 1, guesses)]
        replay = self._replay(view, crew_round=not flip)
        out = []
        drawn = draws(belief, view.seen, ss, games)
        pool = None
        if self._weighing(belief):
            deals, weights = self._posterior(view, replay)
            pick = self.rng.choice(len(deals), size=games, p=weights)
            drawn = [(deals[int(r)], decks) for r, (_, decks) in zip(pick, drawn, strict=True)]
            if not flip:
                now = [(view.turn - 1, self._guesses(view, deals, weights))]
            if PLAN_WEIGHED:
                key, pool = self._arrays
                if key != self._pool_key or pool is None:
                    pool = _Pool(deals, weights)
                    self._arrays = (self._pool_key, pool)
        self.last_games = drawn
        check = _CHECK.get()
        for deal, decks in drawn:
            if check is not None:
                check()
            planner = _Planner(belief, targets, first, flip, now, pool)
            start, seats = replay.game(deal, planner, mine)
            played = play_turns(start, decks, seats)
            out.append(_Played(deal, played, planner.guesses))
        return out

    def _weighing(self, belief: Belief) -> bool:
        """Whether my deals are few enough to weigh them all by the others' play."""
        return CHECK_MODELS and belief.deals <= POOL * self.policy.budget

    def _posterior(
        self, view: PlayerView, replay: Replay
    ) -> tuple[list[tuple[Code, ...]], npt.NDArray[np.float64]]:
        """Deals from my belief weighed by how well the others' models replay the record:
        every deal when they are few, else a draw; their weights, summing to 1."""
        belief = self.belief
        key = (view.turn, replay.crew_round)
        if self._pool_key == key:
            return self._pool
        deals = belief.deals_at(range(belief.deals))
        others = [p for p in range(view.players) if p != view.player]
        columns = []
        for p in others:
            # Each player by the first candidate whose best deal misses least (OTHERS
            # first: against OTHERS the true deal never misses, and nothing else runs).
            best: tuple[int, _SolverPolicy, list[int]] | None = None
            for c in CANDIDATES:
                models = self.models if c == OTHERS else self.alt_models[c.name]
                by_code: dict[Code, int] = {}
                for d in deals:
                    if d[p] not in by_code:
                        by_code[d[p]] = replay.misses_of(d, p, c, models)
                col = [by_code[d[p]] for d in deals]
                if best is None or min(col) < best[0]:
                    best = (min(col), c, col)
                if best[0] == 0:
                    break
            assert best is not None
            if best[1] == OTHERS:
                self.others.pop(p, None)
            else:
                self.others[p] = best[1]
            columns.append(best[2])
        replay.others = self._overrides()
        misses = np.array(columns, dtype=np.float64).T.reshape(len(deals), len(others))
        # A player whom no deal's model replays is not playing as modelled: not weighed.
        trusted = misses.min(axis=0) == 0
        weights = MISS_WEIGHT ** misses[:, trusted].sum(axis=1)
        self._pool_key, self._pool = key, (deals, weights / weights.sum())
        return self._pool

    @staticmethod
    def _guesses(
        view: PlayerView, deals: Sequence[tuple[Code, ...]], weights: npt.NDArray[np.float64]
    ) -> dict[int, tuple[Code, float]]:
        """My best guess on each target left and its probability, by the weighed deals
        (ties: the lowest code index)."""
        out = {}
        for q in view.targets_left():
            mass: dict[Code, float] = {}
            for deal, w in zip(deals, weights, strict=True):
                mass[deal[q]] = mass.get(deal[q], 0.0) + float(w)
            code = min(mass, key=lambda c: (-round(mass[c], 12), c.index))
            out[q] = (code, min(1.0, mass[code]))
        return out

    def _last_turn(
        self, view: PlayerView, replay: Replay, targets: Sequence[int]
    ) -> list[tuple[int, Code]]:
        """My cards on the last turn, every target left dug: the combination of codes
        (among each target's most likely ones) whose games end best for me, exactly over
        the weighed deals (the others' cards are fixed by their models: nothing is left
        to chance). Ties: the most likely codes."""
        deals, weights = self._posterior(view, replay)
        me, n = view.player, view.players
        mine = self._my_cards_by_turn(view)
        chests = []
        for deal in deals:
            game, _ = replay.game(deal, None, mine)
            turns = game.turns
            order = {(turns[-1].observation.active + j) % n: j for j in range(n)}
            head = [c for x in turns[:-1] for c in x.crew]
            last = turns[-1].crew
            chests.append(
                (
                    head + [c for c in last if order[c.proposer] < order[me]],
                    [c for c in last if order[c.proposer] > order[me]],
                )
            )
        ranked = {}
        for q in targets:
            mass: dict[Code, float] = {}
            for deal, w in zip(deals, weights, strict=True):
                mass[deal[q]] = mass.get(deal[q], 0.0) + float(w)
            ranked[q] = sorted(mass, key=lambda c: (-round(mass[c], 12), c.index))
        k = LAST_CODES
        while k > 1 and np.prod([min(k, len(ranked[q])) for q in targets]) > LAST_COMBOS:
            k -= 1
        best, value = None, -np.inf
        for combo in itertools.product(*(ranked[q][:k] for q in targets)):
            cards = [CrewCard(me, q, c) for q, c in zip(targets, combo, strict=True)]
            v = sum(
                float(w) * _score(deal, before + cards + after, me)[0]
                for deal, w, (before, after) in zip(deals, weights, chests, strict=True)
            )
            if v > value + 1e-12:
                best, value = combo, v
        assert best is not None
        return list(zip(targets, best, strict=True))

    # -- decisions ---------------------------------------------------------------

    def _searching(self, view: PlayerView) -> bool:
        return self._update(view).deals <= SEARCH_DEALS

    def flip(self, view: PlayerView) -> Category | None:
        belief = self._update(view)
        if not self._searching(view) or self.policy.budget < FLIP_SEARCH_BUDGET:
            if not DIG_FLIP or not self._searching(view):
                return best_flip(belief, view)
            if self._weighing(belief):
                self._prune(belief)
                deals, weights = self._posterior(view, self._replay(view))
            else:
                deals = belief.deals_at(range(belief.deals))
                weights = np.full(len(deals), 1.0 / len(deals))
            return dig_flip(deals, weights, view, best_flip(belief, view))
        options: list[Category | None] = [None]
        options += [c for k, c in enumerate(CATEGORIES) if sum(view.seen[k]) < COPIES * VALUES]
        games = self.policy.budget
        best, value = None, -np.inf
        self.last_flips = {}
        ss = int(self.rng.integers(2**63))
        targets = view.targets_left()
        for option in options:
            # the same games (deals, decks) for every option: common random numbers
            self.rng = np.random.default_rng(ss)
            played = self._play_on(view, option, games, True)
            v = max(_uniform_value(played, view.player, targets, view.turn, r) for r in FLIP_RULES)
            self.last_flips[option] = v
            if v > value + 1e-12:
                best, value = option, v
        self.rng = np.random.default_rng(ss + 1)
        return best

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        belief = self._update(view)
        targets = view.targets_left()
        now = {q: belief.best_code(q) for q in targets}
        prob = {q: count / belief.deals for q, (_, count) in now.items()}
        if self._weighing(belief) and self._searching(view):
            self._prune(belief)
            replay = self._replay(view, crew_round=True)
            guesses = self._guesses(view, *self._posterior(view, replay))
            self.last_guesses = guesses
            now = {q: (code, 0) for q, (code, _) in guesses.items()}
            prob = {q: 1.0 if prob[q] >= 1 else p for q, (_, p) in guesses.items()}
        if view.turns_left == 0:
            exact = belief.deals <= LAST_POOL * self.policy.budget
            if LAST_TURN and exact and self._weighing(belief) and self._searching(view) and targets:
                return self._last_turn(view, replay, targets)
            return [(q, now[q][0]) for q in targets]
        out = [(q, now[q][0]) for q in targets if prob[q] >= 1]
        weigh = [q for q in targets if FLOOR <= prob[q] < 1]
        if not weigh:
            return out
        if not self._searching(view):
            return out + [(q, now[q][0]) for q in weigh if prob[q] >= OTHERS.threshold]
        played = self._play_on(view, None, self.policy.budget, False)
        start = view.turn - 1
        rules: dict[int, Sequence[float | None]] = {q: (None, *RULES) for q in weigh}
        vals = plan_values(played, view.player, targets, start, rules)
        self.last_values = vals
        for q in weigh:
            wait = max(vals[q, r] for r in RULES)
            if vals[q, None] >= wait:
                out.append((q, now[q][0]))
        return out


def _start_game(
    view: PlayerView, deal: tuple[Code, ...], table: Code, turns: list[GameTurn]
) -> GameRecord:
    first = view.observations[0].active if view.observations else view.player
    return GameRecord(view.players, deal, table, tuple(turns), view.turn_limit, None, first)


@register
@dataclass(frozen=True)
class SearchPolicy(BuiltinPolicy):
    """Plans by determinized rollouts: ``BUDGET`` games played on per decision from deals
    drawn exactly from its belief (weighed by the others' public play once they are at
    most ``POOL * BUDGET``), the others as ``threshold:0.5`` (or as the candidate of
    ``CANDIDATES`` their play names).

    Examples
    --------
    >>> SearchPolicy().name, SearchPolicy(4).name
    ('search', 'search:4')
    """

    key: ClassVar[str] = "search"
    summary: ClassVar[str] = (
        "plans: plays the game on from deals drawn from its belief, the others as "
        "threshold:0.5 (or the policy their play names), BUDGET games a decision, "
        f"BUDGET for each flip (default {DEFAULT_BUDGET})"
    )
    argument: ClassVar[str | None] = "BUDGET"

    budget: int = DEFAULT_BUDGET

    @classmethod
    def from_argument(cls, argument: str | None, text: str, where: str) -> Policy:
        """``search`` (DEFAULT_BUDGET) or ``search:BUDGET``, ``BUDGET`` in 1..MAX_BUDGET
        (``search:`` is refused)."""
        if argument is None:
            return cls()
        if not (argument.isascii() and argument.isdigit()) or not 1 <= int(argument) <= MAX_BUDGET:
            raise InvalidInput(
                where, text, f"search:BUDGET with BUDGET an integer in 1..{MAX_BUDGET}"
            )
        return cls(int(argument))

    def __post_init__(self) -> None:
        b = self.budget
        if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= MAX_BUDGET:
            raise InvalidInput("budget", b, f"an integer in 1..{MAX_BUDGET}")

    @property
    def name(self) -> str:
        """``search`` or ``search:BUDGET``."""
        return "search" if self.budget == DEFAULT_BUDGET else f"search:{self.budget}"

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        """A new seat for one game, its games played on drawn from ``rng``."""
        return _SearchSeat(self, players, player, code, rng)
