"""Every CP-SAT solve of the board set-up: its time limit, its bar, and Ctrl-C that stops it.

Implements docs/layout.md ("Answers that never lie": a bar while a solve runs;
"The command line": Ctrl-C stops the search at once) for
seeds/004_644cf972d8964df4.txt, through the solver core :mod:`isles.solvers.work`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ortools.sat.python import cp_model

from isles.solvers.work import Deadline, Progress, interruptible, shown

__all__ = ["FOUND", "Solver", "new_solver", "showing"]

#: CP-SAT's statuses that come with a board.
FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)

#: The progress the public call asked, for the solves it runs: a context
#: variable, so that concurrent calls (the web app's jobs) do not see each other's.
_PROGRESS: ContextVar[Progress] = ContextVar("isles_layout_progress", default=False)


@contextmanager
def showing(progress: Progress) -> Iterator[None]:
    """The solves run inside show their bars as ``progress`` asks (:data:`Progress`).

    A callable is told the fraction done only where a caller can say it (the
    boards of a series); a single CP-SAT solve draws a bar on a terminal alone.
    """
    token = _PROGRESS.set(progress)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


class _Best(cp_model.CpSolverSolutionCallback):
    """The objective of the best board found and CP-SAT's bound, for the bar."""

    def __init__(self) -> None:
        super().__init__()
        self.objective: float | None = None
        self.bound: float | None = None

    def on_solution_callback(self) -> None:
        self.objective = self.objective_value

    def on_bound(self, value: float) -> None:
        self.bound = value

    def said(self) -> str | None:
        """``best 62, bound 64``: the bar's note, once a board is found."""
        if self.objective is None:
            return None
        bound = "" if self.bound is None else f", bound {self.bound:g}"
        return f"best {self.objective:g}{bound}"


class Solver(cp_model.CpSolver):
    """A CP-SAT solver that Ctrl-C stops at once and that shows its bar: every solve of isles.

    CP-SAT searches in C++, where Python hears no signal: each solve runs
    through :func:`~isles.solvers.work.interruptible`, which stops it
    (:meth:`stop_search`) at Ctrl-C and raises the KeyboardInterrupt (the
    command line then exits 130); an interrupt is never returned as a status.
    On a terminal, or when the call asked, a bar shows the seconds spent
    against the time limit and, when the model optimises, the best objective
    found and the bound.
    """

    def solve(
        self,
        model: cp_model.CpModel,
        solution_callback: cp_model.CpSolverSolutionCallback | None = None,
    ) -> Any:
        progress = _PROGRESS.get()
        # Off the main thread the search runs where it is called, with no look-ups
        # to move a bar (isles.solvers.work.interruptible): no bar there.
        main = threading.current_thread() is threading.main_thread()
        bar_asked: Progress = False if callable(progress) or not main else progress
        best: _Best | None = None
        if shown(bar_asked)[0] and solution_callback is None and model.has_objective():
            best = _Best()
            self.best_bound_callback = best.on_bound
        deadline = Deadline(self.parameters.max_time_in_seconds)
        with deadline.bar("CP-SAT", bar_asked) as bar:

            def tick() -> None:
                said = None if best is None else best.said()
                if said is not None:
                    bar.note(said)
                deadline.tick(bar)

            def search() -> Any:
                return cp_model.CpSolver.solve(
                    self, model, solution_callback if best is None else best
                )

            return interruptible(search, stop=self.stop_search, tick=tick)


def new_solver(time_limit: float, workers: int, seed: int) -> Solver:
    """A :class:`Solver` with its time limit (seconds), workers and random seed."""
    solver = Solver()
    solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT would catch Ctrl-C itself and return its best board as an answer;
    # an interrupt must stop isles instead (Solver re-raises it).
    solver.parameters.catch_sigint_signal = False
    return solver
