"""A newcomer's break-it run of Plunder's Python API and tournaments.

- A tournament had no time limit by default (a million games of six players:
  about a day) and took up to 256 local worker processes.
- ``play_game`` raised ValueError (seed -1), TypeError (seed 1.5) or
  AttributeError (a policy's name), and took seed 2**70 that tournaments refuse;
  ``policy_by_name`` named the command line's ``--policy`` in a Python error.
- A tournament's errors began ``isles plunder: error:``, not the command as typed.
"""

from __future__ import annotations

import pytest

from isles import plunder
from isles.cli import main
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.plunder.questions import MAX_WORKERS, TOURNAMENT_TIME_LIMIT


def test_a_tournament_has_a_time_limit_by_default() -> None:
    q = plunder.TournamentQuestion.read({"players": 6, "games": 1_000_000, "workers": 0})
    assert q.time_limit == TOURNAMENT_TIME_LIMIT == 600.0
    t = plunder.tournament(2, ["random"], games=2, seed=1, workers=0)
    assert t.time_limit == TOURNAMENT_TIME_LIMIT
    assert t.to_dict()["time_limit"] == 600.0
    # None in Python: every game asked for.
    assert plunder.tournament(2, ["random"], games=2, workers=0, time_limit=None).time_limit is None


def test_local_workers_are_capped() -> None:
    assert MAX_WORKERS == 64
    plunder.TournamentQuestion.read({"players": 3, "workers": MAX_WORKERS})
    with pytest.raises(
        InvalidInput, match=r"workers: 65 is invalid; expected an integer in 0\.\.64"
    ):
        plunder.TournamentQuestion.read({"players": 3, "workers": 65})


@pytest.mark.parametrize("seed", [-1, 1.5, 2**70, SEED_MAX + 1, True, "1"])
def test_play_game_refuses_a_bad_seed_by_name(seed: object) -> None:
    certain = plunder.policy_by_name("certain")
    with pytest.raises(InvalidInput) as info:
        plunder.play_game([certain] * 3, seed=seed)  # type: ignore[arg-type]
    assert info.value.field == "seed" and info.value.value == seed
    assert f"0..{SEED_MAX}" in str(info.value)


def test_play_game_takes_policy_names_through_the_registry() -> None:
    by_name = plunder.play_game(["expected", "threshold:0.9", "certain"], seed=1)
    objects = [plunder.policy_by_name(n) for n in ("expected", "threshold:0.9", "certain")]
    assert by_name == plunder.play_game(objects, seed=1)
    with pytest.raises(InvalidInput, match=r"^policies\[1\]: 'greedy' is invalid; expected one of"):
        plunder.play_game(["expected", "greedy"], seed=1)
    with pytest.raises(InvalidInput, match=r"^policies\[0\]: 3 is invalid; expected a Policy"):
        plunder.play_game([3, 3], seed=1)  # type: ignore[list-item]


def test_policy_by_name_names_the_parameter_not_the_option() -> None:
    with pytest.raises(
        InvalidInput, match=r"^policy: 'threshold:2' is invalid; expected threshold:P"
    ):
        plunder.policy_by_name("threshold:2")
    with pytest.raises(InvalidInput, match=r"^policy: 'greedy' is invalid"):
        plunder.policy_by_name("greedy")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--workers", "65"], "--workers: '65' is invalid; expected an integer in 0..64"),
        (["--policy", "threshold:2", "--workers", "0"], "--policy: 'threshold:2' is invalid"),
        (["--games", "0"], "--games: '0' is invalid"),
    ],
)
def test_tournament_errors_name_the_command_as_typed(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(["plunder", "tournament", "--players", "3", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("isles plunder tournament: error: ") and needle in err
    assert err.count("\n") == 1
