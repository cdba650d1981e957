"""``isles plunder RECORD --dig-advice`` and ``isles plunder tournament``: --json is the
result's to_dict(), options that do nothing are refused, output paths checked first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.plunder.codes import Code
from isles.models.plunder.record import Me, Observation, Record
from isles.solvers.plunder import dig as plunder_dig
from isles.solvers.plunder import tournament as plunder_tournament
from isles.solvers.plunder.dig import dig_advice
from isles.solvers.plunder.tournament import tournament


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["plunder", *argv])
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def _record(tmp_path: Path) -> tuple[Record, str]:
    record = Record(
        3,
        (
            Observation(0, Code(1, 1, 1), {1: True, 2: False}),
            Observation(1, Code(1, 2, 1), {0: False, 2: False}),
        ),
        Me(0, Code(0, 0, 0)),
    )
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    return record, str(path)


def test_dig_advice_json_is_the_library_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, path = _record(tmp_path)
    argv = ("--dig-advice", "--samples", "20", "--waits", "2", "--seed", "4", "--policy", "random")
    status, out, _ = _run(capsys, path, *argv, "--json")
    assert status == 0
    expected = dig_advice(record, policy="random", waits=2, samples=20, seed=4).to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))
    status, out, _ = _run(capsys, path, *argv)
    assert status == 0 and "wait 2" in out and "<- best" in out


def test_tournament_json_text_and_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("tournament", "--players", "3", "--games", "3", "--seed", "5", "--workers", "0")
    status, out, _ = _run(capsys, *argv, "--policy", "certain", "--policy", "random", "--json")
    assert status == 0
    expected = tournament(3, ["certain", "random"], games=3, seed=5, workers=0).to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))
    assert json.loads(out)["status"] == "estimate"
    png = tmp_path / "t.png"
    status, out, _ = _run(capsys, *argv, "--png", str(png))
    assert status == 0 and png.stat().st_size > 0
    assert "expected" in out and "seat 2" in out and "first dig" in out


def test_the_tournament_table_keeps_its_columns_apart() -> None:
    """The widest cells (a win rate of one game won, a mean score of 10) stay two
    spaces apart, under their headings (they ran together: "100.0%]10.00")."""
    import re

    from isles.commands.plunder import tournament_lines

    t = tournament(4, ["search:2", "threshold"], games=1, seed=1, workers=0)
    lines = tournament_lines(t)
    rows = [line for line in lines if "[" in line]
    for line in rows:
        assert line.count("]") == 3 and line.endswith("]"), line
        assert re.findall(r"\](?!$)..", line) == ["]  ", "]  "], line
    assert any("100.0% [20.7%, 100.0%]" in line for line in rows)
    # A policy name longer than the column widens it: rows stay under their headings.
    long = tournament(2, ["threshold:0.1234567", "threshold:0.1234568"], games=2, workers=0)
    for text in (lines, tournament_lines(long)):
        heads = [line for line in text if "win rate" in line]
        for head in heads:
            table = [x for x in text[text.index(head) + 1 : text.index(head) + 5] if "[" in x]
            for line in table:
                for title in ("played", "mean score", "first dig"):
                    column = head.index(title) + (len(title) - 1 if title == "played" else 0)
                    if title == "played":  # right-aligned: the counts end under it
                        assert line[column].isdigit() and line[column + 1] == " ", line
                    else:
                        assert line[column - 1] == " " and line[column - 2] in " ]", (title, line)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("tournament", "--games", "2"), "--players: missing"),
        (("tournament", "--players", "3", "--waits", "2"), "--waits: '2' is invalid; expected"),
        (("tournament", "--players", "3", "--png", "/nonexistent/x.png"), "--png: "),
        (("tournament", "--players", "3", "--policy", "greedy"), "--policy: 'greedy'"),
        (
            ("tournament", "--players", "3", "--scheduler", "tcp://x:1", "--workers", "2"),
            "--workers",
        ),
        (("RECORD", "--games", "3"), "--games: '3' is invalid; expected --games only with isles"),
        (("RECORD", "--waits", "3"), "--waits only with --dig-advice"),
        (("RECORD", "--seed", "3"), "--seed only with --dig-advice or isles plunder tournament"),
        (("RECORD", "--dig-advice", "--advise"), "--advise: given; expected --advise only"),
    ],
)
def test_options_that_do_nothing_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    _, path = _record(tmp_path)
    argv = tuple(path if a == "RECORD" else a for a in argv)
    status, _, err = _run(capsys, *argv)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def _fake_clock(monkeypatch: pytest.MonkeyPatch, module: object) -> None:
    """One second passes at every reading of ``module``'s clock."""
    ticks = iter(range(10_000))
    monkeypatch.setattr(module, "_clock", lambda: float(next(ticks)))
    if module is plunder_tournament:  # the clock read after each decision stands still
        monkeypatch.setattr(module, "_decision_clock", lambda: 0.0)


def test_tournament_time_limit_stops_it_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("tournament", "--players", "3", "--games", "10", "--seed", "4", "--workers", "0")
    _fake_clock(monkeypatch, plunder_tournament)
    status, out, _ = _run(capsys, *argv, "--time-limit", "3.5")
    assert status == 0
    assert out.startswith("Stopped at the 3.5 s time limit after 3 of 10 games")
    assert "\n3 games, 3 players, seed 4" in out
    _fake_clock(monkeypatch, plunder_tournament)
    status, out, _ = _run(capsys, *argv, "--time-limit", "3.5", "--json")
    obj = json.loads(out)
    assert (status, obj["games"], obj["games_asked"], obj["time_limit"]) == (0, 3, 10, 3.5)
    assert obj["stopped_at_time_limit"] is True
    monkeypatch.undo()
    status, out, _ = _run(capsys, *argv, "--time-limit", "1e-9")
    assert (
        status == 1
        and out
        == "Stopped at the 1e-09 s time limit after 0 of 10 games: no "
        "result (--time-limit to play longer).\n"
    )
    status, out, _ = _run(capsys, *argv)  # no limit unless asked
    assert status == 0 and out.startswith("10 games, 3 players")


def test_dig_advice_time_limit_stops_it_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _record(tmp_path)
    _fake_clock(monkeypatch, plunder_dig)
    status, out, _ = _run(capsys, path, "--dig-advice", "--samples", "50", "--time-limit", "4.5")
    assert status == 0
    assert "stopped at the 4.5 s time limit after 5 of 50 games played on" in out
    status, out, _ = _run(capsys, path, "--dig-advice", "--samples", "5")
    assert status == 0 and "; 5 games played on, seed 0" in out
    status, out, _ = _run(capsys, path, "--dig-advice", "--samples", "1")
    assert status == 0 and "; 1 game played on, seed 0" in out  # was "1 games"
