"""One import name, nothing left behind (docs/json.md, "Packaging").

The wheel installs ``isles`` alone, built after the demo has run in the checkout
and beside a stale ``build/`` folder; isles works beside a project that has its
own ``models`` and ``solvers``; and install, run, uninstall leaves nothing of
isles in site-packages (numba's compiled kernels go to the user's cache).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def _run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


def test_isles_imports_beside_a_projects_own_models_and_solvers(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text("X = 1\n")
    (tmp_path / "solvers.py").write_text("Y = 2\n")
    done = _run([sys.executable, "-c", PUBLIC_USE], cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
    # `python -m isles` from the same folder
    version = _run([sys.executable, "-m", "isles", "--version"], cwd=tmp_path, timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("isles "), version.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel built from a copy of the checkout after `isles demo` ran in it,
    with a stale build/ folder beside it (as a developer's tree has)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(".git", ".venv", "dist", "__pycache__", ".*_cache"),
    )
    demo = _run([sys.executable, "-m", "isles", "demo"], cwd=source, timeout=600)
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert (source / "isles-demo").is_dir()
    stale = source / "build" / "lib" / "isles"
    stale.mkdir(parents=True, exist_ok=True)
    (stale / "stale_module.py").write_text("STALE = True\n")
    out = tmp / "wheel"
    done = _run(
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
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("isles-*.whl")
    yield built


def test_the_wheel_installs_one_top_level_name_after_the_demo(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"isles"}
    # nothing stale, compiled or test-only
    assert not [n for n in names if "stale_module" in n or "isles-demo" in n]
    assert not [n for n in names if n.endswith((".nbi", ".nbc", ".pyc"))]
    assert "isles/solvers/lighthouse/reference.py" not in names
    assert not [n for n in names if n.startswith("isles/tests/") or "/tests/" in n]
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
            if path.suffix in (".py", ".typed", ".json", ".md", ".txt", ".html", ".js", ".css"):
                expected.add(f"{prefix}/{rel.as_posix()}")
    missing = sorted(expected - set(names))
    assert not missing, missing


def _site_packages(venv: Path) -> Path:
    found = _run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ]
    )
    return Path(found.stdout.strip())


def test_install_run_uninstall_leaves_nothing(wheel: Path, tmp_path: Path) -> None:
    """A fresh environment: install the wheel, run the demo (numba compiles and
    caches its kernels), uninstall; site-packages then holds nothing of isles, and
    the compiled kernels are in the user's cache directory."""
    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=120)
    assert made.returncode == 0, made.stderr
    site = _site_packages(venv)
    # isles' dependencies come from this environment (a path line, not a site dir:
    # this environment's own .pth files, an editable isles among them, are not read)
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    installed = _run([*pip, "install", "--quiet", "--no-deps", str(wheel)], timeout=300)
    assert installed.returncode == 0, installed.stderr
    before = {p for p in site.rglob("*") if p.is_file()}
    cache = tmp_path / "cache"
    env = {**os.environ, "ISLES_CACHE_DIR": str(cache)}
    env.pop("NUMBA_CACHE_DIR", None)
    ran = _run(
        [str(venv / "bin" / "isles"), "demo", "--out", str(tmp_path / "pictures")],
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    where = [str(venv / "bin" / "python"), "-c", "import isles; print(isles.__file__)"]
    assert str(site) in _run(where, env=env, cwd=tmp_path).stdout
    after = {p for p in site.rglob("*") if p.is_file()}
    written = sorted(str(p.relative_to(site)) for p in after - before)
    assert not written, written  # isles wrote nothing into its installed files
    assert list((cache / "numba").rglob("*.nbi")), "the compiled kernels are in the cache"
    removed = _run([*pip, "uninstall", "--yes", "--quiet", "isles"], timeout=300)
    assert removed.returncode == 0, removed.stderr
    left = sorted(p.name for p in site.iterdir() if p.name.lower().startswith("isles"))
    assert not left, left
