"""The user's cache: listed with sizes, cleared whole or one kit.

docs/lighthouse.md, "The cache".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles import cache_entries, clear_cache
from isles.cli import main
from isles.lighthouse import default_kit
from isles.models.errors import InvalidInput
from isles.solvers.lighthouse.cache import save_start_values, save_table
from isles.solvers.lighthouse.dp import solve
from isles.solvers.usercache import CACHE_ENV, kit_key


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache holding two kits' tables, one kit's start values and some kernels."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    save_table(solve(default_kit(2, 2)), tmp_path)
    save_table(solve(default_kit(3, 2)), tmp_path)
    save_start_values(default_kit(3, 2), (0.5, 0.75), 1e-15, tmp_path)
    kernels = tmp_path / "numba" / "lighthouse_x"
    kernels.mkdir(parents=True)
    (kernels / "kernel._put-1.py311.nbi").write_bytes(b"x" * 100)
    return tmp_path


def test_entries_list_every_table_start_values_and_kernels(folder: Path) -> None:
    entries = cache_entries(folder)
    kinds = sorted((e.kind, e.islands, e.policy) for e in entries)
    assert kinds == [
        ("compiled kernels", None, None),
        ("start values", 3, "greedy"),
        ("table", 2, "optimal"),
        ("table", 3, "optimal"),
    ]
    by_name = {e.name: e for e in entries}
    table = next(e for e in entries if e.kind == "table" and e.islands == 2)
    on_disk = sum(p.stat().st_size for p in (folder / table.name).iterdir())
    assert table.size == on_disk > 0
    assert by_name["numba"].size == 100
    assert table.kit == kit_key(default_kit(2, 2).to_dict())


def test_clear_one_kit_removes_its_entries_only(folder: Path) -> None:
    three = kit_key(default_kit(3, 2).to_dict())
    removed = clear_cache(three, folder)
    assert sorted(e.kind for e in removed) == ["start values", "table"]
    left = cache_entries(folder)
    assert sorted(e.kind for e in left) == ["compiled kernels", "table"]
    assert all(e.kit != three for e in left)


def test_clear_all_and_unknown_kit(folder: Path) -> None:
    with pytest.raises(InvalidInput, match=r"kit: 'nope' is invalid; expected a kit key .*numba"):
        clear_cache("nope", folder)
    assert len(clear_cache(None, folder)) == 4
    assert cache_entries(folder) == []
    assert not (folder / "numba").exists()


def test_cli_lists_and_clears(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert str(folder) in out and "total" in out and "compiled kernels" in out
    assert main(["cache", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["bytes"] == sum(e["bytes"] for e in listed["entries"])
    assert len(listed["entries"]) == 4
    two = kit_key(default_kit(2, 2).to_dict())
    assert main(["cache", "clear", two]) == 0
    assert "removed 1 entry " in capsys.readouterr().out
    assert [e.islands for e in cache_entries(folder) if e.kind == "table"] == [3]
    assert main(["cache", "clear", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nope'" in err
    assert main(["cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"]
    assert main(["cache"]) == 0
    assert "empty" in capsys.readouterr().out


def test_a_cache_that_cannot_be_written_is_refused_before_the_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file where the cache directory should be: refused before the solve (not after
    it, when the table cannot be kept), naming ISLES_CACHE_DIR; `isles cache` too."""
    from isles.solvers.lighthouse import cache as cache_module

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    monkeypatch.setenv(CACHE_ENV, str(a_file))

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the cache directory was checked")

    monkeypatch.setattr(cache_module, "solve_from_class", no_solve)
    with pytest.raises(InvalidInput, match=r"^ISLES_CACHE_DIR: .*a-file.* a folder isles can"):
        cache_module.solve_cached(default_kit(2, 2))
    assert main(["cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("isles cache: error: ISLES_CACHE_DIR: ") and err.count("\n") == 1


def test_an_empty_kernels_folder_is_not_an_entry_and_clear_leaves_no_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    (tmp_path / "numba" / "lighthouse_x").mkdir(parents=True)
    save_table(solve(default_kit(2, 2)), tmp_path)
    assert [e.kind for e in cache_entries(tmp_path)] == ["table"]
    assert len(clear_cache(None, tmp_path)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numba"]  # numba's own, not ours
    (tmp_path / "numba" / "lighthouse_x").rmdir()
    clear_cache(None, tmp_path)
    assert list(tmp_path.iterdir()) == []
