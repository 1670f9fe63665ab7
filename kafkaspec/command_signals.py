"""The ``kafkaspec`` command's interrupts from its first moment: a SIGINT or SIGTERM is one line on
stderr and exit 130, even while Python still imports the package (about half a second), before
:func:`kafkaspec.cli.main` runs.

The package's first lines call :func:`install` when the process is the command (the console script
pip writes, or ``python -m kafkaspec``); a program that imports ``kafkaspec`` keeps its own handlers.
Until the command runs, the handler writes the line and leaves at once (there is nothing to clean up
yet); :func:`as_keyboard_interrupt` then makes both signals the ``KeyboardInterrupt`` the CLI turns into
the same line, so that a command's own cleanup runs. Only ``os``, ``signal`` and ``sys``: this runs before
anything else is imported.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_SCRIPT_NAMES = frozenset({"kafkaspec", "kafkaspec.exe", "kafkaspec-script.py"})

_line = b"kafkaspec: interrupted\n"


def is_the_command() -> bool:
    """Whether this process is the ``kafkaspec`` command: its main script is the console script, or it
    was started as ``python -m kafkaspec`` (the package is imported before ``__main__`` names it)."""
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None) or ""
    if os.path.basename(script) in _SCRIPT_NAMES:
        return True
    argv = getattr(sys, "orig_argv", [])
    return any(a == "-m" and b in ("kafkaspec", "kafkaspec.cli") for a, b in zip(argv, argv[1:]))


def drop_working_dir() -> None:
    """Take the working directory off the import path of ``python -m kafkaspec``: Python puts it first,
    so a ``lz4.py`` in the folder the command is run in (a data dir someone sent) would be imported, and
    run, in place of the package the command imports next. The package itself is found already; a
    program that imports ``kafkaspec`` keeps its path, as does ``python -P`` (which never adds it)."""
    argv = getattr(sys, "orig_argv", [])
    try:
        here = os.getcwd()
    except OSError:
        return
    _drop_empty_pythonpath_entries(here)
    if sys.flags.safe_path or not any(a == "-m" for a in argv) or not sys.path:
        return
    if sys.path[0] in ("", here) or os.path.realpath(sys.path[0]) == os.path.realpath(here):
        del sys.path[0]


def without_empty_entries(pythonpath: str | None) -> str | None:
    """``PYTHONPATH`` without the empty entries Python reads as the working directory (for the processes
    a command starts: Spark's JVM hands its PYTHONPATH on to the Python workers)."""
    if pythonpath is None:
        return None
    return os.pathsep.join(e for e in pythonpath.split(os.pathsep) if e)


def _drop_empty_pythonpath_entries(here: str) -> None:
    """An empty entry of ``PYTHONPATH`` (``PYTHONPATH=/x:$PYTHONPATH`` with it unset) is the working
    directory to Python, with ``-P`` too: taken off as well, unless another entry names that folder."""
    value = os.environ.get("PYTHONPATH")
    if sys.flags.ignore_environment or not value or "" not in value.split(os.pathsep):
        return
    real = os.path.realpath(here)
    if any(e and os.path.realpath(e) == real for e in value.split(os.pathsep)):
        return
    sys.path[:] = [p for p in sys.path if p not in ("", here) and os.path.realpath(p) != real]


def _early(signum: int, frame: FrameType | None) -> None:
    """Nothing has run yet: say so and leave (no ``KeyboardInterrupt`` for an import to show)."""
    os.write(2, _line)
    os._exit(130)


def install() -> None:
    """Set the early handler on both signals, naming the subcommand given (when it is one) as the CLI does."""
    global _line
    if len(sys.argv) > 1 and sys.argv[1].isidentifier():
        folder = os.path.join(os.path.dirname(__file__), "commands")
        try:
            if f"{sys.argv[1]}.py" in os.listdir(folder):
                _line = f"kafkaspec {sys.argv[1]}: interrupted\n".encode()
        except OSError:
            pass
    for s in _SIGNALS:
        try:
            if signal.getsignal(s) is not signal.SIG_IGN:  # ignored by the parent (`nohup`, `cmd &`): kept so
                signal.signal(s, _early)
        except (ValueError, OSError):  # not the main thread, or a platform without the signal
            return


def _raise(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def as_keyboard_interrupt() -> Iterator[None]:
    """While the command runs, both signals raise ``KeyboardInterrupt``; before and after, the early
    handler. Only in the command's process (where :func:`install` ran): a caller of ``main`` in its own
    process (a test) keeps its handlers."""
    taken = [s for s in _SIGNALS if signal.getsignal(s) is _early]
    for s in taken:
        signal.signal(s, signal.default_int_handler if s == signal.SIGINT else _raise)
    try:
        yield
    finally:
        for s in taken:
            signal.signal(s, _early)
