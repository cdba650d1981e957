"""Plunder: the games a search plays on from a decision, and what each is worth.

Implements docs/plunder.md ("The search policy"; seed ``seeds/003_cfc377110defcf34.txt``):
deals drawn exactly from a belief with the decks shuffled (determinizations), my seat
in those games (a set first flip, then my guesses after every turn), each plan of when
to send my cards scored by the seed's scoring on the same games (common random
numbers), and the flip whose answers make my guesses right most often.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Category, Code
from isles.models.plunder.game import GameTurn
from isles.models.plunder.play import PlayerView
from isles.models.plunder.scoring import CrewCard, dig_points, treasure_left
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.policies import best_flip

__all__ = [
    "MARGIN_WEIGHT",
    "UTILITY",
    "Planner",
    "Played",
    "Pool",
    "dig_flip",
    "draws",
    "plan_values",
    "score",
    "uniform_value",
]


MARGIN_WEIGHT = 0.2
"""Utility of a game played on when UTILITY is ``win``: 1 for a win (the seed's
tie-break), plus this much per point of margin over the best of the others (breaks
ties between options that
win equally often; 0.2 won as often as 0.05 at 4 players, with a larger margin:
docs/plunder.md, "How strong")."""


UTILITY = "margin"
"""What a game played on is worth: ``margin`` (my points less the best other's, the
default), ``win`` (a win plus MARGIN_WEIGHT a point of that margin) or ``score`` (my
points). ``margin`` against ``win``, paired on the same games: 135 against 136 wins
of 400 at 4 players, margin +0.11 a game; 106 against 95 of 400 at 6, margin +0.26
(docs/plunder.md, "How strong")."""


_CODES: tuple[Code, ...] = tuple(Code.from_index(i) for i in range(VALUES**3))
"""Every code, by index."""


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


class Pool:
    """My weighed deals at a decision, as arrays: each deal's values (deal, player,
    category), its code indices (deal, player) and its weight."""

    def __init__(self, deals: Sequence[tuple[Code, ...]], weights: npt.NDArray[np.float64]):
        self.values = np.array([[c.values for c in deal] for deal in deals], dtype=np.int64)
        self.index = self.values @ np.array([VALUES * VALUES, VALUES, 1], dtype=np.int64)
        self.weights = np.asarray(weights, dtype=np.float64)


class Planner:
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
        pool: Pool | None = None,
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


def score(
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
class Played:
    """One game played on: the deal, the turns (others' cards in), my guesses per turn."""

    deal: tuple[Code, ...]
    turns: tuple[GameTurn, ...]
    guesses: list[tuple[int, dict[int, tuple[Code, float]]]]


def _plan_turn(played: Played, q: int, start: int, rule: float | None) -> int | None:
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


def _chest(played: Played, me: int, plan: dict[int, int | None], n: int) -> list[CrewCard]:
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
    played: Sequence[Played],
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
                total += score(game.deal, _chest(game, me, plan, n), me)[0]
            out[q, rule] = total / max(1, len(played))
    return out


def uniform_value(
    played: Sequence[Played], me: int, targets: Sequence[int], start: int, rule: float
) -> float:
    """The mean utility of sending every card by one rule from turn ``start`` on."""
    total = 0.0
    for game in played:
        plan = {q: _plan_turn(game, q, start, rule) for q in targets}
        total += score(game.deal, _chest(game, me, plan, len(game.deal)), me)[0]
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
