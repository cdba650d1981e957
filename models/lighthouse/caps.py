"""Lighthouses: the policies a question names, and how large a kit each solver takes.

Implements docs/lighthouse.md ("The simple policies", "Caps"; seed
000_aeb701e368f40145.txt). Stated here, beside the kit, so that the questions and
the command line state them without loading NumPy.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "DEFAULT_GAMES",
    "MAX_EXACT_ISLANDS",
    "MAX_FRACTION_ISLANDS",
    "MAX_GAMES",
    "MAX_SWEEP_ISLANDS",
    "MAX_TABLE_ISLANDS",
    "POLICIES",
    "SIMULATE_FROM_ISLANDS",
    "Policy",
]

Policy = Literal["optimal", "greedy", "random"]
"""How the players choose: ``optimal``, ``greedy`` or ``random`` (docs/lighthouse.md)."""

POLICIES: tuple[Policy, ...] = ("optimal", "greedy", "random")
"""Every policy, in the order the documentation lists them."""

MAX_FRACTION_ISLANDS = 4
"""Largest kit solved in Fractions (object arrays: 4 islands take seconds to a minute)."""

MAX_EXACT_ISLANDS = 8
"""Largest kit the class DP solves in every position, under optimal and random play
(the real game, 8 islands: about 30 s and 2.5 GiB the first time, then a cached table)."""

MAX_TABLE_ISLANDS = 7
"""Largest kit whose greedy play is kept for every position (7 islands: a 1.1 GB table;
8 islands' greedy values are swept layer by layer for the start position only)."""

MAX_SWEEP_ISLANDS = 8
"""Largest kit whose start values are computed exactly, for every policy."""

SIMULATE_FROM_ISLANDS = 8
"""Monte Carlo estimates and certified bounds are offered from this many islands on
(smaller kits are exact in seconds)."""

MAX_GAMES = 1_000_000
"""Most games one simulation plays (cooperative and competitive): a 95% interval of
about +-0.001; greedy play of 8 islands takes about 30 s, random play 4 min, the
competitive variant 30 min."""

DEFAULT_GAMES = 20_000
"""Games simulated when the caller does not say (a 95% interval of about +-0.007)."""
