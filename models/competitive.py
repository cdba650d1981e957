"""Lighthouses, competitive variant: one turn of a seat, its legal decisions, greedy and random play.

Implements docs/lighthouse.md ("Competitive variant", "The simple policies"; seed
000_aeb701e368f40145.txt): seats, the boat's landing and the disc it removes, the
seat's own discs, Maurice and the bonus, the winner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeVar

from isles.models.errors import InvalidInput
from isles.models.lighthouse import (
    DISCS_PER_LIGHTHOUSE,
    Kit,
    Roll,
    can_take,
    default_kit,
)

__all__ = [
    "COMPETITIVE_SEA_CARDS",
    "FixedPolicy",
    "MAX_SEATS",
    "CompetitiveDecision",
    "CompetitivePosition",
    "CompetitiveTurn",
    "check_seats",
    "competitive_decisions",
    "competitive_kit",
    "landing_targets",
    "play_competitive_turn",
    "policy_decisions",
    "seat_islands",
]

MAX_SEATS = 4
"""Most players of the competitive variant (the box is for 2 to 4)."""

COMPETITIVE_SEA_CARDS = 3
"""Sea cards of the competitive variant (the seed's 3)."""

FixedPolicy = Literal["greedy", "random"]
"""A rule of thumb every seat may play (docs/lighthouse.md, "The simple policies")."""

_T = TypeVar("_T")
Stacks = tuple[tuple[str, ...], ...]


def competitive_kit(seats: int = 2, sea_cards: int = COMPETITIVE_SEA_CARDS) -> Kit:
    """The competitive kit: 2 seats hold 3 islands each, 3 or 4 seats 2 each, of the default kit.

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
    return default_kit(6 if seats == 2 else 2 * seats, sea_cards)


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
    isles.models.errors.InvalidInput: seats: 4 is invalid; expected 2..4 seats dividing the 6 islands
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
        """``{"removal": island or null, "placements": [[colour, island or null], ...], "bonus": ...}``.

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


def _orders(colours: tuple[str, ...]) -> list[tuple[str, ...]]:
    if len(colours) == 2 and colours[0] != colours[1]:
        return [colours, (colours[1], colours[0])]
    return [colours]


def _takers(kit: Kit, mine: range, stacks: Stacks, colour: str) -> list[int]:
    return [i for i in mine if can_take(kit.islands[i], stacks[i], colour)]


def _bonus_options(kit: Kit, mine: range, stacks: Stacks) -> list[tuple[str, int]]:
    return [(c, i) for i in mine for c in kit.islands[i] if can_take(kit.islands[i], stacks[i], c)]


def _place_all(
    kit: Kit, mine: range, stacks: Stacks, order: tuple[str, ...]
) -> Iterator[tuple[tuple[tuple[str, int | None], ...], Stacks]]:
    if not order:
        yield (), stacks
        return
    colour, rest = order[0], order[1:]
    takers = _takers(kit, mine, stacks, colour)
    if not takers:
        for tail, final in _place_all(kit, mine, stacks, rest):
            yield ((colour, None), *tail), final
        return
    for i in takers:
        for tail, final in _place_all(kit, mine, _lay(stacks, i, colour), rest):
            yield ((colour, i), *tail), final


def _remove_top(stacks: Stacks, i: int) -> Stacks:
    return (*stacks[:i], stacks[i][:-1], *stacks[i + 1 :])


def _lands(kit: Kit, position: CompetitivePosition, roll: Roll) -> bool:
    return roll.boat and position.boat + 1 > kit.sea_cards


def competitive_decisions(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll
) -> tuple[CompetitiveDecision, ...]:
    """Every legal decision of the seat to play for ``roll`` (docs/lighthouse.md, "Competitive variant").

    When the boat lands, the seat removes the top disc of one of
    :func:`landing_targets` (it must when there is one). Then the cooperative
    rules, restricted to the seat's own lighthouses: both orders of two
    different discs, each disc laid on an own lighthouse that can take it (it
    must be laid if one can) or sent back, and, when Maurice's walk reaches or
    passes his island, every (colour, own lighthouse) for the bonus disc (always
    taken when usable).

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
    mine = seat_islands(kit, seats, position.seat)
    n = len(kit.islands)
    removals: list[int | None] = [None]
    if _lands(kit, position, roll):
        removals = list(landing_targets(kit, seats, position)) or [None]
    out: dict[CompetitiveDecision, None] = {}
    for removal in removals:
        stacks = position.discs if removal is None else _remove_top(position.discs, removal)
        for order in _orders(roll.colours):
            for placements, laid in _place_all(kit, mine, stacks, order):
                returned = sum(1 for _, i in placements if i is None)
                options = _bonus_options(kit, mine, laid) if position.maurice + returned >= n else []
                for bonus in options or [None]:
                    out.setdefault(CompetitiveDecision(removal, placements, bonus), None)
    return tuple(out)


def _pick(
    options: Sequence[_T], key: Callable[[_T], Any], policy: FixedPolicy
) -> list[tuple[_T, Fraction]]:
    """Greedy: the option of largest key (the first on ties); random: uniform."""
    if policy == "greedy":
        return [(max(options, key=key), Fraction(1))]
    return [(o, Fraction(1, len(options))) for o in options]


def _policy_placements(
    kit: Kit, mine: range, stacks: Stacks, order: tuple[str, ...], policy: FixedPolicy
) -> list[tuple[tuple[tuple[str, int | None], ...], Stacks, Fraction]]:
    if not order:
        return [((), stacks, Fraction(1))]
    colour, rest = order[0], order[1:]
    takers = _takers(kit, mine, stacks, colour)
    if not takers:
        return [
            (((colour, None), *tail), final, w)
            for tail, final, w in _policy_placements(kit, mine, stacks, rest, policy)
        ]
    out = []
    # Greedy lays on the lighthouse with most discs, the island listed first on ties.
    for i, wi in _pick(takers, lambda i: (len(stacks[i]), -i), policy):
        for tail, final, w in _policy_placements(kit, mine, _lay(stacks, i, colour), rest, policy):
            out.append((((colour, i), *tail), final, wi * w))
    return out


def policy_decisions(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll, policy: str
) -> tuple[tuple[CompetitiveDecision, Fraction], ...]:
    """The decisions greedy or random play takes for ``roll``, with their probabilities.

    The cooperative rules of thumb (docs/lighthouse.md, "The simple policies")
    restricted to the seat's own lighthouses, and the landing's removal:

    - **greedy** removes the top disc of the other seats' lighthouse with most
      discs (ties: the island listed first); handles first a disc that one of
      its lighthouses can take now (if only one of the two can), otherwise the
      colours in alphabetical order; lays each disc on its lighthouse with most
      discs among those that can take it (ties: first island); gives the bonus
      to its unfinished lighthouse with most discs (ties: first island), in
      that island's first colour when it is empty.
    - **random** is uniform at each choice point in turn: the removal among the
      targets, the order of two different discs, each disc's lighthouse among
      those that can take it, the bonus among all (colour, lighthouse) pairs.

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    tuple of (CompetitiveDecision, Fraction)
        Each decision is among :func:`competitive_decisions`; the
        probabilities sum to 1 (greedy: one decision).

    Raises
    ------
    InvalidInput
        A policy other than greedy or random.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> [d.placements for d, _ in policy_decisions(kit, 2, CompetitivePosition.start(kit),
    ...                                            roll, "greedy")]
    [(('blue', 0), ('red', 0))]
    >>> len(policy_decisions(kit, 2, CompetitivePosition.start(kit), roll, "random"))
    4
    """
    if policy not in ("greedy", "random"):
        raise InvalidInput("policy", policy, "greedy or random")
    pol: FixedPolicy = "greedy" if policy == "greedy" else "random"
    mine = seat_islands(kit, seats, position.seat)
    n = len(kit.islands)
    stacks0 = position.discs
    removals: list[tuple[int | None, Fraction]] = [(None, Fraction(1))]
    if _lands(kit, position, roll):
        targets = landing_targets(kit, seats, position)
        if targets:
            removals = [
                (i, w) for i, w in _pick(targets, lambda i: (len(stacks0[i]), -i), pol)
            ]
    out: list[tuple[CompetitiveDecision, Fraction]] = []
    for removal, w0 in removals:
        stacks = stacks0 if removal is None else _remove_top(stacks0, removal)
        orders = _orders(roll.colours)
        if len(orders) == 2 and pol == "greedy":
            usable = [bool(_takers(kit, mine, stacks, c)) for c in roll.colours]
            orders = [orders[1]] if usable[1] and not usable[0] else [orders[0]]
        for order in orders:
            w1 = w0 / len(orders)
            for placements, laid, w2 in _policy_placements(kit, mine, stacks, order, pol):
                returned = sum(1 for _, i in placements if i is None)
                options = _bonus_options(kit, mine, laid) if position.maurice + returned >= n else []
                if not options:
                    out.append((CompetitiveDecision(removal, placements, None), w1 * w2))
                    continue
                key = _greedy_bonus_key(kit, laid)
                for bonus, w3 in _pick(options, key, pol):
                    out.append((CompetitiveDecision(removal, placements, bonus), w1 * w2 * w3))
    return tuple(out)


def _greedy_bonus_key(kit: Kit, stacks: Stacks) -> Callable[[tuple[str, int]], tuple[int, int, int]]:
    """Greedy's bonus: the lighthouse with most discs, the first island, its first colour."""

    def key(option: tuple[str, int]) -> tuple[int, int, int]:
        colour, i = option
        return (len(stacks[i]), -i, -kit.islands[i].index(colour))

    return key


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
        from :func:`competitive_decisions` or :func:`policy_decisions`).

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
