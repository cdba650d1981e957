"""Values in error messages in each front end's words (issue 20; docs/serve.md, "Errors").

The web app reads JSON, so a bad value is spelt as JSON writes it (``true``,
``null``, ``1e+23``); the command line shows the text typed. A bound is spelt
so that either front end reads it back (``2147483647``, never ``2_147_483_647``).
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles.cli import main
from isles.models.errors import InvalidInput
from isles.models.lighthouse.questions import KitChoice

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def message(client: TestClient, path: str, text: str) -> str:
    response = client.post(path, content=text, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    said: str = response.json()["error"]["message"]
    return said


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        (
            "/api/lighthouse/kit",
            '{"players": true}',
            "players: true is invalid; expected an integer in 2..4",
        ),
        ("/api/lighthouse/kit", '{"islands": false}', "islands: false is invalid"),
        ("/api/lighthouse/kit", '{"islands": 1e23}', "islands: 1e+23 is a float, not a whole"),
        (
            "/api/solve/income",
            '{"players": 4.0}',
            "players: 4.0 is a float, not a whole number (write 4); expected an integer in 3..6",
        ),
        ("/api/lighthouse/kit", '{"islands": "3"}', 'islands: "3" is invalid'),
        ("/api/lighthouse/kit", '{"islands": [1.0]}', "islands: [1] is invalid"),
        ("/api/lighthouse/kit", '{"Islands": 1}', 'Islands: unknown key "Islands"'),
        # a number a float cannot hold is refused as typed, never read as inf, and
        # named where it is (issue 21, finding 3)
        ("/api/lighthouse/kit", '{"islands": 1e400}', "islands: 1e400 is invalid"),
        ("/api/solve/income", '{"players": 1e400}', "players: 1e400 is invalid"),
        ("/api/solve/income", '{"hand": {"brick": 1e400}}', "hand.brick: 1e400 is invalid"),
        ("/api/solve/race", '{"time_limit": 1e400}', "time_limit: 1e400 is invalid"),
        ("/api/rally/goals", '{"start": [1e400, 0]}', "start[0]: 1e400 is invalid"),
        # a repeated key in plain words (issue 21, finding 6)
        (
            "/api/solve/income",
            '{"players": 3, "players": 4}',
            'request: the key "players" is given twice; expected each key once per object',
        ),
        (
            "/api/solve/income",
            '{"hand": {"ore": 1, "ore": 2}}',
            'hand: the key "ore" is given twice',
        ),
        (
            "/api/solve/layout",
            '{"game": "base", "seed": 2147483648}',
            "seed: 2147483648 is invalid; expected an integer in 0..2147483647",
        ),
        # found past the question's reader (the library's board and position readers)
        (
            "/api/board",
            '{"board": {"hexes": [{"hex": [0, null], "terrain": "sea"}]}}',
            "board.hexes[0].hex: [0,null] is invalid; expected axial coordinates: a pair of "
            "integers (q, r), each within ±1000000",
        ),
        (
            "/api/lighthouse/position",
            '{"islands": 1, "position": {"discs": [[]], "boat": false, "maurice": 0}}',
            "position.boat: false is invalid; expected an integer in 0..8",
        ),
    ],
)
def test_the_web_spells_values_as_json(client: TestClient, path: str, body: str, said: str) -> None:
    text = message(client, path, body)
    assert text.startswith(said), text
    assert "True" not in text and "False" not in text and "None" not in text and "_0" not in text


def test_the_json_readers_spell_infinity_as_javascript_does() -> None:
    with pytest.raises(InvalidInput) as caught:
        KitChoice.read({"islands": float("inf")}, spelling="key")
    assert str(caught.value).startswith("islands: Infinity is invalid"), str(caught.value)
    with pytest.raises(InvalidInput) as caught:
        KitChoice.read({"islands": float("inf")})  # the library's own spelling: Python's
    assert str(caught.value).startswith("islands: inf is invalid"), str(caught.value)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["layout", "--seed", "2147483648"],
            "--seed: '2147483648' is invalid; expected an integer in 0..2147483647",
        ),
        (
            ["lighthouse", "--simulate", "--games", "99999999999"],
            "--games: '99999999999' is invalid; expected an integer in 1..1000000",
        ),
        (["lighthouse", "--certify", "1e23"], "--certify: '1e23' is invalid"),
        (["lighthouse", "--players", "1e23"], "--players: '1e23' is invalid"),
    ],
)
def test_the_command_line_shows_the_text_typed(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err, err
    assert "_0" not in err and "1e+23" not in err
