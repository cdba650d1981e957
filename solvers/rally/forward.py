"""The solved policy of the rally as it is played, followed forward: arrivals, route, advice.

Implements docs/rally.md ("Answers of --income"; seed 002_8684547a41c0941c.txt):
one turn of the policy over every decision state as two sparse steps, the chance
of having arrived within t turns (forward propagation), the route the policy heads
for, and turn 1's advice for each roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.sparse import coo_matrix, csr_matrix, vstack

from isles.models.hexgrid import Hex
from isles.models.rally.rules import ROLLS
from isles.solvers.rally.game import NR, RESOURCES, Game, Pos, card_names, wild_best
from isles.solvers.rally.income_plan import TurnAdvice
from isles.solvers.rally.windows import Windows, discard_rows, distinct_rows, split

__all__ = ["first_turn", "heading", "within"]

#: States whose turn's chances are gathered at once (memory: about 400 bytes each).
_CHUNK = 20_000
#: (source row, state, chance) triplets, gathered in parts.
Triplets = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
#: The ends of turn at one position: (reserve, hand, source state, chance) rows.
Ends = dict[
    int,
    list[
        tuple[
            npt.NDArray[np.int64],
            npt.NDArray[np.int64],
            npt.NDArray[np.int64],
            npt.NDArray[np.float64],
        ]
    ],
]


def _spread(
    game: Game,
    v: int,
    rolls: int,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    mass: npt.NDArray[np.float64],
    source: npt.NDArray[np.int64],
    into: list[Triplets],
) -> None:
    """Triplets (source row, decision state at ``v``, chance) after ``rolls`` rolls."""
    pos = game.positions[v]
    offset = game.offsets[v]
    everywhere = np.zeros(pos.size, np.int64)  # every outcome listed, none summed
    parts = split(Windows(game, rolls, hand), pos, reserve, everywhere, 0, np.zeros(pos.size))
    row, col, prob = parts.inner
    into.append((source[row], col + offset, mass[row] * prob))
    g_row, g_state, g_k, g_prob = parts.gold
    if len(g_row):
        best = wild_best(game, pos)
        for k in np.unique(g_k):
            sel = g_k == k
            target = best[int(k)][g_state[sel]] + offset
            into.append((source[g_row[sel]], target, mass[g_row[sel]] * g_prob[sel]))


@dataclass
class _Turn:
    """One turn of the policy over all decision states, in two sparse steps.

    ``ends`` (states, ends): the chance that a state's decision ends its turn at
    each distinct end of turn (the hex, the reserve, the hand); ``rolls`` (ends,
    states): the chance that an end of turn leads to each state's next decision.
    Many states end alike, so the two are far smaller than their product.
    """

    ends: csr_matrix
    rolls: csr_matrix

    def step(self, mass: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The chance of each decision state a turn after ``mass``."""
        return np.asarray(self.rolls.T @ (self.ends.T @ mass), np.float64)


def _sparse(
    parts: Sequence[Triplets],
    shape: tuple[int, int],
    first_row: int = 0,
) -> csr_matrix:
    """CSR of (row, column, value) triplets (rows from ``first_row``), duplicates summed."""
    if not parts:
        return coo_matrix(shape).tocsr()
    a = np.concatenate([x for x, _, _ in parts]) - first_row
    b = np.concatenate([y for _, y, _ in parts])
    c = np.concatenate([z for _, _, z in parts])
    return coo_matrix((c, (a, b)), shape=shape).tocsr()


def _transition(
    game: Game,
) -> tuple[_Turn, npt.NDArray[np.float64], dict[tuple[int, Hex], npt.NDArray[np.float64]]]:
    """One turn of the policy over all decision states (built once).

    Returns (turn, arrive, flows): ``turn.step`` the chances a turn later,
    ``arrive[i]`` the chance state i's turn reaches a goal, ``flows[(v, hex)]``
    a vector: the chance of each state's move from v into hex.
    """
    total = game.offsets[-1]
    arrive = np.zeros(total)
    flows: dict[tuple[int, Hex], npt.NDArray[np.float64]] = {}
    ends: Ends = {}
    for v, pos in enumerate(game.positions):
        grid = pos.grid()
        alive = np.flatnonzero(np.isfinite(pos.value))
        _transition_rows(game, v, pos, grid, alive, arrive, flows, ends)
    src_parts = []
    blocks = []  # the rows of ``rolls``, a chunk of ends at a time (summed as it is built)
    count = 0
    for v in sorted(ends):
        reserve = np.concatenate([r for r, _, _, _ in ends[v]])
        hand = np.concatenate([h for _, h, _, _ in ends[v]])
        source = np.concatenate([s for _, _, s, _ in ends[v]])
        weight = np.concatenate([w for _, _, _, w in ends[v]])
        first, inverse = distinct_rows(
            np.concatenate([reserve, hand[:, :-1]], axis=1), hand[:, -1].copy()
        )
        src_parts.append((source, inverse + count, weight))
        for chunk in np.array_split(np.arange(len(first)), max(1, -(-len(first) // _CHUNK))):
            if len(chunk) == 0:
                continue
            rows = first[chunk]
            parts: list[Triplets] = []
            _spread(
                game, v, game.players, reserve[rows], hand[rows], np.ones(len(rows)), chunk, parts
            )
            blocks.append(_sparse(parts, (len(chunk), total), first_row=int(chunk[0])))
        count += len(first)

    rolls = vstack(blocks, format="csr") if blocks else _sparse([], (0, total))
    turn = _Turn(_sparse(src_parts, (total, count)), rolls)
    return turn, arrive, flows


def _transition_rows(
    game: Game,
    v: int,
    pos: Pos,
    grid: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    arrive: npt.NDArray[np.float64],
    flows: dict[tuple[int, Hex], npt.NDArray[np.float64]],
    ends: Ends,
) -> None:
    """The ends of turn of the states ``rows`` of position ``v`` (for :func:`_transition`)."""
    total = game.offsets[-1]
    source = rows + game.offsets[v]
    post = pos.post[rows]
    options = pos.option[post]
    x = grid[post]
    reserve = np.minimum(x, pos.need)
    hand = np.minimum(x - reserve, game.fodder)
    labels = pos.labels

    def end(
        at: int,
        r: npt.NDArray[np.int64],
        h: npt.NDArray[np.int64],
        src: npt.NDArray[np.int64],
        w: npt.NDArray[np.float64],
    ) -> None:
        ends.setdefault(at, []).append((r, h, src, w))

    for o in np.unique(options):
        sel = options == o
        m, payer = labels[int(o)]
        ones = np.ones(int(sel.sum()))
        if m < 0:
            end(v, reserve[sel], hand[sel], source[sel], ones)
            continue
        move = pos.moves[m]
        paid = np.zeros(NR, np.int64)
        if payer >= 0:
            paid[payer] = move.cards
        p = float(move.p_exit)
        flow = flows.setdefault((v, move.hex), np.zeros(total))
        flow[source[sel]] += p
        if move.target < 0:
            arrive[source[sel]] += p
        else:
            tgt = game.positions[move.target]
            r2 = np.minimum(reserve[sel] - paid, tgt.need)
            end(move.target, r2, hand[sel], source[sel], ones * p)
        if p < 1:
            end(v, reserve[sel], hand[sel], source[sel], ones * (1 - p))


def _first_masses(
    game: Game, reserve: npt.NDArray[np.int64], hand: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    parts: list[Triplets] = []
    _spread(
        game,
        game.start,
        1,
        reserve[None, :],
        hand[None, :],
        np.ones(1),
        np.zeros(1, np.int64),
        parts,
    )
    mass = np.zeros(game.offsets[-1])
    for _, dst, wts in parts:
        np.add.at(mass, dst, wts)
    return mass


def within(
    game: Game,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    turns: int,
    flow: dict[tuple[int, Hex], float],
) -> tuple[float, ...]:
    """P(arrived within t turns), t = 1..turns, following the policy (forward propagation).

    ``flow`` gathers the chance of each move made on the way (for the route shown):
    over at least 20 turns, or until 99.9% of the cars have arrived.
    """
    turn, arrive, flows = _transition(game)
    mass = _first_masses(game, reserve, hand)
    keys = list(flows)
    # what each turn reads off the mass (arrivals, then each move's chance), at once
    reads = csr_matrix(np.stack([arrive, *(flows[k] for k in keys)]))
    arrived = 0.0
    out = []
    t = 0
    while t < turns or (t < 20 and arrived < 0.999):
        read = reads @ mass
        for key, x in zip(keys, read[1:], strict=True):
            flow[key] = flow.get(key, 0.0) + float(x)
        arrived += float(read[0])
        mass = turn.step(mass)
        t += 1
        if t <= turns:
            out.append(min(arrived, 1.0))
    return tuple(out)


def heading(game: Game, flow: dict[tuple[int, Hex], float]) -> tuple[Hex, ...]:
    """The hexes the policy heads for: from the start, the most likely next hex each time."""
    index = {p.hex: i for i, p in enumerate(game.positions)}
    path = [game.positions[game.start].hex]
    v = game.start
    while True:
        options = {to: m for (u, to), m in flow.items() if u == v}
        if not options:
            break
        to = max(options, key=lambda h: (options[h], -h[1], -h[0]))
        path.append(to)
        if to not in index:
            break
        v = index[to]
    return tuple(path)


def first_turn(
    game: Game,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    held: npt.NDArray[np.int64],
) -> tuple[TurnAdvice, ...]:
    """Turn 1's advice for each roll of the player.

    ``reserve`` is the reserve as solved (capped at the need), ``held`` the reserve
    as given: an advice's ``cards`` are those at the table (hand after the roll plus
    the reserve given), not the capped state the policy reads.
    """
    pos = game.positions[game.start]
    grid = pos.grid()
    out = []
    for i, n in enumerate(ROLLS):
        if n == 7:
            h = discard_rows(np.append(hand, 0)[None, :])[0, :NR] if game.discard else hand
        else:
            h = hand + np.array(game.income[i], np.int64)
        flat = int(pos.flat(reserve + h))
        cards = grid[flat]
        post = int(pos.post[flat])
        x = grid[post]
        trades = []
        if game.ratios is not None:
            ratio = np.array(game.ratios, np.int64)
            batches = np.maximum(cards - pos.need, 0) // ratio
            gained = np.maximum(x - (cards - batches * ratio), 0)
            takes = [RESOURCES[j].value for j in range(NR) for _ in range(int(gained[j]))]
            gives = [
                (RESOURCES[j].value, int(ratio[j]))
                for j in range(NR)
                for _ in range(int(batches[j]))
            ]
            for (give, k), take in zip(gives, takes, strict=False):
                trades.append({"give": give, "cards": k, "take": take})
        m, payer = pos.labels[int(pos.option[post])]
        res = np.minimum(x, pos.need)
        move = None if m < 0 else pos.moves[m].hex
        if m >= 0 and payer >= 0:
            res = res.copy()
            res[payer] -= pos.moves[m].cards
        table = card_names(held + h)  # the cards at the table, beyond the caps too
        out.append(TurnAdvice(n, table, trades, card_names(res), move, float(pos.value[flat])))
    return tuple(out)
