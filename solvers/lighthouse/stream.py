"""Lighthouses: a class DP's table written to its file layer by layer, while the next is solved.

Part of docs/lighthouse.md ("Memory", "The cached table"): the layer kernel
reads only the layer above, so a solve that goes to the cache keeps two
layers of values in memory instead of the whole table (0.93 GB for 8 islands),
and a writer thread sends each finished layer to ``values.npy`` while the
kernel values the next one. Saving the table is then no separate step, and the
table is read back memory-mapped from the file just written (the page cache:
several processes that map it share one copy).
"""

from __future__ import annotations

import io
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.solvers.lighthouse.solution import new_table

__all__ = ["SLOTS", "LayerWriter", "npy_header"]

SLOTS = 2
"""Buffers of one layer's values: the layer being valued and the layer above it."""


def npy_header(shape: tuple[int, ...]) -> bytes:
    """The ``.npy`` header of a C-ordered little-endian float64 array of ``shape``.

    Examples
    --------
    >>> len(npy_header((2, 3))) % 64
    0
    """
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        out, {"descr": np.lib.format.dtype_to_descr(np.dtype("<f8")), "fortran_order": False,
              "shape": shape},
    )  # fmt: skip
    return out.getvalue()


class LayerWriter:
    """The values of a float class DP, written to a ``.npy`` file one layer at a time.

    Parameters
    ----------
    path : Path
        The file to create (its folder exists).
    shape : tuple of int
        ``(classes, boats, islands)``: the whole table's shape.
    widest : int
        Classes in the widest layer (the size of each of the two buffers).

    Notes
    -----
    :meth:`rows` hands out one of two buffers in turn (the layer being
    valued, and the layer above, which it reads and which may still be being
    written), waiting first for the write that last used it (a layer ago: it
    is done by then, as writing a layer takes less time than valuing one);
    :meth:`commit` queues a finished layer for the writer thread (``pwrite``
    releases the GIL). :meth:`close` waits for every write.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "v.npy"
    ...     writer = LayerWriter(path, (3, 1, 2), 2)
    ...     top = writer.rows(2, 3)
    ...     top[...] = 1.0
    ...     writer.commit(2, top)
    ...     low = writer.rows(0, 2)
    ...     low[...] = 0.5
    ...     writer.commit(0, low)
    ...     writer.close()
    ...     np.load(path).tolist()
    [[[0.5, 0.5]], [[0.5, 0.5]], [[1.0, 1.0]]]
    """

    def __init__(self, path: Path, shape: tuple[int, int, int], widest: int) -> None:
        self.path = path
        self.shape = shape
        self.width = shape[1] * shape[2]
        header = npy_header(shape)
        self._start = len(header)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(self._fd, header)
            os.ftruncate(self._fd, self._start + shape[0] * self.width * 8)
        except BaseException:
            os.close(self._fd)
            raise
        self._buffers = [new_table((max(widest, 1), self.width), np.float64) for _ in range(SLOTS)]
        self._pending: list[Future[None] | None] = [None] * SLOTS
        self._turn = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="isles-table")

    def rows(self, lo: int, hi: int) -> npt.NDArray[np.float64]:
        """A buffer for the values of classes ``lo..hi-1`` (a layer), shape ``(hi - lo, width)``."""
        slot = self._turn % SLOTS
        self._turn += 1
        pending = self._pending[slot]
        if pending is not None:
            pending.result()
            self._pending[slot] = None
        return self._buffers[slot][: hi - lo]

    def commit(self, lo: int, values: npt.NDArray[np.float64]) -> None:
        """Queue a layer's values (from :meth:`rows`), class ``lo`` first, for writing."""
        slot = (self._turn - 1) % SLOTS
        offset = self._start + lo * self.width * 8
        self._pending[slot] = self._pool.submit(self._write, offset, values)

    def _write(self, offset: int, values: npt.NDArray[Any]) -> None:
        data = memoryview(np.ascontiguousarray(values).reshape(-1).view(np.uint8).data)
        while data:
            done = os.pwrite(self._fd, data, offset)
            data, offset = data[done:], offset + done

    def close(self) -> None:
        """Wait for every write (raising the first error) and close the file."""
        try:
            for pending in self._pending:
                if pending is not None:
                    pending.result()
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)
            os.close(self._fd)
            self._buffers = []
