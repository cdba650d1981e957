"""The Plunder questions, declared once: the library, ``isles plunder`` and the web app
read them; the policies are one registry."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np
import pytest

from isles.cli import main
from isles.models.contract import Is, OnlyWith, Question, param
from isles.models.errors import InvalidInput
from isles.models.plunder.codes import Code
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.plunder.record import example_record
from isles.models.questions import questions
from isles.options import add_questions, read_mode
from isles.solvers.plunder import registry as plunder_registry
from isles.solvers.plunder.analysis import analyse
from isles.solvers.plunder.deduction import DEFAULT_TIME_LIMIT
from isles.solvers.plunder.dig import DEFAULT_SAMPLES
from isles.solvers.plunder.registry import POLICIES, BuiltinPolicy, policy_by_name, register
from isles.solvers.plunder.tournament import DEFAULT_LINEUP


def test_the_defaults_are_the_declarations() -> None:
    assert RecordAnalysis.model_fields["time_limit"].default == DEFAULT_TIME_LIMIT == 3.0
    assert DigQuestion.model_fields["samples"].default == DEFAULT_SAMPLES == 200
    assert TournamentQuestion.model_fields["policies"].default == list(DEFAULT_LINEUP)
    assert {RecordAnalysis, DigQuestion, TournamentQuestion} <= set(questions().values())


def test_the_web_spelling_reads_a_clue_with_the_record_names() -> None:
    record = example_record().to_dict()
    clue = {"island": 0, "marker": "Star", "trap": 5}
    q = RecordAnalysis.read({"record": record, "advise": True, "clue": clue}, spelling="key")
    assert q.clue == Code(0, 3, 5)
    with pytest.raises(InvalidInput, match=r'^clue\.marker: "Atlantis"'):
        RecordAnalysis.read(
            {"record": record, "advise": True, "clue": {**clue, "marker": "Atlantis"}},
            spelling="key",
        )


def test_the_library_ranges_are_the_command_lines() -> None:
    record = example_record()
    with pytest.raises(InvalidInput, match=r"^clue: .* expected clue only with advise = True"):
        analyse(record, clue=Code(0, 0, 0))
    with pytest.raises(InvalidInput, match=r"^samples: 100001 is invalid"):
        DigQuestion.read({"record": record, "samples": 100_001})
    with pytest.raises(InvalidInput, match=r"^policies: \[\] is invalid; expected at least one"):
        TournamentQuestion.read({"players": 3, "policies": []})


def test_dig_advice_is_refused_with_a_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["plunder", "tournament", "--players", "2", "--dig-advice"])
    assert status == 2 and "--dig-advice: given; expected --dig-advice with a RECORD" in (
        capsys.readouterr().err
    )


def test_read_mode_refuses_a_repeated_single_option() -> None:
    class One(Question):
        name: str = param("a", help="one name")

    class Many(Question):
        names: list[str] = param([], help="names", option="--name", repeat=True)

    modes: dict[str, type[Question]] = {"--one": One, "--many": Many}
    parser = argparse.ArgumentParser()
    add_questions(parser, modes)
    args = parser.parse_args(["--name", "x", "--name", "y"])
    assert read_mode(modes, "--many", args).names == ["x", "y"]  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput, match=r"^--name: given twice; expected one --name with --one"):
        read_mode(modes, "--one", parser.parse_args(["--name", "x", "--name", "y"]))
    assert read_mode(modes, "--one", parser.parse_args(["--name", "x"])).name == "x"  # type: ignore[attr-defined]


def test_a_flag_condition_reads_as_the_flag() -> None:
    rule = OnlyWith("clue", Is("advise", (True,)))
    assert rule.needs("option", lambda f: "--" + f) == "--clue only with --advise"
    assert rule.needs("python", lambda f: f) == "clue only with advise = True"


def test_every_builtin_policy_is_found_by_name_in_the_registry() -> None:
    assert list(POLICIES) == ["threshold", "certain", "expected", "random", "search"]
    for key, kind in POLICIES.items():
        assert policy_by_name(key).name.split(":")[0] == key
        assert kind.summary
    with pytest.raises(InvalidInput, match="certain with no ':'"):
        policy_by_name("certain:1")


def test_adding_a_policy_is_one_registered_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plunder_registry, "POLICIES", dict(POLICIES))

    @register
    @dataclass(frozen=True)
    class Lazy(BuiltinPolicy):
        key = "lazy"
        summary = "never digs before the last turn"

        @property
        def name(self) -> str:
            return "lazy"

        def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> object:
            raise NotImplementedError

    assert plunder_registry.policy_by_name("lazy").name == "lazy"
    assert "lazy" in plunder_registry.policies_text()
    with pytest.raises(ValueError, match="registered twice"):
        register(Lazy)
