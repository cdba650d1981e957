"""Lighthouses, competitive variant: one turn of a seat, its legal decisions, the landing's removal.

Implements docs/lighthouse.md ("Competitive variant", "The simple policies"; seed
000_aeb701e368f40145.txt): seats, the boat's landing and the disc it removes, the
seat's own discs, Maurice and the bonus, the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import POLICIES, Policy
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, KITS, Kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Decision, Roll, legal_decisions

__all__ = [
    "COMPETITIVE_SEA_CARDS",
    "MAX_SEATS",
    "CompetitiveDecision",
    "CompetitivePosition",
    "CompetitiveTurn",
    "FixedPolicy",
    "check_policies",
    "check_seats",
    "competitive_decisions",
    "competitive_kit",
    "from_seat_decision",
    "landing_targets",
    "play_competitive_turn",
    "removal_weights",
    "seat_islands",
    "seat_kit",
    "seat_position",
]

MAX_SEATS = 4
"""Most players of the competitive variant (the box is for 2 to 4)."""

COMPETITIVE_SEA_CARDS = 3
"""Sea cards of the competitive variant (the seed's 3)."""

FixedPolicy = Literal["greedy", "random"]
"""A rule of thumb every seat may play (docs/lighthouse.md, "The simple policies")."""

Stacks = tuple[tuple[str, ...], ...]


def competitive_kit(seats: int = 2, sea_cards: int = COMPETITIVE_SEA_CARDS) -> Kit:
    """The competitive kit: 2 seats hold 3 islands each, 3 or 4 seats 2 each, of the default kit.

    The kits are the registry's ``competitive-2``, ``competitive-3`` and
    ``competitive-4`` (:data:`isles.models.lighthouse.kit.KITS`).

    Parameters
    ----------
    seats : int
        2, 3 or 4 players.
    sea_cards : int
        Sea cards (the variant plays with 3).

    Returns
    -------
    Kit

    Raises
    ------
    InvalidInput
        ``seats`` outside 2..4, or a bad number of sea cards.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> len(kit.islands), kit.sea_cards
    (6, 3)
    >>> len(competitive_kit(4).islands)
    8
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= MAX_SEATS:
        raise InvalidInput("seats", seats, f"2..{MAX_SEATS} players")
    return KITS[f"competitive-{seats}"].build(sea_cards)


def check_policies(policy: str | Sequence[str], seats: int) -> tuple[Policy, ...]:
    """One policy for every seat, or one per seat; ``optimal`` only with 2 seats.

    A game of 3 or 4 seats is not zero-sum: its seats play greedy or random.

    Raises
    ------
    InvalidInput
        Not one policy per seat, an unknown policy, ``optimal`` with 3 or 4 seats.

    Examples
    --------
    >>> check_policies("greedy", 3), check_policies(("optimal", "random"), 2)
    (('greedy', 'greedy', 'greedy'), ('optimal', 'random'))
    >>> check_policies("optimal", 3)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: policy: 'optimal' is invalid; expected optimal play with 2 ...
    """
    names = [policy] * seats if isinstance(policy, str) else list(policy)
    if len(names) != seats:
        raise InvalidInput("policy", list(names), f"one policy, or one per seat ({seats} seats)")
    out: list[Policy] = []
    for name in names:
        known = next((p for p in POLICIES if p == name), None)
        if known is None:
            raise InvalidInput("policy", name, "one of " + ", ".join(POLICIES))
        out.append(known)
    if "optimal" in out and seats != 2:
        raise InvalidInput(
            "policy",
            policy,
            "optimal play with 2 seats only (a game of 3 or 4 seats is not zero-sum: "
            "greedy or random play)",
        )
    return tuple(out)


def check_seats(kit: Kit, seats: int) -> int:
    """Return ``seats`` if that many players can share the kit's islands, else raise.

    Parameters
    ----------
    kit : Kit
    seats : int
        2..:data:`MAX_SEATS` players, dividing the islands in play.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        Not an integer in 2..:data:`MAX_SEATS`, or not dividing the islands.

    Examples
    --------
    >>> check_seats(competitive_kit(2), 3)
    3
    >>> check_seats(competitive_kit(2), 4)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: seats: 4 is invalid; expected 2..4 seats dividing the 6 ...
    """
    n = len(kit.islands)
    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not 2 <= seats <= MAX_SEATS
        or n % seats
    ):
        raise InvalidInput("seats", seats, f"2..{MAX_SEATS} seats dividing the {n} islands")
    return seats


def seat_islands(kit: Kit, seats: int, seat: int) -> range:
    """The islands (indices in ``kit.islands``) whose lighthouses ``seat`` builds.

    Seat ``s`` (0 is the first to play) holds the ``s``-th contiguous block of
    ``len(kit.islands) // seats`` islands; seat 0 holds Maurice's island.

    Parameters
    ----------
    kit : Kit
    seats : int
    seat : int
        0-based.

    Returns
    -------
    range

    Examples
    --------
    >>> seat_islands(competitive_kit(2), 2, 1)
    range(3, 6)
    """
    per = len(kit.islands) // seats
    return range(seat * per, (seat + 1) * per)


@dataclass(frozen=True)
class CompetitivePosition:
    """A position of the competitive variant between turns.

    Parameters
    ----------
    discs : tuple of tuple of str
        Discs on each lighthouse, bottom to top, one tuple per island in play.
    boat : int
        0 before the first sea card, ``k`` on the k-th card (``0..sea_cards``).
    maurice : int
        Islands Maurice has walked past his own, modulo the islands in play
        (one Maurice for the whole table).
    seat : int
        The seat to play, 0-based (seat 0 plays first).

    Examples
    --------
    >>> CompetitivePosition.start(competitive_kit(2)).to_dict()["seat"]
    1
    """

    discs: Stacks
    boat: int = 0
    maurice: int = 0
    seat: int = 0

    @staticmethod
    def start(kit: Kit) -> CompetitivePosition:
        """Empty lighthouses, the boat before the first card, seat 0 to play."""
        return CompetitivePosition(tuple(() for _ in kit.islands), 0, 0, 0)

    def finished(self, kit: Kit, seats: int, seat: int) -> bool:
        """Whether every lighthouse of ``seat`` has its 4 discs.

        Examples
        --------
        >>> kit = competitive_kit(2)
        >>> CompetitivePosition.start(kit).finished(kit, 2, 0)
        False
        """
        return all(
            len(self.discs[i]) == DISCS_PER_LIGHTHOUSE for i in seat_islands(kit, seats, seat)
        )

    def to_dict(self) -> dict[str, Any]:
        """``{"discs": [[...], ...], "boat": int, "maurice": int, "seat": int}``, seat 1 first.

        Examples
        --------
        >>> CompetitivePosition(((), ("red",)), 1, 0, 1).to_dict()
        {'discs': [[], ['red']], 'boat': 1, 'maurice': 0, 'seat': 2}
        """
        return {
            "discs": [list(s) for s in self.discs],
            "boat": self.boat,
            "maurice": self.maurice,
            "seat": self.seat + 1,
        }


@dataclass(frozen=True)
class CompetitiveDecision:
    """What the seat to play chooses after its roll.

    Parameters
    ----------
    removal : int or None
        When the boat lands: the island (index in ``kit.islands``) whose top
        disc is removed; None when the boat does not land or no lighthouse of
        another seat has a disc to lose.
    placements : tuple of (str, int or None)
        The colour discs in the order handled, each with the island of the
        seat's own lighthouse that takes it, or None when none can (it goes back).
    bonus : (str, int) or None
        The (colour, island) of Maurice's bonus disc, or None.

    Examples
    --------
    >>> CompetitiveDecision(3, (("red", None),), ("blue", 0)).returned
    1
    """

    removal: int | None
    placements: tuple[tuple[str, int | None], ...]
    bonus: tuple[str, int] | None = None

    @property
    def returned(self) -> int:
        """Discs that went back to the supply (Maurice's steps)."""
        return sum(1 for _, i in self.placements if i is None)

    def to_dict(self) -> dict[str, Any]:
        """``{"removal": island or null, "placements": [[colour, island or null], ...], "bonus"}``.

        Examples
        --------
        >>> CompetitiveDecision(None, (("red", 0),)).to_dict()
        {'removal': None, 'placements': [['red', 0]], 'bonus': None}
        """
        return {
            "removal": self.removal,
            "placements": [[c, i] for c, i in self.placements],
            "bonus": None if self.bonus is None else list(self.bonus),
        }


@dataclass(frozen=True)
class CompetitiveTurn:
    """The position after a turn and the winner, if the turn ended the game.

    Parameters
    ----------
    position : CompetitivePosition
        After the turn; the next seat is to play unless the game is over.
    winner : int or None
        The 0-based seat that finished all its lighthouses this turn.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> CompetitiveTurn(CompetitivePosition.start(kit), None).winner is None
    True
    """

    position: CompetitivePosition
    winner: int | None


def landing_targets(kit: Kit, seats: int, position: CompetitivePosition) -> tuple[int, ...]:
    """The lighthouses whose top disc the seat to play may remove when the boat lands.

    Another seat's lighthouse with at least one disc and not finished (finished
    lighthouses are safe; docs/lighthouse.md, "Competitive variant").

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition

    Returns
    -------
    tuple of int
        Island indices, in the kit's order.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> done = ("blue", "green", "blue", "green")
    >>> pos = CompetitivePosition(((),) * 3 + (("green",), ("orange",), done), 3, 0, 0)
    >>> landing_targets(kit, 2, pos)
    (3, 4)
    """
    mine = seat_islands(kit, seats, position.seat)
    return tuple(
        i
        for i, stack in enumerate(position.discs)
        if i not in mine and 0 < len(stack) < DISCS_PER_LIGHTHOUSE
    )


def _lay(stacks: Stacks, i: int, colour: str) -> Stacks:
    return (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])


def _remove_top(stacks: Stacks, i: int) -> Stacks:
    return (*stacks[:i], stacks[i][:-1], *stacks[i + 1 :])


def _lands(kit: Kit, position: CompetitivePosition, roll: Roll) -> bool:
    return roll.boat and position.boat + 1 > kit.sea_cards


@lru_cache(maxsize=64)
def seat_kit(kit: Kit, seats: int, seat: int) -> Kit:
    """The seat's own islands as a cooperative kit (same dice and sea cards).

    The seat's discs follow the cooperative rules on its own lighthouses, so
    the cooperative rules and policies (models/lighthouse/rules.py,
    solvers/lighthouse/policies.py) are applied to this kit with :func:`seat_position`,
    and their decisions read back with :func:`from_seat_decision`.

    Parameters
    ----------
    kit : Kit
    seats : int
    seat : int
        0-based.

    Returns
    -------
    Kit

    Examples
    --------
    >>> seat_kit(competitive_kit(2), 2, 1).islands
    (('blue', 'green'), ('orange', 'purple'), ('red', 'green'))
    """
    mine = seat_islands(kit, seats, seat)
    return Kit(tuple(kit.islands[i] for i in mine), kit.dice, kit.sea_cards)


def seat_position(kit: Kit, seats: int, position: CompetitivePosition) -> Position:
    """The seat to play's own lighthouses as a position of :func:`seat_kit`.

    Maurice stands one island short of his own there, so that any disc sent
    back earns the bonus in the cooperative rules; :func:`from_seat_decision`
    drops the bonus when Maurice's walk around the whole table does not reach
    his island. The boat is irrelevant to the discs (0).

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition

    Returns
    -------
    Position

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> seat_position(kit, 2, CompetitivePosition.start(kit))
    Position(discs=((), (), ()), boat=0, maurice=2)
    """
    mine = seat_islands(kit, seats, position.seat)
    return Position(tuple(position.discs[i] for i in mine), 0, len(mine) - 1)


def from_seat_decision(
    kit: Kit,
    seats: int,
    position: CompetitivePosition,
    removal: int | None,
    decision: Decision,
) -> CompetitiveDecision:
    """A cooperative decision on :func:`seat_position` as the seat's competitive decision.

    Island indices go back to the kit's; the bonus is kept only when Maurice's
    walk (one island per disc sent back, around all the islands in play)
    reaches or passes his island.

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    removal : int or None
        The landing's removal (see :class:`CompetitiveDecision`).
    decision : Decision
        A decision for ``seat_position(kit, seats, position)`` in ``seat_kit``.

    Returns
    -------
    CompetitiveDecision

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> pos = CompetitivePosition(((),) * 6, 0, 0, 1)
    >>> from_seat_decision(kit, 2, pos, None, Decision((("red", None),), ("blue", 0)))
    CompetitiveDecision(removal=None, placements=(('red', None),), bonus=None)
    """
    mine = seat_islands(kit, seats, position.seat)
    placements = tuple((c, None if i is None else mine[i]) for c, i in decision.placements)
    bonus = None
    if decision.bonus is not None and position.maurice + decision.returned >= len(kit.islands):
        bonus = (decision.bonus[0], mine[decision.bonus[1]])
    return CompetitiveDecision(removal, placements, bonus)


def competitive_decisions(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll
) -> tuple[CompetitiveDecision, ...]:
    """Every legal decision of the seat to play for ``roll`` (docs/lighthouse.md).

    When the boat lands, the seat removes the top disc of one of
    :func:`landing_targets` (it must when there is one). Then the cooperative
    rules (:func:`~isles.models.lighthouse.rules.legal_decisions`) on the seat's own
    lighthouses: both orders of two different discs, each disc laid on an own
    lighthouse that can take it (it must be laid if one can) or sent back,
    and, when Maurice's walk reaches or passes his island, every (colour, own
    lighthouse) for the bonus disc (always taken when usable).

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll

    Returns
    -------
    tuple of CompetitiveDecision
        Without repeats, in the order the choices are made.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> len(competitive_decisions(kit, 2, CompetitivePosition.start(kit), roll))
    4
    """
    removals: list[int | None] = [None]
    if _lands(kit, position, roll):
        removals = list(landing_targets(kit, seats, position)) or [None]
    own = seat_kit(kit, seats, position.seat)
    view = seat_position(kit, seats, position)
    out: dict[CompetitiveDecision, None] = {}
    for removal in removals:
        for decision in legal_decisions(own, view, roll):
            out.setdefault(from_seat_decision(kit, seats, position, removal, decision), None)
    return tuple(out)


def removal_weights(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll, policy: str
) -> tuple[tuple[int | None, Fraction], ...]:
    """The disc greedy or random play removes when the boat lands, with its probability.

    **greedy** removes the top disc of the other seats' lighthouse with most
    discs (ties: the island listed first), **random** one of
    :func:`landing_targets` uniformly (docs/lighthouse.md, "Competitive
    variant"). ``((None, 1),)`` when the boat does not land or nothing can be
    removed. The seat's own discs then follow the cooperative policies
    (solvers/lighthouse/competitive.py applies them).

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    tuple of (int or None, Fraction)

    Raises
    ------
    InvalidInput
        A policy other than greedy or random.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> pos = CompetitivePosition(((),) * 3 + (("green",), ("orange", "purple"), ()), 3, 0, 0)
    >>> removal_weights(kit, 2, pos, Roll(True, (), Fraction(1, 36)), "greedy")
    ((4, Fraction(1, 1)),)
    >>> removal_weights(kit, 2, pos, Roll(True, (), Fraction(1, 36)), "random")
    ((3, Fraction(1, 2)), (4, Fraction(1, 2)))
    """
    if policy not in ("greedy", "random"):
        raise InvalidInput("policy", policy, "greedy or random")
    targets = landing_targets(kit, seats, position) if _lands(kit, position, roll) else ()
    if not targets:
        return ((None, Fraction(1)),)
    if policy == "greedy":
        return ((max(targets, key=lambda i: (len(position.discs[i]), -i)), Fraction(1)),)
    return tuple((i, Fraction(1, len(targets))) for i in targets)


def play_competitive_turn(
    kit: Kit,
    seats: int,
    position: CompetitivePosition,
    roll: Roll,
    decision: CompetitiveDecision,
    *,
    check: bool = True,
) -> CompetitiveTurn:
    """Play one turn of the seat to play (docs/lighthouse.md, "Competitive variant").

    The boat first: a boat face moves it one card on; moving past the last card
    it lands, the decision's removal takes the top disc of that lighthouse, and
    the boat goes back onto card ``sea_cards - 1`` (before the first card with
    one sea card); the turn goes on. Then the seat's discs, Maurice's walk (one
    island per disc sent back, around all the islands in play) and the bonus.
    The seat wins when all its lighthouses have 4 discs at the end of its turn;
    otherwise the next seat plays.

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll
    decision : CompetitiveDecision
        One of ``competitive_decisions(kit, seats, position, roll)``.
    check : bool
        ``False`` skips the legality check (for callers that took the decision
        from :func:`competitive_decisions` or a policy).

    Returns
    -------
    CompetitiveTurn

    Raises
    ------
    InvalidInput
        ``decision`` is not legal for this position and roll.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> pos = CompetitivePosition(((),) * 3 + (("green", "blue"),) + ((),) * 2, 3, 0, 0)
    >>> roll = Roll(True, ("red",), Fraction(1, 18))
    >>> turn = play_competitive_turn(kit, 2, pos, roll, CompetitiveDecision(3, (("red", 0),)))
    >>> turn.position.discs[:4], turn.position.boat, turn.position.seat
    ((('red',), (), (), ('green',)), 2, 1)
    """
    if check and decision not in competitive_decisions(kit, seats, position, roll):
        raise InvalidInput("decision", decision, "one of the legal decisions for this roll")
    stacks = position.discs
    boat = position.boat
    if roll.boat:
        if _lands(kit, position, roll):
            boat = max(kit.sea_cards - 1, 0)
            if decision.removal is not None:
                stacks = _remove_top(stacks, decision.removal)
        else:
            boat += 1
    for colour, i in decision.placements:
        if i is not None:
            stacks = _lay(stacks, i, colour)
    if decision.bonus is not None:
        stacks = _lay(stacks, decision.bonus[1], decision.bonus[0])
    maurice = (position.maurice + decision.returned) % len(kit.islands)
    after = CompetitivePosition(stacks, boat, maurice, position.seat)
    if after.finished(kit, seats, position.seat):
        return CompetitiveTurn(after, position.seat)
    return CompetitiveTurn(
        CompetitivePosition(stacks, boat, maurice, (position.seat + 1) % seats), None
    )
