"""The command line as a whole process: bare `isles`, Ctrl-C, a closed pipe, --help texts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from isles.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent


def isles_process(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "isles", *args], text=True, **kwargs
    )


def test_bare_isles_prints_usage_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: isles")
    for command in ("demo", "rally", "plunder", "layout", "lighthouse", "sail", "risk"):
        assert command in err


def test_unknown_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["sale"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "sale" in err


def test_ctrl_c_is_one_line_and_exit_130() -> None:
    # Greedy play of 8 islands evaluated forward down to 1e-9 takes many minutes (7 islands
    # are now solved in seconds): interrupt it once it has started.
    proc = isles_process(
        "lighthouse",
        "--islands",
        "8",
        "--certify",
        "1e-9",
        "--games",
        "10",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip() and "\r" not in line]
    assert lines[-1] == "isles: interrupted"
    assert "Traceback" not in err


def test_closed_pipe_exits_quietly_with_141() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read
    proc = isles_process(
        "rally", "--start", "0,-3", "--json", stdout=write_end, stderr=subprocess.PIPE
    )
    os.close(write_end)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 141, err
    assert err == ""


def test_no_help_text_cites_files_the_project_does_not_ship() -> None:
    parser = build_parser()
    texts = [parser.format_help()]
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        for sub in getattr(action, "choices", {}).values():
            texts.append(sub.format_help())
    assert len(texts) > 5
    for text in texts:
        assert "RULES" not in text and "shared/" not in text


def test_project_cites_only_what_it_ships() -> None:
    """README, docs, code and tests cite docs/ and seeds/, never the rules file of the
    project's authors (users do not have it)."""
    paths = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    for folder in ("models", "solvers", "isles", "tests", "benchmarks"):
        paths += [
            p for p in (ROOT / folder).rglob("*.py") if p.resolve().is_relative_to(ROOT / folder)
        ]
    needle = "RULES" + ".md"
    offenders = [str(p.relative_to(ROOT)) for p in paths if needle in p.read_text("utf-8")]
    assert not offenders


def test_docs_lists_and_prints_the_installed_pages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs"]) == 0
    listing = capsys.readouterr().out
    for page in ("json", "boards", "rally", "plunder", "layout", "lighthouse", "ships", "002"):
        assert f"\n{page} " in f"\n{listing}"
    assert main(["docs", "json"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    assert main(["docs", "nope"]) == 2
    assert "PAGE: 'nope'" in capsys.readouterr().err


def test_output_checks_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trailing slashes, folders and unwritable places are refused up front."""
    folder = tmp_path / "pics"
    folder.mkdir()
    for target in (f"{folder}/", str(folder), "/proc/x.png"):
        code = main(["rally", "--start", "0,-3", "--png", target])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("isles rally: error: --png:"), err
    assert main(["demo", "--out", ""]) == 2
    assert "--out" in capsys.readouterr().err
    (tmp_path / "afile").write_text("x")
    assert main(["demo", "--out", str(tmp_path / "afile")]) == 2
    assert "a file of that name exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["rally", "--start", "０,-3"], "--start"),
        (["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=1_0"], "--value"),
        (["lighthouse", "--islands", "٣"], "--islands"),
        (["layout", "--radius", "1_0"], "--radius"),
    ],
)
def test_numbers_are_ascii_digits(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and option in err and len(err.strip().splitlines()) == 1, err


def test_a_command_loads_only_its_own_module() -> None:
    """`isles rally ...` imports isles.commands.rally alone (start-up); `--help` all."""
    import subprocess
    import sys

    probe = (
        "import sys; from isles.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('isles.commands.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "rally", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.stdout.strip().splitlines()[-1] == "['isles.commands.rally']", done.stdout
