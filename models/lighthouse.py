"""Lighthouses: the kit, positions, roll outcomes, legal decisions and one turn of play.

Implements RULES.md section 5 (seed 000_aeb701e368f40145.txt): turn order (boat
first, loss at once), discs placed in a chosen order, Maurice's walk and bonus disc.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json

__all__ = [
    "BOAT",
    "DEFAULT_COLOURS",
    "DEFAULT_ISLANDS",
    "DISCS_PER_LIGHTHOUSE",
    "Decision",
    "Kit",
    "Outcome",
    "Position",
    "Roll",
    "TurnResult",
    "can_take",
    "default_kit",
    "legal_decisions",
    "play_turn",
    "roll_outcomes",
]

BOAT = "boat"
"""The die face that advances the boat."""

DISCS_PER_LIGHTHOUSE = 4

DEFAULT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "orange", "purple")

DEFAULT_ISLANDS: tuple[tuple[str, str], ...] = (
    ("red", "blue"),
    ("green", "orange"),
    ("purple", "red"),
    ("blue", "green"),
    ("orange", "purple"),
    ("red", "green"),
    ("blue", "orange"),
    ("purple", "green"),
)
"""The default islands of RULES.md section 5, Maurice's island first."""


def _read_json(path: str | Path, what: str) -> Any:
    return load_json(path, f"{what} file")


@dataclass(frozen=True)
class Kit:
    """What is on the table: islands in play, the two dice and the sea cards.

    Parameters
    ----------
    islands : tuple of (str, str)
        The islands in play with their two colours, Maurice's island first.
    dice : tuple of two tuples of str
        The faces of each die: ``"boat"`` or a colour.
    sea_cards : int
        Number of sea cards (>= 1) between the boat's start and Maurice's island.

    Raises
    ------
    InvalidInput
        No island, an island whose two colours are equal, not exactly two dice,
        an empty die, fewer than one sea card, or an island colour that no die shows.
        A die colour that no island has is allowed (it is never usable).

    Examples
    --------
    >>> kit = Kit((("red", "blue"),), (("boat", "red", "blue"), ("boat", "red", "blue")), 2)
    >>> kit.colours
    ('red', 'blue')
    """

    islands: tuple[tuple[str, str], ...]
    dice: tuple[tuple[str, ...], tuple[str, ...]]
    sea_cards: int

    def __post_init__(self) -> None:
        if not 1 <= len(self.islands) <= 12:
            raise InvalidInput("islands", len(self.islands), "between 1 and 12 islands")
        for k, island in enumerate(self.islands):
            if len(island) != 2 or not all(isinstance(c, str) and c for c in island):
                raise InvalidInput(f"islands[{k}]", island, "two colour names")
            if island[0] == island[1] or BOAT in island:
                raise InvalidInput(f"islands[{k}]", island, "two different colours (not 'boat')")
        if len(self.dice) != 2:
            raise InvalidInput("dice", len(self.dice), "exactly two dice")
        for k, die in enumerate(self.dice):
            if not die or not all(isinstance(f, str) and f for f in die):
                raise InvalidInput(f"dice[{k}]", die, "a non-empty list of faces")
        faces = {f for die in self.dice for f in die}
        for k, island in enumerate(self.islands):
            for colour in island:
                if colour not in faces:
                    raise InvalidInput(
                        f"islands[{k}]", colour, "a colour shown on at least one die face"
                    )
        if isinstance(self.sea_cards, bool) or not isinstance(self.sea_cards, int):
            raise InvalidInput("sea_cards", self.sea_cards, "an integer")
        if not 1 <= self.sea_cards <= 30:
            raise InvalidInput("sea_cards", self.sea_cards, "between 1 and 30")

    @property
    def colours(self) -> tuple[str, ...]:
        """The island colours, in order of first appearance."""
        seen: dict[str, None] = {}
        for island in self.islands:
            for colour in island:
                seen.setdefault(colour, None)
        return tuple(seen)

    @property
    def discs_needed(self) -> int:
        """Discs needed to finish every lighthouse (4 per island)."""
        return DISCS_PER_LIGHTHOUSE * len(self.islands)

    def to_dict(self) -> dict[str, Any]:
        """The JSON kit format as a plain dict."""
        return {
            "islands": [list(i) for i in self.islands],
            "dice": [list(d) for d in self.dice],
            "sea_cards": self.sea_cards,
        }

    @classmethod
    def from_dict(cls, raw: object) -> Kit:
        """Build a kit from the JSON kit format; bad shapes raise InvalidInput."""
        if not isinstance(raw, dict):
            raise InvalidInput("kit", type(raw).__name__, "a JSON object")
        for key in ("islands", "dice", "sea_cards"):
            if key not in raw:
                raise InvalidInput("kit", sorted(raw), f"an object with key {key!r}")
        islands, dice = raw["islands"], raw["dice"]
        if not isinstance(islands, list) or not all(isinstance(i, list) for i in islands):
            raise InvalidInput("islands", islands, "a list of [colour, colour] pairs")
        if not isinstance(dice, list) or not all(isinstance(d, list) for d in dice):
            raise InvalidInput("dice", dice, "a list of two lists of faces")
        if len(dice) != 2:
            raise InvalidInput("dice", len(dice), "exactly two dice")
        for k, island in enumerate(islands):
            if len(island) != 2:
                raise InvalidInput(f"islands[{k}]", island, "two colour names")
        return cls(
            tuple((i[0], i[1]) for i in islands),
            (tuple(dice[0]), tuple(dice[1])),
            raw["sea_cards"],
        )

    @classmethod
    def load(cls, path: str | Path) -> Kit:
        """Read a kit JSON file; unreadable files and bad JSON raise InvalidInput."""
        return cls.from_dict(_read_json(path, "kit"))


def default_kit(islands: int = 8, sea_cards: int = 8) -> Kit:
    """The default kit of RULES.md section 5 with the first ``islands`` islands.

    Each die has one boat face and one face per colour (red, blue, green,
    orange, purple).

    Raises
    ------
    InvalidInput
        ``islands`` outside 1..8 or ``sea_cards`` outside 1..30.

    Examples
    --------
    >>> default_kit(6).islands[5]
    ('red', 'green')
    """
    if isinstance(islands, bool) or not isinstance(islands, int) or not 1 <= islands <= 8:
        raise InvalidInput("islands", islands, "an integer in 1..8")
    die = (BOAT, *DEFAULT_COLOURS)
    return Kit(DEFAULT_ISLANDS[:islands], (die, die), sea_cards)


@dataclass(frozen=True)
class Position:
    """A position between turns.

    Parameters
    ----------
    discs : tuple of tuple of str
        Discs on each lighthouse, bottom to top (one tuple per island in play).
    boat : int
        0 before the first sea card, ``k`` on the k-th card (``0..sea_cards``).
    maurice : int
        Islands Maurice has walked past his own, modulo the islands in play.
    """

    discs: tuple[tuple[str, ...], ...]
    boat: int = 0
    maurice: int = 0

    @staticmethod
    def start(kit: Kit) -> Position:
        """Empty lighthouses, boat before the first card, Maurice on his island."""
        return Position(tuple(() for _ in kit.islands), 0, 0)

    def check(self, kit: Kit) -> Position:
        """Return self if it is a legal position of ``kit``, else raise InvalidInput.

        Examples
        --------
        >>> kit = default_kit(2)
        >>> Position((("red", "blue"), ()), 1, 0).check(kit).boat
        1
        """
        n = len(kit.islands)
        if len(self.discs) != n:
            raise InvalidInput("discs", len(self.discs), f"{n} lighthouses (one per island)")
        for k, (stack, island) in enumerate(zip(self.discs, kit.islands, strict=True)):
            if len(stack) > DISCS_PER_LIGHTHOUSE:
                raise InvalidInput(f"discs[{k}]", list(stack), "at most 4 discs")
            for j, colour in enumerate(stack):
                if colour not in island:
                    raise InvalidInput(f"discs[{k}][{j}]", colour, f"one of {list(island)}")
                if j and stack[j - 1] == colour:
                    raise InvalidInput(f"discs[{k}]", list(stack), "alternating colours")
        if isinstance(self.boat, bool) or not isinstance(self.boat, int):
            raise InvalidInput("boat", self.boat, "an integer")
        if not 0 <= self.boat <= kit.sea_cards:
            raise InvalidInput("boat", self.boat, f"a sea card position in 0..{kit.sea_cards}")
        if isinstance(self.maurice, bool) or not isinstance(self.maurice, int):
            raise InvalidInput("maurice", self.maurice, "an integer")
        if not 0 <= self.maurice < n:
            raise InvalidInput("maurice", self.maurice, f"an island offset in 0..{n - 1}")
        return self

    @property
    def discs_laid(self) -> int:
        """Total discs on all lighthouses."""
        return sum(len(s) for s in self.discs)

    def is_won(self) -> bool:
        """Every lighthouse has 4 discs."""
        return all(len(s) == DISCS_PER_LIGHTHOUSE for s in self.discs)

    def to_dict(self) -> dict[str, Any]:
        """The JSON position format as a plain dict."""
        return {"discs": [list(s) for s in self.discs], "boat": self.boat, "maurice": self.maurice}

    @classmethod
    def from_dict(cls, raw: object, kit: Kit) -> Position:
        """Build and check a position from the JSON position format."""
        if not isinstance(raw, dict):
            raise InvalidInput("position", type(raw).__name__, "a JSON object")
        discs = raw.get("discs")
        if not isinstance(discs, list) or not all(isinstance(s, list) for s in discs):
            raise InvalidInput("discs", discs, "a list of lists of colours")
        return cls(tuple(tuple(s) for s in discs), raw.get("boat", 0), raw.get("maurice", 0)).check(
            kit
        )

    @classmethod
    def load(cls, path: str | Path, kit: Kit) -> Position:
        """Read a position JSON file; unreadable files and bad JSON raise InvalidInput."""
        return cls.from_dict(_read_json(path, "position"), kit)


def can_take(island: tuple[str, str], stack: Sequence[str], colour: str) -> bool:
    """Whether a lighthouse can take a disc of ``colour`` now (RULES.md section 5, step 3).

    Examples
    --------
    >>> can_take(("red", "blue"), (), "blue"), can_take(("red", "blue"), ("red",), "red")
    (True, False)
    """
    if len(stack) >= DISCS_PER_LIGHTHOUSE or colour not in island:
        return False
    return not stack or stack[-1] != colour


@dataclass(frozen=True)
class Roll:
    """One outcome of rolling both dice, grouped by what it does.

    ``boat`` says whether at least one die shows the boat; ``colours`` is the
    sorted multiset of colour faces (0, 1 or 2); ``probability`` is exact.
    """

    boat: bool
    colours: tuple[str, ...]
    probability: Fraction


def roll_outcomes(kit: Kit) -> tuple[Roll, ...]:
    """The distinct roll outcomes of the two dice with their exact probabilities.

    Examples
    --------
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

    ``placements`` lists the colour discs in the order they are handled, each
    with the island index that takes it, or None when no lighthouse could take
    it (it goes back and Maurice walks). ``bonus`` is the (colour, island) of
    Maurice's bonus disc, or None when his walk earns none.
    """

    placements: tuple[tuple[str, int | None], ...]
    bonus: tuple[str, int] | None = None

    @property
    def returned(self) -> int:
        """Discs that went back to the supply (Maurice's steps)."""
        return sum(1 for _, i in self.placements if i is None)


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
    """Every (colour, island) the bonus disc may go to, in island then colour order."""
    return [
        (colour, i)
        for i, isl in enumerate(kit.islands)
        for colour in isl
        if can_take(isl, stacks[i], colour)
    ]


def legal_decisions(kit: Kit, position: Position, roll: Roll) -> tuple[Decision, ...]:
    """Every legal decision for ``roll`` in ``position`` (RULES.md section 5, steps 3-4).

    Orders of two different discs are both listed; a disc no lighthouse can take
    at its turn is returned; when Maurice's walk reaches or passes his island and
    some lighthouse can take a disc, every (colour, island) bonus is listed (the
    analysis always takes the bonus). The boat does not change what is legal.

    Examples
    --------
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
    """How a turn ends."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class TurnResult:
    """The position after a turn and whether the game is over."""

    position: Position
    outcome: Outcome


def play_turn(
    kit: Kit, position: Position, roll: Roll, decision: Decision, *, check: bool = True
) -> TurnResult:
    """Play one turn: boat first (loss at once), then discs, Maurice, the bonus, the win check.

    ``check=False`` skips the legality check (for callers that took ``decision``
    from :func:`legal_decisions` themselves).

    Raises
    ------
    InvalidInput
        ``decision`` is not among ``legal_decisions(kit, position, roll)``.

    Examples
    --------
    >>> kit = default_kit(1, sea_cards=1)
    >>> pos = Position((("red", "blue", "red"),), boat=1)
    >>> play_turn(kit, pos, Roll(True, ("blue",), Fraction(1, 18)),
    ...           Decision((("blue", 0),))).outcome
    <Outcome.LOST: 'lost'>
    """
    if check and decision not in legal_decisions(kit, position, roll):
        raise InvalidInput("decision", decision, "one of the legal decisions for this roll")
    boat = position.boat + (1 if roll.boat else 0)
    if boat > kit.sea_cards:
        return TurnResult(Position(position.discs, kit.sea_cards, position.maurice), Outcome.LOST)
    stacks = [list(s) for s in position.discs]
    for colour, i in decision.placements:
        if i is not None:
            stacks[i].append(colour)
    if decision.bonus is not None:
        stacks[decision.bonus[1]].append(decision.bonus[0])
    maurice = (position.maurice + decision.returned) % len(kit.islands)
    after = Position(tuple(tuple(s) for s in stacks), boat, maurice)
    return TurnResult(after, Outcome.WON if after.is_won() else Outcome.PLAYING)
