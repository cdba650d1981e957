"""Lighthouses, the library in one call: the odds of a kit, advice, tables, competitive odds.

Each numbered case of issue 9 that is the lighthouse game's is a test here (library
side) and in tests/lighthouse/test_lighthouse_cli.py (command line side).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from fractions import Fraction
from typing import Any

import pytest

import isles.lighthouse as lighthouse
import tests.lighthouse.reference as reference
from isles.lighthouse import Odds, best_move, competitive_odds, odds
from isles.models.errors import InvalidInput, IslesError
from isles.models.lighthouse.caps import MAX_GAMES
from isles.models.lighthouse.kit import BOAT, MAX_FACES, Kit, default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import LighthouseContest, LighthouseOdds, LighthouseTable
from isles.models.lighthouse.rules import Roll
from isles.solvers.lighthouse.advice import advise
from isles.solvers.lighthouse.bounds import forward_greedy, upper_bound_by_disc_count
from isles.solvers.lighthouse.competitive_simulation import simulate_competitive
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.odds import odds_method
from isles.solvers.lighthouse.simulation import outcome_distribution, simulate
from isles.solvers.lighthouse.solution import MAX_DP_BYTES, dp_memory_bytes
from isles.solvers.lighthouse.start_values import win_probability

LOPSIDED = Kit(
    default_kit(8).islands,
    (
        (
            BOAT,
            "red",
            "red",
            "blue",
            "blue",
            "blue",
            "green",
            "green",
            "green",
            "green",
            "orange",
            "purple",
        ),
    )
    * 2,
    2,
)
"""The 8 islands with dice that roll each colour as often as no other: no colour symmetry."""


def strict_json(data: dict[str, Any]) -> dict[str, Any]:
    """The dict survives strict JSON (no NaN, no infinity, plain types) unchanged."""
    back: dict[str, Any] = json.loads(json.dumps(data, allow_nan=False))
    assert back == data
    return back


# --- the odds of a kit, one call --------------------------------------------------------


def test_odds_of_a_small_kit_is_the_dp_with_exact_fractions() -> None:
    kit = default_kit(2, 2)
    res = odds(kit, exact=True)
    assert res.status == "optimal" and res.method == "dp"
    assert res.win_probability == solve(kit, exact=True).exact_win_probability()
    assert res.error_bound == 0 and res.simulation is None and res.simulated_policy is None
    d = strict_json(res.to_dict())
    assert d["win_probability_exact"] == "196809133707275/304679870005248"
    assert [row["sea_cards"] for row in d["by_sea_cards"]] == [1, 2]
    assert d["by_sea_cards"][-1]["win_probability"] == d["win_probability"]
    assert Fraction(d["certified_upper_bound_exact"]) >= Fraction(d["win_probability_exact"])


def test_odds_of_a_fixed_policy_are_exact_not_optimal() -> None:
    kit = default_kit(3, 3)
    res = odds(kit, "greedy")
    assert res.status == "exact" and res.policy == "greedy"
    assert res.win_probability == solve(kit, "greedy").win_probability()
    d = res.to_dict()
    assert d["win_probability_exact"] is None and d["error_bound"] > 0


@pytest.mark.parametrize("islands", [4, 6, 7, 8])
def test_the_method_is_chosen_by_size(islands: int) -> None:
    # Optimal and random play: the class DP up to 8 islands; greedy play: its layer sweep.
    assert odds_method(default_kit(islands)) == "dp"
    assert odds_method(default_kit(islands), "random") == "dp"
    assert odds_method(default_kit(islands), "greedy") == "dp sweep"


def test_kits_beyond_the_dp_are_estimated() -> None:
    # 8 islands whose dice leave no symmetry would need more than MAX_DP_BYTES: simulation.
    kit = LOPSIDED.with_sea_cards(8)
    assert dp_memory_bytes(kit) > MAX_DP_BYTES
    assert odds_method(kit) == "monte carlo"
    nine = Kit((*default_kit(8).islands, ("red", "green")), default_kit().dice, 1)
    assert odds_method(nine) == "monte carlo"
    res = odds(nine, "greedy", games=200, seed=3)
    assert res.status == "estimate" and res.win_probability == res.simulation.win_probability  # type: ignore[union-attr]


def test_the_start_values_equal_the_reference_sweep() -> None:
    kit = default_kit(3, 4)
    for policy in ("optimal", "greedy", "random"):
        ours = odds(kit, policy)
        theirs = reference.win_probability(kit, policy)
        assert ours.error_bound is not None and ours.by_sea_cards is not None
        for a, b in zip(ours.by_sea_cards, theirs.by_sea_cards, strict=True):
            assert abs(float(a) - float(b)) <= 1e-15


def test_an_estimate_of_optimal_play_says_it_simulated_greedy_play() -> None:
    # Case 13: never a greedy estimate labelled "policy": "optimal".
    res = odds(default_kit(8, 2), simulate=True, games=400, seed=5)
    assert res.status == "estimate" and res.method == "monte carlo"
    assert res.policy == "optimal" and res.win_probability is None
    assert res.simulated_policy == "greedy"
    d = strict_json(res.to_dict())
    assert d["simulation"]["policy"] == "greedy" and d["simulation"]["games"] == 400
    assert d["simulation"]["seed"] == 5 and d["simulated_policy"] == "greedy"
    assert d["win_probability"] is None and d["by_sea_cards"] is None
    low, high = d["simulation"]["ci95"]
    assert low <= d["simulation"]["win_probability"] <= high
    assert d["simulation"]["win_probability"] <= d["certified_upper_bound"]
    assert d["certified_upper_bound_exact"] is not None
    same = odds(default_kit(8, 2), simulate=True, games=400, seed=5)
    assert same.to_dict() == d  # seeded: reproducible


def test_certify_gives_a_certified_lower_bound() -> None:
    kit = default_kit(8, 1)
    res = odds(kit, "greedy", certify=1e-3, games=100)
    assert res.lower_bound is not None and res.min_mass == 1e-3
    assert 0 <= res.lower_bound <= float(res.upper_bound) <= 1
    # For greedy play the forward evaluation's upper bound is used when tighter.
    assert float(res.upper_bound) <= float(upper_bound_by_disc_count(kit))
    d = strict_json(res.to_dict())
    assert d["certified_lower_bound"] == res.lower_bound and d["min_mass"] == 1e-3


@pytest.mark.parametrize(
    ("call", "field"),
    [
        # Case 10: options that would do nothing are refused.
        (lambda: odds(default_kit(4, 2), simulate=True), "simulate"),
        (lambda: odds(default_kit(4, 2), certify=1e-3), "certify"),
        (lambda: odds(default_kit(2, 2), games=100), "games"),
        (lambda: odds(default_kit(2, 2), seed=1), "seed"),
        (lambda: odds(default_kit(8, 2), simulate=True, exact=True), "exact"),
        (lambda: odds(default_kit(5, 2), exact=True), "exact"),
        (lambda: odds(default_kit(8, 2), "random", certify=1e-3), "certify"),
        (lambda: odds(default_kit(8, 2), certify=0.0), "certify"),
        (lambda: odds(default_kit(8, 2), certify=1.5), "certify"),
        (lambda: odds(default_kit(2, 2), "clever"), "policy"),
        # Case 2: a negative seed is refused, never a NumPy traceback.
        (lambda: odds(default_kit(8, 2), simulate=True, seed=-1), "seed"),
        (lambda: simulate(default_kit(2, 2), "greedy", 10, seed=-1), "seed"),
        (lambda: simulate_competitive(default_kit(4, 2), 2, "greedy", 10, seed=-1), "seed"),
        (lambda: LighthouseTable.read({"islands": 8, "sea_cards": 1, "seed": 1}), "seed"),
        # Case 7: one stated cap for every simulation, refused above it.
        (lambda: simulate(default_kit(2, 2), "greedy", MAX_GAMES + 1), "games"),
        (lambda: simulate_competitive(default_kit(4, 2), 2, "greedy", MAX_GAMES + 1), "games"),
        (lambda: odds(default_kit(8, 2), simulate=True, games=10**12), "games"),
        (lambda: competitive_odds(default_kit(4, 2), games=10**6 + 1), "games"),
        (lambda: competitive_odds(default_kit(2, 2), games=100), "games"),
        (lambda: competitive_odds(default_kit(2, 2), seed=2), "seed"),
        (lambda: competitive_odds(default_kit(3, 2), 3, policy="optimal"), "policy"),
        (lambda: competitive_odds(default_kit(3, 2), seats=2), "seats"),
    ],
)
def test_refusals_name_the_field(call: Any, field: str) -> None:
    with pytest.raises(InvalidInput, match=f"^{field}"):
        call()


def test_games_at_the_cap_are_accepted() -> None:
    # The cap is stated in the library (MAX_GAMES) and the same everywhere.
    assert MAX_GAMES == 1_000_000
    asked = [q.read({"games": MAX_GAMES}).games for q in (LighthouseOdds, LighthouseContest)]
    assert asked == [MAX_GAMES, MAX_GAMES]
    assert simulate(default_kit(1, 1), "greedy", 1).games == 1


# --- caps on kit sizes (case 8) ---------------------------------------------------------


def test_dice_with_too_many_faces_are_refused_at_once() -> None:
    faces = [BOAT, "red", "blue", *(f"c{i}" for i in range(1998))]
    raw = {"islands": [["red", "blue"]], "dice": [faces, faces], "sea_cards": 2}
    start = time.perf_counter()
    with pytest.raises(
        InvalidInput, match=rf"kit\.dice\[0\]: 2001 faces; expected 1\.\.{MAX_FACES}"
    ):
        Kit.from_dict(raw)
    with pytest.raises(InvalidInput, match="faces"):
        Kit((("red", "blue"),), (tuple(faces), tuple(faces)), 2)
    assert time.perf_counter() - start < 20  # not the work on those dice


def test_kits_whose_dp_would_not_fit_are_refused_before_any_work() -> None:
    big = LOPSIDED.with_sea_cards(30)  # about 60 GiB
    assert dp_memory_bytes(big) > MAX_DP_BYTES
    start = time.perf_counter()
    with pytest.raises(InvalidInput, match="GiB"):
        solve(big)
    with pytest.raises(InvalidInput, match="GiB"):
        best_move(big, Position.start(big), Roll.from_faces(big, ("boat", "red")), cache=False)
    with pytest.raises(InvalidInput, match="islands"):
        win_probability(Kit((*default_kit(8).islands, ("red", "green")), default_kit().dice, 1))
    with pytest.raises(InvalidInput, match="islands"):
        solve(default_kit(8), "greedy")  # greedy's every position: 7 islands (8: start values)
    assert time.perf_counter() - start < 20  # not the minutes (or the 60 GiB) of the work


# --- advice -----------------------------------------------------------------------------


def test_best_move_is_advise_on_the_optimal_tables() -> None:
    kit = default_kit(2, 3)
    pos = Position((("red",), ()), 1, 1)
    roll = Roll.from_faces(kit, ("blue", "green"))
    adv = best_move(kit, pos, roll, exact=True)
    assert adv == advise(solve(kit, exact=True), pos, roll)
    assert adv.status == "optimal" and adv.position_value == solve(kit, exact=True).value(pos)
    d = strict_json(adv.to_dict())
    assert d["roll"] == {
        "boat": False,
        "colours": ["blue", "green"],
        "probability": 1 / 18,
        "probability_exact": "1/18",
    }
    assert d["best"] == {k: d["alternatives"][0][k] for k in ("placements", "bonus")}
    assert d["win_probability_exact"] == d["alternatives"][0]["win_probability_exact"]
    assert Fraction(d["position_win_probability_exact"]) == adv.position_value


def test_advice_on_a_roll_that_lands_the_boat_says_the_game_is_lost() -> None:
    kit = default_kit(2, 2)
    last = Position((("red",), ()), boat=2, maurice=1)
    lost = best_move(kit, last, Roll.from_faces(kit, ("boat", "red")), exact=True)
    assert lost.outcome == "lost" and lost.to_dict()["outcome"] == "lost"
    assert lost.to_dict()["best"] is None and lost.to_dict()["alternatives"] == []
    assert all(value == 0 for _, value in lost.alternatives)
    playing = best_move(kit, last, Roll.from_faces(kit, ("blue", "red")), exact=True)
    assert playing.outcome == "playing" and playing.win_probability > 0
    # One card before the last, a boat roll only moves the boat on.
    early = Position((("red",), ()), boat=1, maurice=1)
    assert best_move(kit, early, Roll.from_faces(kit, ("boat", "red"))).outcome == "playing"


def test_simulations_show_a_bar_when_asked_or_long(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from isles.solvers import work
    from isles.solvers.lighthouse import simulation

    kit = default_kit(2, 2)
    simulation.simulate(kit, "greedy", 50, progress=True)
    assert "lighthouse Monte Carlo" in capsys.readouterr().err
    simulation.simulate(kit, "greedy", 50)
    assert capsys.readouterr().err == ""  # None: no terminal, no bar
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    simulation.simulate(kit, "greedy", 50)
    assert capsys.readouterr().err == ""  # None on a terminal: short work shows nothing
    # None on a terminal shows the bar once the work has taken the delay (lowered: no timing).
    monkeypatch.setattr(work, "PROGRESS_DELAY", 0.0)
    simulation.simulate(kit, "greedy", 50)
    assert "lighthouse Monte Carlo" in capsys.readouterr().err
    simulation.simulate(kit, "greedy", 50, progress=False)
    assert capsys.readouterr().err == ""
    # odds() passes None on: its simulation decides the same way.
    lighthouse.odds(default_kit(8, 1), simulate=True, games=50)
    assert "lighthouse Monte Carlo" in capsys.readouterr().err


def test_advice_refuses_a_won_position() -> None:
    # Case 15: a won game has no move to advise.
    kit = default_kit(1, 2)
    won = Position((("red", "blue", "red", "blue"),), 1, 0)
    with pytest.raises(InvalidInput, match="won"):
        best_move(kit, won, Roll.from_faces(kit, ("boat", "red")))
    with pytest.raises(InvalidInput, match="won"):
        advise(solve(kit), won, Roll.from_faces(kit, ("boat", "red")))


def test_rolls_from_faces() -> None:
    kit = default_kit(2)
    assert Roll.from_faces(kit, ("red", "boat")) == Roll(True, ("red",), Fraction(1, 18))
    with pytest.raises(InvalidInput, match=r"^--roll: 'black'"):
        Roll.from_faces(kit, ("red", "black"), field="--roll")
    with pytest.raises(InvalidInput, match="two faces"):
        Roll.from_faces(kit, ("red",))


# --- positions and kits: unknown and missing keys (case 4) ------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"discs": [["red"], []], "Boat": 3, "maurice": 0}, "unknown key 'Boat'"),
        ({"discs": [["red"], []], "maurice": 0}, "key 'boat' missing"),
        ({"discs": [["red"], []], "boat": 3}, "key 'maurice' missing"),
        ({"discs": [["red"], []], "boat": 3.0, "maurice": 0}, r"position\.boat"),
        ({"discs": [["red"], []], "boat": True, "maurice": 0}, r"position\.boat"),
        ({"discs": [["red"], [7]], "boat": 1, "maurice": 0}, r"position\.discs\[1\]\[0\]"),
    ],
)
def test_positions_refuse_unknown_missing_and_mistyped_keys(raw: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Position.from_dict(raw, default_kit(2, 8))


def test_a_complete_position_gives_the_right_answer() -> None:
    # The example: with the boat on card 3 the odds are far lower than at 0.
    kit = default_kit(2, 3)
    sol = solve(kit)
    near = Position.from_dict({"discs": [["red"], []], "boat": 3, "maurice": 0}, kit)
    start = Position.from_dict({"discs": [["red"], []], "boat": 0, "maurice": 0}, kit)
    assert sol.value(near) < sol.value(start)


def test_kits_refuse_unknown_and_missing_keys() -> None:
    good = default_kit(1, 2).to_dict()
    with pytest.raises(InvalidInput, match="unknown key 'Sea_cards'"):
        Kit.from_dict({**good, "Sea_cards": 3})
    with pytest.raises(InvalidInput, match="key 'dice' missing"):
        Kit.from_dict({k: v for k, v in good.items() if k != "dice"})


# --- the competitive variant ------------------------------------------------------------


def test_competitive_odds_exact_for_small_kits_and_simulated_beyond() -> None:
    exact = competitive_odds(default_kit(2, 2))
    assert exact.status == "exact"
    d = strict_json(exact.to_dict())
    assert d["method"] == "value iteration" and 0 < d["error_bound"] < 1e-9
    assert sum(s["win_probability"] for s in d["by_seat"]) == pytest.approx(1)
    assert [s["seat"] for s in d["by_seat"]] == [1, 2]
    sim = competitive_odds(default_kit(8, 2), 4, games=60, seed=2)  # 99 GiB to solve
    assert sim.status == "estimate"
    ds = strict_json(sim.to_dict())
    assert ds["games"] == 60 and ds["seed"] == 2 and ds["method"] == "monte carlo"
    assert sum(s["wins"] for s in ds["by_seat"]) + ds["unfinished"] == 60


# --- every result type: to_dict in the one dialect -------------------------------------


def test_every_result_has_a_strict_json_to_dict_with_a_status() -> None:
    kit = default_kit(1, 2)
    results: list[Any] = [
        odds(kit),
        solve(kit),
        win_probability(kit),
        lighthouse.difficulty_table((1,), (1, 2)),
        lighthouse.difficulty_table((1,), (1,), "greedy"),
        best_move(kit, Position.start(kit), Roll.from_faces(kit, ("boat", "red"))),
        simulate(kit, "greedy", 20),
        outcome_distribution(kit, "greedy"),
        forward_greedy(kit),
        competitive_odds(default_kit(2, 2)),
        simulate_competitive(default_kit(2, 2), 2, "greedy", 5),
    ]
    statuses = {"optimal", "exact", "estimate"}
    for res in results:
        d = strict_json(res.to_dict())
        assert d["status"] in statuses, type(res).__name__


def test_errors_are_isles_errors() -> None:
    assert issubclass(InvalidInput, IslesError)
    with pytest.raises(IslesError):
        odds(default_kit(2, 2), games=5)


def test_odds_is_exported_by_the_catalogue() -> None:
    for name in ("odds", "Odds", "best_move", "competitive_odds", "difficulty_table", "Roll"):
        assert name in lighthouse.__all__
    assert lighthouse.Odds is Odds


def test_each_keyword_function_stands_beside_its_answerer() -> None:
    # docs/architecture.md, "Where things go": the catalogue only imports and lists them
    for name, question in (
        ("odds", "odds"),
        ("best_move", "advice"),
        ("difficulty_table", "table"),
        ("competitive_odds", "contest"),
    ):
        module = importlib.import_module(f"isles.solvers.lighthouse.{question}")
        assert getattr(lighthouse, name) is getattr(module, name)
        assert getattr(module, name).__module__ == module.__name__
        assert hasattr(module, f"answer_lighthouse_{question}")
