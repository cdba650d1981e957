"""The ``isles`` command line: one subcommand per solver, plus ``isles demo``.

Exit status: 0 answered; 1 answered "no" (no route, infeasible, ...);
2 bad input, reported as one line on stderr; 74 the output could not be written
(a full disk); 130 interrupted (Ctrl-C); 141 the reader of the output went away
(a closed pipe).
The command line only parses, calls the library and formats: ``--json`` prints
the result's ``to_dict()`` (docs/json.md).
"""

from __future__ import annotations

import _thread
import argparse
import difflib
import gettext
import importlib
import io
import json
import os
import pkgutil
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, Protocol, cast

import isles.commands
from isles.models.errors import InvalidInput, IslesError
from isles.models.jsonio import STDIN
from isles.models.text import terminal_safe

__all__ = [
    "FlagOnce",
    "OneLineParser",
    "StoreOnce",
    "build_parser",
    "check_output",
    "emit_json",
    "main",
    "one_stdin",
]


# A value that starts with "-" but is a hex, an edge or a corner ("-3,1", "-1,2:0,2"),
# which argparse would otherwise take for an option.
_NEGATIVE_COORDINATES = re.compile(r"^-\d+ *, *-?\d+( *: *-?\d+ *, *-?\d+){0,2}$")


#: How argparse begins its message for required arguments left out (a command's TASK),
#: translated as argparse translates it.
_REQUIRED = gettext.gettext("the following arguments are required: %s").split("%s")[0]


def _name(action: argparse.Action) -> str:
    """An argument as the user types it: its longest option (``--advise``), or its metavar."""
    if action.option_strings:
        return max(action.option_strings, key=len)
    return str(action.metavar or action.dest).upper()


def _valid(action: argparse.Action) -> str:
    """What an argument takes, for a message: its choices, or its placeholder."""
    if action.choices is not None:
        return "one of " + ", ".join(map(str, action.choices))
    if not action.option_strings:
        return f"a {_name(action)} argument"
    metavar = action.metavar or action.dest.upper()
    return f"{_name(action)} {metavar}"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2,
    and whose single-value options refuse to be given twice.

    Every error of argparse's own (a value left out, an unknown option, a
    choice not in the list, a TASK left out) is said as isles says bad input:
    the argument as typed, the value, what is valid (:class:`InvalidInput`),
    after the command as typed (``isles lighthouse: error: --advise: ...``).

    Examples
    --------
    >>> parser = OneLineParser(prog="isles odds")
    >>> _ = parser.add_argument("--games", metavar="N")
    >>> parser.parse_args(["--games"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # argparse's errors reach parse_known_args, where they are said as isles says them
        kwargs.setdefault("exit_on_error", False)
        super().__init__(*args, **kwargs)
        # Every plain "store" option refuses a second occurrence (groups share this).
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)
        self.register("action", "store_true", FlagOnce)
        # The command as typed ("isles ships check"): the deepest subcommand's wins,
        # and names the errors of the run (one prefix form everywhere).
        self.set_defaults(_prog=self.prog, _parser=self)
        self.modes: tuple[str, ...] = ()
        """Words that, typed as an argument, name a mode of the command (``isles plunder
        tournament``): its errors while parsing name the mode too, as its run's do."""
        self._typed = self.prog

    def refuse(self, exc: InvalidInput | str) -> NoReturn:
        """Print one line on stderr, after the command as typed, and exit with status 2."""
        self.exit(2, f"{self._typed}: error: {terminal_safe(str(exc), lines=False)}\n")

    def error(self, message: str) -> NoReturn:
        """argparse's own messages that reach no hook below (a required TASK left out)."""
        if message.startswith(_REQUIRED):
            missing = message[len(_REQUIRED) :].split(", ")
            for action in self._actions:
                # argparse names a positional by its metavar or dest, an option by its strings
                names = {*action.option_strings, str(action.metavar), action.dest}
                if action.required and names & set(missing):
                    self.refuse(InvalidInput(_name(action), None, _valid(action), "missing"))
        self.refuse(message)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse; argparse's errors said as isles says bad input (this command's prog)."""
        mode = next((a for a in args or () if a in self.modes), None)
        self._typed = self.prog if mode is None else f"{self.prog} {mode}"
        try:
            return super().parse_known_args(args, namespace)
        except InvalidInput as exc:
            self.refuse(exc)
        except argparse.ArgumentError as exc:
            if exc.argument_name is None:  # later Pythons raise what 3.11 gives error()
                self.error(exc.message)
            action = next((a for a in self._actions if exc.argument_name in a.option_strings), None)
            if action is not None and action.nargs == 0:  # --json=1
                self.refuse(
                    InvalidInput(
                        _name(action), None, f"{_name(action)} alone", problem="given a value"
                    )
                )
            name = exc.argument_name or self.prog
            self.refuse(f"{name}: {exc.message}")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """Parse; words left over are refused by the command they were given to."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            owner = getattr(parsed, "_parser", self)
            assert isinstance(owner, OneLineParser)
            owner.refuse(owner.unknown(extras[0]))
        return parsed

    def unknown(self, word: str) -> InvalidInput:
        """A word this command does not take: an unknown option, or one word too many.

        Examples
        --------
        >>> parser = OneLineParser(prog="isles odds")
        >>> _ = parser.add_argument("--games")
        >>> str(parser.unknown("--game=3"))
        '--game: unknown option; expected an option of isles odds --help (--games?)'
        """
        options = [o for a in self._actions for o in a.option_strings]
        if word.startswith("-") and len(word) > 1:
            typed = word.split("=", 1)[0]
            close = difflib.get_close_matches(typed, options, n=1, cutoff=0.75)
            hint = f" ({close[0]}?)" if close else ""
            return InvalidInput(
                typed,
                word,
                f"an option of {self.prog} --help{hint}",
                problem="unknown option",
            )
        return InvalidInput(
            repr(word),
            word,
            f"only the options and arguments of {self.prog} --help",
            problem="one argument too many",
        )

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # a COMMAND or a TASK (the only choices argparse checks: options read their own)
        if action.choices is not None and value not in action.choices:
            raise InvalidInput(_name(action), value, _valid(action))

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as exc:
            cause = exc.__context__
            if isinstance(cause, InvalidInput):  # a type of ours: what it takes
                raise InvalidInput(_name(action), arg_string, cause.expected) from None
            raise InvalidInput(_name(action), arg_string, _valid(action)) from None

    def _match_argument(self, action: argparse.Action, arg_strings_pattern: str) -> int:
        try:
            return super()._match_argument(action, arg_strings_pattern)
        except argparse.ArgumentError:
            raise InvalidInput(
                _name(action), None, _valid(action), problem="no value given"
            ) from None

    def _get_option_tuples(self, option_string: str) -> list[tuple[Any, ...]]:
        found = super()._get_option_tuples(option_string)
        if len(found) > 1:  # an abbreviation of two options
            typed = option_string.split("=", 1)[0]
            matches = ", ".join(str(t[1]) for t in found)
            raise InvalidInput(typed, None, "one of " + matches, problem="ambiguous")
        return found


def _once(
    parser: argparse.ArgumentParser,
    namespace: argparse.Namespace,
    dest: str,
    option_string: str | None,
) -> None:
    """Refuse an option's second occurrence (nothing given is silently overridden)."""
    given: set[str] = namespace.__dict__.setdefault("_given_once", set())
    if dest in given:
        option = str(option_string)
        raise InvalidInput(option, None, f"one {option}", problem="given twice")
    given.add(dest)


class FlagOnce(argparse._StoreTrueAction):
    """A flag (``--json``) that refuses to be given twice, as every other option does."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        _once(parser, namespace, self.dest, option_string)
        super().__call__(parser, namespace, values, option_string)


class StoreOnce(argparse.Action):
    """Store an option's value, refusing a second occurrence (nothing silently overridden)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        _once(parser, namespace, self.dest, option_string)
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


def command_modules(command: str | None = None) -> list[CommandModule]:
    """The capability modules in ``isles.commands``, in demo order.

    With ``command``, only the module named as that command when there is one
    (``isles rally`` loads ``isles.commands.rally`` alone, for a quick start-up);
    otherwise every module (``isles --help``, ``isles demo``).
    """
    names = [
        info.name
        for info in pkgutil.iter_modules(isles.commands.__path__)
        if not info.name.startswith("_")
    ]
    if command in names:
        names = [command]
    mods: list[ModuleType] = [importlib.import_module(f"isles.commands.{n}") for n in names]
    return sorted((cast(CommandModule, m) for m in mods), key=lambda m: m.ORDER)


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (the ``--json`` output of every command).

    Strict JSON: a non-finite float is a bug of the caller (docs/json.md writes
    absent or infinite values as null), so it raises rather than print ``NaN``.
    """
    print(json.dumps(obj, allow_nan=False))


def one_stdin(*files: tuple[str, str | None]) -> None:
    """Refuse standard input (``-``) for two files of one command: it can be read only once.

    Parameters
    ----------
    *files : (str, str or None)
        Each file argument as the user sees it (``"LOG"``, ``"--board"``) with
        its value (None when not given).

    Raises
    ------
    InvalidInput
        Naming the second file that is ``-``.

    Examples
    --------
    >>> one_stdin(("LOG", "-"), ("--board", "board.json"))
    >>> one_stdin(("LOG", "-"), ("--shape", None), ("--board", "-"))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --board: '-' is invalid; expected one file from ... -)
    """
    piped = [name for name, path in files if path == STDIN]
    if len(piped) > 1:
        raise InvalidInput(
            piped[1], STDIN, f"one file from standard input at a time ({piped[0]} is already -)"
        )


def check_output(option: str, path: str | None, suffixes: Sequence[str]) -> Path | None:
    """Check an output file option before any work: its suffix and a writable folder.

    Parameters
    ----------
    option : str
        The option as typed (``"--png"``).
    path : str or None
        The file name given (``None``: the option was not given).
    suffixes : sequence of str
        The accepted suffixes (``(".png", ".svg")``).

    Returns
    -------
    Path or None
        The path, or None when not given.

    Raises
    ------
    InvalidInput
        A wrong suffix, a folder that does not exist or cannot be written, or a
        path that is a folder.

    Examples
    --------
    >>> check_output("--save", "/nonexistent/b.json", (".json",))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --save: '/nonexistent/b.json' is invalid; expected ...
    """
    if path is None:
        return None
    target = Path(path)
    if target.suffix.lower() not in suffixes:
        raise InvalidInput(option, path, "a file name ending in " + " or ".join(suffixes))
    folder = target.parent
    if not folder.is_dir():
        raise InvalidInput(option, path, f"a file in an existing folder ({folder} is not one)")
    if target.is_dir():
        raise InvalidInput(option, path, "a file name, not a folder")
    if path.endswith(("/", os.sep)):
        raise InvalidInput(option, path, "a file name, not a folder (no trailing /)")
    # Try it: permissions, read-only and special file systems (/proc, /sys) only
    # show when a file is opened. A file isles creates here is removed again.
    existed = target.exists()
    try:
        with target.open("ab"):
            pass
    except OSError as exc:
        raise InvalidInput(
            option, path, f"a file isles can write ({exc.strerror or exc})"
        ) from None
    if not existed:
        target.unlink(missing_ok=True)
    return target


def check_folder(option: str, path: str) -> Path:
    """Check an output folder option before any work: a folder that exists or can be made.

    Examples
    --------
    >>> check_folder("--out", "")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --out: '' is invalid; expected a folder name
    """
    if not path.strip() or path == "-":
        raise InvalidInput(option, path, "a folder name")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InvalidInput(option, path, "a folder (a file of that name exists)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(option, path, f"a folder isles can make ({exc.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise InvalidInput(option, path, "a folder isles can write in (permission denied)")
    return folder


def _demo(args: argparse.Namespace) -> int:
    out_dir = check_folder("--out", args.out)
    for mod in command_modules():
        mod.demo(out_dir, print)
        print()
    print(f"Pictures written to {out_dir.resolve()}")
    return 0


def build_parser(command: str | None = None) -> OneLineParser:
    """The command line's parser: every command, or (``command``) the one to run."""
    parser = OneLineParser(
        prog="isles",
        description="Exact solvers for four island board games: the Catan car rally, "
        "Plunder, the Catan ships scenario and Lighthouses. `isles docs` prints the rule "
        "decisions and formats; `isles COMMAND --help` the options of each command.",
    )
    parser.add_argument("--version", action="version", version=f"isles {isles.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="run every capability on its embedded defaults",
        description="Run every capability on its embedded defaults: tables on the terminal, "
        "pictures in the --out folder.",
    )
    demo.add_argument(
        "--out", default="isles-demo", help="folder for the pictures (default: %(default)s)"
    )
    demo.set_defaults(func=_demo)
    for mod in command_modules(command):
        mod.register(sub)
    return parser


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
#: Exit status when the reader of the output went away (128 + SIGPIPE).
EXIT_CLOSED_PIPE = 141
#: Exit status when the output cannot be written (a full disk): sysexits' EX_IOERR.
EXIT_OUTPUT_ERROR = 74


class _TerminalSafe(io.TextIOBase):
    """Standard output that writes every name and message through :func:`terminal_safe`
    (a control character or a right-to-left override from a file shows as its escape)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def fileno(self) -> int:
        return int(self._stream.fileno())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self._stream, "encoding", "utf-8"))


class _Interrupted:
    """Ctrl-C, remembered: an interrupt that lands inside an import can surface as
    another exception (NumPy's ImportError), which must still read as an interrupt.

    Python runs the handler wherever the main thread is; when that is a finaliser
    (Z3's ``AstRef.__del__`` converting its ctypes arguments) the KeyboardInterrupt
    is "ignored": printed as a traceback while the work goes on to print its answer.
    :meth:`unraisable` (installed as ``sys.unraisablehook``) keeps that traceback
    off the terminal and has a watchdog thread interrupt the main thread again a
    moment later, where the raise reaches the command line. After an interrupt it
    also keeps quiet the finalisers of objects the interrupt left half built.
    """

    def __init__(self) -> None:
        self.seen = False
        self.again = threading.Event()
        self.previous_hook = sys.unraisablehook

    def __call__(self, signum: int, frame: object) -> None:
        if not self.seen:
            self.seen = True
            threading.Thread(target=self._watch, daemon=True).start()
        raise KeyboardInterrupt

    def _watch(self) -> None:
        while True:
            self.again.wait()
            self.again.clear()
            time.sleep(0.01)  # out of the finaliser that swallowed the last one
            _thread.interrupt_main()

    def unraisable(self, unraisable: Any) -> None:
        exc = unraisable.exc_value
        swallowed = isinstance(exc, KeyboardInterrupt) or (
            isinstance(exc, Exception) and "KeyboardInterrupt" in str(exc)
        )
        if self.seen and swallowed:
            self.again.set()
        elif not self.seen:
            self.previous_hook(unraisable)
        # else: a finaliser of an object the interrupt left half built (Z3's
        # AstRef without its context), while isles stops: not the user's concern.


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docstring)."""
    interrupted = _Interrupted()
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, interrupted)
        sys.unraisablehook = interrupted.unraisable
    try:
        if sys.stdout is None or sys.stdout.closed:
            print("isles: error: standard output is closed", file=sys.stderr)
            return EXIT_OUTPUT_ERROR
        real_stdout = sys.stdout
        sys.stdout = cast(Any, _TerminalSafe(real_stdout))
        try:
            status = _main(sys.argv[1:] if argv is None else list(argv))
        finally:
            sys.stdout = real_stdout
        if interrupted.seen:
            # Ctrl-C raised inside a C callback (numba loading compiled code) is swallowed
            # there and the work goes on; it is still an interrupt.
            print("isles: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        return status
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
    except BaseException:
        if not interrupted.seen:
            raise
        print("isles: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
            if not interrupted.seen:  # else kept for the finalisers run at exit
                sys.unraisablehook = interrupted.previous_hook


def _main(argv: list[str]) -> int:
    if argv == ["--version"]:  # before any command module is loaded
        print(f"isles {isles.__version__}")
        return 0
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(attach_negative_coordinates(argv))
    if args.command is None:
        commands = next(a for a in parser._actions if a.dest == "command")
        parser.refuse(InvalidInput("COMMAND", None, _valid(commands), problem="missing"))
    func = cast(Callable[[argparse.Namespace], int], args.func)
    try:
        return func(args)
    except IslesError as exc:
        question = getattr(args, "_question", None)
        if isinstance(exc, InvalidInput) and question is not None:
            # The library's own checks name the question's fields: spelt as options here.
            exc = question.respell(exc, "option", getattr(args, "_typed", None))
        print(f"{args._prog}: error: {terminal_safe(str(exc), lines=False)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # handled in main(): not a file the user named
    except OSError as exc:
        # Output paths are checked before any work, so this is the machine (a full
        # disk, a file removed meanwhile), not the user's input.
        where = exc.filename or "the output"
        print(
            terminal_safe(
                f"{args._prog}: error: writing {where}: {exc.strerror or exc}", lines=False
            ),
            file=sys.stderr,
        )
        return EXIT_OUTPUT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
