"""The ``kafkaspec`` command line.

Subcommands live in :mod:`kafkaspec.commands`, one module each, and are found
automatically: a module there defines ``register(subparsers)`` which adds its
parser and sets ``func`` (returning the exit code).

Exit codes: 0 success, 1 problems found (corruption, breaking change), 2 usage
or input error, or a resource that ran out (memory: "out of memory", never a data
problem). Every failure is one line on stderr, never a traceback; set
``KAFKASPEC_DEBUG=1`` to get the traceback of an unexpected error.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import gc
import importlib
import importlib.metadata
import os
import pkgutil
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import NoReturn

from . import commands
from .codec.extras import MissingExtraError
from .command_signals import as_keyboard_interrupt
from .errors import DestinationError, KafkaFormatError, NoticeWarning, OutOfMemoryError, UsageError
from .printable import escape

EPILOG = """examples:
  kafkaspec synth logs/ --size-mb 50 --seed 7
  kafkaspec dump logs/orders-0/00000000000000000000.log --print-data
  kafkaspec verify logs/
  kafkaspec explain logs/orders-0/00000000000000000000.log --count 1
  kafkaspec rewrite logs/ redacted/ --drop-key customer-42
  kafkaspec pipeline logs/ out/
  kafkaspec generate

exit codes: 0 ok, 1 problems found, 2 usage or input error, or out of memory (one
line on stderr; KAFKASPEC_DEBUG=1 shows the traceback of an unexpected error)
"""


def _redact(text: str) -> str:
    """``text`` with the credentials a URI in it may hold hidden (``logdir.storage.redact``, imported only
    when an error is shown)."""
    from .logdir.store.storage import redact

    return redact(text)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors (which quote the arguments) show no credentials and offer
    the closest name to a misspelt subcommand or choice."""

    def error(self, message: str) -> NoReturn:
        choice = _INVALID_CHOICE.search(message)
        if choice is not None:
            given, names = choice.group(1), [n.strip().strip("'") for n in choice.group(2).split(",")]
            message += _did_you_mean(given, names)
        self.print_usage(sys.stderr)
        self.exit(2, _redact(f"{self.prog}: error: {message}\n"))

    def parse_args(self, args: Sequence[str] | None = None, namespace: None = None) -> argparse.Namespace:  # type: ignore[override]
        """As argparse's, but an option no parser knows is refused by the subcommand it was given to, with
        that subcommand's usage and the closest option it has (argparse's own refusal shows the top-level
        usage)."""
        parsed, unknown = self.parse_known_args(args)
        if unknown:
            parser = _innermost(self, parsed)
            first = unknown[0].split("=", 1)[0]
            hint = _did_you_mean(first, list(parser._option_string_actions)) if first.startswith("-") else ""
            parser.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")
        return parsed


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def _did_you_mean(given: str, names: list[str]) -> str:
    """`` (did you mean X?)`` with the name closest to ``given``, or nothing when none is close."""
    close = difflib.get_close_matches(given, names, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _innermost(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)subcommand ``parsed`` was read by: the one whose usage fits a mistake."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(parsed, subs[0].dest, None) if subs and subs[0].dest != argparse.SUPPRESS else None
        if name is None or name not in subs[0].choices:
            return parser
        parser = subs[0].choices[name]


def _add_versions(parser: argparse.ArgumentParser, prog: str) -> None:
    """``--version`` on every subcommand (and theirs) that has none of its own."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                if "--version" not in child._option_string_actions:
                    child.add_argument("--version", action="version", version=f"{prog} {name} {version()}")
                _add_versions(child, f"{prog} {name}")


def version() -> str:
    """The installed distribution's version (pyproject's), or "unknown" when run from a checkout that
    was never installed."""
    try:
        return importlib.metadata.version("kafkaspec")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kafkaspec",
        description="Kafka record formats: dump, verify and synthesise log directories; run the pipeline.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kafkaspec {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue  # a helper of the commands, not one
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    _add_versions(parser, "kafkaspec")
    return parser


#: errors that only writing can raise: with no file name, the output (stdout) could not be written
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EPIPE, errno.EDQUOT})


def _debug() -> bool:
    return os.environ.get("KAFKASPEC_DEBUG", "") not in ("", "0")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of unwritable output raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (a test's capture)
        pass


def _describe_os_error(exc: OSError) -> str:
    if exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    if exc.errno in _WRITE_ERRNOS:
        return f"cannot write the output: {exc.strerror}"
    return exc.strerror or str(exc)


def main(argv: list[str] | None = None) -> int:
    """Run the command; return its exit code. Failures are one line on stderr (exit 1 or 2)."""
    if sys.stdout is None:  # started with stdout closed (`kafkaspec ... >&-`)
        print("kafkaspec: standard output is closed", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    name = f"kafkaspec {args.command}"
    with warnings.catch_warnings():
        warnings.simplefilter("always", NoticeWarning)
        warnings.showwarning = _notice(name, warnings.showwarning)
        return _run(name, args)


def _notice(name: str, shown: Callable[..., None]) -> Callable[..., None]:
    """``warnings.showwarning`` for the command: a notice (a directory passed over, say) is one line on stderr
    (``kafkaspec dump: warning: <dir>: skipped: <why>``), once even when two walks meet it (Kafka's layout,
    then tiered storage's); other warnings as Python shows them."""
    said: set[str] = set()

    def show(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
        if issubclass(category, NoticeWarning):
            if str(message) not in said:
                said.add(str(message))
                print(escape(f"{name}: warning: {message}"), file=sys.stderr)
        else:
            shown(message, category, *args, **kwargs)

    return show


def _run(name: str, args: argparse.Namespace) -> int:
    debug = _debug()  # asked now: with no memory left, even reading the environment could fail
    out_of_memory: str | None = None
    try:
        with as_keyboard_interrupt():  # SIGTERM as Ctrl-C: the command's cleanup runs, one line, exit 130
            code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk shows here, not at interpreter exit
        return code
    except MemoryError as exc:  # a resource problem, never a data one; written below, once memory is back
        if debug:
            raise
        # no allocation here: the failed command's frames still hold what it took. Only the message
        # an OutOfMemoryError already made is kept; leaving this block lets those frames go.
        out_of_memory = exc.args[0] if isinstance(exc, OutOfMemoryError) and exc.args else ""
    except KafkaFormatError as exc:
        if _debug():
            raise
        print(escape(_redact(f"{name}: {exc}")), file=sys.stderr)
        return 1
    except BrokenPipeError:  # `kafkaspec dump ... | head`: the reader has gone; not an error
        _silence_stdout()
        return 0
    except OSError as exc:
        if exc.filename is None and exc.errno in _WRITE_ERRNOS:
            _silence_stdout()
        if _debug():
            raise
        print(escape(_redact(f"{name}: {_describe_os_error(exc)}")), file=sys.stderr)
        return 2
    except (UsageError, DestinationError) as exc:  # the message says what to do: no class name, no traceback
        if _debug():
            raise
        print(escape(_redact(f"{name}: {exc}")), file=sys.stderr)
        return 2
    except MissingExtraError as exc:  # an optional package is missing: the message names the extra
        if _debug():
            raise
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        if _debug():
            raise
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the promise: one line, never a traceback
        if _debug():
            raise
        what = str(exc) or type(exc).__name__
        print(
            escape(
                _redact(f"{name}: {what} ({type(exc).__name__}; set KAFKASPEC_DEBUG=1 for the traceback)")
            ),
            file=sys.stderr,
        )
        return 2
    gc.collect()  # what a cycle through the exception's traceback still held
    _flush_stdout()
    print(
        f"{name}: {out_of_memory or 'out of memory (the process may not take the memory it needs)'}",
        file=sys.stderr,
    )
    return 2


def _flush_stdout() -> None:
    """Write what the failed command left in stdout's buffer now that memory is back; if it cannot be
    written, point stdout at /dev/null, so that the interpreter's last flush fails at exit no more."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, MemoryError):
        _silence_stdout()


if __name__ == "__main__":
    sys.exit(main())
