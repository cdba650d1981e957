"""One car of a race, played: its cards roll by roll and its policy's turn, over many games.

Implements docs/rally.md ("The race"; seed 002_8684547a41c0941c.txt): a car's
state (hex, reserve, hand with a sixth pile of gold cards still to name) over a
batch of games at once, each roll's income and the 7-card rule, and the turn its
own solved policy (:class:`~isles.solvers.rally.game.Game`) plays. The Monte Carlo
(:mod:`~isles.solvers.rally.race`) plays it on games, the exact race
(:mod:`~isles.solvers.rally.race_exact`) on the joint chain's states.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from isles.models.rally.rules import HAND_LIMIT, ROLLS
from isles.solvers.rally.game import NR, Game, wild_best
from isles.solvers.rally.income_plan import IncomePlan

__all__ = ["CarState", "ExitRolls", "policy_of"]


class ExitRolls(Protocol):
    """Where a car's desert exit rolls come from: a NumPy generator, or fixed rolls."""

    def random(self, size: int) -> npt.NDArray[np.float64]:
        """``size`` uniform numbers in [0, 1): a try succeeds below its chance."""
        ...


def policy_of(plan: IncomePlan) -> Game | None:
    """The policy a car plays in a race: its plan's (committed routes), None for a car
    that never arrives."""
    policy = plan.policy
    return policy if plan.status.answered and isinstance(policy, Game) else None


class CarState:
    """A car's state over a batch of games: position, reserve, hand (6th pile: gold).

    ``game`` is the car's solved policy, or None for a car that never arrives
    (its position stays -2).
    """

    def __init__(self, game: Game | None, games: int) -> None:
        self.game = game
        self.pos = np.full(games, -2 if game is None else game.start, np.int64)
        self.reserve = np.zeros((games, NR), np.int64)
        self.hand = np.zeros((games, NR + 1), np.int64)
        self.arrived = np.zeros(games, np.int64)  # the turn it arrived, 0: not yet
        if game is not None:
            self.income = np.array(game.income, np.int64)
            self.gold = np.array(game.gold, np.int64)

    def roll(self, rolls: npt.NDArray[np.int64], discard: bool) -> None:
        """The cards of one roll per game (every car not arrived), and the 7-card rule."""
        if self.game is None:
            return
        live = self.pos >= 0
        i = rolls - ROLLS[0]
        self.hand[:, :NR] += np.where(live[:, None], self.income[i], 0)
        self.hand[:, NR] += np.where(live, self.gold[i], 0)
        if not discard:
            return
        held = self.hand.sum(axis=1)  # discard_count, over all the games at once
        count = np.where((rolls == 7) & live & (held > HAND_LIMIT), held // 2, 0)
        while (count > 0).any():  # each card from the largest pile (ties: the first)
            rows = np.flatnonzero(count > 0)
            j = self.hand[rows].argmax(axis=1)
            self.hand[rows, j] -= 1
            count[rows] -= 1

    def decide(self, turn: int, rng: ExitRolls) -> npt.NDArray[np.bool_]:
        """The car's turn in every game: its policy's trade, reserve and move.

        Returns which games it arrived in this turn.
        """
        arrived = np.zeros(len(self.pos), bool)
        if self.game is None:
            return arrived
        exit_roll = rng.random(len(self.pos))  # leaving a desert: the extra roll
        for v in np.unique(self.pos[self.pos >= 0]):
            self._decide_at(self.game, int(v), turn, exit_roll, arrived)
        return arrived

    def _decide_at(
        self,
        game: Game,
        v: int,
        turn: int,
        exit_roll: npt.NDArray[np.float64],
        arrived: npt.NDArray[np.bool_],
    ) -> None:
        """The turn of the games whose car stands at position ``v``."""
        pos = game.positions[v]
        rows = np.flatnonzero(self.pos == v)
        idx = pos.flat(self.reserve[rows] + self.hand[rows, :NR])
        best = wild_best(game, pos)
        wild = np.minimum(self.hand[rows, NR], len(best) - 1)
        state = np.empty(len(rows), np.int64)
        for k in np.unique(wild):
            sel = wild == k
            state[sel] = best[int(k)][idx[sel]]
        post = pos.post[state]
        option = pos.option[post]
        x = np.stack(np.unravel_index(post, pos.shape), axis=-1).astype(np.int64)
        reserve = np.minimum(x, pos.need)
        self.reserve[rows] = reserve
        self.hand[rows, :NR] = np.minimum(x - reserve, game.fodder)
        self.hand[rows, NR] = 0
        for o in np.unique(option):
            m, payer = pos.labels[int(o)]
            if m < 0:
                continue
            move = pos.moves[m]
            sel = rows[(option == o) & (exit_roll[rows] < float(move.p_exit))]
            if payer >= 0:
                self.reserve[sel, payer] -= move.cards
            if move.target < 0:
                self.pos[sel] = -1
                self.arrived[sel] = turn
                arrived[sel] = True
            else:
                self.pos[sel] = move.target
                tgt = game.positions[move.target]
                self.reserve[sel] = np.minimum(self.reserve[sel], tgt.need)
