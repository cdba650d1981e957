"""The lighthouse questions: the odds of a kit, the best move, the table, the competitive odds.

Implements docs/lighthouse.md ("Questions", "Named kits"; seed
000_aeb701e368f40145.txt). Each question is declared once here: the library
calls (``odds``, ``best_move``, ``difficulty_table``, ``competitive_odds``)
validate with it, ``isles lighthouse`` derives its options from it and the web
app's advisor reads its requests with it.

Every question but the table chooses its kit the same way (:class:`KitChoice`):
a kit (a :class:`Kit`, a name of :data:`~isles.models.lighthouse.kit.KITS`, or a
kit's JSON), the default kit's first ``islands`` islands, or the real game for
``players`` players, one of the three; none chosen, the kit is
:data:`~isles.models.lighthouse.kit.DEFAULT_KIT` (the real game for 2 players, 8
islands).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import PlainValidator

from isles.models.contract import Is, NotWith, OnlyWith, Question, Together, param
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.jsonio import UNREADABLE, load_json
from isles.models.lighthouse.caps import (
    DEFAULT_GAMES,
    MAX_GAMES,
    POLICIES,
    SIMULATE_FROM_ISLANDS,
    Policy,
)
from isles.models.lighthouse.competitive import MAX_SEATS
from isles.models.lighthouse.kit import (
    DEFAULT_KIT,
    KITS,
    MAX_DEFAULT_ISLANDS,
    MAX_SEA_CARDS,
    Kit,
    default_kit,
    named_kit,
    players_kit,
)
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Roll

__all__ = [
    "COMPETITIVE_TIME_LIMIT",
    "KitChoice",
    "KitFile",
    "KitOrIslands",
    "LighthouseAdvice",
    "LighthouseContest",
    "LighthouseOdds",
    "LighthousePosition",
    "LighthouseTable",
]

#: Seconds the exact competitive solve may take by default (the default 2-seat kit:
#: about a minute on 2 cores).
COMPETITIVE_TIME_LIMIT = 600.0


@dataclass(frozen=True)
class KitFile:
    """A kit file named on the command line (``--kit FILE``), read when the question is."""

    path: str


def _kit(value: object) -> Kit:
    if isinstance(value, Kit):
        return value
    if isinstance(value, KitFile):  # its errors name the entry of the file (kit.sea_cards)
        try:
            data = load_json(value.path, "")
        except InvalidInput as exc:  # no such file: perhaps a misspelt name, so list them
            if not exc.expected.startswith(UNREADABLE):
                raise
            why = exc.expected.removeprefix(UNREADABLE)
            raise InvalidInput(
                "", value.path, f"a kit name ({', '.join(KITS)}) or a kit JSON file{why}"
            ) from None
        return Kit.from_dict(data)
    if isinstance(value, str):
        return named_kit(value, field="")
    if isinstance(value, Mapping):  # a kit's JSON (the web app's requests)
        return Kit.from_dict(value)
    raise InvalidInput("", value, "a Kit, a kit name (" + ", ".join(KITS) + ") or a kit's JSON")


def _position(value: object) -> Position | Mapping[str, Any]:
    """A :class:`Position`, or a position's JSON, read against the kit once it is known."""
    if isinstance(value, Position | Mapping):
        return value
    raise InvalidInput("", value, "a Position or a position's JSON (docs/lighthouse.md)")


def _roll(value: object) -> Roll | tuple[str, ...]:
    """A :class:`Roll`, or its faces (one per die), read against the kit once it is known."""
    if isinstance(value, Roll):
        return value
    if isinstance(value, list | tuple) and all(isinstance(face, str) for face in value):
        return tuple(str(face) for face in value)
    raise InvalidInput("", value, "two faces, one per die, e.g. ['boat', 'red']")


def _policies(value: object) -> Policy | tuple[Policy, ...]:
    """One policy, or one per seat."""
    if isinstance(value, str) and value in POLICIES:
        return value
    if isinstance(value, list | tuple) and value and all(p in POLICIES for p in value):
        return tuple(value)
    raise InvalidInput("", value, "greedy, random or optimal, or one of them per seat")


#: A kit: a :class:`Kit`, a name of :data:`~isles.models.lighthouse.kit.KITS`, or a kit's JSON.
KitValue = Annotated[Kit, PlainValidator(_kit)]
#: A position: a :class:`Position`, or its JSON (read against the kit).
PositionValue = Annotated[Position | Mapping[str, Any], PlainValidator(_position)]
#: A roll: a :class:`Roll`, or its two faces (read against the kit).
RollValue = Annotated[Roll | tuple[str, ...], PlainValidator(_roll)]
#: One policy for every seat, or one per seat.
SeatPolicies = Annotated[str | tuple[str, ...], PlainValidator(_policies)]

_NAMES = ", ".join(KITS)

#: The ``cache`` field's help: a flag on by default, which ``--no-cache`` turns off.
_CACHE = "read and keep the tables in the user's cache directory (--no-cache: solve without them)"


class KitOrIslands(Question):
    """A kit (a Kit, a name or its JSON) or the default kit's first ``islands``, and sea cards."""

    islands: int | None = param(
        None,
        help="islands of the default kit (other kits)",
        metavar="N",
        ge=1,
        le=MAX_DEFAULT_ISLANDS,
    )
    kit: KitValue | None = param(
        None,
        help=f"a kit by name ({_NAMES}) or a kit JSON file (docs/lighthouse.md); - for stdin",
        metavar="NAME|FILE",
        text="kit",
    )
    sea_cards: int | None = param(
        None,
        help="sea cards (default: the kit's; the real game has 8, the competitive kits 3)",
        metavar="N",
        ge=1,
        le=MAX_SEA_CARDS,
    )

    together: ClassVar[tuple[Together, ...]] = (NotWith("islands", "kit"),)

    def chosen_kit(self, default: str = DEFAULT_KIT) -> Kit:
        """The kit chosen, with ``sea_cards`` when given; ``default`` (a name) when none is."""
        sea = self.sea_cards
        if self.kit is not None:
            return self.kit if sea is None else self.kit.with_sea_cards(sea)
        players = getattr(self, "players", None)
        if self.islands is not None:
            return default_kit(self.islands, KITS[default].sea_cards if sea is None else sea)
        if players is not None:
            return players_kit(players, KITS[default].sea_cards if sea is None else sea)
        return named_kit(default, sea)


class KitChoice(KitOrIslands):
    """How a question chooses its kit: ``kit``, ``islands`` or ``players`` (one), and sea cards.

    Examples
    --------
    >>> len(KitChoice.read({}).chosen_kit().islands)
    8
    >>> KitChoice.read({"kit": "game-3", "sea_cards": 2}).chosen_kit().sea_cards
    2
    >>> KitChoice.read({"islands": 3, "players": 2}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --islands: 3 is invalid; expected --islands or --players, ...
    """

    players: int | None = param(
        None,
        help="players of the real game: 8 islands for 2 or 4, 6 for 3 (the kit when none is "
        f"chosen: {DEFAULT_KIT})",
        metavar="N",
        ge=2,
        le=4,
    )
    together: ClassVar[tuple[Together, ...]] = (
        NotWith("islands", "players"),
        NotWith("kit", "players"),
        *KitOrIslands.together,
    )


class LighthouseOdds(KitChoice):
    """The odds of a kit under one policy (``isles.lighthouse.odds``; ``isles lighthouse``).

    Examples
    --------
    >>> LighthouseOdds.read({"certify": 1e-3, "policy": "random"}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --certify: 0.001 is invalid; expected --certify only with ...
    """

    policy: Policy = param("optimal", help="the players' policy")
    exact: bool = param(False, help="exact Fractions (kits of at most 4 islands)")
    simulate: bool = param(
        False,
        help=f"kits of at least {SIMULATE_FROM_ISLANDS} islands: a Monte Carlo estimate and "
        "certified upper bound instead of the exact DP",
    )
    certify: float | None = param(
        None,
        help=f"kits of at least {SIMULATE_FROM_ISLANDS} islands: a certified lower bound from "
        "greedy play evaluated exactly, dropping positions less likely than MIN_MASS "
        "(8 islands, 1e-7: about 5 minutes)",
        metavar="MIN_MASS",
        expected="a probability 0 < p < 1",
        gt=0,
        lt=1,
        finite=True,
    )
    games: int | None = param(
        None,
        help=f"Monte Carlo games (default {DEFAULT_GAMES}; only when the odds are simulated)",
        metavar="N",
        ge=1,
        le=MAX_GAMES,
    )
    seed: int | None = param(
        None, help="Monte Carlo seed (default 0)", metavar="S", ge=0, le=SEED_MAX
    )
    cache: bool = param(True, help=_CACHE, option="--no-cache")

    together: ClassVar[tuple[Together, ...]] = (
        *KitChoice.together,
        OnlyWith("certify", Is("policy", ("optimal", "greedy"))),
    )


class LighthousePosition(KitChoice):
    """A position of a kit (the web app's check of an uploaded position).

    Examples
    --------
    >>> ask = LighthousePosition.read({"islands": 1, "position": {"discs": [[]], "boat": 9,
    ...                                                          "maurice": 0}})
    >>> ask.chosen_position(ask.chosen_kit())
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: position.boat: 9 is invalid; expected an integer in 0..8
    """

    position: PositionValue = param(
        help="the position to advise on (a position JSON file; - for stdin)",
        option="--advise",
        metavar="POSITION.json",
        text="json",
        expected='a position of the kit (docs/lighthouse.md, "Formats")',
    )

    def chosen_position(self, kit: Kit) -> Position:
        """The position; its JSON read against ``kit`` (``position.boat`` names a bad entry)."""
        if isinstance(self.position, Position):
            return self.position  # checked against the kit by the advice itself
        return Position.from_dict(self.position, kit)


class LighthouseAdvice(LighthousePosition):
    """The best move for a roll in a position (``isles.lighthouse.best_move``).

    Examples
    --------
    >>> ask = LighthouseAdvice.read({"islands": 1, "sea_cards": 1, "roll": ["boat", "red"],
    ...                              "position": {"discs": [[]], "boat": 0, "maurice": 0}})
    >>> kit = ask.chosen_kit()
    >>> ask.chosen_roll(kit).boat, ask.chosen_position(kit).boat
    (True, 0)
    """

    roll: RollValue = param(
        help="the roll to advise on, e.g. boat,red",
        metavar="FACE,FACE",
        text="names",
        expected="two faces, one per die, e.g. boat,red",
    )
    exact: bool = param(False, help="exact Fractions (kits of at most 4 islands)")
    cache: bool = param(True, help=_CACHE, option="--no-cache")

    def chosen_roll(self, kit: Kit) -> Roll:
        """The roll, its faces read against ``kit``."""
        if isinstance(self.roll, Roll):
            return self.roll
        return Roll.from_faces(kit, self.roll)


def _counts(low: int, high: int) -> Any:
    """A validator of one count in ``low..high`` or several (a tuple of them)."""
    expected = f"an integer in {low}..{high}"

    def read(value: object) -> tuple[int, ...]:
        single = isinstance(value, int) and not isinstance(value, bool)
        if not single and not isinstance(value, list | tuple):
            raise InvalidInput("", value, f"{expected}, or a list of them")
        items: tuple[object, ...] = (value,) if single else tuple(value)  # type: ignore[arg-type]
        counts: list[int] = []
        for k, n in enumerate(items):
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
                raise InvalidInput("" if single else f"[{k}]", n, expected)
            counts.append(n)
        return tuple(counts)

    return PlainValidator(read)


def _rows(value: object) -> tuple[int, ...]:
    """Sea-card rows: ``N`` is the rows 1..N, a list the rows named."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_SEA_CARDS:
        return tuple(range(1, value + 1))
    return _counts(1, MAX_SEA_CARDS).func(value)  # type: ignore[no-any-return]


def _table_policies(value: object) -> tuple[Policy, ...]:
    found = _policies(value)
    return (found,) if isinstance(found, str) else found


class LighthouseTable(Question):
    """The difficulty table: the odds by players (or islands), policy and sea cards.

    Each of ``islands`` and ``players`` is one count or several; ``sea_cards`` is
    the rows, or ``N`` for the rows 1..N; ``policy`` one policy or several.

    Examples
    --------
    >>> LighthouseTable.read({"islands": (2,), "sea_cards": (1, 2)}).sea_cards
    (1, 2)
    >>> LighthouseTable.read({"players": 3, "sea_cards": 3, "policy": "greedy"}).sea_cards
    (1, 2, 3)
    >>> LighthouseTable.read({"players": (5,)})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players[0]: 5 is invalid; expected an integer in 2..4
    """

    players: Annotated[tuple[int, ...], _counts(2, 4)] | None = param(
        None, help="players of the real game (default: 2, 3 and 4)", text="integer"
    )
    islands: Annotated[tuple[int, ...], _counts(1, MAX_DEFAULT_ISLANDS)] | None = param(
        None, help="islands of the default kit (other kits)", text="integer"
    )
    sea_cards: Annotated[tuple[int, ...], PlainValidator(_rows)] = param(
        tuple(range(1, 9)), help="sea cards: the rows 1..N", text="integer"
    )
    policy: Annotated[tuple[Policy, ...], PlainValidator(_table_policies)] = param(
        POLICIES, help="the policies, one column each", text="name"
    )
    cache: bool = param(True, help=_CACHE, option="--no-cache")

    together: ClassVar[tuple[Together, ...]] = (NotWith("players", "islands"),)


class LighthouseContest(KitOrIslands):
    """Each seat's chance in the competitive variant (``isles.lighthouse.competitive_odds``).

    The kit when none is chosen is the registry's ``competitive-SEATS``.

    Examples
    --------
    >>> ask = LighthouseContest.read({"seats": 3})
    >>> len(ask.chosen_kit().islands), ask.chosen_kit().sea_cards
    (6, 3)
    """

    seats: int = param(
        2, help="players in the competitive variant", metavar="N", ge=2, le=MAX_SEATS
    )
    policy: SeatPolicies = param(
        "greedy", help="greedy, random or (2 seats, kits solved exactly) optimal", text="name"
    )
    games: int | None = param(
        None,
        help="Monte Carlo games (only for a kit too large to solve exactly)",
        ge=1,
        le=MAX_GAMES,
    )
    seed: int | None = param(
        None, help="Monte Carlo seed (default 0)", metavar="S", ge=0, le=SEED_MAX
    )
    time_limit: float = param(
        COMPETITIVE_TIME_LIMIT,
        help="seconds for the exact competitive solve (only for a kit solved exactly; the "
        "answer says timed_out when it is reached)",
        metavar="SEC",
        gt=0,
        finite=True,
    )

    def chosen_kit(self, default: str | None = None) -> Kit:
        """The kit chosen; none chosen, the registry's ``competitive-SEATS``."""
        return super().chosen_kit(f"competitive-{self.seats}" if default is None else default)


#: This game's questions, by name (gathered by isles.models.questions.questions()).
QUESTIONS: dict[str, type[Question]] = {
    "lighthouse_odds": LighthouseOdds,
    "lighthouse_advice": LighthouseAdvice,
    "lighthouse_table": LighthouseTable,
    "lighthouse_contest": LighthouseContest,
}
