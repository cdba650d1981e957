"""``isles plunder``: exit statuses, ``--json`` = ``analyse(...).to_dict()``, one-line errors,
standard input, the time limit, the demo section."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from isles.cli import main
from isles.commands import plunder as command
from isles.models.plunder.codes import Code
from isles.models.plunder.questions import RecordAnalysis
from isles.models.plunder.record import Record, example_record
from isles.solvers.plunder.analysis import analyse
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.deduction import DEFAULT_TIME_LIMIT, deduce

EXAMPLE = Path(__file__).resolve().parents[2] / "models" / "data" / "plunder_example.json"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["plunder", *argv])
    except SystemExit as exc:  # argparse's own errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _plain(obj: Any) -> Any:
    """What ``--json`` prints, as Python data (tuples become lists)."""
    return json.loads(json.dumps(obj, allow_nan=False))


def _inconsistent(tmp_path: Path) -> str:
    data = example_record().to_dict()
    data["observations"][3]["answers"]["3"] = True  # contradicts observation 4
    return _write(tmp_path, data)


def test_json_is_the_analysis_to_dict(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, str(EXAMPLE), "--json")
    assert (status, err) == (0, "")
    obj = json.loads(out)
    assert obj == _plain(analyse(example_record()).to_dict())
    assert obj["status"] == "exact" and obj["conflict"] == [] and obj["advice"] is None
    assert obj["deals"] == 162 and obj["proofs"] == "smallest"
    # the command line's default is the declaration's, not a copy of it
    assert (
        obj["time_limit"] == DEFAULT_TIME_LIMIT == RecordAnalysis.model_fields["time_limit"].default
    )
    me = obj["players"][0]
    assert me["island"][3] == {"value": 3, "p": 1.0, "p_exact": "1/1"}
    assert me["codes"] == [
        {"code": {"island": 3, "marker": 2, "trap": 2}, "p": 1.0, "p_exact": "1/1"}
    ]
    for p in range(4):
        entry = obj["players"][p]
        assert entry["player"] == p
        exact = [Fraction(c["p_exact"]) for c in entry["codes"]]
        assert exact == sorted(exact, reverse=True) and sum(exact) == 1
        assert [c["p"] for c in entry["codes"]] == [float(x) for x in exact]
        for cat in ("island", "marker", "trap"):
            assert sum(Fraction(v["p_exact"]) for v in entry[cat]) == 1
    assert {(f["player"], f["category"], f["value"]) for f in obj["forced"]} >= {(2, "trap", 0)}
    assert all(f["proof_kind"] == "smallest" for f in obj["forced"])


def test_advise_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, str(EXAMPLE), "--advise")
    assert status == 0
    assert "Flip advice for player 0" in out and "Guess advice" in out
    assert "p3 trap = Powder" in out and "smallest set of answers" in out
    status, out, _ = _run(capsys, str(EXAMPLE), "--json", "--advise", "--clue", "0,Star,5")
    obj = json.loads(out)
    expected = analyse(example_record(), advise=True, clue=Code(0, 3, 5))
    assert obj == _plain(expected.to_dict())
    flip = obj["advice"]["flip"]
    assert flip["status"] == "exact" and flip["error_bound"] == 1e-9
    assert flip["clue"] == {"island": 0, "marker": 3, "trap": 5}
    assert [o["deck"] for o in flip["options"]].count(None) == 1
    card = flip["options"][0]["cards"][0]
    assert card["p_exact"] == "1/6" and card["p"] == pytest.approx(1 / 6)
    guesses = obj["advice"]["guesses"]
    assert len(guesses) == 3 and guesses[0]["target"] == 3
    assert guesses[0]["p_exact"] == "1/3" and guesses[0]["expected_points_exact"] == "1/1"


def test_inconsistent_record_is_exit_1_with_a_smallest_conflict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _inconsistent(tmp_path)
    status, out, err = _run(capsys, path, "--json", "--advise")
    assert (status, err) == (1, "")
    obj = json.loads(out)
    assert obj == _plain(analyse(Record.load(path), advise=True).to_dict())
    assert obj["status"] == "inconsistent" and obj["deals"] == 0 and obj["players"] is None
    assert obj["conflict"] == [{"observation": 3, "player": 3}, {"observation": 4, "player": 3}]
    assert obj["proofs"] == "smallest" and obj["advice"] is None
    status, out, _ = _run(capsys, path)
    assert status == 1 and "cannot all be true (a smallest set)" in out
    # Text counts turns as players do: observations[3] is turn 4.
    assert "  turn 4: player 3 said yes to " in out and "  turn 5: player 3 said no to " in out
    assert "observation" not in out


def test_case_6_the_time_limit_is_said_in_the_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 1 ms: the minimal proofs take longer than that, so no smallest search starts.
    status, out, _ = _run(capsys, str(EXAMPLE), "--time-limit", "0.001", "--json")
    obj = json.loads(out)
    assert status == 0 and obj["proofs"] == "minimal" and obj["time_limit"] == 0.001
    assert {f["proof_kind"] for f in obj["forced"]} == {"minimal"}
    status, out, _ = _run(capsys, str(EXAMPLE), "--time-limit", "0.001")
    assert status == 0 and "4 of 4 not proven smallest within the 0.001 s time limit" in out
    assert out.count(" ~\n") == 4 and "obs " not in out
    status, out, _ = _run(capsys, _inconsistent(tmp_path), "--time-limit", "0.001")
    assert status == 1 and "a minimal set: no answer can be dropped" in out


def test_text_numbers_turns_from_1_and_json_indexes_observations_from_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, str(EXAMPLE), "--json")
    forced = json.loads(out)["forced"]
    status, out, _ = _run(capsys, str(EXAMPLE))
    assert status == 0 and "obs " not in out
    assert "  p1 island = Mangrove  because of: turn 2 p1, turn 4 p1, turn 7 p1\n" in out
    assert forced[0]["proof"] == [
        {"observation": 1, "player": 1},
        {"observation": 3, "player": 1},
        {"observation": 6, "player": 1},
    ]
    for f in forced:
        proof = ", ".join(f"turn {a['observation'] + 1} p{a['player']}" for a in f["proof"])
        assert f"because of: {proof}\n" in out


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_bad_time_limit(capsys: pytest.CaptureFixture[str], value: str) -> None:
    status, out, err = _run(capsys, str(EXAMPLE), "--time-limit", value)
    assert status == 2 and out == "" and err.count("\n") == 1 and "--time-limit" in err


def test_the_record_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.read_bytes())))
    status, out, _ = _run(capsys, "-", "--json")
    assert status == 0 and json.loads(out) == _plain(analyse(example_record()).to_dict())
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"players": 3, "turns": 1}')))
    status, _, err = _run(capsys, "-")
    assert status == 2 and "unknown key 'turns'" in err


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"players": 9}, "record.players: 9"),
        (
            {"observations": [{"active": 0, "clue": {}, "answers": {}}]},
            "record.observations[0].clue",
        ),
        (
            {
                "observations": [
                    {
                        "active": 0,
                        "clue": {"island": 1, "marker": 1, "trap": 1},
                        "answers": {"1": True},
                    }
                ]
            },
            "an answer from player 2",
        ),
        (
            {
                "observations": [
                    {
                        "active": 0,
                        "clue": {"island": 1, "marker": 1, "trap": 1},
                        "answers": {"1": True, "01": False, "2": True},
                    }
                ]
            },
            "record.observations[0].answers: '01' is invalid",
        ),
        (
            {
                "observations": [
                    {
                        "active": 0,
                        "clue": {"island": 1, "marker": 1, "trap": 1},
                        "answers": {"1": "no", "2": True},
                    }
                ]
            },
            "record.observations[0].answers.1: 'no' is invalid; expected true or false",
        ),
    ],
)
def test_bad_records_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], needle: str
) -> None:
    data = {"players": 3, **change}
    status, out, err = _run(capsys, _write(tmp_path, data))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and err.startswith("isles plunder: error:")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--clue", "1,1,1"], "--clue: '1,1,1' is invalid; expected --clue only with --advise"),
        (["--active", "1"], "--active: '1' is invalid; expected --active only with --advise"),
        (["--advise", "--clue", "1,2"], "--clue"),
        (["--advise", "--clue", "1,Atlantis,2"], "--clue marker: 'Atlantis'"),
        (
            ["--advise", "--active", "4"],
            "--active: '4' is invalid; expected a player index in 0..3",
        ),
        (["--advise", "--active", "7"], "--active"),
        (["--advise", "--active", "-1"], "--active"),
    ],
)
def test_bad_options_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = _run(capsys, str(EXAMPLE), *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and needle in err, err


def test_missing_file_and_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = _run(capsys, str(tmp_path / "none.json"))
    assert status == 2 and err.count("\n") == 1 and "record file" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    status, _, err = _run(capsys, str(bad))
    assert status == 2 and err.count("\n") == 1 and "valid JSON" in err


def test_no_clue_on_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = _run(capsys, _write(tmp_path, {"players": 2}), "--advise")
    assert status == 0 and "give --clue" in out and "27,000 consistent deals" in out


def test_demo_section(tmp_path: Path) -> None:
    lines: list[str] = []
    command.demo(tmp_path, lines.append)
    text = "\n".join(lines)
    assert "Plunder" in text and "162 consistent deals" in text and "RULES" not in text
    assert (tmp_path / "plunder_posterior.png").stat().st_size > 0


def test_progress_bar_stays_hidden_for_quick_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The command line's progress (None): a bar on a terminal, once the work has taken
    # a second (isles.solvers.work.PROGRESS_DELAY).
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    deduce(example_record(), progress=None)
    assert capsys.readouterr() == ("", "")


def test_json_probabilities_are_the_exact_fractions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    post = posterior(example_record())
    _, out, _ = _run(capsys, str(EXAMPLE), "--json")
    obj = json.loads(out)
    for p in range(4):
        assert [Fraction(c["p_exact"]) for c in obj["players"][p]["codes"]] == [
            Fraction(post.code_counts[p][code.index], 162) for code, _ in post.codes(p)
        ]


def test_a_closed_pipe_is_quiet() -> None:
    # 6 players with nothing known: some 200 kB of JSON, more than a pipe holds.
    reader = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.buffer.read(10)"], stdin=subprocess.PIPE
    )
    done = subprocess.run(
        [sys.executable, "-m", "isles", "plunder", "-", "--json"],
        input=b'{"players": 6}',
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        check=False,
    )
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait()
    assert (done.returncode, done.stderr) == (141, b"")


def test_the_analysis_adds_dig_advice_with_dig_policy(capsys: pytest.CaptureFixture[str]) -> None:
    """``--advise --dig-policy NAME``: the options derived from RecordAnalysis's dig fields;
    the answer is the library's (analyse with dig_policy), the table printed after the
    advice."""
    argv = (str(EXAMPLE), "--advise", "--dig-policy", "certain", "--dig-samples", "10")
    status, out, err = _run(capsys, *argv, "--time-limit", "60", "--json")
    assert (status, err) == (0, "")
    expected = analyse(
        example_record(), advise=True, dig_policy="certain", dig_samples=10, time_limit=60
    )
    assert json.loads(out) == _plain(expected.to_dict())
    assert json.loads(out)["advice"]["dig"]["samples"] == 10
    status, out, _ = _run(capsys, *argv)
    assert status == 0 and "Dig now or wait (player 0, after 7 turns; others play certain" in out
    for wrong, needle in (
        (["--dig-policy", "certain"], "--dig-policy: 'certain' is invalid; expected --dig-policy"),
        (["--advise", "--dig-samples", "5"], "--dig-samples only with --dig-policy"),
        (["--advise", "--dig-policy", "greedy"], "--dig-policy: 'greedy' is invalid; expected one"),
        (["--dig-advice", "--dig-policy", "certain"], "--dig-policy only with RECORD without"),
    ):
        status, _, err = _run(capsys, str(EXAMPLE), *wrong)
        assert status == 2 and needle in err, err
