"""Lighthouses, the class engine: the colour group, canonical classes and successors' frames.

docs/lighthouse.md ("The colour group", "Classes", "Successors and
their frame"), checked position by position through the model's own rules
(``can_take``), not through the engine's codes.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from isles.models.lighthouse.kit import BOAT, Kit, default_kit
from isles.models.lighthouse.position import Position, can_take
from isles.models.lighthouse.rules import roll_outcomes
from isles.solvers.lighthouse.classes import class_graph
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.symmetry import ClassCoding, ColourGroup, colour_group
from tests.lighthouse.reference import solve as full_table
from tests.lighthouse.test_lighthouse_classes import playout


def image(kit: Kit, group: ColourGroup, g: int, position: Position) -> Position:
    """Position ``position`` seen through element ``g``: colours renamed, islands moved."""
    rename = group.images(g)
    discs: list[tuple[str, ...]] = [()] * len(kit.islands)
    for i, stack in enumerate(position.discs):
        discs[int(group.island_perms[g, i])] = tuple(rename[c] for c in stack)
    return Position(tuple(discs), position.boat, position.maurice)


def lay(kit: Kit, position: Position, colour: str) -> list[Position]:
    """Every position one disc of ``colour`` can make, by the model's rule."""
    out = []
    for i, (island, stack) in enumerate(zip(kit.islands, position.discs, strict=True)):
        if can_take(island, stack, colour):
            discs = list(position.discs)
            discs[i] = (*stack, colour)
            out.append(Position(tuple(discs), position.boat, position.maurice))
    return out


@pytest.mark.parametrize(
    ("n", "size"), [(1, 2), (2, 8), (3, 4), (4, 2), (5, 10), (6, 2), (7, 4), (8, 8)]
)
def test_default_kits_groups(n: int, size: int) -> None:
    kit = default_kit(n)
    group = colour_group(kit)
    assert group.size == size
    assert group.images(0) == {c: c for c in kit.colours}
    rolls = {(r.boat, r.colours): r.probability for r in roll_outcomes(kit)}
    islands = sorted(tuple(sorted(isl)) for isl in kit.islands)
    for g in range(size):
        rename = group.images(g)
        # islands onto islands, and island i onto island island_perms[g, i]
        moved = sorted(tuple(sorted(rename[c] for c in isl)) for isl in kit.islands)
        assert moved == islands
        for i, isl in enumerate(kit.islands):
            target = kit.islands[int(group.island_perms[g, i])]
            assert {rename[c] for c in isl} == set(target)
            assert (rename[isl[0]] != target[0]) == bool(group.flips[g, i])
        # the same roll distribution (colours no island has stay what they are)
        for (boat, colours), p in rolls.items():
            seen = tuple(sorted(rename.get(c, c) for c in colours))
            assert rolls[(boat, seen)] == p


def test_the_eight_island_group_keeps_the_missing_pairs() -> None:
    group = colour_group(default_kit(8))
    for g in range(group.size):
        rename = group.images(g)
        assert rename["green"] == "green"
        assert {
            frozenset({rename["red"], rename["orange"]}),
            frozenset({rename["blue"], rename["purple"]}),
        } == {frozenset({"red", "orange"}), frozenset({"blue", "purple"})}


def test_group_is_closed_and_stabiliser_subgroups_too() -> None:
    kit = Kit(
        (("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c"), ("b", "d")),
        (("boat", "a", "b", "c", "d"), ("boat", "a", "b", "c", "d")),
        2,
    )
    for limit in (64, 6, 2, 1):
        group = colour_group(kit, max_size=limit)
        perms = {tuple(p) for p in group.colour_perms.tolist()}
        assert len(perms) == group.size <= limit
        for p, q in itertools.product(perms, repeat=2):
            assert tuple(p[q[c]] for c in range(len(q))) in perms
    assert colour_group(kit).size == 24  # all of S4: the complete graph K4


def test_values_are_invariant_under_the_group_position_by_position() -> None:
    kit = default_kit(5, 3)
    old = full_table(kit)
    group = colour_group(kit)
    for seed in range(12):
        pos = playout(kit, seed % 8, seed)
        for g in range(group.size):
            assert old.value(image(kit, group, g, pos)) == pytest.approx(old.value(pos), abs=1e-15)


@pytest.mark.parametrize("n", [4, 5, 8])
def test_canonical_class_is_the_same_for_every_image(n: int) -> None:
    kit = default_kit(n, 8)
    group = colour_group(kit)
    coding = ClassCoding(group)
    for seed in range(10):
        pos = playout(kit, 2 + seed, seed)
        key, frame = coding.position_class(kit, pos)
        # the frame carries the position to its class: the image's key is the class key
        assert coding.position_class(kit, image(kit, group, frame, pos)) == (key, 0)
        for g in range(group.size):
            assert coding.position_class(kit, image(kit, group, g, pos))[0] == key


def test_canonical_keys_are_orbit_invariant_for_every_code() -> None:
    kit = default_kit(5)
    group = colour_group(kit)
    coding = ClassCoding(group)
    n = 5
    codes = np.arange(8**n)
    flip = np.array([0, 2, 1, 4, 3, 6, 5, 7])
    keys, _ = coding.canonical(*coding.codes_to_state(codes))
    for g in range(group.size):
        moved = np.zeros_like(codes)
        for i in range(n):
            state = (codes // 8**i) % 8
            if group.flips[g, i]:
                state = flip[state]
            moved += state * 8 ** int(group.island_perms[g, i])
        assert np.array_equal(coding.canonical(*coding.codes_to_state(moved))[0], keys)


@pytest.mark.parametrize("n", [3, 5, 8])
def test_successors_and_their_frames_position_by_position(n: int) -> None:
    """The graph's successor lists are the model's, and a frame translates the next colour.

    For a position P of class K (P seen through its frame is K's representative R),
    the graph lists, for each colour c, the canonical key and frame of every R + c;
    and for each of those, the colours of a second disc v, translated by the frame,
    lead to the same classes as R + c + v does by the model's rule.
    """
    kit = default_kit(n, 8)
    group = colour_group(kit)
    coding = ClassCoding(group)
    perms = group.colour_perms
    colours = group.colours
    rng = random.Random(n)
    for seed in range(6):
        pos = playout(kit, rng.randrange(1, 3 * n), seed)
        key, frame = coding.position_class(kit, pos)
        rep = image(kit, group, frame, pos)
        graph = class_graph(coding, key, pos.discs_laid)
        first, second = graph.layers[0], graph.layers[1]
        assert first.keys.tolist() == [key]
        for c, colour in enumerate(colours):
            entries = range(int(first.ptr[c]), int(first.ptr[c + 1]))
            listed = {(int(second.keys[first.succ[e]]), int(first.frame[e])) for e in entries}
            raw = lay(kit, rep, colour)
            assert listed == {coding.position_class(kit, r) for r in raw}
            # Position by position: the frame of R + c translates the second disc.
            for r in raw:
                s_key, h = coding.position_class(kit, r)
                s_index = int(np.searchsorted(second.keys, s_key))
                if len(graph.layers) < 3:
                    continue
                third = graph.layers[2]
                for v, v_colour in enumerate(colours):
                    w = int(perms[h, v])
                    lo, hi = (
                        int(second.ptr[s_index * len(colours) + w]),
                        int(second.ptr[s_index * len(colours) + w + 1]),
                    )
                    via_graph = {int(third.keys[second.succ[e]]) for e in range(lo, hi)}
                    by_model = {coding.position_class(kit, t)[0] for t in lay(kit, r, v_colour)}
                    assert via_graph == by_model, (pos, colour, v_colour)


def test_pooling_forgets_which_nearly_full_lighthouse_needs_a_colour() -> None:
    kit = default_kit(8)
    coding = ClassCoding(colour_group(kit, symmetric=False))
    empty: list[tuple[str, ...]] = [()] * 8

    def position(**stacks: tuple[str, ...]) -> Position:
        discs = list(empty)
        for name, stack in stacks.items():
            discs[int(name[1:])] = stack
        return Position(tuple(discs))

    def key(pos: Position) -> int:
        return coding.position_class(kit, pos)[0]

    # Island 0 (red, blue) with red on top needs blue; so does island 3 (blue, green) with
    # green on top: which one is nearly full and which one finished does not matter.
    assert key(position(i0=("red", "blue", "red"), i3=("blue", "green", "blue", "green"))) == key(
        position(i0=("red", "blue", "red", "blue"), i3=("green", "blue", "green"))
    )
    # Which of islands 2 (purple, red) and 4 (orange, purple) is finished and which
    # needs purple does not matter either.
    assert key(
        position(i2=("red", "purple", "red", "purple"), i4=("orange", "purple", "orange"))
    ) == key(position(i2=("red", "purple", "red"), i4=("orange", "purple", "orange", "purple")))
    # But the colour needed does: island 0 needing red is not island 0 needing blue.
    assert key(position(i0=("red", "blue", "red"))) != key(position(i0=("blue", "red", "blue")))
    # With the group, needing red and needing blue are one class (a swap of red and blue
    # with orange and purple is a symmetry of the kit), through a frame.
    group = ClassCoding(colour_group(kit))
    assert (
        group.position_class(kit, position(i0=("red", "blue", "red")))[0]
        == group.position_class(kit, position(i0=("blue", "red", "blue")))[0]
    )


def test_identity_group_with_an_unusable_die_colour() -> None:
    kit = Kit(
        (("red", "blue"),),
        (("boat", "red", "blue", "black"), (BOAT, "red", "blue", "black", "white")),
        2,
    )
    group = colour_group(kit)
    assert group.size == 2 and group.colours == ("red", "blue")
    assert (
        solve(kit, exact=True).exact_win_probability()
        == full_table(kit, exact=True).exact_win_probability()
    )
    assert isinstance(solve(kit, exact=True).exact_win_probability(), Fraction)
