"""One import name: the wheel installs ``isles`` alone, and isles works beside a
project that has its own ``models`` and ``solvers`` (docs/json.md, "Packaging")."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Every name the public catalogue promises, used the way the README uses them.
PUBLIC_USE = """
import isles
from isles import rally, plunder, layout, lighthouse, ships
from isles.cli import main
assert set(isles.__all__) >= {"rally", "plunder", "layout", "lighthouse", "ships"}
route = rally.plan_route(rally.beginner_board(), (0, -3))
assert route.status == "optimal", route.status
import models, solvers
assert models.X == 1 and solvers.Y == 2
print("ok", route.total_cards, main(["--version"]) if False else "")
"""


def test_isles_imports_beside_a_projects_own_models_and_solvers(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text("X = 1\n")
    (tmp_path / "solvers.py").write_text("Y = 2\n")
    done = subprocess.run(
        [sys.executable, "-c", PUBLIC_USE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
    # `python -m isles` from the same folder
    version = subprocess.run(
        [sys.executable, "-m", "isles", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert version.returncode == 0 and version.stdout.startswith("isles "), version.stderr


def test_the_wheel_installs_one_top_level_name(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"
        ),
    )
    out = tmp_path / "wheel"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("isles-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (top_level,) = (n for n in names if n.endswith(".dist-info/top_level.txt"))
        assert archive.read(top_level).decode().split() == ["isles"]
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"isles"}
    # every module, py.typed and data file of the repository is in the wheel, under isles/
    expected = set()
    for top, prefix in (
        ("isles", "isles"),
        ("models", "isles/models"),
        ("solvers", "isles/solvers"),
        ("docs", "isles/docs"),
        ("seeds", "isles/seeds"),
    ):
        for path in (ROOT / top).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            rel = path.relative_to(ROOT / top)
            if rel.parts[0] in ("models", "solvers", "docs", "seeds") and top == "isles":
                continue  # the links, counted through their targets
            if path.suffix in (".py", ".typed", ".json", ".md", ".txt"):
                expected.add(f"{prefix}/{rel.as_posix()}")
    missing = sorted(expected - set(names))
    assert not missing, missing
