"""The Plunder answer counts that the lumped passes replaced, kept as a test oracle.

``answer_distribution`` and ``flip_advice`` of ``solvers/plunder/analysis.py`` as of
commit eb64bea (docstrings removed): one forward pass over all 6**3 values per
category and per clue, with one column per answer prefix.
tests/plunder/test_plunder_answers.py checks the lumped passes against it, clue by clue
and advice by advice; benchmarks/bench_plunder_flip.py times both.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from isles.models.plunder.codes import CATEGORIES, Code
from isles.models.plunder.record import Record, check_player
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.counting import _hits, _layer, allowed_codes
from isles.solvers.plunder.flips import (
    FlipAdvice,
    FlipOption,
    _check_seen,
    _deck_odds,
    _entropy_bits,
)


def answer_distribution(record: Record, clue: Code, active: int) -> dict[tuple[bool, ...], int]:
    active = check_player(record, active)
    w = allowed_codes(record)
    hit = _hits(clue).astype(np.int64)
    f = np.ones((1, 1), dtype=np.int64)  # (states, answer-prefix vectors)
    for k in range(record.players):
        lay = _layer(k)
        head = f[lay.src]
        if k == active:
            f = np.asarray(lay.to_dst @ (head * w[k][lay.code][:, None]), dtype=np.int64)
        else:
            parts = [
                np.asarray(lay.to_dst @ (head * (w[k] * h)[lay.code][:, None]), dtype=np.int64)
                for h in (1 - hit, hit)
            ]
            f = np.concatenate(parts, axis=1)
    totals = f.sum(axis=0)
    answerers = record.players - 1
    out: dict[tuple[bool, ...], int] = {}
    for idx in range(1 << answerers):
        if totals[idx]:
            vec = tuple(bool(idx >> j & 1) for j in range(answerers))
            out[vec] = int(totals[idx])
    return dict(sorted(out.items()))


def flip_advice(
    record: Record,
    clue: Code,
    active: int,
    seen: Sequence[Sequence[int]] | None = None,
) -> FlipAdvice:
    active = check_player(record, active)
    seen_rows = _check_seen(record.seen if seen is None else seen)
    cache_bits: dict[Code, float] = {}
    if record.me is not None:
        belief = Belief.from_record(record)

        def distribution(c: Code) -> dict[tuple[bool, ...], int]:
            return belief.answer_distribution(c, active)
    else:

        def distribution(c: Code) -> dict[tuple[bool, ...], int]:
            return answer_distribution(record, c, active)

    def bits(c: Code) -> float:
        if c not in cache_bits:
            dist = distribution(c)
            if not dist:
                raise ValueError("inconsistent")
            cache_bits[c] = _entropy_bits(list(dist.values()))
        return cache_bits[c]

    options = [FlipOption(None, bits(clue), ())]
    for cat, row in zip(CATEGORIES, seen_rows, strict=True):
        odds = _deck_odds(row)
        if not odds:
            continue
        cards = tuple((v, p, bits(clue.replace(cat, v))) for v, p in odds)
        options.append(FlipOption(cat, sum(float(p) * b for _, p, b in cards), cards))
    order = sorted(range(len(options)), key=lambda i: (-round(options[i].expected_bits, 9), i))
    return FlipAdvice(clue, active, tuple(options[i] for i in order))
