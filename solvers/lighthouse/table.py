"""Lighthouses: how hard is the game? The difficulty table by players, policy and sea cards.

Implements docs/lighthouse.md ("What is computed": ``difficulty_table``; "The cached
table"; seed 000_aeb701e368f40145.txt): one exact solve per kit and policy, every
sea-card count read from it, as the odds are computed (odds.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import default_kit, islands_in_play
from isles.models.lighthouse.questions import LighthouseTable
from isles.models.status import Status
from isles.solvers.lighthouse.bounds import upper_bound_by_disc_count
from isles.solvers.lighthouse.odds import Method, exact_start
from isles.solvers.lighthouse.policies import policy_status
from isles.solvers.work import Progress

__all__ = ["DifficultyEntry", "DifficultyTable", "answer_lighthouse_table", "difficulty_table"]


@dataclass(frozen=True)
class DifficultyEntry:
    """One (kit, policy, sea cards) cell of the difficulty table (default kit).

    Parameters
    ----------
    islands : int
        Islands in play.
    players : tuple of int
        The player counts that play this many islands (2 and 4 players: 8
        islands; 3 players: 6); empty for other island counts.
    sea_cards : int
    policy : {"optimal", "greedy", "random"}
    status : Status
        ``optimal`` or ``exact``.
    method : {"dp", "dp sweep"}
    win_probability : float
        The DP's value, within ``error_bound``.
    error_bound : float
    upper_bound : Fraction
        The certified disc-count bound on every policy.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseTable
    >>> asked = LighthouseTable.read({"islands": 1, "sea_cards": (1,), "policy": "greedy"})
    >>> row = answer_lighthouse_table(asked).rows[0]
    >>> row.status, row.method, row.players
    (<Status.EXACT: 'exact'>, 'dp sweep', ())
    """

    islands: int
    players: tuple[int, ...]
    sea_cards: int
    policy: Policy
    status: Status
    method: Method
    win_probability: float
    error_bound: float
    upper_bound: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers")."""
        return {
            "islands": self.islands,
            "players": list(self.players),
            "sea_cards": self.sea_cards,
            "status": str(self.status),
            "policy": self.policy,
            "method": self.method,
            **probability_json("win_probability", self.win_probability),
            "error_bound": self.error_bound,
            **probability_json("certified_upper_bound", self.upper_bound),
        }


@dataclass(frozen=True)
class DifficultyTable:
    """Win probability by players (islands), policy and sea cards.

    From :func:`answer_lighthouse_table` (``isles.lighthouse.difficulty_table``).

    A table has no single value: each row holds its own.

    Parameters
    ----------
    policies : tuple of {"optimal", "greedy", "random"}
    rows : tuple of DifficultyEntry
        By kit (in the order asked), then policy, then sea cards.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseTable
    >>> asked = LighthouseTable.read({"islands": 2, "sea_cards": 2, "policy": "greedy"})
    >>> table = answer_lighthouse_table(asked)
    >>> table.status, [round(r.win_probability, 4) for r in table.rows]
    (<Status.EXACT: 'exact'>, [0.37, 0.6358])
    """

    policies: tuple[Policy, ...]
    rows: tuple[DifficultyEntry, ...]

    @property
    def status(self) -> Status:
        """``optimal`` when every row is optimal play, else ``exact`` (fixed policies too)."""
        if all(r.status is Status.OPTIMAL for r in self.rows):
            return Status.OPTIMAL
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): no top-level value, only rows.

        Examples
        --------
        >>> from isles.models.lighthouse.questions import LighthouseTable
        >>> asked = LighthouseTable.read({"islands": 1, "sea_cards": (1,)})
        >>> sorted(answer_lighthouse_table(asked).to_dict())
        ['policies', 'rows', 'status']
        """
        return {
            "status": str(self.status),
            "policies": list(self.policies),
            "rows": [r.to_dict() for r in self.rows],
        }


def _table_kits(question: LighthouseTable) -> dict[int, tuple[int, ...]]:
    """The table's kits: islands -> the player counts that play them (2 and 4 share 8)."""
    kits: dict[int, tuple[int, ...]] = {}
    if question.islands is None:
        counts = (2, 3, 4) if question.players is None else question.players
        if not counts:
            raise InvalidInput("players", [], "at least one number of players")
        for p in counts:
            n = islands_in_play(p)
            kits[n] = (*kits.get(n, ()), p)
        return kits
    if not question.islands:
        raise InvalidInput("islands", [], "at least one number of islands")
    for n in question.islands:
        kits.setdefault(n, ())
    return kits


def answer_lighthouse_table(
    question: LighthouseTable, *, progress: Progress = None
) -> DifficultyTable:
    """Win probability by players (or islands), policy and sea cards, default kit, exact.

    2 and 4 players play 8 islands, 3 players 6 (the same kit for 2 and 4
    players: one solve). Each kit and policy is solved once with the most sea
    cards asked (a game with fewer cards is the same game with the boat further
    on), as the odds are (optimal and random tables cached, unless ``cache`` is
    off).

    Parameters
    ----------
    question : LighthouseTable
        Read by :meth:`~isles.models.contract.Question.read` or built by
        ``isles.lighthouse.difficulty_table``.
    progress : bool, None or callable
        Progress bars (stderr) of long solves, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        No policies, sea cards, islands or players.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseTable
    >>> ask = LighthouseTable.read({"islands": (2,), "sea_cards": (1,), "policy": ("greedy",)})
    >>> [round(r.win_probability, 4) for r in answer_lighthouse_table(ask).rows]
    [0.37]
    """
    pols, cards = question.policy, question.sea_cards
    if not pols:
        raise InvalidInput("policy", [], "at least one policy")
    if not cards:
        raise InvalidInput("sea_cards", [], "at least one number of sea cards")
    top = max(cards)
    rows: list[DifficultyEntry] = []
    for n, who in _table_kits(question).items():
        kit = default_kit(n, top)
        for pol in pols:
            by_cards, bound, _ = exact_start(kit, pol, False, question.cache, progress)
            method: Method = "dp sweep" if pol == "greedy" else "dp"
            rows.extend(
                DifficultyEntry(
                    n,
                    who,
                    k,
                    pol,
                    policy_status(pol),
                    method,
                    float(by_cards[k - 1]),
                    bound,
                    upper_bound_by_disc_count(kit.with_sea_cards(k)),
                )
                for k in cards
            )
    return DifficultyTable(pols, tuple(rows))


def difficulty_table(
    islands: int | Iterable[int] | None = None,
    sea_cards: int | Iterable[int] = 8,
    policy: str | Iterable[str] = ("optimal", "greedy", "random"),
    *,
    players: int | Iterable[int] | None = None,
    cache: bool = True,
    progress: Progress = None,
) -> DifficultyTable:
    """Win probability by players (or islands), policy and sea cards, default kit, exact.

    2 and 4 players play 8 islands, 3 players 6 (the same kit for 2 and 4
    players: one solve). Each kit and policy is solved once with the most
    sea cards asked (a game with fewer cards is the same game with the boat
    further on), as in :func:`~isles.lighthouse.odds` (optimal and random tables cached).

    Parameters
    ----------
    islands : int or iterable of int, optional
        Island counts (1..8) of the default kit. Default: the kits of ``players``.
    sea_cards : int or iterable of int
        The rows: ``N`` for 1..N (default 1..8), or the sea-card counts (each 1..30).
    policy : str or iterable of {"optimal", "greedy", "random"}
        One policy or several (default all three).
    players : int or iterable of int, optional
        Player counts, each 2, 3 or 4 (instead of ``islands``). When neither is
        given: 2, 3 and 4 players.
    cache : bool
        Read and keep large tables in the user's cache directory.
    progress : bool, None or callable
        Progress bars (stderr) of long solves, as :func:`~isles.lighthouse.odds`'s.

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        Both ``islands`` and ``players``; no islands, players, sea cards or
        policies; a value out of range; an unknown policy.

    Notes
    -----
    Measured (docs/lighthouse.md, "Measured"): the full table, 2-4 players x
    8 sea cards x 3 policies, takes about 100 s of CPU the first time (the
    8-island greedy sweep, 60 s, then optimal and random play, 20 s each), and
    seconds once the tables and greedy's start values are cached.

    Examples
    --------
    >>> table = difficulty_table((2,), (1, 2), "greedy")
    >>> [round(r.win_probability, 4) for r in table.rows]
    [0.37, 0.6358]
    >>> [(r.islands, r.players) for r in difficulty_table(sea_cards=(1,), players=(3,)).rows]
    [(6, (3,)), (6, (3,)), (6, (3,))]
    """
    question = LighthouseTable.ask(
        # one count or several, as the declaration reads them (N sea cards: rows 1..N)
        islands=_counts(islands),
        sea_cards=_counts(sea_cards),
        policy=policy if isinstance(policy, str) else tuple(policy),
        players=_counts(players),
        cache=cache,
    )
    return answer_lighthouse_table(question, progress=progress)


def _counts(value: int | Iterable[int] | None) -> int | tuple[int, ...] | None:
    """One count, or several as a tuple (a range, a list), as the table's fields read them."""
    return value if value is None or isinstance(value, int) else tuple(value)
