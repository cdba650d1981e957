"""Plunder played: the deal, what a player sees, the policy protocol, a game between policies.

Implements docs/plunder.md ("The whole game", "Policies") for seed
``seeds/003_cfc377110defcf34.txt``: dealing the codes and shuffling the decks, a
player's view, the :class:`Policy` a player follows, and :func:`play_game`, which
plays one game between policies by the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.plunder.codes import (
    CATEGORIES,
    COPIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VALUES,
    Category,
    Code,
    answer,
    is_int,
)
from isles.models.plunder.game import TURN_LIMIT, GameRecord, GameTurn
from isles.models.plunder.record import Me, Observation, Record
from isles.models.plunder.scoring import CrewCard

__all__ = ["PlayerView", "Policy", "Seat", "deal_cards", "play_game", "play_turns"]


def deal_cards(
    players: int, rng: np.random.Generator
) -> tuple[tuple[Code, ...], tuple[tuple[int, ...], ...]]:
    """Deal the codes and shuffle the three clue decks (docs/plunder.md, "The whole game").

    Parameters
    ----------
    players : int
        2..6.
    rng : numpy.random.Generator
        The source of randomness.

    Returns
    -------
    deal : tuple of Code
        One code per player, uniform over the legal deals.
    decks : three tuples of 18 ints
        Each deck (island, marker, trap) in the order its cards come up:
        three copies of each value, shuffled uniformly.

    Examples
    --------
    >>> deal, decks = deal_cards(3, np.random.default_rng(1))
    >>> len(deal), [len(d) for d in decks], sorted(decks[0]) == sorted(list(range(6)) * 3)
    (3, [18, 18, 18], True)
    """
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput("players", players, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
    columns = [rng.permutation(VALUES)[:players] for _ in CATEGORIES]
    deal = tuple(Code(*(int(col[p]) for col in columns)) for p in range(players))
    decks = tuple(
        tuple(int(v) for v in rng.permutation(np.repeat(np.arange(VALUES), COPIES)))
        for _ in CATEGORIES
    )
    return deal, decks


# -- players and policies ----------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    """What one player sees at a decision: their code and the public record.

    Attributes
    ----------
    players : int
    player : int
        The player deciding.
    code : Code
        Their own code.
    turn_limit : int
    clue : Code
        The combination on the table now.
    observations : tuple of Observation
        Every turn so far (the public clues and answers).
    flips : tuple of Category or None
        Each turn's flip.
    senders : tuple of tuple of int
        Per turn, who sent a crew card, in chest order (public: the cards
        themselves are hidden in the chest).
    my_cards : tuple of CrewCard
        My own crew cards, in chest order.
    seen : three tuples of six ints
        Cards of each value out of each deck.

    Examples
    --------
    >>> v = PlayerView(2, 0, Code(0, 0, 0), 15, Code(1, 2, 3), (), (), (), (), ((0,) * 6,) * 3)
    >>> v.turn, v.turns_left, v.cards_left(1), v.targets_left()
    (0, 15, 2, (1,))
    """

    players: int
    player: int
    code: Code
    turn_limit: int
    clue: Code
    observations: tuple[Observation, ...]
    flips: tuple[Category | None, ...]
    senders: tuple[tuple[int, ...], ...]
    my_cards: tuple[CrewCard, ...]
    seen: tuple[tuple[int, ...], ...]

    @property
    def turn(self) -> int:
        """Turns played so far."""
        return len(self.observations)

    @property
    def turns_left(self) -> int:
        """Turns still to come."""
        return self.turn_limit - self.turn

    def cards_left(self, player: int) -> int:
        """Crew cards ``player`` has not sent yet."""
        return self.players - sum(s.count(player) for s in self.senders)

    def targets_left(self) -> tuple[int, ...]:
        """The opponents I have sent no crew card on (only a first card counts)."""
        done = {c.target for c in self.my_cards}
        return tuple(p for p in range(self.players) if p != self.player and p not in done)

    def record(self) -> Record:
        """My deduction record: my code, the public turns, the cards out of the decks."""
        return Record(self.players, self.observations, Me(self.player, self.code), None, self.seen)


class Seat(Protocol):
    """One policy playing one seat of one game (it may keep state between calls)."""

    def flip(self, view: PlayerView) -> Category | None:
        """On my turn: the deck to flip a card from, or None for no flip."""
        ...

    def crew(self, view: PlayerView) -> Sequence[tuple[int, Code]]:
        """After each turn's answers: the crew cards to send now, ``(target, code)``."""
        ...


class Policy(Protocol):
    """A way to play Plunder: makes one :class:`Seat` per game and seat.

    A policy sees only what a player sees (:class:`PlayerView`: its own code
    and the public record) and decides the flip on its turn and the crew cards
    it sends after every turn's answers. Implement ``name`` and ``seat``; the
    seat's ``rng`` is the only randomness it may use (games are reproducible
    from their seed). docs/plunder.md, "Policies".
    """

    @property
    def name(self) -> str:
        """A short name for tables and plots."""
        ...

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Seat:
        """A new seat for one game."""
        ...


def _check_flip(where: str, flip: object, seen: Sequence[Sequence[int]]) -> Category | None:
    if flip is None:
        return None
    if not isinstance(flip, Category):
        raise InvalidInput(where, flip, "a Category or None")
    if sum(seen[CATEGORIES.index(flip)]) >= COPIES * VALUES:
        raise InvalidInput(where, flip.value, "a deck with a card left")
    return flip


def _policy(where: str, policy: object) -> Policy:
    """A seat's policy (the catalogue's ``isles.plunder.play_game`` also reads names)."""
    if callable(getattr(policy, "seat", None)) and isinstance(getattr(policy, "name", None), str):
        return policy  # type: ignore[return-value]
    raise InvalidInput(
        where, policy, "a Policy (isles.plunder.play_game also takes a built-in one's name)"
    )


def play_game(
    policies: Sequence[Policy],
    seed: int | np.random.SeedSequence,
    *,
    turn_limit: int = TURN_LIMIT,
) -> GameRecord:
    """Play one game: seat ``p`` plays ``policies[p]``; the record of the whole game.

    Parameters
    ----------
    policies : sequence of Policy
        One per seat, 2..6 seats (``isles.plunder.play_game``, the catalogue's,
        also takes the built-in policies' names ``name[:ARG]``).
    seed : int or numpy.random.SeedSequence
        Everything random in the game (the deal, the decks, each seat's
        randomness) comes from it: the same seed, the same game. An integer
        in 0..SEED_MAX (2**31 - 1), as everywhere in isles.
    turn_limit : int, default TURN_LIMIT (15)

    Returns
    -------
    GameRecord
        Finished: ``turn_limit`` turns, or every crew card sent.

    Raises
    ------
    InvalidInput
        A bad seed, an unknown policy name, or a policy that breaks a rule (a
        flip from an empty deck, a crew card on its own treasure, out of range
        or beyond its cards), naming the policy.

    Notes
    -----
    docs/plunder.md, "The whole game": player ``i % players`` plays turn
    ``i``; the first clue is the top card of each deck; on their turn the
    active player may flip the next card of one deck; the others answer; then,
    starting with the active player and in seat order, each player sends the
    crew cards their policy chooses, into the chest in that order.

    Examples
    --------
    >>> class Patient:
    ...     name = "patient"
    ...     def seat(self, players, player, code, rng):
    ...         return self
    ...     def flip(self, view):
    ...         return None
    ...     def crew(self, view):
    ...         return []
    >>> g = play_game([Patient(), Patient()], seed=3)
    >>> len(g.turns), g.score().total
    (15, (6, 6))
    >>> play_game([Patient(), Patient()], seed=-1)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: seed: -1 is invalid; expected an integer in 0...
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise InvalidInput("policies", policies, "a sequence of policies, one per seat")
    n = len(policies)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput("policies", n, f"one policy per seat, {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not isinstance(seed, np.random.SeedSequence) and (
        not is_int(seed) or not 0 <= seed <= SEED_MAX
    ):
        raise InvalidInput(
            "seed", seed, f"an integer in 0..{SEED_MAX} or a numpy.random.SeedSequence"
        )
    if not is_int(turn_limit) or turn_limit < 1:
        raise InvalidInput("turn_limit", turn_limit, "an integer >= 1")
    lineup = [_policy(f"policies[{p}]", pol) for p, pol in enumerate(policies)]
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    children = ss.spawn(n + 1)
    deal, decks = deal_cards(n, np.random.default_rng(children[0]))
    seats = [
        pol.seat(n, p, deal[p], np.random.default_rng(children[p + 1]))
        for p, pol in enumerate(lineup)
    ]
    table = Code(*(d[0] for d in decks))
    start = GameRecord(n, deal, table, (), turn_limit)
    rest = tuple(d[1:] for d in decks)
    turns = play_turns(
        start, rest, seats, [f"seat {p} ({pol.name})" for p, pol in enumerate(lineup)]
    )
    return GameRecord(n, deal, table, turns, turn_limit)


def play_turns(
    game: GameRecord,
    decks: Sequence[Sequence[int]],
    seats: Sequence[Seat],
    labels: Sequence[str] | None = None,
    until: int | None = None,
) -> tuple[GameTurn, ...]:
    """Play a game on from a position to its end: every turn, the old ones first.

    Parameters
    ----------
    game : GameRecord
        The game so far (the deal, the first clue, the turns played).
    decks : three sequences of int
        The cards still in each deck (island, marker, trap), in the order they
        will come up.
    seats : sequence of Seat
        One per player. A seat sees only its player's :class:`PlayerView`.
    labels : sequence of str, optional
        Names of the seats' policies, for errors.
    until : int, optional
        Stop before this turn (the views still show ``game.turn_limit``):
        for look-ahead that needs only the next few turns.

    Returns
    -------
    tuple of GameTurn
        ``game.turns`` and the turns played on, until ``game.turn_limit`` turns
        or every crew card is sent.

    Raises
    ------
    InvalidInput
        A seat that breaks a rule, named with its label.

    Examples
    --------
    >>> class Patient:
    ...     def flip(self, view):
    ...         return Category.TRAP
    ...     def crew(self, view):
    ...         return []
    >>> g = GameRecord(2, (Code(0, 0, 0), Code(1, 1, 1)), Code(2, 2, 2), turn_limit=2)
    >>> [t.observation.clue.trap for t in play_turns(g, ((), (), (4, 5)), [Patient()] * 2)]
    [4, 5]
    """
    n = game.players
    names = list(labels) if labels is not None else [f"seat {p}" for p in range(n)]
    deal = game.deal
    top = [0, 0, 0]
    clue = game.clue()
    seen = [list(row) for row in game.seen()]
    observations = list(game.observations)
    flips: list[Category | None] = [t.flip for t in game.turns]
    senders = [tuple(c.proposer for c in t.crew) for t in game.turns]
    cards: list[list[CrewCard]] = [[] for _ in range(n)]
    for card in game.chest:
        cards[card.proposer].append(card)
    turns = list(game.turns)

    def view(p: int) -> PlayerView:
        return PlayerView(
            n,
            p,
            deal[p],
            game.turn_limit,
            clue,
            tuple(observations),
            tuple(flips),
            tuple(senders),
            tuple(cards[p]),
            tuple(tuple(r) for r in seen),
        )

    stop = game.turn_limit if until is None else min(until, game.turn_limit)
    for i in range(len(turns), stop):
        if all(len(c) >= n for c in cards):
            break
        active = (game.first + i) % n
        flip = _check_flip(f"{names[active]}: flip", seats[active].flip(view(active)), seen)
        if flip is not None:
            k = CATEGORIES.index(flip)
            if top[k] >= len(decks[k]):
                raise InvalidInput(f"{names[active]}: flip", flip.value, "a deck with a card left")
            v = int(decks[k][top[k]])
            top[k] += 1
            seen[k][v] += 1
            clue = clue.replace(flip, v)
        obs = Observation(active, clue, {p: answer(deal[p], clue) for p in range(n) if p != active})
        observations.append(obs)
        flips.append(flip)
        senders.append(())
        sent: list[CrewCard] = []
        for j in range(n):
            p = (active + j) % n
            chosen = list(seats[p].crew(view(p)))
            who = f"{names[p]}: crew"
            if len(chosen) > n - len(cards[p]):
                raise InvalidInput(who, len(chosen), f"at most {n - len(cards[p])} cards (left)")
            for target, code in chosen:
                if not is_int(target) or not 0 <= target < n or target == p:
                    raise InvalidInput(who, target, "another player's index as target")
                if not isinstance(code, Code):
                    raise InvalidInput(who, code, "a Code")
                card = CrewCard(p, target, code)
                cards[p].append(card)
                sent.append(card)
                senders[-1] = (*senders[-1], p)
        turns.append(GameTurn(obs, flip, tuple(sent)))
    return tuple(turns)
