"""Lighthouses, the class engine: the cached table and the best move in a position.

docs/lighthouse.md ("The cached table", "One position without the
table"): advice read from the cached table equals advice from a fresh solve,
from the classes reachable from the position alone, and from the full-table DP.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from isles import lighthouse
from isles.lighthouse import best_move
from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Roll, roll_outcomes
from isles.solvers.lighthouse import cache as cache_module
from isles.solvers.lighthouse.advice import advise, solve_from
from isles.solvers.lighthouse.cache import (
    load_start_values,
    load_table,
    save_table,
    solve_cached,
    start_values_path,
    table_path,
)
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.solution import LighthouseSolution
from isles.solvers.usercache import CACHE_ENV, cache_dir
from tests.lighthouse.reference import solve as full_table
from tests.lighthouse.test_lighthouse_classes import playout

KIT = default_kit(5, 4)


@pytest.fixture(scope="module")
def fresh() -> LighthouseSolution:
    return solve(KIT)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache directory, also named by the environment variable."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


def test_cache_directory_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "named"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "named"
    monkeypatch.delenv(CACHE_ENV)
    assert cache_dir() == tmp_path / "xdg" / "isles"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir().name == "isles" and str(cache_dir()).startswith(str(tmp_path / "home"))


def test_the_table_is_keyed_by_the_kit(folder: Path) -> None:
    assert table_path(KIT) == table_path(default_kit(5, 4))
    assert table_path(KIT).parent == folder / "lighthouse"
    others = {table_path(default_kit(5, 5)), table_path(default_kit(4, 4)), table_path(KIT)}
    assert len(others) == 3


def test_save_and_load_give_the_same_table(folder: Path, fresh: LighthouseSolution) -> None:
    assert load_table(KIT) is None
    where = save_table(fresh)
    assert sorted(p.name for p in where.iterdir()) == [
        "keys.npy",
        "meta.json",
        "offsets.npy",
        "values.npy",
    ]
    loaded = load_table(KIT)
    assert loaded is not None
    assert isinstance(loaded.values, np.memmap)
    assert np.array_equal(loaded.values, fresh.values)
    assert loaded.by_sea_cards == fresh.by_sea_cards
    assert loaded.error_bound == fresh.error_bound and loaded.status == "optimal"
    for seed in range(5):
        pos = playout(KIT, seed * 2, seed)
        assert loaded.value(pos) == fresh.value(pos)
    assert save_table(fresh) == where  # saving again keeps the table that is there


def test_a_table_for_another_kit_or_format_is_not_read(
    folder: Path, fresh: LighthouseSolution
) -> None:
    where = save_table(fresh)
    meta = json.loads((where / "meta.json").read_text())
    meta["kit"]["sea_cards"] = 3
    (where / "meta.json").write_text(json.dumps(meta))
    assert load_table(KIT) is None
    (where / "meta.json").write_text("{not json")
    assert load_table(KIT) is None


def test_solve_cached_solves_once(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kit = default_kit(3, 3)
    calls: list[int] = []

    real = getattr(cache_module, "solve_from_class")  # noqa: B009 (not exported)

    def counted(*args: Any, **kwargs: Any) -> LighthouseSolution:
        calls.append(1)
        solution: LighthouseSolution = real(*args, **kwargs)
        return solution

    monkeypatch.setattr(cache_module, "solve_from_class", counted)
    first = solve_cached(kit)
    again = solve_cached(kit)
    assert calls == [1]
    assert first.by_sea_cards == again.by_sea_cards
    assert np.array_equal(first.values, solve(kit).values)  # streamed to the file: same floats


def test_only_full_float_tables_are_cached(folder: Path) -> None:
    with pytest.raises(InvalidInput):
        save_table(solve(default_kit(2, 2), exact=True))
    with pytest.raises(InvalidInput):
        save_table(solve_from(default_kit(2, 2), playout(default_kit(2, 2), 2, 0)))


def rolls_of_interest() -> list[Roll]:
    return list(roll_outcomes(KIT))


@pytest.mark.parametrize("seed", range(6))
def test_advice_from_the_cache_equals_a_fresh_solve_and_the_reachable_classes(
    folder: Path, fresh: LighthouseSolution, seed: int
) -> None:
    save_table(fresh)
    cached = load_table(KIT)
    assert cached is not None
    pos = playout(KIT, 2 * seed, seed)
    reachable = solve_from(KIT, pos)
    for roll in rolls_of_interest():
        want = advise(fresh, pos, roll)
        assert advise(cached, pos, roll) == want
        assert advise(reachable, pos, roll) == want
        assert best_move(KIT, pos, roll) == want  # reads the cached table
        assert best_move(KIT, pos, roll, cache=False) == want  # solves the reachable classes


@pytest.fixture(scope="module")
def old() -> object:
    return full_table(KIT)


@pytest.mark.parametrize("seed", range(4))
def test_advice_equals_the_full_tables_advice(
    fresh: LighthouseSolution, old: object, seed: int
) -> None:
    pos = playout(KIT, 3 * seed, seed + 10)
    for roll in rolls_of_interest():
        mine = advise(fresh, pos, roll)
        theirs = advise(old, pos, roll)  # type: ignore[arg-type]
        assert dict(mine.alternatives) == pytest.approx(dict(theirs.alternatives), abs=1e-15)
        assert mine.win_probability == pytest.approx(theirs.win_probability, abs=1e-15)


def test_advice_checks_its_input(fresh: LighthouseSolution) -> None:
    start = Position.start(KIT)
    with pytest.raises(InvalidInput):
        advise(fresh, start, Roll(False, ("black", "red"), roll_outcomes(KIT)[0].probability))
    with pytest.raises(InvalidInput):
        advise(fresh, Position(((),) * 4), roll_outcomes(KIT)[0])
    later = solve_from(KIT, playout(KIT, 6, 3))
    with pytest.raises(InvalidInput):
        advise(later, start, roll_outcomes(KIT)[0])


def test_greedy_start_values_are_cached_for_large_kits(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 7 and 8 islands keep greedy play's start values (a few numbers); pretend 3 is large.
    odds_module = importlib.import_module("isles.solvers.lighthouse.odds")
    kit = default_kit(3, 3)
    calls: list[int] = []
    real = odds_module.greedy_start_values

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(odds_module, "greedy_start_values", counted)
    monkeypatch.setattr(odds_module, "CACHE_FROM_CLASSES", 0)
    first = lighthouse.odds(kit, "greedy")
    again = lighthouse.odds(kit, "greedy")
    assert calls == [1] and first.to_dict() == again.to_dict()
    assert start_values_path(kit).exists()
    fresh = lighthouse.odds(kit, "greedy", cache=False)
    assert calls == [1, 1] and fresh.by_sea_cards == first.by_sea_cards
    assert load_start_values(default_kit(3, 2)) is None  # another kit: another key
