"""The ``kafkaspec`` command line.

Subcommands live in :mod:`kafkaspec.commands`, one module each, and are found
automatically: a module there defines ``register(subparsers)`` which adds its
parser and sets ``func`` (returning the exit code).

Exit codes: 0 success, 1 problems found (corruption, breaking change), 2 usage
or input error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from . import commands
from .errors import KafkaFormatError

EPILOG = """examples:
  kafkaspec synth logs/ --size-mb 50 --seed 7
  kafkaspec dump logs/orders-0/00000000000000000000.log --print-data
  kafkaspec verify logs/
  kafkaspec pipeline logs/ out/
  kafkaspec generate

exit codes: 0 ok, 1 problems found, 2 usage or input error
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kafkaspec",
        description="Kafka record formats: dump, verify and synthesise log directories; run the pipeline.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KafkaFormatError as exc:
        print(f"kafkaspec {args.command}: {exc}", file=sys.stderr)
        return 1
    except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        print(f"kafkaspec {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
