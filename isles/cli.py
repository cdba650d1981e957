"""The ``isles`` command line: one subcommand per solver, plus ``isles demo``.

Exit status: 0 answered; 1 answered "no" (no route, infeasible, ...);
2 bad input, reported as one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, Protocol, cast

import isles.commands
from isles.models.errors import IslesError

__all__ = ["OneLineParser", "StoreOnce", "build_parser", "emit_json", "main"]

# A value that starts with "-" but is a hex, an edge or a corner ("-3,1", "-1,2:0,2"),
# which argparse would otherwise take for an option.
_NEGATIVE_COORDINATES = re.compile(r"^-\d+ *, *-?\d+( *: *-?\d+ *, *-?\d+){0,2}$")


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2,
    and whose single-value options refuse to be given twice."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every plain "store" option refuses a second occurrence (groups share this).
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)


class StoreOnce(argparse.Action):
    """Store an option's value, refusing a second occurrence (nothing silently overridden)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        given: set[str] = namespace.__dict__.setdefault("_given_once", set())
        if self.dest in given:
            parser.error(f"argument {option_string}: given twice")
        given.add(self.dest)
        setattr(namespace, self.dest, values)


def attach_negative_coordinates(argv: Sequence[str]) -> list[str]:
    """Rewrite ``--opt -3,1`` as ``--opt=-3,1`` so that argparse reads the coordinate.

    >>> attach_negative_coordinates(["rally", "--start", "-3,1", "--road", "-1,2:0,2"])
    ['rally', '--start=-3,1', '--road=-1,2:0,2']
    """
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if (
            token.startswith("--")
            and "=" not in token
            and i + 1 < len(argv)
            and _NEGATIVE_COORDINATES.match(argv[i + 1])
        ):
            out.append(f"{token}={argv[i + 1]}")
            i += 2
        else:
            out.append(token)
            i += 1
    return out


class CommandModule(Protocol):
    ORDER: int

    def register(self, subparsers: argparse._SubParsersAction[OneLineParser]) -> None: ...

    def demo(self, out_dir: Path, echo: Callable[[str], None]) -> None: ...


def command_modules() -> list[CommandModule]:
    """The capability modules in ``isles.commands``, in demo order."""
    mods: list[ModuleType] = [
        importlib.import_module(f"isles.commands.{info.name}")
        for info in pkgutil.iter_modules(isles.commands.__path__)
        if not info.name.startswith("_")
    ]
    return sorted((cast(CommandModule, m) for m in mods), key=lambda m: m.ORDER)


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (the ``--json`` output of every command)."""
    print(json.dumps(obj))


def _demo(args: argparse.Namespace) -> int:
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for mod in command_modules():
        mod.demo(out_dir, print)
        print()
    print(f"Pictures written to {out_dir.resolve()}")
    return 0


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="isles",
        description="Exact solvers for four island board games (see README.md).",
    )
    parser.add_argument("--version", action="version", version=f"isles {isles.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="run every capability on its embedded defaults")
    demo.add_argument(
        "--out", default="isles-demo", help="folder for the pictures (default: %(default)s)"
    )
    demo.set_defaults(func=_demo)
    for mod in command_modules():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docstring)."""
    parser = build_parser()
    args = parser.parse_args(attach_negative_coordinates(sys.argv[1:] if argv is None else argv))
    func = cast(Callable[[argparse.Namespace], int], args.func)
    try:
        return func(args)
    except IslesError as exc:
        print(f"isles {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of the user's input.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        # Output files we could not write (bad --png path, full disk): the user's input.
        print(
            f"isles {args.command}: error: {exc.filename or ''}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
