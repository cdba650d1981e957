"""The lighthouse engine on a fresh machine (issue 20, item 4; docs/lighthouse.md, "The cache").

The table streamed to the cache's file layer by layer equals the one kept in
memory float for float; one process solves a kit, the others read its file;
advice on an early position of the real game solves the whole table once and
keeps it; the kernel compiles in another process on a first long solve; the
server's advice reports real progress and never prints a progress bar.
"""

from __future__ import annotations

import errno
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from isles.lighthouse import best_move
from isles.models.lighthouse.kit import default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Roll
from isles.solvers.compiled import HAVE_NUMBA
from isles.solvers.lighthouse import advice as advice_module
from isles.solvers.lighthouse import cache as cache_module
from isles.solvers.lighthouse import dp as dp_module
from isles.solvers.lighthouse import stream as stream_module
from isles.solvers.lighthouse import warm_up as warm_up_module
from isles.solvers.lighthouse.cache import kept_table, load_table, solve_cached
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.solution import LighthouseSolution
from isles.solvers.lighthouse.stream import BLOCK, LayerWriter
from isles.solvers.lighthouse.symmetry import colour_group
from isles.solvers.usercache import CACHE_ENV, clear_cache
from isles.web import jobs
from isles.web.tasks.lighthouse import TASKS, _read_lighthouse, _run_lighthouse
from tests.lighthouse.test_lighthouse_classes import playout


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache directory, named by the environment variable."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(("islands", "cards"), [(3, 2), (5, 4), (6, 3)])
def test_streamed_table_is_the_table_in_memory(islands: int, cards: int, tmp_path: Path) -> None:
    kit = default_kit(islands, cards)
    kept = solve(kit)
    streamed = dp_module.solve_from_class(
        kit, "optimal", colour_group(kit), 0, 0, 0, False, "auto", False, tmp_path / "values.npy"
    )
    assert isinstance(streamed.values, np.memmap)
    assert streamed.values.shape == kept.values.shape
    assert np.array_equal(np.asarray(streamed.values), kept.values)  # the same floats, every one


def test_streamed_random_table_and_numpy_kernel(tmp_path: Path) -> None:
    kit = default_kit(4, 3)
    for policy, backend in (("random", "auto"), ("optimal", "numpy")):
        kept = solve(kit, policy, backend=backend)  # type: ignore[arg-type]
        streamed = dp_module.solve_from_class(
            kit, policy, colour_group(kit), 0, 0, 0, False, backend, False,  # type: ignore[arg-type]
            tmp_path / f"{policy}-{backend}.npy",
        )  # fmt: skip
        assert np.array_equal(np.asarray(streamed.values), kept.values)


def test_layer_writer_rotates_its_buffers(tmp_path: Path) -> None:
    path = tmp_path / "v.npy"
    writer = LayerWriter(path, (10, 1, 2), 3)
    for lo in (8, 5, 2, 0):  # four layers, each buffer used twice
        rows = writer.rows(lo, min(lo + 3, 10) if lo else 2)
        rows[...] = float(lo)
        writer.commit(lo, rows)
    writer.close()
    values = np.load(path)[:, 0, 0]
    assert values.tolist() == [0, 0, 2, 2, 2, 5, 5, 5, 8, 8]


@pytest.mark.parametrize("direct", ["direct", "refused at open", "refused at write"])
def test_layer_writer_writes_whole_blocks_direct_and_the_rest_cached(
    direct: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Layers of 9 floats (72 bytes) a class: their ends fall inside blocks, some
    # layers hold several whole blocks, some none; the file must hold every float.
    if direct == "refused at open":
        monkeypatch.setattr(stream_module, "_open_direct", lambda path: None)
    elif direct == "refused at write":  # a file system that opens with O_DIRECT, then says EINVAL
        real_open, real_write = stream_module._open_direct, stream_module._write_all
        refused: list[int] = []

        def opening(path: Path) -> int | None:
            fd = real_open(path)
            refused.extend([] if fd is None else [fd])
            return fd

        def writing(fd: int, data: memoryview, offset: int) -> None:
            if fd in refused:
                raise OSError(errno.EINVAL, "Invalid argument")
            real_write(fd, data, offset)

        monkeypatch.setattr(stream_module, "_open_direct", opening)
        monkeypatch.setattr(stream_module, "_write_all", writing)
    sizes = [1, 3000, 57, 1200, 700, 2]  # classes per layer, the last layer first
    total = sum(sizes)
    path = tmp_path / "v.npy"
    writer = LayerWriter(path, (total, 3, 3), max(sizes))
    if direct == "direct":
        assert writer._direct is not None  # tmp_path's file system takes direct I/O
    expected = np.arange(total * 9, dtype=np.float64).reshape(total, 9) / 7
    hi = total
    for size in sizes:
        rows = writer.rows(hi - size, hi)
        assert rows.flags.c_contiguous
        rows[...] = expected[hi - size : hi]
        writer.commit(hi - size, rows)
        hi -= size
    writer.close()
    assert np.load(path).reshape(total, 9).tolist() == expected.tolist()
    with path.open("rb") as raw:
        assert len(raw.read(BLOCK)) == BLOCK and np.load(path, mmap_mode="r").offset == BLOCK


def test_solve_cached_keeps_no_whole_table_in_memory(folder: Path) -> None:
    kit = default_kit(5, 4)
    first = solve_cached(kit)
    assert isinstance(first.values, np.memmap)  # the cache's file, not a copy in memory
    assert first.by_sea_cards == solve(kit).by_sea_cards


def test_one_process_solves_a_kit_the_others_read_it(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = default_kit(4, 3)
    real = getattr(cache_module, "solve_from_class")  # noqa: B009 (not exported)
    calls: list[int] = []
    started = threading.Event()
    release = threading.Event()

    def slow(*args: Any, **kwargs: Any) -> LighthouseSolution:
        calls.append(1)
        started.set()
        release.wait(30)
        solution: LighthouseSolution = real(*args, **kwargs)
        return solution

    monkeypatch.setattr(cache_module, "solve_from_class", slow)
    answers: list[LighthouseSolution] = []
    first = threading.Thread(target=lambda: answers.append(solve_cached(kit)))
    first.start()
    assert started.wait(30)
    second = threading.Thread(target=lambda: answers.append(solve_cached(kit)))
    second.start()
    second.join(0.5)
    assert second.is_alive()  # waiting for the first one's table, not solving it again
    release.set()
    first.join(60)
    second.join(60)
    assert calls == [1]
    assert answers[0].by_sea_cards == answers[1].by_sea_cards


def test_a_killed_solve_leaves_no_partial_table(folder: Path) -> None:
    kit = default_kit(3, 2)
    target = cache_module.table_path(kit)
    target.parent.mkdir(parents=True)
    stale = target.parent / f".partial-{target.name}-dead"
    stale.mkdir()
    (stale / "values.npy").write_bytes(b"half")
    solve_cached(kit)
    assert not stale.exists()
    assert load_table(kit) is not None
    clear_cache(kit=None)
    assert not (folder / "lighthouse").exists()  # no lock file left behind


def test_early_advice_solves_and_keeps_the_whole_table(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real game's rule (8 islands), tried on 4 islands to stay fast.
    monkeypatch.setattr(advice_module, "WHOLE_TABLE_ISLANDS", 4)
    kit = default_kit(4, 4)
    early = playout(kit, 2, 0)
    roll = Roll.from_faces(kit, ("red", "blue"))
    assert load_table(kit) is None
    first = best_move(kit, early, roll)
    assert load_table(kit) is not None  # kept: every later roll reads it
    assert first.to_dict() == best_move(kit, early, roll, cache=False).to_dict()
    later = best_move(kit, playout(kit, 3, 1), roll)
    assert later.to_dict() == best_move(kit, playout(kit, 3, 1), roll, cache=False).to_dict()


def test_late_advice_and_no_cache_solve_only_the_position(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(advice_module, "WHOLE_TABLE_ISLANDS", 4)
    kit = default_kit(4, 4)
    roll = Roll.from_faces(kit, ("red", "blue"))
    early = Position((("red", "blue", "red"), ("green",), (), ()), boat=1, maurice=0)
    assert early.discs_laid <= advice_module.WHOLE_TABLE_DISCS
    best_move(kit, early, roll, cache=False)
    assert load_table(kit) is None
    full = tuple(tuple(pair) * 2 for pair in kit.islands[:3])
    late = Position((*full, ()), boat=1, maurice=0)
    assert late.discs_laid > advice_module.WHOLE_TABLE_DISCS
    best_move(kit, late, Roll.from_faces(kit, ("blue", "green")))
    assert load_table(kit) is None


def test_first_long_solve_compiles_in_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[list[str]] = []

    class Fake:
        def __init__(self, argv: list[str], **_: Any) -> None:
            started.append(argv)

        def wait(self) -> int:
            return 0

    monkeypatch.setattr(warm_up_module, "_cached_on_disk", lambda _: False)
    monkeypatch.setattr(warm_up_module, "_core_to_spare", lambda: True)
    monkeypatch.setattr("subprocess.Popen", Fake)
    if not HAVE_NUMBA:  # pragma: no cover
        pytest.skip("numba is not installed")
    warm_up_module.start_warm_up("optimal", big=True)()
    assert len(started) == 1 and "warm_up('optimal')" in started[0][-1]
    warm_up_module.start_warm_up("optimal", big=False)()  # small solves: a thread
    monkeypatch.setattr(warm_up_module, "_core_to_spare", lambda: False)
    warm_up_module.start_warm_up("optimal", big=True)()  # no idle core: a thread
    monkeypatch.setattr(warm_up_module, "_core_to_spare", lambda: True)
    monkeypatch.setattr(warm_up_module, "_cached_on_disk", lambda _: True)
    warm_up_module.start_warm_up("optimal", big=True)()  # compiled already: nothing to start
    assert len(started) == 1


@pytest.mark.parametrize("streamed", [True, False])
def test_the_tables_memory_is_touched_while_the_kernel_compiles(
    streamed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The waiter gets the tables' touch, which writes a piece at a time (here small)
    # until every table is done, and the values stay the solve's.
    kit = default_kit(5, 4)
    kept = solve(kit)
    monkeypatch.setattr(dp_module._Tables, "PIECE", 4096)
    pieces: list[int] = []

    def waiter(policy: str, *, big: bool = False) -> Any:
        def wait(meanwhile: Any = None) -> None:
            while meanwhile is not None and meanwhile():
                pieces.append(1)

        return wait

    sizes: list[int] = []
    real_tables = dp_module._Tables

    def tables(*args: Any) -> Any:
        made = real_tables(*args)
        sizes.extend(table.size for table in made._untouched)
        return made

    monkeypatch.setattr(dp_module, "start_warm_up", waiter)
    monkeypatch.setattr(dp_module, "_Tables", tables)
    out = tmp_path / "v.npy" if streamed else None
    touched = dp_module.solve_from_class(
        kit, "optimal", colour_group(kit), 0, 0, 0, False, "numba", False, out
    )
    assert np.array_equal(np.asarray(touched.values), kept.values)
    assert len(sizes) == 4 if streamed else len(sizes) == 3  # two scratch tables, the values
    assert len(pieces) == sum(-(-size // 4096) for size in sizes) > len(sizes)


def test_server_tables_report_progress_and_print_no_bar(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The resident process answers with isles.answer: the library keeps the table.
    monkeypatch.setattr(advice_module, "WHOLE_TABLE_ISLANDS", 4)  # 7 and 8 islands' rule
    seen: list[float] = []
    resident = TASKS["lighthouse"].resident
    assert resident is not None
    advise = resident(seen.append)
    body = {
        "islands": 4,
        "sea_cards": 3,
        "roll": ["red", "blue"],
        "position": {"discs": [[], [], [], []], "boat": 0, "maurice": 0},
    }
    answer = advise(_read_lighthouse(body))
    kit = default_kit(4, 3)
    start = Position.start(kit)
    assert answer == best_move(kit, start, Roll.from_faces(kit, ("red", "blue"))).to_dict()
    assert seen and seen == sorted(seen) and seen[-1] == 1.0 and 0 < seen[0] < 1
    assert load_table(kit) is not None  # solved whole, kept
    kept = kept_table(kit)
    assert kept is not None and kept_table(kit) is kept  # in memory between calls
    seen.clear()
    assert advise(_read_lighthouse(body)) == answer and seen == []  # read, not solved
    three = {**body, "islands": 3, "position": {"discs": [[]] * 3, "boat": 0, "maurice": 0}}
    _run_lighthouse(_read_lighthouse(three))  # a position solved on its own: no bar either
    assert capsys.readouterr().err == ""


class _Pipe:
    """A job's end of a pipe that has some messages waiting."""

    def __init__(self, *messages: object) -> None:
        self.messages = list(messages)

    def poll(self) -> bool:
        return bool(self.messages)

    def recv(self) -> object:
        return self.messages.pop(0)

    def close(self) -> None:
        pass


def test_job_progress_is_the_solve_s_not_the_time_limit() -> None:
    runner = jobs.JobRunner.__new__(jobs.JobRunner)
    runner._residents = {}
    pipe: Any = _Pipe(("progress", 0.25))
    job = jobs.Job("a", "lighthouse", 300.0, time.monotonic(), None, pipe)
    runner._poll(job)
    assert job.state == "running" and job.to_dict()["progress"] == 0.25
    job.connection = _Pipe(("progress", 0.5), ("progress", 1.0), ("done", {"ok": 1}))  # type: ignore[assignment]
    runner._poll(job)
    assert job.state == "done" and job.result == {"ok": 1} and job.progress == 1.0


def test_progress_runs_through_the_phases(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[float] = []
    solved = solve(default_kit(3, 2), progress=seen.append)
    assert solved.win_probability() == solve(default_kit(3, 2), progress=False).win_probability()
    assert capsys.readouterr().err == ""  # told the fraction done: no bar
    done = [round(fraction * dp_module.PROGRESS_STEPS) for fraction in seen]
    assert all(0 < f <= 1 for f in seen) and done == sorted(set(done))
    valuing = sum(share for _, share in dp_module.PHASES[:-1]) * dp_module.PROGRESS_STEPS
    assert done[0] < valuing < done[-1] == dp_module.PROGRESS_STEPS
    assert any(0 < d < valuing for d in done)  # the classes' building moves the bar too
    solve(default_kit(3, 2), progress=True)
    err = capsys.readouterr().err
    assert all(name in err for name, _ in dp_module.PHASES)
