"""The answer of the rally as it is played: the plan, its arrival chances and its advice.

Implements docs/rally.md ("Answers of --income", "What is solved exactly"; seed
002_8684547a41c0941c.txt): :class:`IncomePlan` (what ``isles rally --income
--json`` prints), :class:`TurnAdvice`, and the restrictions an answer may list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from isles.models.hexgrid import Hex
from isles.models.jsonio import float_or_none, hex_json
from isles.models.status import Status

__all__ = ["RESTRICTIONS", "IncomePlan", "TurnAdvice"]

#: The restrictions of the policy space (docs/rally.md, "What is solved exactly").
RESTRICTIONS = {
    "forward": "the car only moves to a hex one step nearer a goal (the shortest routes in moves)",
    "reserve": "every card the remaining routes can burn goes into the reserve at once; "
    "only cards beyond that stay in hand",
    "trade_at_once": "cards beyond what the routes can burn are traded as soon as a full "
    "ratio of one resource is held",
    "discard_rule": "on a 7 the cards discarded come from the largest pile in hand",
    "gold_choice": "a gold card's resource is chosen at the player's next turn",
    "card_cap": "of each resource, cards beyond a cap are lost (the cap: what the routes can "
    "burn plus, with trades, a trade's ratio less one and one roll's income, or for the whole "
    "space one turn's, as card_cap lists; with the 7-card rule a card no move burns up to one "
    "turn's income); at the table a lost card might have paid, been traded or taken a "
    "discard's place (fewer turns), or pushed the hand over 7 cards (more)",
    "committed_route": "the car commits at the start to one shortest route in moves (the best "
    "of them): the card states of every route at once are too many",
}


@dataclass(frozen=True)
class TurnAdvice:
    """What to do on a turn for one hand: trade, reserve, move.

    Attributes
    ----------
    roll : int or None
        The roll of turn 1 this advice answers (None: the hand as given).
    cards : dict of str to int
        Cards held (hand plus reserve) when the player decides: for committed routes
        those at the table, beyond the card caps too; for the whole space its capped
        state (``card_cap``).
    trades : list of dict
        ``{"give": resource, "cards": n, "take": resource}`` each.
    reserve : dict of str to int
        What the reserve holds after the turn.
    move : Hex or None
        The hex entered (or tried, leaving a desert); None: wait.
    expected_turns : float
        From this decision on, this turn included.
    """

    roll: int | None
    cards: dict[str, int]
    trades: list[dict[str, Any]]
    reserve: dict[str, int]
    move: Hex | None
    expected_turns: float

    def to_dict(self) -> dict[str, Any]:
        """``roll``, ``cards``, ``trades``, ``reserve``, ``move`` (``[q, r]`` or null),
        ``expected_turns``."""
        return {
            "roll": self.roll,
            "cards": self.cards,
            "trades": self.trades,
            "reserve": self.reserve,
            "move": None if self.move is None else hex_json(self.move),
            "expected_turns": float_or_none(self.expected_turns),
        }


@dataclass(frozen=True)
class IncomePlan:
    """The answer of :func:`isles.rally.plan_income`: turns to a goal with cards from income.

    Attributes
    ----------
    status : Status
        ``optimal`` (the whole policy space solved, ``method`` ``full``: the
        fewest expected turns lie within ``error_bound`` above
        ``expected_turns``), ``feasible`` (the best policy of the restricted
        space of committed routes, see ``restrictions``; docs/rally.md), or
        ``unreachable`` (the goals cannot be reached with this income).
    expected_turns : float or None
        Fewest expected turns to a goal (value iteration, stopped at
        ``tolerance``).
    within : tuple of float
        ``within[t - 1]`` = chance of having arrived within ``t`` turns under
        the returned policy (float, error below 1e-12 from summation).
    route : tuple of Hex
        The route the policy heads for (its most likely hexes).
    first_turn : tuple of TurnAdvice
        The advice of turn 1 for each roll of the player (2..12 without 7,
        and 7).
    restrictions : tuple of str
        Keys of ``RESTRICTIONS`` the answer is restricted by.
    states : int
        Card states solved, over all hexes.
    method : str
        ``full`` (the whole policy space) or ``route`` (committed routes).
    error_bound : float or None
        ``method`` ``full``: the certified gap between ``expected_turns`` (a
        lower bound) and an upper bound of the fewest expected turns.
    card_cap : dict of str to int or None
        ``method`` ``full``: the most cards of each resource held (hand plus
        reserve) in the solved space; cards beyond are lost.
    cap_lost : bool or None
        ``method`` ``full`` with trades or the 7-card rule: whether the policy
        whose value ``error_bound`` certifies ever loses a card to ``card_cap``
        from the start (False: ``expected_turns + error_bound`` bounds the fewest
        expected turns at the table from above); None: the caps lose nothing of
        use (no trades, no 7-card rule), or not the whole space.
    """

    status: Status
    start: Hex
    goals: tuple[Hex, ...]
    player: str
    players: int
    trade: str
    discard: bool
    expected_turns: float | None
    within: tuple[float, ...]
    route: tuple[Hex, ...]
    first_turn: tuple[TurnAdvice, ...]
    restrictions: tuple[str, ...]
    states: int
    tolerance: float
    cheapest: dict[str, Any] | None = None
    method: str = "route"
    error_bound: float | None = None
    card_cap: dict[str, int] | None = None
    cap_lost: bool | None = None
    #: The solved policy (:class:`~isles.solvers.rally.game.Game` for committed routes,
    #: :class:`~isles.solvers.rally.full_values.FullAnswer` for the whole space; the race
    #: plays the first); not part of the answer.
    policy: object = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """What ``isles rally --income --json`` prints (docs/rally.md, "Answers of --income")."""
        return {
            "status": self.status.value,
            "start": hex_json(self.start),
            "goals": [hex_json(g) for g in self.goals],
            "player": self.player,
            "players": self.players,
            "trade": self.trade,
            "discard": "on" if self.discard else "off",  # as the request spells it
            "expected_turns": float_or_none(self.expected_turns),
            "tolerance": self.tolerance,
            "within": [{"turns": t + 1, "probability": p} for t, p in enumerate(self.within)],
            "route": [hex_json(h) for h in self.route],
            "first_turn": [a.to_dict() for a in self.first_turn],
            "restrictions": [{"name": r, "text": RESTRICTIONS[r]} for r in self.restrictions],
            "states": self.states,
            "method": self.method,
            "error_bound": self.error_bound,
            "card_cap": self.card_cap,
            "cap_lost": self.cap_lost,
            "cheapest_cards_route": self.cheapest,
        }
