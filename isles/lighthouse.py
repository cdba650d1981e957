"""The cooperative lighthouse game (seed 000_aeb701e368f40145.txt; docs/lighthouse.md).

The public entry points, one call per question:

- :func:`odds`: the odds of a kit under optimal, greedy or random play; the
  method is chosen by size (every position, the start-value sweep, or Monte
  Carlo beside certified bounds) and the answer (:class:`Odds`) says which;
- :func:`best_move`: the best decision for a roll, with every alternative's odds;
- :func:`difficulty_table`: the odds by islands in play and sea cards;
- :func:`competitive_odds`: each seat's chance in the competitive variant;
- the kit and positions (:class:`Kit`, :class:`Position`, :class:`Roll`,
  :func:`default_kit`, :func:`players_kit`), and the building blocks behind the
  calls (:func:`solve`, :func:`win_probability`, :func:`simulate`, :func:`forward_greedy`, ...).

Every result has ``to_dict()`` (docs/json.md); the caps are stated constants
(:data:`MAX_GAMES`, :data:`MAX_FACES`, :data:`MAX_DP_BYTES`, ...).

Examples
--------
>>> from isles import lighthouse
>>> kit = lighthouse.default_kit(islands=2, sea_cards=2)
>>> res = lighthouse.odds(kit, exact=True)
>>> res.status, res.method, res.win_probability
(<Status.OPTIMAL: 'optimal'>, 'dp', Fraction(196809133707275, 304679870005248))
"""

from isles.models.errors import InvalidInput
from isles.models.lighthouse import (
    DEFAULT_GAMES,
    EXACT_COMPETITIVE_ISLANDS,
    MAX_EXACT_ISLANDS,
    MAX_FACES,
    MAX_FRACTION_ISLANDS,
    MAX_GAMES,
    MAX_ISLANDS,
    MAX_SEA_CARDS,
    MAX_SWEEP_ISLANDS,
    POLICIES,
    Decision,
    Kit,
    Outcome,
    Policy,
    Position,
    Roll,
    default_kit,
    legal_decisions,
    play_turn,
    roll_outcomes,
)
from isles.solvers.lighthouse import (
    FULL_TABLES_BYTES,
    MAX_DP_BYTES,
    Advice,
    CompetitiveExact,
    CompetitiveResult,
    DifficultyEntry,
    DifficultyTable,
    ForwardEvaluation,
    LighthouseSolution,
    Method,
    Odds,
    OutcomeDistribution,
    SimulationResult,
    StartValues,
    advise,
    best_move,
    competitive_exact,
    competitive_kit,
    competitive_odds,
    difficulty_table,
    dp_memory_bytes,
    forward_greedy,
    odds,
    odds_method,
    outcome_distribution,
    simulate,
    simulate_competitive,
    solve,
    upper_bound_by_disc_count,
    wilson_interval,
    win_probability,
)

__all__ = [
    "DEFAULT_GAMES",
    "EXACT_COMPETITIVE_ISLANDS",
    "FULL_TABLES_BYTES",
    "MAX_DP_BYTES",
    "MAX_EXACT_ISLANDS",
    "MAX_FACES",
    "MAX_FRACTION_ISLANDS",
    "MAX_GAMES",
    "MAX_ISLANDS",
    "MAX_SEA_CARDS",
    "MAX_SWEEP_ISLANDS",
    "PLAYER_ISLANDS",
    "POLICIES",
    "Advice",
    "CompetitiveExact",
    "CompetitiveResult",
    "Decision",
    "DifficultyEntry",
    "DifficultyTable",
    "ForwardEvaluation",
    "Kit",
    "LighthouseSolution",
    "Method",
    "Odds",
    "Outcome",
    "OutcomeDistribution",
    "Policy",
    "Position",
    "Roll",
    "SimulationResult",
    "StartValues",
    "advise",
    "best_move",
    "competitive_exact",
    "competitive_kit",
    "competitive_odds",
    "default_kit",
    "difficulty_table",
    "dp_memory_bytes",
    "forward_greedy",
    "legal_decisions",
    "odds",
    "odds_method",
    "outcome_distribution",
    "play_turn",
    "players_kit",
    "roll_outcomes",
    "simulate",
    "simulate_competitive",
    "solve",
    "upper_bound_by_disc_count",
    "wilson_interval",
    "win_probability",
]


#: Islands in play by the number of players (docs/lighthouse.md, "The game"): 2 players
#: hold 4 island cards each, 3 or 4 players 2 each.
PLAYER_ISLANDS: dict[int, int] = {2: 8, 3: 6, 4: 8}


def players_kit(players: int, sea_cards: int = 8) -> Kit:
    """The default kit with the islands in play for 2, 3 or 4 players.

    Parameters
    ----------
    players : int
        2, 3 or 4 (:data:`PLAYER_ISLANDS`: 8, 6 or 8 islands).
    sea_cards : int
        Sea cards, 1..:data:`MAX_SEA_CARDS` (8 in the box).

    Returns
    -------
    Kit
        :func:`default_kit` with the first ``PLAYER_ISLANDS[players]`` islands.

    Raises
    ------
    InvalidInput
        ``players`` not 2, 3 or 4; ``sea_cards`` as :func:`default_kit`.

    See Also
    --------
    default_kit

    Notes
    -----
    Exact advice (:func:`best_move`) needs the full tables, at most
    :data:`MAX_EXACT_ISLANDS` islands: 3 players' 6 islands, not the 8 of 2 or 4 players.

    Examples
    --------
    >>> len(players_kit(3).islands)
    6
    >>> players_kit(5)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players: 5 is invalid; expected 2, 3 or 4
    """
    if isinstance(players, bool) or players not in PLAYER_ISLANDS:
        raise InvalidInput("players", players, "2, 3 or 4")
    return default_kit(PLAYER_ISLANDS[players], sea_cards)
