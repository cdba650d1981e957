"""Ctrl-C during a tournament on isles' own local Dask cluster: one line, exit 130.

A terminal's Ctrl-C signals the whole process group: the worker processes of the
local cluster too. They used to print a traceback each ("Process Dask Worker
process (from Nanny): ... CancelledError ... KeyboardInterrupt", or one from the
middle of their imports when the signal came while they started), 67 lines for
two workers before isles' own "isles: interrupted".
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        out += [int(c) for c in text.split()]
    return out


def _cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("after", [0.3, 2.5])
def test_ctrl_c_to_the_process_group_is_one_line_and_exit_130(after: float) -> None:
    # 5000 games on 2 workers: minutes. The signal goes to the process group, as a
    # terminal's Ctrl-C does: 0.3 s after the workers are spawned (they are importing),
    # or 2.5 s (they are playing games).
    argv = [sys.executable, "-m", "isles", "plunder", "tournament", "--players", "4"]
    argv += ["--games", "5000", "--seed", "1", "--workers", "2"]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        give_up = time.monotonic() + 60
        # The worker processes are children spawned by multiprocessing (its resource
        # tracker is a child too): wait for the two workers.
        while time.monotonic() < give_up and proc.poll() is None:
            try:
                workers = [c for c in _children(proc.pid) if b"spawn_main" in _cmdline(c)]
            except OSError:
                workers = []
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        time.sleep(after)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err == "isles: interrupted\n"
    assert out == ""


def test_dask_stays_quiet_after_a_ctrl_c_and_speaks_again_after_a_normal_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A cluster closed after a Ctrl-C logged "Batched Comm Closed" with a traceback at
    # INFO (1 run of CI's in about 50): its handlers' quiet level is undone as it closes,
    # so isles quiets Dask's loggers themselves, for good once interrupted.
    import logging

    from isles.models.plunder.questions import TournamentQuestion
    from isles.solvers.plunder import cluster as plunder_cluster

    dask_log = logging.getLogger("distributed")
    was = dask_log.level
    dask_log.setLevel(logging.INFO)
    question = TournamentQuestion.read({"players": 2, "policies": ["random"], "games": 2})

    def stopped(*_: object) -> object:
        assert not logging.getLogger("distributed.batched").isEnabledFor(logging.INFO)
        raise RuntimeError("the cluster would start here")

    def interrupted(*_: object) -> object:
        raise KeyboardInterrupt

    try:
        monkeypatch.setattr(plunder_cluster, "_client", stopped)
        with pytest.raises(RuntimeError):
            plunder_cluster.on_dask(question, [], None)
        assert dask_log.level == logging.INFO  # a normal end (an error included): as it was
        monkeypatch.setattr(plunder_cluster, "_client", interrupted)
        with pytest.raises(KeyboardInterrupt):
            plunder_cluster.on_dask(question, [], None)
        assert not logging.getLogger("distributed.batched").isEnabledFor(logging.INFO)
    finally:
        dask_log.setLevel(was)
