"""The project's own promises: README commands, seeds, packaging."""

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_both_readme_commands_in_order() -> None:
    """.ci/run runs the README's install-and-demo line, then its test line, in one
    environment, word for word (the order a newcomer runs them in)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None
    first, second = block.group(1).strip().splitlines()
    assert first.endswith("isles demo")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = dict(re.findall(r"^(FIRST_COMMAND|TEST_COMMAND)='(.*)'$", ci, re.M))
    assert commands == {"FIRST_COMMAND": first, "TEST_COMMAND": second}
    runs = re.findall(r'^bash -c "\$(\w+)"$', ci, re.M)
    assert runs == ["FIRST_COMMAND", "TEST_COMMAND"]


def test_seeds_are_the_four_documents_with_their_names() -> None:
    names = sorted(p.name for p in (ROOT / "seeds").glob("*.txt"))
    assert names == [
        "000_aeb701e368f40145.txt",
        "002_8684547a41c0941c.txt",
        "003_cfc377110defcf34.txt",
        "004_644cf972d8964df4.txt",
    ]
    # Digests of the documents as received: any edit to a seed fails here.
    digests = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for p in (ROOT / "seeds").glob("*.txt")
    }
    assert digests == EXPECTED_DIGESTS


def test_every_package_ships_py_typed() -> None:
    for package in ("models", "solvers", "isles"):
        assert (ROOT / package / "py.typed").exists()


def _imports(path: Path) -> set[str]:
    """The modules a file imports (any indentation: lazy imports count too)."""
    text = path.read_text(encoding="utf-8")
    return set(re.findall(r"^\s*(?:from|import) ([\w.]+)", text, re.M))


def test_models_import_only_models() -> None:
    """Data flows one way: models -> solvers -> front end."""
    for path in (ROOT / "models").rglob("*.py"):
        for module in _imports(path):
            if module.split(".")[0] in ("isles", "models", "solvers"):
                assert module.startswith("isles.models"), (path.name, module)


def test_solvers_never_import_front_end() -> None:
    for path in (ROOT / "solvers").rglob("*.py"):
        for module in _imports(path):
            if module.split(".")[0] in ("isles", "models", "solvers"):
                assert module.startswith(("isles.models", "isles.solvers")), (path.name, module)


def test_packages_are_reached_through_isles_only() -> None:
    """models/ and solvers/ stay at the top of the repository; isles/ links to them."""
    for name in ("models", "solvers"):
        link = ROOT / "isles" / name
        assert link.is_symlink() and link.resolve() == (ROOT / name).resolve()


EXPECTED_DIGESTS = {
    "000_aeb701e368f40145.txt": "ececdbe7af57f064",
    "002_8684547a41c0941c.txt": "855467282f3cae94",
    "003_cfc377110defcf34.txt": "0f9572bfcba9173c",
    "004_644cf972d8964df4.txt": "adec1f786e14edba",
}
