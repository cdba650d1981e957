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
:func:`~isles.solvers.plunder.playout.dig_flip`).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Category, Code
from isles.models.plunder.play import PlayerView, Policy, Seat, play_turns
from isles.models.plunder.scoring import CrewCard
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.playout import (
    Planner,
    Played,
    Pool,
    dig_flip,
    draws,
    plan_values,
    score,
    uniform_value,
)
from isles.solvers.plunder.policies import (
    CertainPolicy,
    ExpectedPointsPolicy,
    SolverPolicy,
    best_flip,
    follow_belief,
)
from isles.solvers.plunder.registry import BuiltinPolicy, register
from isles.solvers.plunder.replay import CHECK_MODELS, OTHERS, Model, Overrides, Replay

__all__ = [
    "CANDIDATES",
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "RULES",
    "SEARCH_DEALS",
    "SearchPolicy",
    "checkpoint",
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
    >>> from isles.solvers.plunder.registry import play_game
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


FLIP_RULES: tuple[float, ...] = (0.5, 0.7, 1.0)
"""The flips are weighed by the games played on with every card sent by the best of
these rules."""


FLIP_SEARCH_BUDGET = 32
"""The smallest budget at which the search, once it plans, weighs each flip (none, or
each deck with a card left) on ``BUDGET`` games played on of its own; below it, it
flips for its digs (:func:`~isles.solvers.plunder.playout.dig_flip`). With 32 games a
flip, against three
``threshold:0.5`` at 4 players (seed 0, 400 games): 144 wins against 135 for the flip
for the digs, margin over the others' mean +0.39 [+0.02, +0.76] a game higher; at 6
players 101 against 106, margin -0.01 [-0.30, +0.27] (docs/plunder.md, "How strong");
with 4 games a flip it played worse than the most informative flip."""


DIG_FLIP = True
"""Whether the search, once it plans with a budget below FLIP_SEARCH_BUDGET, flips for
its digs (:func:`~isles.solvers.plunder.playout.dig_flip`: the flip after whose answers
its best guesses are right most often) rather than for the most information."""


LAST_TURN = True
"""Whether the last turn's cards are chosen exactly over the weighed deals (a
combination of codes, ``_SearchSeat._last_turn``) rather than each target's most
likely code."""


LAST_CODES = 3
"""The most likely codes per target tried on the last turn."""


LAST_COMBOS = 64
"""At most this many combinations tried on the last turn (fewer codes per target)."""


CANDIDATES: tuple[SolverPolicy, ...] = (OTHERS, CertainPolicy(), ExpectedPointsPolicy())
"""The policies a player may be modelled by, in the order of preference (ties: the
first). A player whom no deal's OTHERS model replays without a miss is modelled by the
candidate with the fewest misses in its best deal (docs/plunder.md, "The search
policy")."""


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
        self.models: dict[tuple[int, Code], Model] = {}
        self.alt_models: dict[str, dict[tuple[int, Code], Model]] = {
            c.name: {} for c in CANDIDATES[1:]
        }
        """The models of the other candidate policies, by policy name."""
        self.others: dict[int, SolverPolicy] = {}
        """The players modelled by another candidate than OTHERS (found by their play)."""
        self._pool_key: tuple[int, bool] | None = None
        self._pool: tuple[list[tuple[Code, ...]], npt.NDArray[np.float64]] = ([], np.ones(0))
        self._arrays: tuple[tuple[int, bool] | None, Pool | None] = (None, None)
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

        def keep(models: dict[tuple[int, Code], Model]) -> dict[tuple[int, Code], Model]:
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
    ) -> list[Played]:
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
                    pool = Pool(deals, weights)
                    self._arrays = (self._pool_key, pool)
        self.last_games = drawn
        check = _CHECK.get()
        for deal, decks in drawn:
            if check is not None:
                check()
            planner = Planner(belief, targets, first, flip, now, pool)
            start, seats = replay.game(deal, planner, mine)
            played = play_turns(start, decks, seats)
            out.append(Played(deal, played, planner.guesses))
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
            best: tuple[int, SolverPolicy, list[int]] | None = None
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
                float(w) * score(deal, before + cards + after, me)[0]
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
            v = max(uniform_value(played, view.player, targets, view.turn, r) for r in FLIP_RULES)
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
