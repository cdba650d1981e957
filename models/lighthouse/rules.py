"""Lighthouses: one turn of play: the roll outcomes, the legal decisions, the turn itself.

Implements docs/lighthouse.md ("How we read the rules", "Discs", "Maurice"; seed
000_aeb701e368f40145.txt): turn order (boat first, loss at once), discs placed in
a chosen order, Maurice's walk and bonus disc. The kit is
:mod:`isles.models.lighthouse.kit`'s, the position and a lighthouse's states
:mod:`isles.models.lighthouse.position`'s, the competitive variant's turn
:mod:`isles.models.lighthouse.competitive`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import product
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.kit import BOAT, Kit
from isles.models.lighthouse.position import Position, can_take

__all__ = [
    "Decision",
    "Outcome",
    "Roll",
    "TurnResult",
    "boat_lands",
    "bonus_options",
    "legal_decisions",
    "play_turn",
    "roll_outcomes",
]


@dataclass(frozen=True)
class Roll:
    """One outcome of rolling both dice, grouped by what it does.

    Parameters
    ----------
    boat : bool
        Whether at least one die shows the boat.
    colours : tuple of str
        The sorted colour faces (0, 1 or 2 of them).
    probability : Fraction
        The exact probability of this outcome.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> Roll.from_faces(default_kit(), ("boat", "red"))
    Roll(boat=True, colours=('red',), probability=Fraction(1, 18))
    """

    boat: bool
    colours: tuple[str, ...]
    probability: Fraction

    @classmethod
    def from_faces(cls, kit: Kit, faces: Sequence[str], field: str = "roll") -> Roll:
        """The roll outcome of two faces, one per die, with its exact probability.

        Parameters
        ----------
        kit : Kit
        faces : sequence of two str
            The face of die 1 and of die 2 (``"boat"`` or a colour).
        field : str
            How the caller names the roll, for messages (``"--roll"``).

        Returns
        -------
        Roll

        Raises
        ------
        InvalidInput
            Not two faces, or a face that its die does not have.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> Roll.from_faces(default_kit(), ["blue", "red"]).probability
        Fraction(1, 18)
        >>> Roll.from_faces(default_kit(), ["red", "black"])
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: roll: 'black' is invalid; expected a face of die 2: ...
        """
        if len(faces) != 2:
            raise InvalidInput(field, list(faces), "two faces, one per die, e.g. boat,red")
        for k, (face, die) in enumerate(zip(faces, kit.dice, strict=True)):
            if face not in die:
                raise InvalidInput(field, face, f"a face of die {k + 1}: {', '.join(die)}")
        boat = BOAT in faces
        colours = tuple(sorted(f for f in faces if f != BOAT))
        probability = next(
            r.probability for r in roll_outcomes(kit) if (r.boat, r.colours) == (boat, colours)
        )
        return cls(boat, colours, probability)

    def to_dict(self) -> dict[str, Any]:
        """``{"boat": bool, "colours": [...], "probability": float, "probability_exact": "p/q"}``.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> Roll.from_faces(default_kit(), ("boat", "boat")).to_dict()["probability_exact"]
        '1/36'
        """
        return {
            "boat": self.boat,
            "colours": list(self.colours),
            **probability_json("probability", self.probability),
        }


def roll_outcomes(kit: Kit) -> tuple[Roll, ...]:
    """The distinct roll outcomes of the two dice with their exact probabilities.

    Parameters
    ----------
    kit : Kit

    Returns
    -------
    tuple of Roll
        Sorted by (boat, colours); the probabilities sum to 1.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> rolls = roll_outcomes(default_kit())
    >>> len(rolls), sum(r.probability for r in rolls)
    (21, Fraction(1, 1))
    >>> next(r.probability for r in rolls if r.colours == ())
    Fraction(1, 36)
    """
    weight = Fraction(1, len(kit.dice[0]) * len(kit.dice[1]))
    acc: dict[tuple[bool, tuple[str, ...]], Fraction] = {}
    for f1, f2 in product(*kit.dice):
        key = (BOAT in (f1, f2), tuple(sorted(f for f in (f1, f2) if f != BOAT)))
        acc[key] = acc.get(key, Fraction(0)) + weight
    return tuple(Roll(b, c, p) for (b, c), p in sorted(acc.items()))


@dataclass(frozen=True)
class Decision:
    """What the players choose after a roll.

    Parameters
    ----------
    placements : tuple of (str, int or None)
        The colour discs in the order they are handled, each with the index (in
        ``kit.islands``) of the lighthouse that takes it, or None when no
        lighthouse could take it (it goes back and Maurice walks).
    bonus : (str, int) or None
        The (colour, island index) of Maurice's bonus disc, or None when his
        walk earns none.

    Examples
    --------
    >>> Decision((("red", None), ("blue", 0)), ("red", 0)).returned
    1
    """

    placements: tuple[tuple[str, int | None], ...]
    bonus: tuple[str, int] | None = None

    @property
    def returned(self) -> int:
        """Discs that went back to the supply (Maurice's steps)."""
        return sum(1 for _, i in self.placements if i is None)

    def to_dict(self) -> dict[str, Any]:
        """``{"placements": [[colour, island or null], ...], "bonus": [colour, island] or null}``.

        Islands are indices in ``kit.islands`` (0 is Maurice's island).

        Examples
        --------
        >>> Decision((("red", None), ("blue", 0)), ("red", 0)).to_dict()
        {'placements': [['red', None], ['blue', 0]], 'bonus': ['red', 0]}
        """
        return {
            "placements": [[c, i] for c, i in self.placements],
            "bonus": None if self.bonus is None else list(self.bonus),
        }


def _orders(colours: tuple[str, ...]) -> list[tuple[str, ...]]:
    if len(colours) == 2 and colours[0] != colours[1]:
        return [colours, (colours[1], colours[0])]
    return [colours]


def _place_all(
    kit: Kit, stacks: tuple[tuple[str, ...], ...], order: tuple[str, ...]
) -> Iterator[tuple[tuple[tuple[str, int | None], ...], tuple[tuple[str, ...], ...]]]:
    if not order:
        yield (), stacks
        return
    colour, rest = order[0], order[1:]
    takers = [i for i, isl in enumerate(kit.islands) if can_take(isl, stacks[i], colour)]
    if not takers:
        for tail, final in _place_all(kit, stacks, rest):
            yield ((colour, None), *tail), final
        return
    for i in takers:
        placed = (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])
        for tail, final in _place_all(kit, placed, rest):
            yield ((colour, i), *tail), final


def bonus_options(kit: Kit, stacks: Sequence[Sequence[str]]) -> list[tuple[str, int]]:
    """Every (colour, island) the bonus disc may go to, in island then colour order.

    Parameters
    ----------
    kit : Kit
    stacks : sequence of sequence of str
        The discs on each lighthouse.

    Returns
    -------
    list of (str, int)

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> bonus_options(default_kit(2), [("red",), ("green", "orange", "green", "orange")])
    [('blue', 0)]
    """
    return [
        (colour, i)
        for i, isl in enumerate(kit.islands)
        for colour in isl
        if can_take(isl, stacks[i], colour)
    ]


def legal_decisions(kit: Kit, position: Position, roll: Roll) -> tuple[Decision, ...]:
    """Every legal decision for ``roll`` in ``position`` (docs/lighthouse.md, "Discs", "Maurice").

    Orders of two different discs are both listed; a disc no lighthouse can take
    at its turn is returned; when Maurice's walk reaches or passes his island and
    some lighthouse can take a disc, every (colour, island) bonus is listed (the
    analysis always takes the bonus). The boat does not change what is legal.

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll

    Returns
    -------
    tuple of Decision
        Without repeats, in the order the choices are made.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> len(legal_decisions(kit, Position.start(kit), roll))
    2
    """
    n = len(kit.islands)
    out: dict[Decision, None] = {}
    for order in _orders(roll.colours):
        for placements, stacks in _place_all(kit, position.discs, order):
            returned = sum(1 for _, i in placements if i is None)
            options = bonus_options(kit, stacks) if position.maurice + returned >= n else []
            if options:
                for bonus in options:
                    out.setdefault(Decision(placements, bonus), None)
            else:
                out.setdefault(Decision(placements, None), None)
    return tuple(out)


class Outcome(StrEnum):
    """How a turn ends: ``playing``, ``won`` or ``lost``.

    Examples
    --------
    >>> Outcome("won") is Outcome.WON
    True
    """

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class TurnResult:
    """The position after a turn and whether the game is over.

    Parameters
    ----------
    position : Position
        After the turn (the boat stays on the last card when the game is lost).
    outcome : Outcome

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(1, 1)
    >>> res = play_turn(kit, Position.start(kit), Roll(True, (), Fraction(1, 36)), Decision(()))
    >>> res.outcome, res.position.boat
    (<Outcome.PLAYING: 'playing'>, 1)
    """

    position: Position
    outcome: Outcome


def boat_lands(kit: Kit, position: Position, roll: Roll) -> bool:
    """Whether ``roll`` lands the boat on Maurice's island: the game is lost at once.

    The boat is on the last sea card and a die shows the boat; the turn ends
    before any disc is laid, whatever the colour die would have given
    (docs/lighthouse.md, "How we read the rules": turn order).

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll

    Returns
    -------
    bool

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(1, sea_cards=1)
    >>> boat_roll = Roll(True, ("blue",), Fraction(1, 18))
    >>> boat_lands(kit, Position(((),), boat=1), boat_roll)
    True
    >>> boat_lands(kit, Position(((),), boat=0), boat_roll)
    False
    """
    return roll.boat and position.boat >= kit.sea_cards


def play_turn(
    kit: Kit, position: Position, roll: Roll, decision: Decision, *, check: bool = True
) -> TurnResult:
    """Play one turn: boat first (loss at once), then discs, Maurice, the bonus, the win check.

    Implements docs/lighthouse.md, "How we read the rules".

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    decision : Decision
        One of ``legal_decisions(kit, position, roll)``.
    check : bool
        ``False`` skips the legality check (for callers that took ``decision``
        from :func:`legal_decisions` themselves).

    Returns
    -------
    TurnResult

    Raises
    ------
    InvalidInput
        ``decision`` is not among ``legal_decisions(kit, position, roll)``.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(1, sea_cards=1)
    >>> pos = Position((("red", "blue", "red"),), boat=1)
    >>> play_turn(kit, pos, Roll(True, ("blue",), Fraction(1, 18)),
    ...           Decision((("blue", 0),))).outcome
    <Outcome.LOST: 'lost'>
    """
    if check and decision not in legal_decisions(kit, position, roll):
        raise InvalidInput("decision", decision, "one of the legal decisions for this roll")
    if boat_lands(kit, position, roll):
        return TurnResult(Position(position.discs, kit.sea_cards, position.maurice), Outcome.LOST)
    boat = position.boat + (1 if roll.boat else 0)
    stacks = [list(s) for s in position.discs]
    for colour, i in decision.placements:
        if i is not None:
            stacks[i].append(colour)
    if decision.bonus is not None:
        stacks[decision.bonus[1]].append(decision.bonus[0])
    maurice = (position.maurice + decision.returned) % len(kit.islands)
    after = Position(tuple(tuple(s) for s in stacks), boat, maurice)
    return TurnResult(after, Outcome.WON if after.is_won() else Outcome.PLAYING)
