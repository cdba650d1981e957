"""The lighthouse questions declared once (models/lighthouse/questions.py), the named kits
registry, and what the library, the command line and the web page take from them."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from isles import lighthouse
from isles.cli import main
from isles.models.errors import InvalidInput
from isles.models.lighthouse.competitive import competitive_kit
from isles.models.lighthouse.kit import DEFAULT_KIT, KITS, MAX_DEFAULT_ISLANDS, PLAYER_ISLANDS
from isles.models.lighthouse.questions import KitChoice
from isles.models.questions import questions

ROOT = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["lighthouse", *argv, "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_every_built_in_kit_is_one_entry_of_the_registry() -> None:
    for players in (2, 3, 4):
        assert lighthouse.named_kit(f"game-{players}") == lighthouse.players_kit(players)
    for seats in (2, 3, 4):
        assert lighthouse.named_kit(f"competitive-{seats}") == competitive_kit(seats)
    for n in range(1, MAX_DEFAULT_ISLANDS + 1):
        assert lighthouse.named_kit(f"default-{n}") == lighthouse.default_kit(n)
    assert PLAYER_ISLANDS == {2: 8, 3: 6, 4: 8}
    with pytest.raises(InvalidInput, match=r"^kit: 'game-5' is invalid; expected a kit name"):
        lighthouse.named_kit("game-5")


def test_the_kit_when_none_is_chosen_is_declared_once() -> None:
    # The command line and the web app both play the registry's DEFAULT_KIT: the real
    # game for 2 players, 8 islands (the web reader used to play 6 islands).
    from isles.web.tasks.lighthouse import lighthouse_kit

    default = lighthouse.named_kit(DEFAULT_KIT)
    assert default == lighthouse.players_kit(2)
    assert KitChoice.read({}).chosen_kit() == default
    assert lighthouse_kit({}) == default.to_dict()
    assert lighthouse_kit({"kit": "game-3"}) == lighthouse.players_kit(3).to_dict()
    assert (
        lighthouse_kit({"kit": "game-3", "sea_cards": 2}) == lighthouse.players_kit(3, 2).to_dict()
    )


def test_the_library_calls_take_kit_names_and_json() -> None:
    by_name = lighthouse.odds("default-2", exact=True)
    assert (
        by_name.win_probability
        == lighthouse.odds(lighthouse.default_kit(2), exact=True).win_probability
    )
    kit = lighthouse.default_kit(1, 1)
    move = lighthouse.best_move(
        kit.to_dict(), {"discs": [[]], "boat": 0, "maurice": 0}, ["red", "blue"]
    )
    same = lighthouse.best_move(
        kit, lighthouse.Position.start(kit), lighthouse.Roll.from_faces(kit, ("red", "blue"))
    )
    assert move.to_dict() == same.to_dict()


def test_the_questions_are_registered() -> None:
    for name in ("lighthouse_odds", "lighthouse_advice", "lighthouse_table", "lighthouse_contest"):
        assert name in questions()


def test_kit_names_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    by_name = run_json(capsys, "--kit", "default-3", "--sea-cards", "2")
    by_islands = run_json(capsys, "--islands", "3", "--sea-cards", "2")
    assert by_name == by_islands
    with pytest.raises(SystemExit):
        main(["lighthouse", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in KITS:
        assert name in text


def test_the_competitive_kits_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    # The competitive variant's sea cards (3) when no kit is named; a named kit's own.
    by_name = run_json(capsys, "--competitive", "--kit", "default-2", "--sea-cards", "3")
    assert by_name == run_json(capsys, "--competitive", "--islands", "2")


def test_a_kit_file_is_not_read_when_it_cannot_go_with_another_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["lighthouse", "--kit", "missing.json", "--islands", "3"]) == 2
    err = capsys.readouterr().err
    assert "--islands: '3' is invalid; expected --islands or --kit, not both" in err


def test_a_kit_file_error_names_the_entry_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**lighthouse.default_kit(1, 1).to_dict(), "sea_cards": 0}
    path = tmp_path / "kit.json"
    path.write_text(json.dumps(bad))
    assert main(["lighthouse", "--kit", str(path)]) == 2
    assert "--kit sea_cards: 0 is invalid" in capsys.readouterr().err


def test_no_function_level_import_between_dp_and_greedy() -> None:
    for name in ("dp.py", "greedy.py"):
        tree = ast.parse((ROOT / "solvers" / "lighthouse" / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                inner = [
                    n.module
                    for n in ast.walk(node)
                    if isinstance(n, ast.ImportFrom) and n.module and "lighthouse" in n.module
                ]
                assert not inner, (name, node.name, inner)


def test_the_page_says_a_lost_roll_is_lost() -> None:
    # A lost roll's advice lists one decision at 0: the page reads the advice's outcome
    # and says the game is lost instead of listing it.
    source = (ROOT / "isles" / "web" / "static" / "lighthouse.js").read_text()
    render = source[source.index("function renderAdvice") :]
    render = render[: render.index("\n}\n")]
    assert 'advice.outcome === "lost"' in render
    assert "the game is lost" in source
