"""Plunder: the other players' seats along a public record, replayed for a deal drawn.

Implements docs/plunder.md ("The search policy", "Dig now or wait"; seed
``seeds/003_cfc377110defcf34.txt``): each other player played by a solver policy
from the first turn with the code a deal gives them, their hidden crew cards of the
turns so far found again, and how often such a model would have played otherwise than
the record says (its misses), one model per player and code, shared between replays.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Sequence
from contextvars import ContextVar

from isles.models.plunder.codes import CATEGORIES, VALUES, Code
from isles.models.plunder.game import GameRecord, GameTurn
from isles.models.plunder.play import PlayerView, Seat
from isles.models.plunder.scoring import CrewCard
from isles.solvers.plunder.policies import SolverPolicy, SolverSeat, ThresholdPolicy, best_flip

__all__ = [
    "CHECK_DEALS",
    "CHECK_MODELS",
    "OTHERS",
    "Model",
    "Overrides",
    "Replay",
    "seen_after",
    "shared_models",
]


OTHERS = ThresholdPolicy(0.5)
"""How the search plays the others in its games played on (unless their play names
another of the candidates, :data:`isles.solvers.plunder.search.CANDIDATES`)."""


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


class Model:
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
        policy: SolverPolicy = OTHERS,
    ) -> None:
        self.seat = SolverSeat(policy, players, player, code)
        self.player = player
        self.code = code
        self.turn_limit = turn_limit
        self.cards: list[tuple[int, CrewCard]] = []
        self.upto = 0
        self.misses = 0
        """Turns on which the policy, with this code, would have flipped or sent
        otherwise than the record says (counted with the public senders only)."""

    def copy(self) -> Model:
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


_SHARED: ContextVar[tuple[int, dict[tuple[object, ...], Model]] | None] = ContextVar(
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


Overrides = dict[int, tuple[SolverPolicy, dict[tuple[int, Code], Model]]]
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
        policy: SolverPolicy = OTHERS,
        models: dict[tuple[int, Code], Model] | None = None,
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
        policy: SolverPolicy | None = None,
        models: dict[tuple[int, Code], Model] | None = None,
    ) -> Model:
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
        Model

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

    def _new_model(self, p: int, code: Code, policy: SolverPolicy) -> Model:
        """A model of ``p`` with ``code``: a copy of the one shared for this record (brought
        up to the shared turns whose crew rounds are over), when :func:`shared_models`
        keeps them."""
        view = self.view
        shared = _SHARED.get()
        if shared is None:
            return Model(view.players, p, code, view.turn_limit, policy)
        turns, kept = shared
        upto = min(turns, view.turn - 1 if self.crew_round and view.turn else view.turn)
        if upto <= 0:
            return Model(view.players, p, code, view.turn_limit, policy)
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
            model = Model(view.players, p, code, view.turn_limit, policy)
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
        policy: SolverPolicy | None = None,
        models: dict[tuple[int, Code], Model] | None = None,
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
        >>> from isles.solvers.plunder.policies import CertainPolicy
        >>> Replay(v).misses_of((Code(0, 0, 0), Code(1, 1, 1)), 1, CertainPolicy(), {})
        0

        Notes
        -----
        docs/plunder.md, "The search policy" (seed ``seeds/003_cfc377110defcf34.txt``):
        a player is modelled by the first of the search's ``CANDIDATES`` whose best deal
        misses least.
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


def _start_game(
    view: PlayerView, deal: tuple[Code, ...], table: Code, turns: list[GameTurn]
) -> GameRecord:
    first = view.observations[0].active if view.observations else view.player
    return GameRecord(view.players, deal, table, tuple(turns), view.turn_limit, None, first)
