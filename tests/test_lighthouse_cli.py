"""``isles lighthouse``: golden answers, JSON output, one-line errors with exit status 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import cast

import pytest

import isles.solvers.lighthouse
from isles.cli import main
from isles.models.lighthouse import default_kit
from isles.solvers.lighthouse import solve


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["lighthouse", *argv, "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_exact_odds_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--islands", "2", "--sea-cards", "2", "--exact")
    assert out["exact"] == "196809133707275/304679870005248"
    assert out["win_probability"] == pytest.approx(196809133707275 / 304679870005248)
    assert out["status"] == "optimal"


def test_float_odds_for_a_kit_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kit = default_kit(3, 4)
    path = tmp_path / "kit.json"
    path.write_text(json.dumps(kit.to_dict()), encoding="utf-8")
    out = run_json(capsys, "--kit", str(path), "--policy", "greedy")
    assert out["exact"] is None and out["status"] == "evaluated"
    assert out["win_probability"] == pytest.approx(solve(kit, "greedy").win_probability())
    assert out["error_bound"] > 0  # type: ignore[operator]


def test_text_output_names_the_probability(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lighthouse", "--islands", "3", "--sea-cards", "2"]) == 0
    text = capsys.readouterr().out
    assert "win probability" in text and "3 islands" in text


def test_eight_islands_give_bound_and_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--islands", "8", "--games", "400", "--sea-cards", "2", "--simulate")
    assert out["status"] == "interval" and out["exact"] is None
    low, high = cast(list[float], out["ci95"])
    win = cast(float, out["win_probability"])
    assert 0 <= low <= win <= high <= 1
    assert win <= cast(float, out["certified_upper_bound"])


def test_certified_lower_bound_beyond_the_dp(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "--islands", "8", "--sea-cards", "1", "--games", "200", "--certify", "1e-4"
    )
    low = cast(float, out["certified_lower_bound"])
    assert 0 <= low <= cast(float, out["certified_upper_bound"])


def test_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"discs": [["red"], []], "boat": 1, "maurice": 1}), "utf-8")
    argv = ["--islands", "2", "--sea-cards", "3", "--exact", "--advise", str(pos)]
    out = run_json(capsys, *argv, "--roll", "blue,green")
    kit = default_kit(2, 3)
    sol = solve(kit, exact=True)
    alts = out["alternatives"]
    assert isinstance(alts, list) and len(alts) >= 2
    assert out["win_probability"] == max(a["win_probability"] for a in alts)
    assert out["best"] == {k: alts[0][k] for k in ("placements", "bonus")}
    assert isinstance(out["exact"], str)
    assert Fraction(out["exact"]) <= 1
    assert out["position_win_probability"] == pytest.approx(float(sol.values[1, 1, 1]))
    assert main(["lighthouse", *argv, "--roll", "boat,boat"]) == 0
    assert "legal decisions" in capsys.readouterr().out


def test_table_for_a_small_kit(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--table", "--islands", "2")
    rows = out["rows"]
    assert isinstance(rows, list) and [r["sea_cards"] for r in rows] == list(range(1, 9))
    odds = [r["win_probability"] for r in rows]
    assert odds == sorted(odds)


def test_competitive(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--competitive", "--games", "300", "--seed", "2")
    probs = out["win_probability"]
    assert isinstance(probs, list) and len(probs) == 2
    assert sum(probs) + out["unfinished"] / 300 == pytest.approx(1)  # type: ignore[operator]


def test_competitive_exact_for_a_tiny_kit(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--competitive", "--islands", "2")
    assert out["method"] == "exact linear solve"
    probs = cast(list[float], out["win_probability"])
    assert sum(probs) == pytest.approx(1) and probs[0] > probs[1]  # the first seat leads


@pytest.mark.parametrize(
    "argv",
    [
        ["--policy", "clever"],
        ["--islands", "9"],
        ["--islands", "2", "--sea-cards", "0"],
        ["--kit", "/nonexistent/kit.json"],
        ["--roll", "red,blue"],
        ["--islands", "2", "--advise", "/nonexistent/pos.json", "--roll", "red,blue"],
        ["--games", "0", "--islands", "8"],
        ["--competitive", "--seats", "5"],
    ],
)
def test_bad_input_is_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lighthouse", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error" in err


def test_bad_json_and_bad_roll_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "kit.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["lighthouse", "--kit", str(bad)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"discs": [[], []], "boat": 0, "maurice": 0}), "utf-8")
    for roll in ("red", "red,black", "boat,red,blue"):
        code = main(["lighthouse", "--islands", "2", "--advise", str(pos), "--roll", roll])
        assert code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "--roll" in err


def test_demo_section_writes_the_plot(tmp_path: Path) -> None:
    from isles.commands.lighthouse import demo

    lines: list[str] = []
    demo(tmp_path, lines.append)
    assert (tmp_path / "lighthouse_length.png").stat().st_size > 0
    assert any("sea cards" in line for line in lines)


def test_kits_beyond_the_full_tables_use_the_sweep(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = solve(default_kit(3, 4), "random")
    # 8 islands take about an hour: pretend the full tables stop at 1 island.
    monkeypatch.setattr(isles.solvers.lighthouse, "MAX_EXACT_ISLANDS", 1)
    argv = ["lighthouse", "--islands", "3", "--sea-cards", "4", "--policy", "random", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "lighthouse sweep" in captured.err  # the progress bar
    out = json.loads(captured.out)
    assert out["method"] == "dp sweep" and out["status"] == "evaluated"
    bound = cast(float, out["error_bound"])
    assert bound == table.error_bound
    by_cards = cast(list[float], out["by_sea_cards"])
    assert len(by_cards) == 4
    for k, v in enumerate(by_cards, 1):
        assert abs(v - table.win_probability(k)) <= bound
    assert out["win_probability"] == by_cards[-1]
    out = run_json(capsys, "--islands", "2", "--sea-cards", "2", "--exact")
    assert out["exact"] == "196809133707275/304679870005248"
    assert main(["lighthouse", "--islands", "2", "--sea-cards", "2"]) == 0
    text = capsys.readouterr().out
    assert "start position only" in text and "by sea cards: 1: " in text
