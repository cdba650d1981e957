"""Plunder, the whole game recorded: the deal, the first clue, every turn's flip and crew cards.

Implements docs/plunder.md ("The whole game", "The game record") for seed
``seeds/003_cfc377110defcf34.txt``: the game record (the deduction record plus
the flips and the crew cards), its checks and its JSON format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json, parse_json, read_int, read_list, read_object, read_str
from isles.models.plunder.codes import (
    CATEGORIES,
    COPIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VALUES,
    Category,
    Code,
    Names,
    answer,
    check_deal,
    code_from_json,
    is_int,
)
from isles.models.plunder.record import Me, Observation, Record
from isles.models.plunder.scoring import CrewCard, GameScore, score_game

__all__ = ["TURN_LIMIT", "GameRecord", "GameTurn"]

TURN_LIMIT = 15
"""Turns in a game (one turn: one player shows a clue); docs/plunder.md, rule decision 10."""


def _renamed(exc: InvalidInput, old: str, new: str) -> InvalidInput:
    """The same error with its field path's prefix ``old`` written ``new``."""
    text = str(exc)[len(exc.field) + 2 :]
    said = text[: text.index("; expected ")] if "; expected " in text else None
    return InvalidInput(exc.field.replace(old, new, 1), exc.value, exc.expected, problem=said)


@dataclass(frozen=True)
class GameTurn:
    """One turn of a played game: the flip, the clue and answers, the crew cards sent.

    Parameters
    ----------
    observation : Observation
        The active player, the clue on the table after the flip, every other
        player's answer.
    flip : Category or None
        The deck the active player flipped a card from (the new card is the
        clue's value in that category), or None for no flip.
    crew : tuple of CrewCard
        The crew cards that went into the chest after the answers, in chest order.

    Examples
    --------
    >>> t = GameTurn(Observation(0, Code(1, 2, 3), {1: True}), Category.TRAP, ())
    >>> t.flip.value, t.observation.active
    ('trap', 0)
    """

    observation: Observation
    flip: Category | None = None
    crew: tuple[CrewCard, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.observation, Observation):
            raise InvalidInput("turn.observation", self.observation, "an Observation")
        if self.flip is not None and not isinstance(self.flip, Category):
            raise InvalidInput("turn.flip", self.flip, "a Category or None")
        object.__setattr__(self, "crew", tuple(self.crew))
        for j, card in enumerate(self.crew):
            if not isinstance(card, CrewCard):
                raise InvalidInput(f"turn.crew[{j}]", card, "a CrewCard")


@dataclass(frozen=True)
class GameRecord:
    """A played game, whole: the deal, the first clue, every turn; checked on creation.

    Parameters
    ----------
    players : int
        2..6.
    deal : sequence of Code
        Every player's code (distinct values per category).
    table : Code
        The first three cards turned up, one from each deck.
    turns : sequence of GameTurn
        The turns in order.
    turn_limit : int, default TURN_LIMIT (15)
        Turns after which the game ends.
    names : Names or None
        Display names of the values.
    first : int, default 0
        The player who plays the first turn.

    Raises
    ------
    InvalidInput
        The first bad entry, by its field path (``game.turns[3].answers.2``):
        an illegal deal; an active player out of turn (player ``(first + i) %
        players`` plays turn ``i``); a clue that differs from the one before in another
        deck than the flipped one (or at all without a flip); a fourth copy of
        a value out of a deck; an untruthful or missing answer; a crew card
        on one's own treasure, out of range, or beyond a player's
        ``players`` cards; a turn after the game ended (``turn_limit`` turns,
        or no crew card left).

    See Also
    --------
    GameRecord.from_dict, GameRecord.load : the JSON game record (docs/plunder.md).
    play_game : play a game between policies.

    Examples
    --------
    >>> deal = (Code(0, 0, 0), Code(1, 1, 1))
    >>> t0 = GameTurn(Observation(0, Code(1, 2, 3), {1: True}), Category.ISLAND, ())
    >>> g = GameRecord(2, deal, Code(4, 2, 3), (t0,))
    >>> g.score().total, g.finished
    ((6, 6), False)
    >>> GameRecord(2, deal, Code(4, 2, 3), (GameTurn(Observation(0, Code(1, 2, 3), {1: False})),))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: game.turns[0].clue: ... expected the clue before ...
    """

    players: int
    deal: tuple[Code, ...]
    table: Code
    turns: tuple[GameTurn, ...] = ()
    turn_limit: int = TURN_LIMIT
    names: Names | None = None
    first: int = 0

    def __post_init__(self) -> None:
        n = self.players
        if not is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput("game.players", n, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
        if not is_int(self.turn_limit) or self.turn_limit < 1:
            raise InvalidInput("game.turn_limit", self.turn_limit, "an integer >= 1")
        if not is_int(self.first) or not 0 <= self.first < n:
            raise InvalidInput("game.first", self.first, f"a player index in 0..{n - 1}")
        object.__setattr__(self, "deal", tuple(self.deal))
        object.__setattr__(self, "turns", tuple(self.turns))
        for p, code in enumerate(self.deal):
            if not isinstance(code, Code):
                raise InvalidInput(f"game.deal[{p}]", code, "a Code")
        try:
            check_deal(n, self.deal)
        except InvalidInput as exc:
            raise _renamed(exc, "deal", "game.deal") from None
        if not isinstance(self.table, Code):
            raise InvalidInput("game.table", self.table, "a Code")
        if self.names is not None and not isinstance(self.names, Names):
            raise InvalidInput("game.names", self.names, "a Names or None")
        _check_turns(self)

    # -- what the record implies ------------------------------------------

    @property
    def observations(self) -> tuple[Observation, ...]:
        """The turns' observations (the deduction record's)."""
        return tuple(t.observation for t in self.turns)

    @property
    def chest(self) -> tuple[CrewCard, ...]:
        """Every crew card, in the order it went into the chest."""
        return tuple(card for t in self.turns for card in t.crew)

    def cards_used(self) -> tuple[int, ...]:
        """Crew cards each player has sent."""
        used = [0] * self.players
        for card in self.chest:
            used[card.proposer] += 1
        return tuple(used)

    @property
    def finished(self) -> bool:
        """Whether the game is over: ``turn_limit`` turns, or no crew card left."""
        return len(self.turns) >= self.turn_limit or all(
            u >= self.players for u in self.cards_used()
        )

    def seen(self) -> tuple[tuple[int, ...], ...]:
        """Per deck, how many cards of each value have come out (table and flips)."""
        counts = [[0] * VALUES for _ in CATEGORIES]
        for k, v in enumerate(self.table.values):
            counts[k][v] += 1
        for t in self.turns:
            if t.flip is not None:
                k = CATEGORIES.index(t.flip)
                counts[k][t.observation.clue.values[k]] += 1
        return tuple(tuple(row) for row in counts)

    def clue(self) -> Code:
        """The combination on the table now (the last turn's clue, or the first cards)."""
        return self.turns[-1].observation.clue if self.turns else self.table

    def record_for(self, player: int | None) -> Record:
        """The deduction record as ``player`` has it (None: a spectator who knows no code).

        >>> g = GameRecord(2, (Code(0, 0, 0), Code(1, 1, 1)), Code(4, 2, 3))
        >>> g.record_for(1).me
        Me(player=1, code=Code(island=1, marker=1, trap=1))
        """
        me = None
        if player is not None:
            if not is_int(player) or not 0 <= player < self.players:
                raise InvalidInput("player", player, f"a player index in 0..{self.players - 1}")
            me = Me(player, self.deal[player])
        return Record(self.players, self.observations, me, self.names, self.seen())

    def score(self) -> GameScore:
        """The scores from the deal and the chest, read in order (docs/plunder.md)."""
        return score_game(self.deal, self.chest)

    @classmethod
    def from_record(
        cls, record: Record, deal: Sequence[Code], turn_limit: int = TURN_LIMIT
    ) -> GameRecord:
        """The game a deduction record describes, given the deal (no crew card yet).

        The first clue is the first turn's (taken as the cards first turned up);
        a clue that differs from the one before in one deck is a flip of that
        deck, an unchanged clue no flip.

        Parameters
        ----------
        record : Record
            The deduction record.
        deal : sequence of Code
            Every player's code.
        turn_limit : int, default TURN_LIMIT (15)

        Returns
        -------
        GameRecord

        Raises
        ------
        InvalidInput
            A clue that changes in two decks at once, or any check of
            :class:`GameRecord` (turns out of seat order, answers that the deal
            contradicts), naming the record's field.

        Examples
        --------
        >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),
        ...                Observation(1, Code(1, 2, 4), {0: False})))
        >>> g = GameRecord.from_record(r, (Code(0, 0, 0), Code(1, 1, 1)))
        >>> [t.flip for t in g.turns]
        [None, <Category.TRAP: 'trap'>]
        """
        if not record.observations:
            raise InvalidInput("record.observations", [], "at least one turn (the first clue)")
        turns = []
        before = record.observations[0].clue
        for i, obs in enumerate(record.observations):
            changed = [c for c in CATEGORIES if obs.clue.value(c) != before.value(c)]
            if len(changed) > 1:
                raise InvalidInput(
                    f"record.observations[{i}].clue",
                    obs.clue.to_dict(),
                    "at most one card changed since the clue before ("
                    + ", ".join(f"{c.value} {before.value(c)}" for c in CATEGORIES)
                    + ")",
                )
            turns.append(GameTurn(obs, changed[0] if changed else None))
            before = obs.clue
        try:
            return cls(
                record.players,
                tuple(deal),
                record.observations[0].clue,
                tuple(turns),
                turn_limit,
                record.names,
                record.observations[0].active,
            )
        except InvalidInput as exc:
            raise _renamed(exc, "game.turns", "record.observations") from None

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON game record of docs/plunder.md (values as indices).

        >>> g = GameRecord(2, (Code(0, 0, 0), Code(1, 1, 1)), Code(4, 2, 3))
        >>> GameRecord.from_dict(g.to_dict()) == g
        True
        """
        out: dict[str, Any] = {"players": self.players}
        if self.turn_limit != TURN_LIMIT:
            out["turn_limit"] = self.turn_limit
        if self.first:
            out["first"] = self.first
        if self.names is not None:
            out["names"] = {c.value: list(self.names.of(c)) for c in CATEGORIES}
        out["deal"] = [c.to_dict() for c in self.deal]
        out["table"] = self.table.to_dict()
        out["turns"] = [
            {
                "active": t.observation.active,
                "flip": t.flip.value if t.flip is not None else None,
                "clue": t.observation.clue.to_dict(),
                "answers": {str(p): a for p, a in t.observation.answers.items()},
                "crew": [
                    {"player": c.proposer, "target": c.target, "code": c.code.to_dict()}
                    for c in t.crew
                ],
            }
            for t in self.turns
        ]
        return out

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read the JSON game record of docs/plunder.md; errors name the first bad entry.

        Parameters
        ----------
        data : object
            The parsed JSON object: ``players``, ``deal``, ``table`` and
            ``turns`` required, ``turn_limit`` and ``names`` optional.

        Returns
        -------
        GameRecord

        Raises
        ------
        InvalidInput
            The first bad entry, by its field path (``game.turns[2].crew[0].target``).

        Examples
        --------
        >>> GameRecord.from_dict({"players": 2, "deal": [], "table": None, "turns": []})
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: game.deal: 0 is invalid; expected one code per player (2)
        """
        obj = read_object(
            data, "game", ["players", "deal", "table", "turns"], ["turn_limit", "names", "first"]
        )
        players = read_int(obj["players"], "game.players", MIN_PLAYERS, MAX_PLAYERS)
        limit = TURN_LIMIT if obj.get("turn_limit") is None else obj["turn_limit"]
        turn_limit = read_int(limit, "game.turn_limit", 1)
        names = None
        if obj.get("names") is not None:
            try:  # the deduction record's reader, with this record's field names
                names = Record.from_dict({"players": 2, "names": obj["names"]}).names
            except InvalidInput as exc:
                raise _renamed(exc, "record.", "game.") from None
        raw_deal = read_list(obj["deal"], "game.deal")
        if len(raw_deal) != players:
            raise InvalidInput("game.deal", len(raw_deal), f"one code per player ({players})")
        deal = tuple(code_from_json(f"game.deal[{p}]", c, names) for p, c in enumerate(raw_deal))
        table = code_from_json("game.table", obj["table"], names)
        turns = []
        decks = [c.value for c in CATEGORIES]
        for i, raw in enumerate(read_list(obj["turns"], "game.turns")):
            where = f"game.turns[{i}]"
            t = read_object(raw, where, ["active", "clue", "answers"], ["flip", "crew"])
            flip = None
            if t.get("flip") is not None:
                flip = Category(read_str(t["flip"], f"{where}.flip", decks))
            observation = _observation(where, t, players, names)
            crew = []
            for j, rc in enumerate(read_list(t.get("crew") or [], f"{where}.crew")):
                c = read_object(rc, f"{where}.crew[{j}]", ["player", "target", "code"])
                crew.append(
                    CrewCard(
                        read_int(c["player"], f"{where}.crew[{j}].player", 0, players - 1),
                        read_int(c["target"], f"{where}.crew[{j}].target", 0, players - 1),
                        code_from_json(f"{where}.crew[{j}].code", c["code"], names),
                    )
                )
            turns.append(GameTurn(observation, flip, tuple(crew)))
        first = read_int(obj.get("first") or 0, "game.first", 0, players - 1)
        return cls(players, deal, table, tuple(turns), turn_limit, names, first)

    @classmethod
    def from_json(cls, text: str, source: str = "game") -> GameRecord:
        """Parse JSON text in the game record format (errors as :meth:`from_dict`)."""
        return cls.from_dict(parse_json(text, source))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a game record file; ``"-"`` reads standard input."""
        return cls.from_dict(load_json(path, "game file"))


def _observation(
    where: str, t: Mapping[str, object], players: int, names: Names | None
) -> Observation:
    """One turn's observation, read with the deduction record's rules and field names."""
    try:
        record = Record.from_dict(
            {
                "players": players,
                "observations": [
                    {"active": t["active"], "clue": t["clue"], "answers": t["answers"]}
                ],
                **({"names": {c.value: list(names.of(c)) for c in CATEGORIES}} if names else {}),
            }
        )
    except InvalidInput as exc:
        raise _renamed(exc, "record.observations[0]", where) from None
    return record.observations[0]


def _check_turns(game: GameRecord) -> None:
    """Replay the turns and raise on the first one that breaks a rule."""
    n = game.players
    clue = game.table
    out = [[0] * VALUES for _ in CATEGORIES]
    for k, v in enumerate(clue.values):
        out[k][v] += 1
    used = [0] * n
    for i, turn in enumerate(game.turns):
        where = f"game.turns[{i}]"
        if not isinstance(turn, GameTurn):
            raise InvalidInput(where, turn, "a GameTurn")
        if i >= game.turn_limit:
            raise InvalidInput(
                where, "a turn", f"no turn after turn {game.turn_limit}", "game over"
            )
        if all(u >= n for u in used):
            raise InvalidInput(where, "a turn", "no turn once every crew card is sent", "game over")
        obs = turn.observation
        if obs.active != (game.first + i) % n:
            raise InvalidInput(
                f"{where}.active", obs.active, f"player {(game.first + i) % n} (in seat order)"
            )
        for k, cat in enumerate(CATEGORIES):
            if cat is turn.flip:
                v = obs.clue.values[k]
                out[k][v] += 1
                if out[k][v] > COPIES:
                    raise InvalidInput(
                        f"{where}.clue.{cat.value}",
                        v,
                        f"a value with a copy left in the {cat.value} deck ({COPIES} of each)",
                    )
            elif obs.clue.values[k] != clue.values[k]:
                raise InvalidInput(
                    f"{where}.clue",
                    obs.clue.to_dict(),
                    f"the clue before ({clue.to_dict()}) with at most the flipped deck changed"
                    f" (flip: {turn.flip.value if turn.flip else 'none'})",
                )
        clue = obs.clue
        for p in range(n):
            if p == obs.active:
                if p in obs.answers:
                    raise InvalidInput(f"{where}.answers.{p}", obs.answers[p], "no answer")
                continue
            if p not in obs.answers:
                raise InvalidInput(f"{where}.answers", dict(obs.answers), f"an answer from {p}")
            truth = answer(game.deal[p], clue)
            if obs.answers[p] != truth:
                raise InvalidInput(
                    f"{where}.answers.{p}",
                    obs.answers[p],
                    f"{truth} (the truthful answer of code {game.deal[p].values})",
                )
        for j, card in enumerate(turn.crew):
            at = f"{where}.crew[{j}]"
            if not 0 <= card.proposer < n:
                raise InvalidInput(f"{at}.player", card.proposer, f"a player in 0..{n - 1}")
            if not 0 <= card.target < n or card.target == card.proposer:
                raise InvalidInput(f"{at}.target", card.target, "another player's index")
            used[card.proposer] += 1
            if used[card.proposer] > n:
                raise InvalidInput(
                    f"{at}.player", card.proposer, f"a player with a crew card left ({n} each)"
                )
