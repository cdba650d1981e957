"""Plunder's questions: what a record proves, dig now or wait, and a tournament.

Implements docs/plunder.md ("Time limit", "Dig now or wait", "Tournaments";
seed ``seeds/003_cfc377110defcf34.txt``) and docs/json.md ("Questions"). One
declaration each serves the library (:func:`isles.plunder.analyse`,
:func:`isles.plunder.dig_advice`, :func:`isles.plunder.tournament`), ``isles
plunder`` (one mode each: ``RECORD``, ``RECORD --dig-advice``, ``tournament``)
and the web app's notepad.

Policies are named ``name[:ARG]``; the names are those of the registry of
built-in policies (``isles.plunder.POLICIES``, kept by the solvers: a model does
not import them), which the library looks them up in as it answers: a question
holds the name as given, or a policy object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import PlainValidator, model_validator

from isles.models.contract import Given, Is, NotWith, OnlyWith, Question, param
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.plunder.codes import MAX_PLAYERS, MIN_PLAYERS, Code, code_from_json
from isles.models.plunder.game import TURN_LIMIT
from isles.models.plunder.record import Record

__all__ = [
    "ANALYSIS_TIME_LIMIT",
    "DEFAULT_LINEUP",
    "DIG_SAMPLES",
    "MAX_GAMES",
    "MAX_SAMPLES",
    "MAX_WAITS",
    "MAX_WORKERS",
    "TOURNAMENT_TIME_LIMIT",
    "DigQuestion",
    "RecordAnalysis",
    "TournamentQuestion",
]

ANALYSIS_TIME_LIMIT = 3.0
"""Seconds the analysis spends, by default, proving proofs and conflicts smallest."""

DIG_SAMPLES = 200
"""Games played on per dig advice, by default."""

MAX_SAMPLES = 100_000
"""Most games played on for one dig advice (about 7 minutes)."""

MAX_WAITS = TURN_LIMIT
"""The longest wait dig advice weighs (a game has 15 turns)."""

MAX_GAMES = 1_000_000
"""Most games in one tournament."""

TOURNAMENT_TIME_LIMIT = 600.0
"""Seconds a tournament plays, by default (10 minutes; a million games of six players
would take about a day)."""

MAX_WORKERS = 64
"""Most worker processes of the local cluster (each is a Python process of about
100 MB; a larger cluster is a running scheduler's, ``scheduler=``)."""

DEFAULT_LINEUP = ("expected", "threshold", "certain")
"""The policies seated when none is named: the exact-solver ones."""

#: How a policy is written (isles plunder --help lists the registry's names).
_POLICY_HELP = "a built-in policy's name, name[:ARG]"


def _record(value: object) -> Record:
    if isinstance(value, Record):
        return value
    if isinstance(value, Mapping):  # the record's JSON (the web app's requests)
        try:
            return Record.from_dict(value)
        except InvalidInput as exc:  # named record.observations[2]...: the field is the path
            field = exc.field.removeprefix("record")
            raise InvalidInput(field, exc.value, exc.expected, problem=exc.problem) from None
    raise InvalidInput("", value, "a Record (Record.load reads a file) or its JSON")


def _clue(value: object) -> Code | Mapping[str, Any]:
    if isinstance(value, Code):
        return value
    if isinstance(value, Mapping):  # JSON, read with the record's names (RecordAnalysis)
        return value
    raise InvalidInput("", value, "a Code")


def _digs(value: object) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise InvalidInput("", value, "a mapping of player index to a count")
    out: dict[int, int] = {}
    for key, count in value.items():
        player = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else key
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidInput("", key, "a mapping of player index to a count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidInput(f".{player}", count, "a count >= 0")
        out[player] = count
    return out


def _policy(value: object) -> Any:
    if isinstance(value, str):
        return value  # looked up in the registry by the library
    if callable(getattr(value, "seat", None)) and isinstance(getattr(value, "name", None), str):
        return value  # a Policy object (isles.models.plunder.play.Policy)
    raise InvalidInput("", value, f"{_POLICY_HELP}, or a Policy")


def _lineup(value: object) -> list[Any]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise InvalidInput("", value, "a list of policies")
    if not value:
        raise InvalidInput("", [], "at least one policy")
    out = []
    for i, item in enumerate(value):
        try:
            out.append(_policy(item))
        except InvalidInput as exc:
            raise InvalidInput(f"[{i}]", exc.value, exc.expected) from None
    return out


#: A record: a :class:`Record`, or its JSON (docs/plunder.md, "The record format").
RecordValue = Annotated[Record, PlainValidator(_record)]
#: A clue: a :class:`Code`, or its JSON (values as indices or the record's names).
ClueValue = Annotated[Code, PlainValidator(_clue)]
#: Correct digs already made on each target's treasure.
Digs = Annotated[dict[int, int], PlainValidator(_digs)]
#: A policy: a built-in one's name ``name[:ARG]``, or a Policy object.
PolicyValue = Annotated[Any, PlainValidator(_policy)]
#: A tournament's line-up: policies (names or objects), at least one.
Lineup = Annotated[list[Any], PlainValidator(_lineup)]

_TIME_HELP = "seconds for the games, which stop there; the answer is that of the games played "
_TIME_HELP += "so far, and says so"


class RecordAnalysis(Question):
    """What a record proves, its exact posterior, and flip, guess and dig advice on request.

    Dig now or wait (:class:`DigQuestion`'s advice, from ``dig_samples`` games played
    on by ``dig_policy``) comes with the advice when ``dig_policy`` is given and the
    record says who I am, within its own share of the time: at most
    ``dig_time_limit`` seconds, and ending ``dig_deadline`` seconds after the
    analysis began (the web notepad's one budget: docs/serve.md).

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> q = RecordAnalysis.read({"record": example_record(), "advise": True})
    >>> q.time_limit, q.clue, q.dig_policy
    (3.0, None, None)
    >>> RecordAnalysis.read({"record": example_record(), "active": 1}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --active: 1 is invalid; expected --active only with --advise
    >>> RecordAnalysis.read({"record": example_record(), "advise": True, "dig_samples": 5})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: dig_samples: 5 is invalid; expected dig_samples only with ...
    """

    record: RecordValue = param(
        help="the record JSON file ('-' reads standard input)", metavar="RECORD", cli=False
    )
    advise: bool = param(False, help="add flip and guess advice")
    clue: ClueValue | None = param(
        None,
        help="with --advise: the combination on the table for flip advice, "
        "'island,marker,trap' (indices or names; default: the last observation's clue)",
        metavar="I,M,T",
    )
    active: int | None = param(
        None,
        help="with --advise: the active player for flip advice "
        "(default: me, else the player after the last active one)",
        ge=0,
        le=MAX_PLAYERS - 1,
    )
    earlier_digs: Digs | None = param(
        None,
        help="with advise: correct digs already made on each treasure, for guess advice",
        cli=False,
    )
    time_limit: float | None = param(
        ANALYSIS_TIME_LIMIT,
        help="seconds for proving proofs and conflicts smallest; past it they stay minimal "
        "and the answer says so",
        metavar="SEC",
        gt=0,
        finite=True,
    )
    dig_policy: PolicyValue | None = param(
        None,
        help=f"with --advise: add dig now or wait (a record with 'me'), its games played "
        f"on by this policy ({_POLICY_HELP}; default: none)",
        metavar="NAME",
        text="name",
    )
    dig_samples: int = param(
        DIG_SAMPLES, help="with --dig-policy: games the dig advice plays on", ge=1, le=MAX_SAMPLES
    )
    dig_time_limit: float | None = param(
        None,
        help="with --dig-policy: seconds the dig advice plays at most; past them it stands on "
        "the games played so far, and says so (default: no limit)",
        metavar="SEC",
        gt=0,
        finite=True,
    )
    dig_deadline: float | None = param(
        None,
        help="with dig_policy: seconds after the analysis began by which the dig advice "
        "ends, if sooner (what the analysis took counts; half a second at least is left it)",
        gt=0,
        finite=True,
        cli=False,
    )

    together = (
        OnlyWith("clue", Is("advise", (True,))),
        OnlyWith("active", Is("advise", (True,))),
        OnlyWith("earlier_digs", Is("advise", (True,))),
        OnlyWith("dig_policy", Is("advise", (True,))),
        OnlyWith("dig_samples", Given("dig_policy")),
        OnlyWith("dig_time_limit", Given("dig_policy")),
        OnlyWith("dig_deadline", Given("dig_policy")),
    )

    @model_validator(mode="after")
    def _on_the_record(self) -> Self:
        """A clue in JSON read with the record's names; players in range of the record."""
        n = self.record.players
        if isinstance(self.clue, Mapping):
            clue = code_from_json("clue", self.clue, self.record.names)
            object.__setattr__(self, "clue", clue)
        if self.active is not None and self.active >= n:
            raise InvalidInput("active", self.active, f"a player index in 0..{n - 1}")
        for p in self.earlier_digs or {}:
            if not 0 <= p < n:
                raise InvalidInput("earlier_digs", p, f"a player index in 0..{n - 1}")
        return self


class DigQuestion(Question):
    """Dig now or wait: the points of my crew card sent now or after 1, 2, ... turns.

    Examples
    --------
    >>> from isles.models.plunder.record import Me, Observation
    >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),), Me(0, Code(0, 0, 0)))
    >>> q = DigQuestion.read({"record": r})
    >>> q.policy, q.waits, q.samples, q.seed, q.time_limit
    ('threshold', 3, 200, 0, None)
    >>> DigQuestion.read({"record": r, "samples": 0}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --samples: 0 is invalid; expected an integer in 1..100000
    """

    record: RecordValue = param(
        help="the record, with 'me' (whose crew cards these are)", metavar="RECORD", cli=False
    )
    policy: PolicyValue = param(
        "threshold",
        help=f"{_POLICY_HELP}: what the others do (and how I flip) in the games played on",
        metavar="NAME",
        text="name",
    )
    waits: int = param(3, help="the longest wait weighed", ge=0, le=MAX_WAITS)
    samples: int = param(DIG_SAMPLES, help="games played on", ge=1, le=MAX_SAMPLES)
    seed: int = param(0, help="the seed: the same seed, the same answer", ge=0, le=SEED_MAX)
    turn_limit: int = param(TURN_LIMIT, help="the game's length in turns", ge=1, cli=False)
    time_limit: float | None = param(
        None, help=f"{_TIME_HELP} (default: no limit)", metavar="SEC", gt=0, finite=True
    )

    @model_validator(mode="after")
    def _with_me(self) -> Self:
        """Dig advice is for a player: the record says who I am."""
        if self.record.me is None:
            raise InvalidInput("record.me", None, "my player and code (dig advice is for a player)")
        return self


class TournamentQuestion(Question):
    """Games between policies, seats rotated, on Dask.

    Examples
    --------
    >>> q = TournamentQuestion.read({"players": 3})
    >>> q.policies, q.games, q.seed, q.workers, q.time_limit
    (['expected', 'threshold', 'certain'], 100, 0, None, 600.0)
    >>> TournamentQuestion.read({"players": 3, "scheduler": "tcp://h:8786", "workers": 2})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: workers: 2 is invalid; expected workers or scheduler, not both
    """

    players: int = param(help="seats", ge=MIN_PLAYERS, le=MAX_PLAYERS)
    policies: Lineup = param(
        list(DEFAULT_LINEUP),
        help=f"{_POLICY_HELP}, once per seat of the line-up, at most one a seat (repeated to "
        "fill the seats; the default's first PLAYERS at 2 players)",
        option="--policy",
        metavar="NAME",
        repeat=True,
        text="name",
    )
    games: int = param(100, help="games", ge=1, le=MAX_GAMES)
    seed: int = param(0, help="the seed: game g plays from its child g", ge=0, le=SEED_MAX)
    scheduler: str | None = param(
        None,
        help="a running Dask scheduler (tcp://host:8786; start it with 'dask scheduler' and "
        "workers with 'dask worker ADDRESS --no-nanny'); default a local cluster",
        metavar="ADDRESS",
    )
    workers: int | None = param(
        None,
        help="worker processes of the local cluster (default: the cores, at most 8; "
        "0: in this process)",
        ge=0,
        le=MAX_WORKERS,
    )
    turn_limit: int = param(TURN_LIMIT, help="the game's length in turns", ge=1, cli=False)
    time_limit: float | None = param(
        TOURNAMENT_TIME_LIMIT,
        help=_TIME_HELP,
        metavar="SEC",
        gt=0,
        finite=True,
    )

    together = (NotWith("workers", "scheduler"),)

    @model_validator(mode="after")
    def _one_a_seat(self) -> Self:
        """No more policies than seats: a policy past them would never play (the
        default line-up: its first ``players`` at 2 players)."""
        if "policies" not in self.model_fields_set:
            object.__setattr__(self, "policies", self.policies[: self.players])
        elif len(self.policies) > self.players:
            names = " ".join(p if isinstance(p, str) else p.name for p in self.policies)
            raise InvalidInput(
                "policies",
                names,
                f"at most {self.players} policies, one a seat of the {self.players} players",
            )
        return self


#: This game's questions, by name (gathered by isles.models.questions.questions()).
QUESTIONS: dict[str, type[Question]] = {
    "plunder_analysis": RecordAnalysis,
    "plunder_dig": DigQuestion,
    "plunder_tournament": TournamentQuestion,
}
