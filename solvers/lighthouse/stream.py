"""Lighthouses: a class DP's table written to its file layer by layer, while the next is solved.

Part of docs/lighthouse.md ("Memory", "The cached table"; seed
000_aeb701e368f40145.txt): the layer kernel reads only the layer above, so a
solve that goes to the cache keeps two layers of values in memory instead of
the whole table (0.93 GB for 8 islands),
and a writer thread sends each finished layer to ``values.npy`` while the
kernel values the next one. Saving the table is then no separate step, and the
table is read back memory-mapped from the file just written (the page cache:
several processes that map it share one copy).

The whole blocks of a layer go to the disk with direct I/O (``O_DIRECT``,
where the file system has it): they do not pass through the page cache, which
would otherwise take 0.93 GB of memory that a fresh virtual machine has never
touched, at about 3 s of system time per GiB on the machine of "Measured"
(docs/lighthouse.md). Only the two partial blocks at a layer's ends are
written through the page cache; a file system without direct I/O gets every
byte that way.
"""

from __future__ import annotations

import errno
import io
import mmap
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BLOCK", "SLOTS", "LayerWriter", "npy_header"]

SLOTS = 2
"""Buffers of one layer's values: the layer being valued and the layer above it."""

BLOCK = 4096
"""Alignment of direct I/O (file offsets, lengths and memory): a multiple of the
logical block size of common disks (512 or 4096 bytes)."""


def npy_header(shape: tuple[int, ...], size: int = 0) -> bytes:
    """The ``.npy`` header of a C-ordered little-endian float64 array of ``shape``.

    With ``size``, the header is padded with spaces to that many bytes (at
    most 65,535: version 1.0's limit), so that the data starts on a block.

    Examples
    --------
    >>> len(npy_header((2, 3))) % 64
    0
    >>> len(npy_header((2, 3), BLOCK))
    4096
    """
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        out, {"descr": np.lib.format.dtype_to_descr(np.dtype("<f8")), "fortran_order": False,
              "shape": shape},
    )  # fmt: skip
    header = out.getvalue()
    if size > len(header):
        # Magic (6 bytes), version (2), little-endian header length (2), then the
        # text, which ends in a newline: more spaces before it.
        text = header[10:-1] + b" " * (size - len(header)) + b"\n"
        header = header[:8] + len(text).to_bytes(2, "little") + text
    return header


def _open_direct(path: Path) -> int | None:
    """``path`` opened for direct writes, or None where the system or file system has none."""
    flag = getattr(os, "O_DIRECT", 0)
    if not flag:  # pragma: no cover - not Linux
        return None
    try:
        return os.open(path, os.O_WRONLY | flag)
    except OSError:  # e.g. tmpfs: EINVAL
        return None


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
    releases the GIL). :meth:`close` waits for every write. The data start on
    a block of the file (:func:`npy_header` padded to :data:`BLOCK` bytes),
    and each layer's rows start in their buffer where the layer's first byte
    falls within its block, so the whole blocks of a layer are written from
    memory aligned as direct I/O needs.

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
        header = npy_header(shape, BLOCK)
        self._start = len(header)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(self._fd, header)
            os.ftruncate(self._fd, self._start + shape[0] * self.width * 8)
        except BaseException:
            os.close(self._fd)
            raise
        self._direct = _open_direct(path)
        # Page-aligned buffers (anonymous mappings), a block longer than the widest layer.
        size = max(widest, 1) * self.width + BLOCK // 8
        self._buffers = [_aligned(size) for _ in range(SLOTS)]
        self.buffers = tuple(self._buffers)
        """The two buffers (their memory, for touching it ahead of time)."""
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
        skew = (self._start + lo * self.width * 8) % BLOCK // 8
        flat = self._buffers[slot][skew : skew + (hi - lo) * self.width]
        return flat.reshape(hi - lo, self.width)

    def commit(self, lo: int, values: npt.NDArray[np.float64]) -> None:
        """Queue a layer's values (from :meth:`rows`), class ``lo`` first, for writing."""
        slot = (self._turn - 1) % SLOTS
        offset = self._start + lo * self.width * 8
        self._pending[slot] = self._pool.submit(self._write, offset, values)

    def _write(self, offset: int, values: npt.NDArray[Any]) -> None:
        """Write ``values`` at ``offset``: the whole blocks direct, the ends through the cache."""
        assert values.flags.c_contiguous  # a view of a buffer, never a copy (its alignment)
        data = memoryview(values.reshape(-1).view(np.uint8).data)
        lo = -(-offset // BLOCK) * BLOCK  # the first whole block
        hi = (offset + len(data)) // BLOCK * BLOCK  # the end of the last one
        if self._direct is not None and hi > lo:
            try:
                _write_all(self._direct, data[lo - offset : hi - offset], lo)
            except OSError as error:  # direct I/O refused after all (EINVAL): the cache
                if error.errno != errno.EINVAL:
                    raise
                os.close(self._direct)
                self._direct = None
            else:
                _write_all(self._fd, data[: lo - offset], offset)
                _write_all(self._fd, data[hi - offset :], hi)
                return
        _write_all(self._fd, data, offset)

    def close(self) -> None:
        """Wait for every write (raising the first error) and close the file (once)."""
        if self._fd < 0:
            return
        try:
            for pending in self._pending:
                if pending is not None:
                    pending.result()
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)
            os.close(self._fd)
            self._fd = -1
            if self._direct is not None:
                os.close(self._direct)
                self._direct = None
            self._buffers = []
            self.buffers = ()


def _aligned(count: int) -> npt.NDArray[np.float64]:
    """``count`` float64 zeros in a page-aligned private anonymous mapping (else NumPy's)."""
    if not hasattr(mmap, "MAP_PRIVATE"):  # pragma: no cover - Windows: no direct I/O either
        return np.zeros(count)
    memory = mmap.mmap(-1, count * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(memory, dtype=np.float64, count=count)


def _write_all(fd: int, data: memoryview, offset: int) -> None:
    """``pwrite`` until every byte of ``data`` is at ``offset`` of ``fd``."""
    while data:
        done = os.pwrite(fd, data, offset)
        data, offset = data[done:], offset + done
