"""Variety: another board of the same optimum, moved by what keeps every rule and objective.

Implements docs/layout.md ("Variety and determinism", "Several boards") for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt: a symmetry
of the board, swaps of terrains and of twin tokens, sea numbers permuted,
harbours dealt anew; ``random.Random(seed)`` the only source of chance.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, HarbourKind, Terrain, Tile
from isles.models.hexgrid import Hex, edge
from isles.models.layout.request import SetupRequest

__all__ = ["TWIN_TOKENS", "shuffle_harbours", "vary"]


#: Land tokens with equal pips: swapping them keeps every rule and objective.
TWIN_TOKENS = ((6, 8), (5, 9), (4, 10), (3, 11), (2, 12))


def vary(board: Board, request: SetupRequest, seed: int) -> Board:
    """A seeded board from the same optimum class (only when nothing is fixed).

    Applies a symmetry of the positions (and of the frame and harbour
    places), a permutation of land terrains with equal inventory counts and
    equal harbour counts (each 2:1 harbour follows its resource), swaps of
    land tokens with equal pips and equal pool counts, a permutation of the
    sea numbers, and, when no rule looks at harbours, a shuffle of the
    harbours over their places: every rule, the colourfulness and the pip
    spread are unchanged, so an optimal board stays optimal. A spiral fixes
    where each token lies, so with one only the terrains (deserts kept) and
    the harbours move.
    """
    if request.has_fixed or seed == 0:
        return board
    rng = random.Random(seed)
    moves: list[Callable[[Hex], Hex]] = [lambda h: h, *request.symmetries()]
    move = moves[rng.randrange(len(moves))]
    if request.spiral:
        move = moves[0]
    harbour_count = {
        k: sum(1 for kind in request.harbours if kind.resource is k.resource and k.resource)
        for k in request.inventory
    }
    terrain_map: dict[Terrain, Terrain] = {}
    by_count: dict[tuple[int, int], list[Terrain]] = {}
    for k, count in request.inventory.items():
        by_count.setdefault((count, harbour_count[k]), []).append(k)
    for kinds in by_count.values() if request.keeps("terrains") else ():
        kinds.sort(key=list(Terrain).index)
        producing = [k for k in kinds if k.produces and k.resource is not None]
        others = [k for k in kinds if k not in producing]
        shuffled = producing[:]
        rng.shuffle(shuffled)
        terrain_map.update(zip(producing, shuffled, strict=True))
        terrain_map.update({k: k for k in others})
    land_map = {v: v for v in NUMBER_TOKENS}
    for a, b in TWIN_TOKENS:
        swap = request.land_tokens.count(a) == request.land_tokens.count(b) and rng.random() < 0.5
        # a spiral names every token: twins stay put
        if swap and not request.spiral and request.keeps("twins"):
            land_map[a], land_map[b] = b, a
    sea_values = list(request.sea_numbers)
    shuffled_sea = sea_values[:]
    if request.keeps("sea numbers"):
        rng.shuffle(shuffled_sea)
    sea_map = dict(zip(sea_values, shuffled_sea, strict=True))
    tiles: dict[Hex, Tile] = {}
    for h, tile in board.tiles.items():
        n = tile.number
        if tile.terrain is Terrain.SEA:
            tiles[move(h)] = Tile(Terrain.SEA, None if n is None else sea_map[n])
        else:
            terrain = terrain_map.get(tile.terrain, tile.terrain)
            tiles[move(h)] = Tile(terrain, None if n is None else land_map[n])
    resource_map = {
        HarbourKind(k.resource.value): HarbourKind(t.resource.value)
        for k, t in terrain_map.items()
        if k.resource is not None and t.resource is not None
    }
    harbours = {
        edge(move(e.a), move(e.b)): resource_map.get(kind, kind)
        for e, kind in board.harbours.items()
    }
    if harbours and request.keeps("harbours"):
        places = sorted(harbours)
        shuffled_kinds = [harbours[e] for e in places]
        rng.shuffle(shuffled_kinds)
        harbours = dict(zip(places, shuffled_kinds, strict=True))
    return Board(tiles, harbours=harbours)


def shuffle_harbours(board: Board, request: SetupRequest, rng: random.Random) -> Board:
    """The harbours dealt anew over their places, when no rule looks at them."""
    if not board.harbours or not request.keeps("harbours"):
        return board
    places = sorted(board.harbours)
    kinds = [board.harbours[e] for e in places]
    rng.shuffle(kinds)
    return board.replace(harbours=dict(zip(places, kinds, strict=True)))
