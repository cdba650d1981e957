"""argparse's own errors in isles' words, and the help texts' numbers (issue 20).

Every usage error is one line on stderr, after the command as typed, naming the
argument the user typed, the value and what is valid, exit status 2; no
"argument --x:" prefix of argparse's. Every command's --help writes numbers in
plain digits, as the command line reads them (20000, not 20_000 or 20,000).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from isles.cli import build_parser, main


def refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), (code, out, err)
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert "error: argument " not in err and "usage:" not in err, err
    return err.rstrip("\n")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # a value left out
        (["lighthouse", "--advise"], "isles lighthouse: error: --advise: no value given; "),
        (["serve", "--port"], "isles serve: error: --port: no value given; expected --port PORT"),
        (["rally", "--start"], "isles rally: error: --start: no value given; expected --start Q,R"),
        (["plunder", "--players"], "isles plunder: error: --players: no value given; expected"),
        # a mode of the command: named as typed, as its run's errors name it
        (
            ["plunder", "tournament", "--policy"],
            "isles plunder tournament: error: --policy: no value given; expected --policy NAME",
        ),
        (
            ["plunder", "tournament", "--games", "2", "--games", "3"],
            "isles plunder tournament: error: --games: given twice; expected one --games",
        ),
        # an option the command does not have
        (
            ["lighthouse", "--advice", "x"],
            "isles lighthouse: error: --advice: unknown option; expected an option of "
            "isles lighthouse --help (--advise?)",
        ),
        (["sail", "--bogus=3"], "isles sail: error: --bogus: unknown option; expected an option"),
        (["--nope"], "isles: error: --nope: unknown option; expected an option of isles --help"),
        (["docs", "rally", "extra"], "isles docs: error: 'extra': one argument too many; "),
        # a choice not in the list, a TASK left out
        (["chess"], "isles: error: COMMAND: 'chess' is invalid; expected one of demo, rally, "),
        (["ships", "bogus"], "isles ships: error: TASK: 'bogus' is invalid; expected one of check"),
        (["cache", "wipe"], "isles cache: error: TASK: 'wipe' is invalid; expected one of list"),
        (["ships"], "isles ships: error: TASK: missing; expected one of check, convert, harvest"),
        # a flag given a value, an abbreviation of two options
        (["rally", "--json=1"], "isles rally: error: --json: given a value; expected --json alone"),
        (["rally", "--s", "1"], "isles rally: error: --s: ambiguous; expected one of --start, "),
    ],
)
def test_argparse_errors_are_one_line_in_isles_words(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert refusal(capsys, argv).startswith(said)


def test_a_value_given_twice_is_said_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    said = refusal(capsys, ["layout", "--radius", "2", "--radius", "3"])
    assert said == "isles layout: error: --radius: given twice; expected one --radius"


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """A parser and every subcommand's below it (``isles ships check``)."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from parsers(sub)


def test_every_help_writes_plain_digits() -> None:
    seen = list(parsers(build_parser()))
    assert {p.prog for p in seen} >= {"isles", "isles rally", "isles ships check", "isles cache"}
    grouped = re.compile(r"\d_\d|\d,\d{3}(?!\d)")  # 20_000, 100,000 (never a hex 0,-3)
    for parser in seen:
        text = parser.format_help()
        assert grouped.search(text) is None, (parser.prog, grouped.findall(text))


def test_no_help_states_a_default_twice() -> None:
    """The declaration's default is said once (``--time-limit`` said it twice, a newcomer saw)."""
    twice = re.compile(r"\(default:? [^)]*\)\s*\(default")
    for parser in parsers(build_parser()):
        text = " ".join(parser.format_help().split())
        assert twice.search(text) is None, (parser.prog, twice.findall(text))
