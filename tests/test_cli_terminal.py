"""Errors name the command as typed, and names from files print safely on a terminal.

docs/json.md ("Errors"): one prefix form everywhere, ``isles ships check: error: ...``;
a control character or a right-to-left override in a name shows as its escape.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles.cli import main

DATA = Path(__file__).resolve().parent.parent / "models" / "data"


@pytest.mark.parametrize(
    ("argv", "prefix"),
    [
        (["ships", "check", "/nonexistent.json"], "isles ships check: error: "),
        (["cache", "clear", "no-such-kit"], "isles cache clear: error: "),
        (["rally", "--start", "99,99"], "isles rally: error: "),
        (["lighthouse", "--islands", "0"], "isles lighthouse: error: "),
    ],
)
def test_errors_are_prefixed_by_the_command_as_typed(
    argv: list[str], prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(prefix) and err.count("\n") == 1, err


def test_names_from_a_file_are_refused_with_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((DATA / "plunder_example.json").read_text(encoding="utf-8"))
    record["names"]["island"][0] = "Skull\u202eIsle\x1b[2J"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["plunder", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\u202e" not in err and "\x1b" not in err
    assert "\\u202e" in err and "\\x1b" in err and err.count("\n") == 1


def test_standard_output_shows_what_a_terminal_would_act_on_as_escapes() -> None:
    """The second defence: whatever reaches standard output is written safely."""
    import io

    from isles.cli import _TerminalSafe

    out = io.StringIO()
    safe = _TerminalSafe(out)
    safe.write("Re\u202ed\x1b[2J\tok\n")
    assert out.getvalue() == "Re\\u202ed\\x1b[2J\tok\n"


def test_an_error_naming_a_value_escapes_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cache", "clear", "a\u202eb\x1b[2J"]) == 2
    err = capsys.readouterr().err
    assert "\u202e" not in err and "\x1b" not in err and "\\x1b[2J" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=-1"], "'-1'"),
        (["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=2e6"], "'2e6'"),
        (["rally", "--start", "0,-3", "--budget", "ore=-1"], "'-1'"),
    ],
)
def test_a_refused_number_is_named_as_typed(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f": {said} is invalid" in err and ".0 is invalid" not in err, err


def test_a_name_with_a_new_line_is_refused_and_errors_stay_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((DATA / "plunder_example.json").read_text(encoding="utf-8"))
    record["names"]["island"][0] = "Line\nBreak"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["plunder", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names.island[0]" in err and "\\n" in err, err
    assert main(["rally", "--start", "0,-3", "--player", "a\nb"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'a\\nb'" in err, err
