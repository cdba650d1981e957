"""The plain baseline of benchmarks/bench_rally.py: a car's cheapest route with json and SciPy.

What a user would write without isles (public tools only: json, NumPy, SciPy):
read the board file, give every hex an index, find each hex's six neighbours
in bulk on a dense grid, build a CSR matrix whose weight is the entered hex's
number token (fewest cards, then fewest moves, packed into one integer), run
``scipy.sparse.csgraph.dijkstra``, walk the predecessors back. No checks of
the file, no rules beyond the plain cost. Prints one JSON object:
``{"total_cards", "turns", "path"}``.

Run: ``python benchmarks/rally_plain_dijkstra.py BOARD.json Q,R Q,R``.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def main(path: str, start_text: str, goal_text: str) -> None:
    start = tuple(int(x) for x in start_text.split(","))
    goal = tuple(int(x) for x in goal_text.split(","))
    with open(path, encoding="utf-8") as handle:
        hexes = json.load(handle)["hexes"]
    qr = np.array([h["hex"] for h in hexes], dtype=np.int64)
    # Cards to enter: the number token (0 for a desert); -1 for the sea, never entered.
    cost = np.array(
        [-1 if h["terrain"] == "sea" else (h["number"] or 0) for h in hexes], dtype=np.int64
    )
    n = len(hexes)
    low = qr.min(axis=0) - 1
    grid = np.full(tuple(qr.max(axis=0) - low + 2), -1, dtype=np.int64)
    grid[qr[:, 0] - low[0], qr[:, 1] - low[1]] = np.arange(n)
    tails, heads = [], []
    for dq, dr in DIRECTIONS:
        j = grid[qr[:, 0] - low[0] + dq, qr[:, 1] - low[1] + dr]
        ok = j >= 0
        ok[ok] = cost[j[ok]] >= 0
        tails.append(np.nonzero(ok)[0])
        heads.append(j[ok])
    tail, head = np.concatenate(tails), np.concatenate(heads)
    weight = (cost[head] * (n + 1) + 1).astype(np.float64)  # cards first, then moves
    matrix = csr_matrix((weight, (tail, head)), shape=(n, n))
    s = grid[start[0] - low[0], start[1] - low[1]]
    g = grid[goal[0] - low[0], goal[1] - low[1]]
    dist, pred = dijkstra(matrix, indices=s, return_predecessors=True)
    total = int(dist[g])
    route = [int(g)]
    while pred[route[-1]] >= 0:
        route.append(int(pred[route[-1]]))
    print(
        json.dumps(
            {
                "total_cards": total // (n + 1),
                "turns": total % (n + 1),
                "path": [qr[i].tolist() for i in reversed(route)],
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
