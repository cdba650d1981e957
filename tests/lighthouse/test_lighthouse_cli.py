"""``isles lighthouse``: --json is exactly the library's to_dict(); one-line errors, exit 2.

The numbered cases are those of issue 9 (library side: tests/lighthouse/test_lighthouse_api.py).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from isles.cli import main
from isles.lighthouse import best_move, competitive_odds, difficulty_table, odds
from isles.models.lighthouse.kit import KITS, Kit, default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Roll


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["lighthouse", *argv, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run, expect exit status 2 and one line on stderr; return that line.

    argparse's own errors (a bad --seed) exit through SystemExit with status 2.
    """
    try:
        code = main(["lighthouse", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "error" in err and "Traceback" not in err
    return err


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def stdin(monkeypatch: pytest.MonkeyPatch, data: object) -> None:
    raw = io.TextIOWrapper(io.BytesIO(json.dumps(data).encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", raw)


# --- --json is the library's to_dict() ---------------------------------------------------


def test_exact_odds_json_is_to_dict(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--islands", "2", "--sea-cards", "2", "--exact")
    assert out == odds(default_kit(2, 2), exact=True).to_dict()
    assert out["win_probability_exact"] == "196809133707275/304679870005248"
    assert out["status"] == "optimal"


def test_kit_file_odds_json_is_to_dict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kit = default_kit(3, 4)
    out = run_json(
        capsys, "--kit", write(tmp_path, "kit.json", kit.to_dict()), "--policy", "greedy"
    )
    assert out == odds(kit, "greedy").to_dict()
    assert out["status"] == "exact" and out["win_probability_exact"] is None
    assert out["error_bound"] > 0


def test_simulation_json_is_to_dict_and_says_what_it_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Case 13: a greedy Monte Carlo estimate is labelled as one.
    argv = ("--islands", "8", "--sea-cards", "2", "--simulate", "--games", "300", "--seed", "4")
    out = run_json(capsys, *argv)
    assert out == odds(default_kit(8, 2), simulate=True, games=300, seed=4).to_dict()
    assert out["status"] == "estimate" and out["policy"] == "optimal"
    assert out["win_probability"] is None
    assert out["simulated_policy"] == "greedy" and out["simulation"]["policy"] == "greedy"
    assert out["certified_upper_bound"] >= out["simulation"]["ci95"][0]


def test_table_json_is_to_dict_without_a_top_level_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Case 13: no row's value at the top level of a table.
    out = run_json(capsys, "--table", "--islands", "2", "--sea-cards", "3")
    assert out == difficulty_table((2,), range(1, 4)).to_dict()
    assert "win_probability" not in out
    assert [r["sea_cards"] for r in out["rows"]] == [1, 2, 3] * 3
    assert [r["policy"] for r in out["rows"]] == ["optimal"] * 3 + ["greedy"] * 3 + ["random"] * 3
    odds_by_cards = [r["win_probability"] for r in out["rows"][:3]]
    assert odds_by_cards == sorted(odds_by_cards)
    assert "--games" in fails(
        capsys, "--table", "--islands", "8", "--sea-cards", "1", "--games", "9"
    )


def test_advice_json_is_to_dict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = {"discs": [["red"], []], "boat": 1, "maurice": 1}
    argv = ["--islands", "2", "--sea-cards", "3", "--exact", "--advise", write(tmp_path, "p", raw)]
    out = run_json(capsys, *argv, "--roll", "blue,green")
    kit = default_kit(2, 3)
    pos = Position.from_dict(raw, kit)
    assert out == best_move(kit, pos, Roll.from_faces(kit, ("blue", "green")), exact=True).to_dict()
    assert len(out["alternatives"]) >= 2
    assert main(["lighthouse", *argv, "--roll", "boat,boat"]) == 0
    assert "legal decision" in capsys.readouterr().out


def test_competitive_json_is_to_dict(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "--competitive", "--seats", "4", "--islands", "8", "--games", "40", "--seed", "2"
    )
    assert out == competitive_odds(default_kit(8, 3), 4, games=40, seed=2).to_dict()
    assert out["status"] == "estimate" and len(out["by_seat"]) == 4
    exact = run_json(capsys, "--competitive", "--islands", "2")
    assert exact == competitive_odds(default_kit(2, 3)).to_dict()
    assert exact["status"] == "exact"
    probs = [s["win_probability"] for s in exact["by_seat"]]
    assert sum(probs) == pytest.approx(1) and probs[0] > probs[1]  # the first seat leads


# --- text output ----------------------------------------------------------------------


def test_text_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lighthouse", "--islands", "3", "--sea-cards", "2"]) == 0
    text = capsys.readouterr().out
    assert "win probability" in text and "3 islands" in text and "status optimal" in text
    assert (
        main(["lighthouse", "--islands", "8", "--sea-cards", "1", "--simulate", "--games", "50"])
        == 0
    )
    text = capsys.readouterr().out
    assert "greedy play, simulated" in text and "status estimate" in text
    assert main(["lighthouse", "--table", "--islands", "1", "--sea-cards", "2"]) == 0
    assert "Difficulty table" in capsys.readouterr().out
    assert main(["lighthouse", "--competitive", "--islands", "2"]) == 0
    assert "seat 1" in capsys.readouterr().out


# --- inputs hardened ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        # Case 2: --seed is checked everywhere it is read.
        ["--islands", "8", "--simulate", "--seed", "-1", "--games", "100"],
        ["--islands", "8", "--competitive", "--seed", "-1", "--games", "100"],
        ["--table", "--seed", "-1"],
        ["--islands", "8", "--simulate", "--seed", "x"],
    ],
)
def test_seeds_are_checked(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert "--seed" in fails(capsys, *argv)


@pytest.mark.parametrize(
    "argv",
    [
        # Case 7: one stated cap, refused above it, for both kinds of simulation.
        ["--islands", "8", "--simulate", "--games", str(10**12)],
        ["--competitive", "--games", str(10**7)],
        ["--competitive", "--games", str(10**6 + 1)],
        ["--table", "--games", "0"],
    ],
)
def test_games_are_capped(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    err = fails(capsys, *argv)
    assert "--games" in err and "1..1000000" in err


def test_the_option_given_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # Case 9: --seats 0 names --seats and its range, not "islands".
    err = fails(capsys, "--competitive", "--seats", "0")
    assert "--seats" in err and "2..4" in err and "islands" not in err
    err = fails(capsys, "--competitive", "--seats", "4", "--islands", "6")
    assert "--seats" in err and "dividing the 6 islands" in err
    assert "--islands" in fails(capsys, "--islands", "9")
    assert "--sea-cards" in fails(capsys, "--islands", "2", "--sea-cards", "0")


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        # Case 10: options that do nothing in the mode are refused, not ignored.
        (["--islands", "4", "--simulate"], "--simulate"),
        (["--islands", "7", "--certify", "1e-4"], "--certify"),
        (["--seats", "3"], "--seats"),
        (["--islands", "2", "--games", "100"], "--games"),
        (["--islands", "2", "--seed", "3"], "--seed"),
        (["--islands", "5", "--exact"], "--exact"),
        (["--islands", "8", "--simulate", "--exact"], "--exact"),
        (["--islands", "8", "--certify", "1e-3", "--policy", "random"], "--certify"),
        (["--islands", "8", "--certify", "0"], "--certify"),
        (["--roll", "boat,red"], "--roll"),
        (["--table", "--exact"], "--exact"),
        (["--table", "--islands", "3", "--games", "10"], "--games"),
        (["--table", "--kit", "k.json"], "--kit"),
        (["--table", "--competitive"], "--competitive"),
        (["--competitive", "--islands", "2", "--games", "10"], "--games"),
        (["--competitive", "--simulate"], "--simulate"),
        (["--competitive", "--seats", "3", "--islands", "6", "--policy", "optimal"], "--policy"),
        (["--time-limit", "3"], "--time-limit: '3' is invalid; expected --time-limit only"),
        (["--competitive", "--islands", "8", "--seats", "4", "--time-limit", "3"], "--time-limit"),
        (["--kit", "k.json", "--islands", "3"], "--islands"),
        (["--policy", "clever"], "--policy"),
    ],
)
def test_options_that_do_nothing_are_refused(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert option in fails(capsys, *argv)


def test_advice_options_and_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", {"discs": [[], []], "boat": 0, "maurice": 0})
    advise = ["--islands", "2", "--advise"]
    assert "--roll" in fails(capsys, *advise, good)
    for extra, option in (
        (["--policy", "greedy"], "--policy"),
        (["--games", "5"], "--games"),
        (["--seed", "5"], "--seed"),
        (["--simulate"], "--simulate"),
    ):
        assert option in fails(capsys, *advise, good, "--roll", "boat,red", *extra)
    for roll in ("red", "red,black", "boat,red,blue"):
        assert "--roll" in fails(capsys, *advise, good, "--roll", roll)
    # Case 4: a misspelt or missing key is refused, never read as 0.
    for raw, said in (
        ({"discs": [["red"], []], "Boat": 3, "maurice": 0}, "unknown key 'Boat'"),
        ({"discs": [["red"], []], "boat": 3}, "key 'maurice' missing"),
    ):
        assert said in fails(
            capsys, *advise, write(tmp_path, "bad.json", raw), "--roll", "boat,red"
        )
    # Case 15: a won position has no move to advise.
    won = {"discs": [["red", "blue"] * 2, ["green", "orange"] * 2], "boat": 0, "maurice": 0}
    err = fails(capsys, *advise, write(tmp_path, "won.json", won), "--roll", "boat,red")
    assert "won" in err
    # 8 islands are advised too: a position of 2 lighthouses does not fit them.
    err = fails(capsys, "--islands", "8", "--advise", good, "--roll", "boat,red")
    # The entry of the file, spelt from the declaration: --advise (the position), its discs.
    assert "--advise discs" in err and "8 lighthouses" in err


def test_kit_files_refuse_unknown_and_missing_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = default_kit(2, 2).to_dict()
    assert "unknown key 'Sea'" in fails(capsys, "--kit", write(tmp_path, "k", {**good, "Sea": 1}))
    missing = {k: v for k, v in good.items() if k != "sea_cards"}
    assert "key 'sea_cards' missing" in fails(capsys, "--kit", write(tmp_path, "k", missing))
    faces = ["boat", "red", "blue", "green", "orange", *(f"c{i}" for i in range(1996))]
    # Case 8: 2,001 faces are refused at once, naming the cap.
    huge = {**good, "dice": [faces, faces]}
    assert "2001 faces" in fails(capsys, "--kit", write(tmp_path, "k", huge))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert "bad.json" in fails(capsys, "--kit", str(bad))
    err = fails(capsys, "--kit", "/nonexistent/kit.json")
    assert "--kit: '/nonexistent/kit.json' is invalid; expected a kit name (" in err
    assert "or a kit JSON file (No such file or directory)" in err


def test_an_unknown_kit_name_lists_the_named_kits(capsys: pytest.CaptureFixture[str]) -> None:
    """``--kit nosuch``: neither a name nor a file; the message names every kit of KITS."""
    err = fails(capsys, "--kit", "nosuch")
    assert err.startswith("isles lighthouse: error: --kit: 'nosuch' is invalid; expected a kit")
    assert f"a kit name ({', '.join(KITS)}) or a kit JSON file" in err


def test_kit_and_position_from_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = default_kit(2, 2)
    stdin(monkeypatch, kit.to_dict())
    assert run_json(capsys, "--kit", "-", "--exact") == odds(kit, exact=True).to_dict()
    raw = {"discs": [["red"], []], "boat": 1, "maurice": 0}
    stdin(monkeypatch, raw)
    out = run_json(
        capsys, "--islands", "2", "--sea-cards", "2", "--advise", "-", "--roll", "boat,red"
    )
    pos = Position.from_dict(raw, kit)
    assert out == best_move(kit, pos, Roll.from_faces(kit, ("boat", "red"))).to_dict()
    # Only one of them can be standard input.
    assert "standard input" in fails(capsys, "--kit", "-", "--advise", "-", "--roll", "boat,red")


def test_greedy_sweep_with_a_progress_bar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Greedy play is swept layer by layer over lighthouse codes; --progress shows its bar,
    # a terminal alone does not for a kit this small (the library decides: long work only).
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    argv = ["lighthouse", "--islands", "2", "--sea-cards", "2", "--policy", "greedy", "--json"]
    assert main([*argv, "--progress"]) == 0
    captured = capsys.readouterr()
    assert "lighthouse greedy codes" in captured.err
    out = json.loads(captured.out)
    assert out["method"] == "dp sweep"
    assert out == odds(default_kit(2, 2), "greedy").to_dict()
    assert main(argv) == 0
    assert "lighthouse greedy codes" not in capsys.readouterr().err
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out
    assert "swept layer by layer" in text and "by sea cards: 1: " in text


def test_long_simulations_show_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--islands", "8", "--sea-cards", "1", "--simulate", "--games", "50"]
    assert main(["lighthouse", *argv, "--progress"]) == 0
    assert "lighthouse Monte Carlo" in capsys.readouterr().err
    assert main(["lighthouse", *argv]) == 0
    assert capsys.readouterr().err == ""  # short: no bar unless asked
    competitive = ["--competitive", "--seats", "4", "--islands", "8", "--games", "5"]
    assert main(["lighthouse", *competitive, "--progress"]) == 0
    assert "competitive games" in capsys.readouterr().err


def test_demo_section_writes_the_plot(tmp_path: Path) -> None:
    from isles.commands.lighthouse import demo

    lines: list[str] = []
    demo(tmp_path, lines.append)
    assert (tmp_path / "lighthouse_length.png").stat().st_size > 0
    assert any("sea cards" in line for line in lines)
    assert not any("RULES" in line for line in lines)


def test_kit_json_round_trip_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = Kit.from_dict(default_kit(1, 3).to_dict())
    out = run_json(capsys, "--kit", write(tmp_path, "kit.json", kit.to_dict()), "--sea-cards", "2")
    assert out == odds(kit.with_sea_cards(2)).to_dict()


# --- issue 18: kits beyond 8 islands, progress of long simulations, a lost roll ----------


def nine_island_kit() -> dict[str, Any]:
    """The default kit with a ninth island (red/orange): beyond the DP and default_kit."""
    raw = default_kit(8, 8).to_dict()
    raw["islands"].append(["red", "orange"])
    return raw


def test_a_nine_island_kit_is_answered_in_text_and_json_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = write(tmp_path, "K9.json", nine_island_kit())
    out = run_json(capsys, "--kit", kit, "--games", "300")
    assert out["status"] == "estimate" and out["islands"] == 9
    assert main(["lighthouse", "--kit", kit, "--games", "300"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "9 islands, 8 sea cards" in captured.out
    assert f"{out['simulation']['win_probability']:.4f}" in captured.out


def test_errors_about_a_nine_island_kit_name_only_options_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = write(tmp_path, "K9.json", nine_island_kit())
    err = fails(capsys, "--kit", kit, "--competitive")
    assert "--kit" in err and "--islands" not in err and "9 islands" in err


def test_long_simulations_show_progress_on_a_terminal_unasked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from isles.solvers import work

    argv = ["lighthouse", "--islands", "8", "--sea-cards", "1", "--simulate", "--games"]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main([*argv, "200"]) == 0
    assert "lighthouse Monte Carlo" not in capsys.readouterr().err  # short: no bar
    # The time, not the games: the delay lowered so that any work counts as long.
    monkeypatch.setattr(work, "PROGRESS_DELAY", 0.0)
    assert main([*argv, "200"]) == 0
    assert "lighthouse Monte Carlo" in capsys.readouterr().err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert main([*argv, "200"]) == 0
    assert capsys.readouterr().err == ""  # never in a log file unless asked


def test_a_roll_that_lands_the_boat_says_the_game_is_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = write(tmp_path, "last.json", {"discs": [["red", "blue"], []], "boat": 3, "maurice": 1})
    argv = ["--islands", "2", "--sea-cards", "3", "--advise", last, "--roll", "boat,red"]
    assert main(["lighthouse", *argv]) == 0
    text = capsys.readouterr().out
    assert "the game is lost whatever you play" in text and "legal decision" not in text
    out = run_json(capsys, *argv)
    assert out["outcome"] == "lost" and out["win_probability"] == 0
    # Without the boat the players decide.
    argv[-1] = "blue,red"
    assert main(["lighthouse", *argv]) == 0
    assert "4 legal decisions" in capsys.readouterr().out
    assert run_json(capsys, *argv)["outcome"] == "playing"
