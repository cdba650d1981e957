"""Plunder tournaments' games: a chunk of them played, and the chunks on Dask.

Implements docs/plunder.md ("Tournaments"; seed ``seeds/003_cfc377110defcf34.txt``):
the games of a tournament played by number (each from its own child of the seed),
in tasks of a few games on ``dask.distributed``, a local cluster or a scheduler's,
until the time limit; Ctrl-C kills the local cluster's workers at once.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.plunder.play import Policy, play_game
from isles.models.plunder.questions import TournamentQuestion
from isles.solvers.work import Bar, Deadline

__all__ = ["GameResult", "on_dask", "play_games"]


_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
"""The Dask setting behind the environment variable the nanny gives its workers."""


_HTTP_ADDRESS = "127.0.0.1:0"
"""Where the local cluster's scheduler serves HTTP: a free port, this machine only."""


_TASK_SECONDS = 0.5
"""Under a time limit, the CPU seconds one Dask task aims at: its games are as many as
the games finished so far say take that long (one game until some have finished; a
search game takes a second or two), so that the games finished by the limit are most
of those played."""


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament, in brief.

    Attributes
    ----------
    index : int
        The game's number: its seed is child ``index`` of the tournament's
        ``numpy.random.SeedSequence(seed)``.
    seats : tuple of str
        The policy in each seat.
    totals : tuple of int
        Each seat's score.
    winners : tuple of int
        The winning seat(s) after the tie-break.
    first_dig : int or None
        The seat whose crew card was the game's first correct dig (chest order).
    turns : int
        Turns played.
    """

    index: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    first_dig: int | None
    turns: int


def _lineup(players: int, policies: Sequence[Policy], index: int) -> list[Policy]:
    """Seat ``s`` of game ``index``: the lineup (policies repeated to fill the seats)
    turned by ``index`` places, so that every policy sits in every seat in turn."""
    return [policies[(s + index) % players % len(policies)] for s in range(players)]


def play_games(
    players: int, policies: Sequence[Policy], seed: int, indices: Iterable[int], turn_limit: int
) -> list[GameResult]:
    """Play the tournament's games ``indices`` (one Dask task plays a chunk of them).

    Parameters
    ----------
    players : int
    policies : sequence of Policy
        The lineup.
    seed : int
        The tournament's seed.
    indices : iterable of int
        Game numbers.
    turn_limit : int

    Returns
    -------
    list of GameResult

    Examples
    --------
    >>> from isles.solvers.plunder.policies import RandomPolicy
    >>> [r.seats for r in play_games(2, [RandomPolicy()], 0, [0, 1], 15)]
    [('random', 'random'), ('random', 'random')]
    """
    out = []
    for g in indices:
        seats = _lineup(players, policies, g)
        game = play_game(seats, np.random.SeedSequence(seed, spawn_key=(g,)), turn_limit=turn_limit)
        score = game.score()
        chest = game.chest
        first = next((chest[k].proposer for k, ok in enumerate(score.counted) if ok), None)
        out.append(
            GameResult(
                g,
                tuple(p.name for p in seats),
                score.total,
                score.winners,
                first,
                len(game.turns),
            )
        )
    return out


def _client(question: TournamentQuestion, opened: list[Any]) -> Any:
    """A Dask client: of a scheduler's address, or of a local cluster. The cluster and
    the client go in ``opened`` at once, for the caller to close (last first) whatever
    happens next, a Ctrl-C included."""
    # dask.distributed loads here: a second or so, and only tournaments need it.
    import dask
    import distributed

    # dask.distributed is partly untyped: used through Any.
    dist: Any = distributed
    if question.scheduler is not None:
        try:
            opened.append(dist.Client(question.scheduler, timeout=10))
            return opened[-1]
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidInput(
                "scheduler", question.scheduler, f"a running Dask scheduler ({exc})"
            ) from None
    workers = question.workers
    n = workers if workers is not None else min(8, os.cpu_count() or 1)
    # A terminal's Ctrl-C signals the whole process group, the workers too, which
    # printed a traceback each. Blocked while the cluster starts, SIGINT stays blocked
    # in the threads Dask starts then (its event loop, which spawns the workers) and
    # in the worker processes, which inherit the mask: only this process hears it
    # (at once, or as soon as the cluster has started) and closes the cluster.
    block = getattr(signal, "pthread_sigmask", None)  # POSIX only
    if block is not None:
        # Started later, multiprocessing's resource tracker would unblock SIGINT in
        # the thread that starts it (Dask's): started first, it stays as it is.
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    mask = block(signal.SIG_BLOCK, {signal.SIGINT}) if block is not None else None
    try:
        # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, which turns off
        # glibc's adaptive mmap threshold: every large array is then mapped and unmapped
        # anew, and the games ran twice as slow (half the time in the kernel).
        with dask.config.set({_TRIM: None}):
            opened.append(
                dist.LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    # No dashboard; the scheduler's HTTP server (which it starts
                    # anyway) on a free port of this machine: never "Port 8787 is
                    # already in use".
                    dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": _HTTP_ADDRESS},
                    silence_logs=logging.CRITICAL,
                )
            )
        opened.append(dist.Client(opened[0]))
    finally:
        if block is not None:
            block(signal.SIG_SETMASK, mask)
    return opened[-1]


def on_dask(
    question: TournamentQuestion,
    lineup: Sequence[Policy],
    bar: Bar | None,
    deadline: Deadline | None = None,
) -> list[GameResult]:
    """The games played in chunks on Dask, a few tasks per worker at a time, up to the
    deadline (the tasks not finished by then are dropped: a local cluster's workers
    killed, a scheduler's tasks cancelled); on Ctrl-C the local workers are killed at
    once and the interrupt goes on."""
    opened: list[Any] = []  # the local cluster and the client, once started
    # Dask's own loggers stay quiet while the games run: ``silence_logs`` quiets the
    # cluster's handlers only until it closes, and a cluster closed after a Ctrl-C
    # (its workers killed) logged a "Batched Comm Closed" traceback while it did.
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    interrupted = False
    try:
        client = _client(question, opened)
        chunks = _Chunks(client, question, lineup, deadline or Deadline(None))
        results = chunks.play(bar)
        if chunks.in_flight:  # the time limit: the games not finished are dropped
            if question.scheduler is None and opened:
                _kill_workers(opened[0])  # at once: closing waits for the games in hand
            else:
                client.cancel(list(chunks.in_flight))
        return results
    except KeyboardInterrupt:
        interrupted = True
        if question.scheduler is None and opened:
            _kill_workers(opened[0])
        raise
    finally:
        for started in reversed(opened):
            started.close()
        if not interrupted:
            # After a Ctrl-C the process ends: the loggers stay quiet for the threads
            # of the cluster that are still winding down.
            quiet.setLevel(level)


class _Chunks:
    """The tournament's games as Dask tasks of a few games each, a few tasks per worker
    at a time (memory stays bounded for a million games), until the deadline."""

    def __init__(
        self,
        client: Any,
        question: TournamentQuestion,
        lineup: Sequence[Policy],
        deadline: Deadline,
    ) -> None:
        self.client = client
        self.question = question
        self.lineup = list(lineup)
        self.deadline = deadline
        self.slots = max(1, sum(client.nthreads().values()))
        self.largest = max(1, min(50, math.ceil(question.games / (4 * self.slots))))
        self.limited = math.isfinite(deadline.at)
        self.started = deadline.clock()
        self.submitted = 0
        self.finished = 0
        self.in_flight: set[Any] = set()

    def submit(self) -> None:
        """One more task, if any game is left: under a time limit small tasks, sized by
        the games so far (the limit stops soon), else the largest."""
        size = self.largest
        if self.limited:
            size = 1
            if self.finished:
                per_game = (self.deadline.clock() - self.started) * self.slots / self.finished
                size = max(1, min(self.largest, int(_TASK_SECONDS / max(per_game, 1e-6))))
        q = self.question
        chunk = list(range(self.submitted, min(q.games, self.submitted + size)))
        if chunk:
            self.submitted += len(chunk)
            task = self.client.submit(
                play_games, q.players, self.lineup, q.seed, chunk, q.turn_limit, pure=False
            )
            self.in_flight.add(task)

    def play(self, bar: Bar | None) -> list[GameResult]:
        """The games finished by the deadline (the tasks still going stay in_flight)."""
        import distributed  # loaded by _client already

        dist: Any = distributed  # dask.distributed is partly untyped: used through Any
        for _ in range(2 * self.slots):
            self.submit()
        results: list[GameResult] = []
        while self.in_flight:
            left = self.deadline.left()
            if left <= 0:
                break
            try:
                finished, _ = dist.wait(
                    list(self.in_flight),
                    timeout=None if math.isinf(left) else left,
                    return_when="FIRST_COMPLETED",
                )
            except TimeoutError:
                break
            for future in finished:
                self.in_flight.discard(future)
                part = future.result()
                results += part
                self.finished += len(part)
                if bar is not None:
                    bar.update(len(part))
                self.submit()
        return results


def _kill_workers(cluster: Any) -> None:
    """On Ctrl-C: the local cluster's worker processes killed at once, their games
    dropped (closing waited seconds for the games in hand to finish)."""
    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
