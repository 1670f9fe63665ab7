"""``kafkaspec generate``: run the code generator (same as ``make generate``)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "generate",
        help="regenerate codecs from the YAML schemas",
        description="Regenerate generated/ (and docs/formats/) from schemas/. Run from the repository root.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  kafkaspec generate --check   # exit 1 if generated/ is out of date",
    )
    p.add_argument("--schemas", help="schema folder (default: schemas/ of the repository)")
    p.add_argument("--out", help="output folder (default: generated/ of the repository)")
    p.add_argument("--check", action="store_true", help="exit 1 if anything would change; write nothing")
    p.set_defaults(func=run)


def run(args) -> int:
    from kafkaspec.codegen import main as codegen_main  # the generator (Jinja2) loads only here

    argv = []
    if args.schemas:
        argv += ["--schemas", args.schemas]
    if args.out:
        argv += ["--out", args.out]
    if args.check:
        argv.append("--check")
    return codegen_main(argv)
