"""``isles plunder``: exit statuses, the JSON object, one-line errors, the demo section."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from isles.cli import main
from isles.commands import plunder as command
from isles.models.plunder import example_record

EXAMPLE = Path(__file__).resolve().parent.parent / "models" / "data" / "plunder_example.json"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["plunder", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_json_of_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, str(EXAMPLE), "--json")
    assert (status, err) == (0, "")
    obj = json.loads(out)
    assert obj["consistent"] is True and obj["conflict"] == []
    assert obj["deals"] == 162
    me = obj["players"]["0"]
    assert me["island"]["3"] == 1.0 and me["codes"] == [
        {"island": 3, "marker": 2, "trap": 2, "p": 1.0}
    ]
    for p in map(str, range(4)):
        probs = [c["p"] for c in obj["players"][p]["codes"]]
        assert probs == sorted(probs, reverse=True)
        assert sum(probs) == pytest.approx(1.0)
        for cat in ("island", "marker", "trap"):
            assert sum(obj["players"][p][cat].values()) == pytest.approx(1.0)
    assert {(f["player"], f["category"], f["value"]) for f in obj["forced"]} >= {(2, "trap", 0)}
    assert "advice" not in obj


def test_advise_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, str(EXAMPLE), "--advise")
    assert status == 0
    assert "Flip advice for player 0" in out and "Guess advice" in out
    assert "p3 trap = Powder" in out
    status, out, _ = _run(capsys, str(EXAMPLE), "--json", "--advise", "--clue", "0,Star,5")
    obj = json.loads(out)["advice"]
    assert obj["flip"]["clue"] == {"island": 0, "marker": 3, "trap": 5}
    assert [o["deck"] for o in obj["flip"]["options"]].count(None) == 1
    assert len(obj["guesses"]) == 3 and obj["guesses"][0]["target"] == 3


def test_inconsistent_record_is_exit_1_with_a_minimal_conflict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = example_record().to_dict()
    data["observations"][3]["answers"]["3"] = True  # contradicts observation 4
    path = _write(tmp_path, data)
    status, out, err = _run(capsys, path, "--json", "--advise")
    assert (status, err) == (1, "")
    obj = json.loads(out)
    assert obj["consistent"] is False and obj["deals"] == 0
    assert obj["conflict"] == [{"observation": 3, "player": 3}, {"observation": 4, "player": 3}]
    status, out, _ = _run(capsys, path)
    assert status == 1 and "cannot all be true" in out


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"players": 9}, "players: 9"),
        ({"observations": [{"active": 0, "clue": {}, "answers": {}}]}, "observations[0].clue"),
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
    ],
)
def test_bad_records_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], needle: str
) -> None:
    data = {"players": 3, **change}
    status, out, err = _run(capsys, _write(tmp_path, data))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and err.startswith("isles plunder: error:")


def test_missing_file_bad_json_and_bad_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = _run(capsys, str(tmp_path / "none.json"))
    assert status == 2 and err.count("\n") == 1 and "record file" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    status, _, err = _run(capsys, str(bad))
    assert status == 2 and err.count("\n") == 1 and "valid JSON" in err
    status, _, err = _run(capsys, str(EXAMPLE), "--advise", "--clue", "1,2")
    assert status == 2 and err.count("\n") == 1 and "--clue" in err
    status, _, err = _run(capsys, str(EXAMPLE), "--advise", "--active", "7")
    assert status == 2 and err.count("\n") == 1 and "--active" in err


def test_no_clue_on_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = _run(capsys, _write(tmp_path, {"players": 2}), "--advise")
    assert status == 0 and "give --clue" in out and "27,000 consistent deals" in out


def test_demo_section(tmp_path: Path) -> None:
    lines: list[str] = []
    command.demo(tmp_path, lines.append)
    text = "\n".join(lines)
    assert "Plunder" in text and "162 consistent deals" in text
    assert (tmp_path / "plunder_posterior.png").stat().st_size > 0


def test_json_probabilities_are_the_exact_fractions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from isles.solvers.plunder import posterior

    post = posterior(example_record())
    _, out, _ = _run(capsys, str(EXAMPLE), "--json")
    obj = json.loads(out)
    for p in range(4):
        for code, prob in post.codes(p):
            assert Fraction(prob) == Fraction(post.code_counts[p][code.index], 162)
        assert [c["p"] for c in obj["players"][str(p)]["codes"]] == [
            float(x) for _, x in post.codes(p)
        ]
