"""HTTP tests of the endpoints the rally, set-up and lighthouse pages added for issue 20.

``POST /api/rally/goals`` (the default goals, marked as soon as the start is
tapped), ``POST /api/lighthouse/play`` (the position after a decision) and the
words of ``GET /api/layout/rules``: each is compared with the library call it
stands for, bad input included.
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles import layout, lighthouse, rally
from isles.models.lighthouse.rules import legal_decisions, play_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def refused(response: object, field: str) -> str:
    assert getattr(response, "status_code", None) == 400
    error = response.json()["error"]  # type: ignore[attr-defined]
    assert error["field"] == field, error
    return str(error["message"])


def test_rally_goals_are_the_ones_the_route_takes(client: TestClient) -> None:
    board = rally.beginner_board()
    for start in ((0, -3), (3, -3), (-3, 3)):
        answer = client.post("/api/rally/goals", json={"board": board.to_dict(), "start": start})
        route = rally.plan_route(board, start)
        assert answer.json()["goals"] == [list(g) for g in route.goals]
        assert answer.json()["group"][0] == list(start)
    inland = client.post("/api/rally/goals", json={"board": board.to_dict(), "start": [0, 0]})
    assert "rim start" in refused(inland, "start")
    missing = client.post("/api/rally/goals", json={"start": [0, -3]})
    assert missing.status_code == 400 and "board" in missing.json()["error"]["message"]


def test_lighthouse_play_is_the_librarys_turn(client: TestClient) -> None:
    kit = lighthouse.default_kit(2, 3)
    position = lighthouse.Position((("red",), ()), boat=1, maurice=0)
    roll = lighthouse.Roll.from_faces(kit, ("blue", "boat"))
    body = {"islands": 2, "sea_cards": 3, "position": position.to_dict(), "roll": ["blue", "boat"]}
    for decision in legal_decisions(kit, position, roll):
        answer = client.post("/api/lighthouse/play", json={**body, "decision": decision.to_dict()})
        after = play_turn(kit, position, roll, decision)
        assert answer.json() == {
            "position": after.position.to_dict(),
            "outcome": str(after.outcome),
        }
    illegal = {"placements": [["blue", 1]], "bonus": None}  # island 1 takes no blue
    assert "legal" in refused(
        client.post("/api/lighthouse/play", json={**body, "decision": illegal}), "decision"
    )
    bad = {"placements": [["blue", 7]], "bonus": None}
    refused(
        client.post("/api/lighthouse/play", json={**body, "decision": bad}),
        "decision.placements[0]",
    )
    refused(client.post("/api/lighthouse/play", json=body), "decision")
    wrong = {**body, "position": {**position.to_dict(), "boat": 9}, "decision": illegal}
    refused(client.post("/api/lighthouse/play", json=wrong), "position.boat")


def test_layout_rules_in_words(client: TestClient) -> None:
    answer = client.get("/api/layout/rules").json()
    assert set(answer["titles"]) == set(layout.RULE_KINDS)
    assert all(title and title != kind for kind, title in answer["titles"].items())
    for facts in answer["radii"]:
        request = layout.setup_request(radius=facts["radius"])
        assert facts["land"] == request.land and facts["positions"] == request.board_size
    too_big = [f["radius"] for f in answer["radii"] if f["land"] > f["land_tiles"]]
    assert too_big == [4, 5, 6]
    # the library agrees: radius 4 with the defaults has no board, for these reasons
    result = layout.solve_layout(layout.setup_request(radius=4), time_limit=20)
    assert result.conflict is not None
    assert set(result.conflict) <= set(answer["requirements"]) | set(answer["titles"])
