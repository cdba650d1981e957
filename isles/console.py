"""The ``isles`` console script: Ctrl-C is one line from the very first instruction.

The command line itself is :mod:`isles.cli`; this module only makes sure that an
interrupt while it loads (NumPy, SciPy, OR-Tools take a moment) is reported as
the interrupt it is (exit status 130), never as a traceback.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["run"]


def _interrupted_while_loading(signum: int, frame: object) -> None:
    sys.stderr.write("isles: interrupted\n")
    sys.stderr.flush()
    os._exit(130)  # nothing of ours to clean up yet


def run() -> None:
    """Entry point of the ``isles`` script: load the command line, run it, exit."""
    signal.signal(signal.SIGINT, _interrupted_while_loading)
    from isles.cli import main  # installs its own Ctrl-C handling for the run

    sys.exit(main())
