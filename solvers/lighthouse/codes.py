"""Lighthouses: the lighthouse codes of a kit as arrays (colour indices, states, code powers).

Implements the coding of docs/lighthouse.md ("The dynamic programme": one state
per lighthouse, ``sum(state_i * 8**i)`` per position; seed
000_aeb701e368f40145.txt) for the array cores: the greedy sweep, the
simulations, the forward evaluation and the reference tables. The states and
their transitions are the model's (``isles.models.lighthouse.position.STATE_AFTER``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from isles.models.lighthouse.kit import BOAT, Kit
from isles.models.lighthouse.position import (
    FINISHED_STATE,
    LIGHTHOUSE_STATES,
    STATE_AFTER,
    STATE_DISCS,
)

__all__ = ["DISCS", "FINISHED", "N_STATES", "TRANS", "Geometry", "geometry"]

N_STATES = LIGHTHOUSE_STATES
FINISHED = FINISHED_STATE
TRANS: npt.NDArray[np.int64] = np.array(STATE_AFTER, dtype=np.int64)
"""``TRANS[state, side]``: the model's ``STATE_AFTER`` as an array."""
DISCS: npt.NDArray[np.int64] = np.array(STATE_DISCS, dtype=np.int64)
"""``DISCS[state]``: the model's ``STATE_DISCS`` as an array."""


@dataclass(frozen=True)
class Geometry:
    """A kit's colours as indices and the lighthouse-code arithmetic.

    Parameters
    ----------
    n : int
        Islands.
    k : int
        Sea cards.
    colours : tuple of str
        The island colours in the kit's order, then every other die colour
        (those are never usable: their disc goes back).
    colour_side : ndarray, shape (len(colours), n)
        0 / 1 when colour ``c`` is island ``i``'s first / second colour, else -1.
    powers : ndarray
        ``8**i``: the weight of island ``i``'s state in a code.
    """

    n: int
    k: int
    colours: tuple[str, ...]
    colour_side: npt.NDArray[np.int64]
    powers: npt.NDArray[np.int64]


def geometry(kit: Kit) -> Geometry:
    """The arrays of ``kit`` (see :class:`Geometry`).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> geo = geometry(default_kit(2))
    >>> geo.colours, geo.colour_side[1].tolist()
    (('red', 'blue', 'green', 'orange', 'purple'), [1, -1])
    """
    n = len(kit.islands)
    colours = list(kit.colours)
    for die in kit.dice:
        for face in die:
            if face != BOAT and face not in colours:
                colours.append(face)
    side = np.full((len(colours), n), -1, dtype=np.int64)
    for c, colour in enumerate(colours):
        for i, island in enumerate(kit.islands):
            if colour in island:
                side[c, i] = island.index(colour)
    return Geometry(
        n, kit.sea_cards, tuple(colours), side, N_STATES ** np.arange(n, dtype=np.int64)
    )
